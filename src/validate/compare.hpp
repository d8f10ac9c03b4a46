// One kernel launch: each counter of the ncu row that the model has, against
// the model's counters, judged by the tolerances.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "validate/ncu_csv.hpp"
#include "validate/tolerances.hpp"
#include "warpscope/counters.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::validate {

struct LaunchContext {
  std::string_view app, kernel;  // kernel: base name
  const std::string* csv_file = nullptr;
  std::set<const KernelRule*>* used_rules = nullptr;  // kernel rules that applied
  std::set<std::string>* seen_counters = nullptr;     // counters found in a CSV
};

// Counters in metric-table order. InputError naming the CSV line when a rate
// check's rate_of column is missing.
std::vector<CounterComparison> compare_launch(const NcuLaunch& launch, const Counters& model, const Tolerances& tol,
                                              const LaunchContext& context);

// Applies one check to hardware and model values (the rates already filled in
// `row` for rate checks).
bool passes(const Check& check, CounterComparison& row);

}  // namespace warpscope::validate
