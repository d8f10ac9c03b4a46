#include "validate/model_counters.hpp"

#include <fmt/format.h>

#include "warpscope/metric_names.hpp"

namespace warpscope::validate {
namespace {

// Exact ncu names only: find_metric() also accepts ".avg"/".max" columns, which
// are per-unit statistics, not the totals the model counts.
const MetricName* exact_metric(std::string_view name) {
  const MetricName* m = find_metric(name);
  return m && !m->ncu.empty() && m->ncu == name ? m : nullptr;
}

}  // namespace

const std::vector<SummedCounter>& summed_counters() {
  // The model counts reductions (RED) with atomics (Counters::global_atom): where
  // the CSV has both, "..._op_atom+red..." is compared with the model's atom row
  // (the first sum whose columns the CSV has, for the row named model_name).
  static const std::vector<SummedCounter> sums = [] {
    static const std::vector<std::string> names = [] {
      std::vector<std::string> n;
      for (const char* stem : {"smsp__inst_executed_op_global_{}.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_{}.sum",
                               "l1tex__t_set_accesses_pipe_lsu_mem_global_op_{}.sum",
                               "l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum",
                               "l1tex__t_sectors_pipe_lsu_mem_global_op_{}_lookup_hit.sum",
                               "l1tex__t_sectors_pipe_lsu_mem_global_op_{}_lookup_miss.sum"})
        for (const char* op : {"atom+red", "atom", "red"}) n.push_back(fmt::format(fmt::runtime(stem), op));
      return n;
    }();
    std::vector<SummedCounter> s;
    for (std::size_t i = 0; i < names.size(); i += 3) s.push_back({names[i], {names[i + 1], names[i + 2]}, names[i + 1]});
    // ncu 2025.3 on the H100 has no smsp__inst_executed_op_global_atom, only the SASS-patched
    // counts of both (validation/suite_metrics.txt): the instructions are compared through those.
    s.push_back({"smsp__sass_inst_executed_op_global_atom+red.sum",
                 {"smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_red.sum"},
                 "smsp__inst_executed_op_global_atom.sum"});
    return s;
  }();
  return sums;
}

bool is_model_counter(std::string_view name) {
  if (exact_metric(name)) return true;
  for (const auto& s : summed_counters())
    if (s.name == name) return true;
  return false;
}

double model_value(std::string_view name, const Counters& counters) {
  for (const auto& s : summed_counters())
    if (s.name == name) name = s.model_name;
  const MetricName* m = exact_metric(name);
  return m ? m->value(counters) : 0.0;
}

}  // namespace warpscope::validate
