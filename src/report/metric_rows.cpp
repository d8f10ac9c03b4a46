#include "report/metric_rows.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/counts_report.hpp"

namespace warpscope::report {

std::string format_metric_value(double v, const std::string& unit) {
  if (unit == "%") return percent(v / 100.0);
  if (v == static_cast<double>(static_cast<std::uint64_t>(v)) && v < 1e15)
    return fmt::format("{}", static_cast<std::uint64_t>(v));
  return fmt::format("{:.3f}", v);
}

std::vector<MetricRow> metric_rows(const std::vector<const ArchSpec*>& archs,
                                   const std::vector<const Counters*>& counters, bool all) {
  std::vector<std::vector<Metric>> per_arch;
  for (std::size_t i = 0; i < archs.size(); ++i) per_arch.push_back(metrics(*counters[i], *archs[i]));
  std::vector<MetricRow> rows;
  for (const auto& row : metric_table()) {
    MetricRow out;
    out.our_key = std::string(row.our_key);
    out.depends_on_caches = row.depends_on_caches;
    bool present = false, nonzero = false;
    std::vector<std::string> names;
    for (const auto& m : per_arch) {
      auto it = std::find_if(m.begin(), m.end(), [&](const Metric& x) { return x.our_key == row.our_key; });
      if (it == m.end()) {
        out.values.emplace_back();
        continue;
      }
      present = true;
      nonzero |= it->value != 0;
      out.values.emplace_back(*it);
      if (it->name != row.our_key && std::find(names.begin(), names.end(), it->name) == names.end())
        names.push_back(it->name);
    }
    for (const auto& n : names) out.profiler_names += (out.profiler_names.empty() ? "" : " | ") + n;
    if (present && (nonzero || all)) rows.push_back(std::move(out));
  }
  return rows;
}

}  // namespace warpscope::report
