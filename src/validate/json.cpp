#include "warpscope/validate.hpp"

namespace warpscope {
namespace {

const char* unit_name(ErrorUnit u) {
  switch (u) {
    case ErrorUnit::Count: return "count";
    case ErrorUnit::Percent: return "percent";
    case ErrorUnit::Points: return "points";
  }
  return "";
}

}  // namespace

nlohmann::json validation_json(const ValidationReport& report) {
  nlohmann::json j;
  // docs/OUTPUT.md describes this document; format_version changes when a key changes meaning or goes.
  j["format"] = "warpscope-validate";
  j["format_version"] = 1;
  j["warpscope_version"] = WARPSCOPE_VERSION;
  j["dir"] = report.dir;
  j["environment"] = nlohmann::json::object();
  for (const auto& [k, v] : report.environment) j["environment"][k] = v;
  j["gpu_model"] = report.gpu_model;
  j["arch"] = report.arch;
  j["records_from"] = report.from_ptx ? "ptx" : "traces";  // validate --ptx: the PTX interpreter
  j["memory"] = report.memory;
  j["kernels"] = nlohmann::json::array();
  for (const auto& k : report.kernels) {
    nlohmann::json jk{{"app", k.app},           {"launch", k.launch},         {"ncu_id", k.ncu_id},
                      {"name", k.name},         {"label", k.label},           {"ncu_name", k.ncu_name},
                      {"trace_name", k.trace_name}};
    jk["counters"] = nlohmann::json::array();
    for (const auto& c : k.counters) {
      nlohmann::json jc{{"counter", c.counter}, {"hardware", c.hardware}, {"model", c.model},
                        {"unit", unit_name(c.unit)}, {"error", c.error}, {"verdict", std::string(to_string(c.verdict))}};
      if (c.hardware_rate) jc["hardware_rate"] = *c.hardware_rate;
      if (c.model_rate) jc["model_rate"] = *c.model_rate;
      if (c.verdict != Verdict::Unchecked && c.unit != ErrorUnit::Count) jc["limit"] = c.limit;
      if (c.slack > 0) jc["slack"] = c.slack;
      if (!c.known.empty()) jc["known"] = c.known;
      jk["counters"].push_back(jc);
    }
    j["kernels"].push_back(jk);
  }
  const ValidationSummary s = summarize(report);
  j["summary"] = {{"kernels", s.kernels},
                  {"apps", s.apps},
                  {"exact", s.exact},
                  {"exact_matched", s.exact_matched},
                  {"toleranced", s.toleranced},
                  {"within", s.within},
                  {"known", s.known},
                  {"known_passing", s.known_passing},
                  {"unchecked", s.unchecked},
                  {"launches_checked", s.kernels_toleranced},
                  {"launches_within_target", s.kernels_within},
                  {"rate_error_points", {{"count", s.points_count}, {"mean", s.points_mean}, {"worst", s.points_worst}, {"worst_at", s.points_worst_at}}},
                  {"relative_error_percent", {{"count", s.percent_count}, {"mean", s.percent_mean}, {"worst", s.percent_worst}, {"worst_at", s.percent_worst_at}}},
                  {"failures", s.failures},
                  {"notes", report.notes},
                  {"passed", s.passed()}};
  return j;
}

}  // namespace warpscope
