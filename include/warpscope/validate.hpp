// `warpscope validate DIR`: replays each application's trace recorded in DIR
// through the model of the GPU it was recorded on and compares the model's
// counters with Nsight Compute's, per kernel launch, under the tolerances of
// DIR/tolerances.toml (docs/VALIDATION.md "warpscope validate").
//
// DIR holds environment.txt (gpu_model: a key of data/gpus/gpus.toml), and per
// application <app>.ncu.csv (ncu --csv --page raw --print-units base) and
// <app>.wst (the same run traced by `warpscope trace`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpscope/arch.hpp"

namespace warpscope {

enum class Verdict : std::uint8_t {
  Exact,       // an exact counter, equal
  Within,      // a toleranced counter, within its tolerance
  Fail,        // outside (or, for an exact counter, different)
  Known,       // a known mismatch, outside: does not fail
  KnownPasses, // a known mismatch that is within its tolerance after all
  Unchecked,   // tolerances.toml does not name the counter: shown only
};
std::string_view to_string(Verdict v);  // "exact", "ok", "FAIL", "KNOWN", "KNOWN, passes", "-"

enum class ErrorUnit : std::uint8_t { Count, Percent, Points };

struct CounterComparison {
  std::string counter;  // Nsight Compute name, e.g. "dram__bytes_read.sum"
  double hardware = 0, model = 0;
  std::optional<double> hardware_rate, model_rate;  // rate checks: counter / rate_of, percent
  ErrorUnit unit = ErrorUnit::Count;  // Count: exact check, error = |model - hardware|
  double error = 0;    // Percent: |model - hw| / hw (100 when hw = 0 != model); Points: |rate difference|
  double limit = 0;    // the tolerance, in `unit`
  double slack = 0;    // Percent: absolute difference that passes anyway
  Verdict verdict = Verdict::Unchecked;
  std::string known;   // reason of a known mismatch
};

struct KernelValidation {
  std::string app;
  std::size_t launch = 0;   // index within the application (0-based)
  std::uint64_t ncu_id = 0;
  std::string name;         // base name, e.g. "stencil2d"
  std::string label;        // how reports call it: name, "#n" when repeated, "app/" with several apps
  std::string ncu_name, trace_name;
  std::vector<CounterComparison> counters;
};

struct ValidationReport {
  std::string dir;
  std::vector<std::pair<std::string, std::string>> environment;  // environment.txt, in order
  std::string gpu_model, gpu_name, arch;
  std::string memory;                    // the model's effective configuration
  std::vector<KernelValidation> kernels; // applications by name, launches in order
  std::vector<std::string> notes;        // e.g. tolerances.toml entries that matched nothing
  bool from_ptx = false;                 // records from the PTX interpreter (ValidateOptions::ptx_dir)
};

struct ValidateOptions {
  bool interleave_warps = true;  // as `warpscope analyze` (--no-interleave)
  // Not empty: each application's records come from the PTX interpreter instead of its trace:
  // ptx_dir/<app>.ptx run with the buffers and launches of ptx_dir/<app>.run (`warpscope run
  // --script`); applications without both are left out (a note says which). Without the GPU's SM
  // placement and timing the cache counters are shown but do not fail (verdict Known); the
  // exact counters are checked as with a trace.
  std::filesystem::path ptx_dir;
};

// InputError naming the file (and line) on bad input: missing files, malformed
// CSV / TOML / environment, unknown GPU model, launches that do not pair with
// the trace's kernels (count or name).
ValidationReport validate_directory(const std::filesystem::path& dir, const ArchDatabase& db,
                                    const ValidateOptions& options = {});

struct ValidationSummary {
  std::size_t kernels = 0, apps = 0;
  std::size_t exact = 0, exact_matched = 0;        // exact checks (known ones excluded)
  std::size_t toleranced = 0, within = 0;          // toleranced checks (known ones excluded)
  std::size_t known = 0, known_passing = 0, unchecked = 0;
  // Launches with hit rates or DRAM bytes checked, and those whose every hit
  // rate and DRAM byte count is within its tolerance, known mismatches counted
  // as outside: the accuracy target of the validation suite (5 points of hit
  // rate, 10% of DRAM bytes in validation/h100/suite/tolerances.toml).
  std::size_t kernels_toleranced = 0, kernels_within = 0;
  // Over the toleranced counters, known mismatches included, per unit; relative
  // errors leave out counters that pass by the absolute slack alone (counted apart).
  std::size_t points_count = 0, percent_count = 0, slack_passed = 0;
  double points_mean = 0, points_worst = 0, percent_mean = 0, percent_worst = 0;
  std::string points_worst_at, percent_worst_at;   // "kernel counter"
  std::vector<std::string> failures;               // "kernel counter: hw X, model Y, ..."
  bool passed() const { return failures.empty(); }
};
ValidationSummary summarize(const ValidationReport& report);

// Printers: the console table, Markdown (what docs/VALIDATION.md includes), JSON,
// and one self-contained HTML page with model-against-hardware pictures.
std::string validation_text(const ValidationReport& report);
std::string validation_markdown(const ValidationReport& report);
nlohmann::json validation_json(const ValidationReport& report);
std::string validation_html(const ValidationReport& report);

// `doc` with the text between "<!-- BEGIN GENERATED: {label} -->" and the next
// "<!-- END GENERATED -->" replaced by `body`; InputError naming `doc_name`
// when the markers are missing.
std::string replace_generated_section(std::string_view doc, std::string_view label, std::string_view body,
                                      const std::string& doc_name);

}  // namespace warpscope
