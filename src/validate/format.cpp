#include "validate/format.hpp"

#include <fmt/format.h>

#include <cmath>

namespace warpscope::validate {

std::string number_cell(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.2f}", v);
}

std::string value_cell(const CounterComparison& c, bool hardware) {
  const double v = hardware ? c.hardware : c.model;
  const auto& r = hardware ? c.hardware_rate : c.model_rate;
  return r ? fmt::format("{} ({:.2f}%)", number_cell(v), *r) : number_cell(v);
}

std::string difference_cell(const CounterComparison& c) {
  const double d = c.model - c.hardware;
  const std::string sign = d > 0 ? "+" : d < 0 ? "-" : "";
  switch (c.unit) {
    case ErrorUnit::Count: return sign + number_cell(std::abs(d));
    case ErrorUnit::Percent:
      if (d == 0) return "0";
      return fmt::format("{}{:.2f}% ({}{})", sign, c.error, sign, number_cell(std::abs(d)));
    case ErrorUnit::Points: {
      const double p = c.model_rate.value_or(0) - c.hardware_rate.value_or(0);
      return fmt::format("{}{:.2f} pt", p > 0 ? "+" : p < 0 ? "-" : "", std::abs(p));
    }
  }
  return "";
}

std::string tolerance_cell(const CounterComparison& c) {
  if (c.verdict == Verdict::Unchecked) return "-";
  switch (c.unit) {
    case ErrorUnit::Count: return "exact";
    case ErrorUnit::Percent:
      return c.slack > 0 ? fmt::format("{}% or {}", number_cell(c.limit), number_cell(c.slack))
                         : fmt::format("{}%", number_cell(c.limit));
    case ErrorUnit::Points: return fmt::format("{} pt", number_cell(c.limit));
  }
  return "";
}

std::vector<std::string> kernel_summary_header() {
  return {"kernel", "exact", "within tolerance", "known", "worst rate error", "worst relative error", "verdict"};
}

std::vector<std::string> kernel_summary_row(const KernelValidation& k) {
  ValidationReport one;
  one.kernels.push_back(k);
  const ValidationSummary s = summarize(one);
  const auto worst = [](std::size_t n, double v, const char* unit) {
    return n ? fmt::format("{:.2f}{}", v, unit) : std::string("-");
  };
  return {k.label,
          fmt::format("{}/{}", s.exact_matched, s.exact),
          fmt::format("{}/{}", s.within, s.toleranced),
          fmt::format("{}", s.known),
          worst(s.points_count, s.points_worst, " pt"),
          worst(s.percent_count, s.percent_worst, "%"),
          s.passed() ? "pass" : "FAIL"};
}

std::vector<std::string> counter_row(const KernelValidation& k, const CounterComparison& c) {
  std::string verdict(to_string(c.verdict));
  if (!c.known.empty()) verdict += ": " + c.known;
  return {k.label, c.counter, value_cell(c, true), value_cell(c, false), difference_cell(c), tolerance_cell(c), verdict};
}

const std::vector<std::string>& counter_header() {
  static const std::vector<std::string> h = {"kernel", "counter", "hardware", "model", "difference", "tolerance",
                                             "verdict"};
  return h;
}

std::string environment_line(const ValidationReport& r) {
  std::string out;
  for (const auto& [k, v] : r.environment) out += (out.empty() ? "" : ", ") + k + " " + v;
  return out;
}

std::vector<std::string> summary_lines(const ValidationReport& report, const ValidationSummary& s) {
  std::vector<std::string> out;
  out.push_back(fmt::format("{} kernel launches in {} application{}, model {} ({}, {})", s.kernels, s.apps,
                            s.apps == 1 ? "" : "s", report.gpu_model, report.gpu_name, report.arch));
  out.push_back(fmt::format("exact counters: {} of {} match", s.exact_matched, s.exact));
  out.push_back(fmt::format("toleranced counters: {} of {} within tolerance", s.within, s.toleranced));
  if (s.points_count)
    out.push_back(fmt::format("  rates (hit/miss rates), {} counters: mean error {:.2f} pt, worst {:.2f} pt ({})",
                              s.points_count, s.points_mean, s.points_worst, s.points_worst_at));
  if (s.percent_count)
    out.push_back(fmt::format("  relative (bytes, sectors, requests), {} counters: mean error {:.2f}%, worst {:.2f}% ({})",
                              s.percent_count, s.percent_mean, s.percent_worst, s.percent_worst_at));
  if (s.slack_passed)
    out.push_back(fmt::format("  {} more within their absolute slack (left out of the relative errors)", s.slack_passed));
  if (s.kernels_toleranced)
    out.push_back(fmt::format("launches with every hit rate and DRAM byte count within tolerance (known mismatches "
                              "count as outside): {} of {}",
                              s.kernels_within, s.kernels_toleranced));
  if (s.known)
    out.push_back(fmt::format("known mismatches: {}{}", s.known,
                              s.known_passing ? fmt::format(fmt::runtime(report.from_ptx ? " ({} within tolerance in these PTX runs)"
                                                                                      : " ({} now within tolerance: remove them from tolerances.toml)"),
                                                            s.known_passing)
                                              : ""));
  if (s.unchecked) out.push_back(fmt::format("unchecked (not in tolerances.toml): {}", s.unchecked));
  for (const auto& n : report.notes) out.push_back("note: " + n);
  out.push_back(s.passed() ? std::string("result: PASS")
                           : fmt::format("result: FAIL, {} counter{} outside tolerance:", s.failures.size(),
                                         s.failures.size() == 1 ? "" : "s"));
  for (const auto& f : s.failures) out.push_back("  " + f);
  return out;
}

}  // namespace warpscope::validate
