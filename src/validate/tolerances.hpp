// DIR/tolerances.toml: which counters must match the hardware exactly, how far
// the others may be off, per-kernel overrides and known mismatches. The schema
// is documented at the top of validation/h100/suite/tolerances.toml and in
// docs/VALIDATION.md ("warpscope validate").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::validate {

enum class CheckKind : std::uint8_t {
  Exact,     // model == hardware
  Relative,  // |model - hw| <= max(limit% of hw, slack)
  Rate,      // counter / rate_of as a percentage: |model rate - hw rate| <= limit points
};

struct Check {
  CheckKind kind = CheckKind::Exact;
  double limit = 0;     // Relative: percent of the hardware value; Rate: percentage points
  double slack = 0;     // Relative: an absolute difference (the counter's unit) that passes anyway
  std::string rate_of;  // Rate: the column the counter is divided by (e.g. sectors for sector hits)
  int line = 0;         // where it was given
};

struct KernelRule {
  std::string kernel;  // base name (validate/kernel_name.hpp)
  std::string app;     // "" = every application
  std::string counter;
  std::optional<Check> check;  // replaces the counter's check for this kernel
  std::string known;           // non-empty: a known mismatch, with its reason
  int line = 0;
};

struct Rule {
  std::optional<Check> check;  // none: the counter is not checked (shown only)
  std::string known;
  const KernelRule* kernel_rule = nullptr;
};

struct Tolerances {
  std::string file;
  std::map<std::string, Check, std::less<>> counters;
  std::vector<KernelRule> kernels;
  // The rule for one counter of one kernel of one application.
  Rule lookup(std::string_view app, std::string_view kernel, std::string_view counter) const;
};

// InputError "file:line:column: ..." naming the key on any problem: syntax,
// unknown keys (with the known ones), wrong types, counters the model does not
// have, a counter given twice.
Tolerances parse_tolerances(std::string_view text, const std::string& file);
Tolerances load_tolerances(const std::filesystem::path& path);

}  // namespace warpscope::validate
