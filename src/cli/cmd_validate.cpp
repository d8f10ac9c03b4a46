// `warpscope validate DIR`: the model against Nsight Compute for every kernel
// launch recorded in DIR (docs/VALIDATION.md "warpscope validate"). Exit code 0
// when every checked counter is within its tolerance, 1 when one is not, 2 on
// bad input.
#include <fmt/format.h>

#include "cli/cli.hpp"
#include "report/output_file.hpp"
#include "warpscope/error.hpp"
#include "validate/text_file.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::cli {
namespace {

struct ValidateArgs {
  std::string dir;
  std::string json_file, markdown_file, doc_file, html_file;
  bool no_interleave = false;
  std::string ptx_dir;
};

}  // namespace

Action add_validate_command(CLI::App& app, const GlobalOptions& g) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand("validate", "replay recorded traces and compare the model with Nsight Compute's counters");
  cmd->add_option("dir", args->dir, "directory: environment.txt, tolerances.toml, <app>.ncu.csv + <app>.wst")->required();
  cmd->add_option("--json", args->json_file, "write the comparison as JSON to FILE ('-': to standard output, instead of the table)");
  cmd->add_option("--markdown", args->markdown_file,
                  "write the tables and summary as Markdown to FILE ('-': to standard output, instead of the table)");
  cmd->add_option("--update-doc", args->doc_file,
                  "rewrite the Markdown between <!-- BEGIN GENERATED: warpscope validate DIR --> and "
                  "<!-- END GENERATED --> in FILE");
  cmd->add_option("--html", args->html_file,
                  "write the comparison as one HTML page to FILE: model against hardware as pictures, a row per "
                  "launch, every counter ('-': to standard output, instead of the table)");
  cmd->add_flag("--no-interleave", args->no_interleave, "replay records in trace order (as analyze --no-interleave)");
  cmd->add_option("--ptx", args->ptx_dir,
                  "take each application's records from warpscope's PTX interpreter instead of its trace: DIR/<app>.ptx run "
                  "with DIR/<app>.run (as `warpscope run --script`); exact counters are checked, cache counters shown only");

  return [&g, args]() {
    const bool json_out = report::is_stdout(args->json_file), markdown_out = report::is_stdout(args->markdown_file),
               html_out = report::is_stdout(args->html_file);
    if (int{json_out} + int{markdown_out} + int{html_out} > 1)
      throw InputError("--json -, --markdown - and --html -: only one of them can write to standard output");
    if (report::is_stdout(args->doc_file)) throw InputError("--update-doc rewrites a file in place: it cannot be '-'");
    std::string dir = args->dir;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    ValidateOptions options;
    options.interleave_warps = !args->no_interleave;
    options.ptx_dir = args->ptx_dir;
    ValidationReport report = validate_directory(dir, database(g), options);
    report.dir = dir;
    // Files first, each written whole or not at all; the doc's markers are checked before anything is written.
    std::string doc;
    if (!args->doc_file.empty())
      doc = replace_generated_section(validate::read_text_file(args->doc_file), "warpscope validate " + dir,
                                      validation_markdown(report), args->doc_file);
    if (!args->json_file.empty() && !json_out)
      report::write_file_atomically(args->json_file, validation_json(report).dump(2) + "\n");
    if (!args->markdown_file.empty() && !markdown_out)
      report::write_file_atomically(args->markdown_file, validation_markdown(report));
    if (!args->html_file.empty() && !html_out) report::write_file_atomically(args->html_file, validation_html(report));
    if (!args->doc_file.empty()) report::write_file_atomically(args->doc_file, doc);
    // JSON or Markdown on standard output takes the place of the table.
    if (json_out) report::write_stdout(validation_json(report).dump(2) + "\n");
    else if (markdown_out) report::write_stdout(validation_markdown(report));
    else if (html_out) report::write_stdout(validation_html(report));
    else fmt::print("{}", validation_text(report));
    return summarize(report).passed() ? 0 : 1;
  };
}

}  // namespace warpscope::cli
