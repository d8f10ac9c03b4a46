#include "validate/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "validate/model_counters.hpp"
#include "warpscope/error.hpp"
#include "warpscope/metric_names.hpp"

namespace warpscope::validate {
namespace {

constexpr double kEps = 1e-9;

const SummedCounter* summed_part_of(const NcuLaunch& launch, std::string_view column) {
  for (const auto& s : summed_counters())
    if ((s.model_name == column || std::find(s.parts.begin(), s.parts.end(), column) != s.parts.end()) &&
        std::all_of(s.parts.begin(), s.parts.end(), [&](std::string_view p) { return launch.number(p).has_value(); }))
      return &s;
  return nullptr;
}

double rate(double num, double den) { return den == 0 ? 0.0 : 100.0 * num / den; }

}  // namespace

bool passes(const Check& check, CounterComparison& row) {
  const double diff = std::abs(row.model - row.hardware);
  switch (check.kind) {
    case CheckKind::Exact:
      row.unit = ErrorUnit::Count;
      row.error = diff;
      return diff < kEps;
    case CheckKind::Relative:
      row.unit = ErrorUnit::Percent;
      row.error = row.hardware == 0 ? (diff < kEps ? 0.0 : 100.0) : 100.0 * diff / std::abs(row.hardware);
      row.limit = check.limit;
      row.slack = check.slack;
      return row.error <= check.limit + kEps || diff <= check.slack + kEps;
    case CheckKind::Rate:
      row.unit = ErrorUnit::Points;
      row.error = std::abs(row.model_rate.value_or(0) - row.hardware_rate.value_or(0));
      row.limit = check.limit;
      return row.error <= check.limit + kEps;
  }
  return false;
}

std::vector<CounterComparison> compare_launch(const NcuLaunch& launch, const Counters& model, const Tolerances& tol,
                                              const LaunchContext& context) {
  std::vector<CounterComparison> out;
  for (const MetricName& m : metric_table()) {
    if (m.ncu.empty()) continue;
    CounterComparison row;
    if (const SummedCounter* s = summed_part_of(launch, m.ncu)) {
      if (s->model_name != m.ncu) continue;
      row.counter = s->name;
      for (std::string_view p : s->parts) row.hardware += *launch.number(p);
    } else {
      const auto hw = launch.number(m.ncu);
      if (!hw) continue;
      row.counter = m.ncu;
      row.hardware = *hw;
    }
    row.model = model_value(row.counter, model);
    if (context.seen_counters) context.seen_counters->insert(row.counter);
    const Rule rule = tol.lookup(context.app, context.kernel, row.counter);
    if (rule.kernel_rule && context.used_rules) context.used_rules->insert(rule.kernel_rule);
    row.known = rule.known;
    std::optional<Check> check = rule.check;
    if (!check && !rule.known.empty()) check = Check{};  // a known mismatch of an unchecked counter: exact
    if (!check) {
      row.error = std::abs(row.model - row.hardware);
      row.verdict = Verdict::Unchecked;
      out.push_back(std::move(row));
      continue;
    }
    if (check->kind == CheckKind::Rate) {
      const auto den = launch.number(check->rate_of);
      if (!den)
        throw InputError(fmt::format("{}:{}: no number in column \"{}\", which {} line {} divides \"{}\" by", *context.csv_file,
                                     launch.line, check->rate_of, tol.file, check->line, row.counter));
      row.hardware_rate = rate(row.hardware, *den);
      row.model_rate = rate(row.model, model_value(check->rate_of, model));
    }
    const bool ok = passes(*check, row);
    if (!rule.known.empty()) row.verdict = ok ? Verdict::KnownPasses : Verdict::Known;
    else if (ok) row.verdict = check->kind == CheckKind::Exact ? Verdict::Exact : Verdict::Within;
    else row.verdict = Verdict::Fail;
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace warpscope::validate
