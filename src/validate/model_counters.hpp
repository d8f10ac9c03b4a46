// The hardware counters `warpscope validate` can compare, and the model's value
// of each: every Nsight Compute name of the metric table (metric_names.hpp),
// plus sums of ncu columns that the model counts as one counter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "warpscope/counters.hpp"

namespace warpscope::validate {

// A counter the model reports under several ncu names: compared as the sum of
// those columns when the CSV has all of them (the parts are then not compared alone).
struct SummedCounter {
  std::string_view name;                // how reports and tolerances.toml call it
  std::vector<std::string_view> parts;  // ncu columns added up
  std::string_view model_name;          // the metric-table name of the model's counter
};
const std::vector<SummedCounter>& summed_counters();

// True when `name` is an ncu name of the metric table (with its rollup suffix,
// e.g. ".sum") or a summed counter.
bool is_model_counter(std::string_view name);
// The model's value of a counter is_model_counter() accepts.
double model_value(std::string_view name, const Counters& counters);

}  // namespace warpscope::validate
