#include <fmt/format.h>

#include "validate/format.hpp"
#include "warpscope/validate.hpp"

namespace warpscope {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::Exact: return "exact";
    case Verdict::Within: return "ok";
    case Verdict::Fail: return "FAIL";
    case Verdict::Known: return "KNOWN";
    case Verdict::KnownPasses: return "KNOWN, passes";
    case Verdict::Unchecked: return "-";
  }
  return "?";
}

ValidationSummary summarize(const ValidationReport& report) {
  ValidationSummary s;
  s.kernels = report.kernels.size();
  std::string last_app;
  for (const auto& k : report.kernels) {
    if (k.app != last_app) ++s.apps;
    last_app = k.app;
    bool toleranced = false, all_within = true;
    for (const auto& c : k.counters) {
      const bool target = c.unit == ErrorUnit::Points || c.counter.rfind("dram__bytes", 0) == 0;
      if (c.verdict != Verdict::Unchecked && target) {
        toleranced = true;
        all_within = all_within && (c.verdict == Verdict::Within || c.verdict == Verdict::KnownPasses);
      }
      const bool known = c.verdict == Verdict::Known || c.verdict == Verdict::KnownPasses;
      s.known += known;
      s.known_passing += c.verdict == Verdict::KnownPasses;
      s.unchecked += c.verdict == Verdict::Unchecked;
      if (c.verdict == Verdict::Unchecked) continue;
      const std::string where = k.label + " " + c.counter;
      if (c.unit == ErrorUnit::Count) {
        if (!known) {
          ++s.exact;
          s.exact_matched += c.verdict == Verdict::Exact;
        }
      } else {
        if (!known) {
          ++s.toleranced;
          s.within += c.verdict == Verdict::Within;
        }
        const bool points = c.unit == ErrorUnit::Points;
        if (!points && c.error > c.limit && c.verdict != Verdict::Fail && c.verdict != Verdict::Known) {
          ++s.slack_passed;
          continue;
        }
        (points ? s.points_count : s.percent_count)++;
        (points ? s.points_mean : s.percent_mean) += c.error;
        double& worst = points ? s.points_worst : s.percent_worst;
        if (c.error > worst || (points ? s.points_worst_at : s.percent_worst_at).empty()) {
          worst = c.error;
          (points ? s.points_worst_at : s.percent_worst_at) = where;
        }
      }
      if (c.verdict == Verdict::Fail)
        s.failures.push_back(fmt::format("{}: hardware {}, model {}, {} (tolerance {})", where,
                                         validate::value_cell(c, true), validate::value_cell(c, false),
                                         validate::difference_cell(c), validate::tolerance_cell(c)));
    }
    s.kernels_toleranced += toleranced;
    s.kernels_within += toleranced && all_within;
  }
  if (s.points_count) s.points_mean /= static_cast<double>(s.points_count);
  if (s.percent_count) s.percent_mean /= static_cast<double>(s.percent_count);
  return s;
}

}  // namespace warpscope
