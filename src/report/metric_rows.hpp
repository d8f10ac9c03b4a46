// A kernel's metrics on several architectures side by side, as rows: the
// analyze text table and the HTML report print the same rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/counters.hpp"
#include "warpscope/metric_names.hpp"

namespace warpscope::report {

struct MetricRow {
  std::string our_key;             // "global_ld.sectors"
  bool depends_on_caches = false;  // "caches" rather than "rules"
  std::string profiler_names;      // the names the architectures' profilers use, " | " between different ones
  std::vector<std::optional<Metric>> values;  // per architecture; empty where it has no such metric
};

// The rows of metric_table() that some architecture has, in table order; rows
// that are zero everywhere only with `all`.
std::vector<MetricRow> metric_rows(const std::vector<const ArchSpec*>& archs,
                                   const std::vector<const Counters*>& counters, bool all);

// "87.5%" for percentages, whole numbers as such, others with three decimals.
std::string format_metric_value(double value, const std::string& unit);

}  // namespace warpscope::report
