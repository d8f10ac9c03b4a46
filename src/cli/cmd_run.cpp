// `warpscope run KERNELS.ptx --launch 'k<<<grid, block>>>(args)'`: kernels of a
// PTX file run by warpscope's interpreter (no GPU), their memory records through
// the models as `analyze` runs a trace, and optionally written as a trace.
#include <fmt/format.h>

#include "cli/analysis.hpp"
#include "cli/cli.hpp"
#include "core/parse_number.hpp"
#include "validate/text_file.hpp"
#include "warpscope/error.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope::cli {
namespace {

struct RunArgs {
  std::string ptx;
  std::vector<std::string> launches, buffers;
  std::string script;
  std::string trace_out;
  std::vector<std::string> dumps;
  std::string max_instructions;
  bool list = false;
};

// Passes the records through and writes each to a trace file as well.
class TeeSource : public TraceSource {
 public:
  TeeSource(std::unique_ptr<TraceSource> in, std::unique_ptr<TraceSink> out) : in_(std::move(in)), out_(std::move(out)) {}
  bool next(WarpAccess& rec) override {
    if (!in_->next(rec)) {
      declare();
      if (out_) {
        out_->close();
        out_.reset();
      }
      return false;
    }
    declare();
    out_->write(rec);
    return true;
  }
  const std::vector<KernelInfo>& kernels() const override { return in_->kernels(); }
  std::uint64_t bytes_read() const override { return in_->bytes_read(); }
  std::uint64_t file_size() const override { return in_->file_size(); }
  TraceSummary summary() const override { return in_->summary(); }

 private:
  void declare() {
    for (; declared_ < in_->kernels().size() && out_; ++declared_) out_->begin_kernel(in_->kernels()[declared_]);
  }
  std::unique_ptr<TraceSource> in_;
  std::unique_ptr<TraceSink> out_;
  std::size_t declared_ = 0;
};

}  // namespace

Action add_run_command(CLI::App& app, const GlobalOptions& g) {
  auto args = std::make_shared<AnalysisArgs>();
  auto run = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand(
      "run", "run kernels of a PTX file with warpscope's interpreter (no GPU) and analyse their memory accesses");
  cmd->add_option("ptx", run->ptx, "PTX file (nvcc -ptx, cuobjdump -ptx)")->required();
  cmd->add_option("--launch", run->launches,
                  "a launch, as in CUDA: 'KERNEL<<<GRID, BLOCK[, SHARED]>>>(ARG, ...)'; GRID and BLOCK are N or (X,Y[,Z]); "
                  "an ARG is a --buffer name (+ a byte offset: in+64) or a number; repeatable, run in order");
  cmd->add_option("--buffer", run->buffers,
                  "a global-memory buffer for pointer arguments: NAME=SIZE[:zero|:iota|:random[:SEED]] (iota: 32-bit words "
                  "0, 1, 2, ...) or NAME=@FILE (its bytes); launches share buffers; repeatable");
  cmd->add_option("--script", run->script,
                  "a file of buffers and launches, one per line: 'buffer SPEC' or 'launch SPEC' ('#' comments); "
                  "taken before the --buffer and --launch options");
  cmd->add_option("--trace-out", run->trace_out,
                  "also write the records as a trace (native; .txt or .wstxt: text), for `analyze`, `convert` or another tool");
  cmd->add_option("--dump", run->dumps,
                  "NAME=FILE: after the last launch, write buffer NAME's bytes to FILE (what the kernels computed, to "
                  "compare with the GPU's); repeatable");
  cmd->add_option("--max-instructions", run->max_instructions,
                  "stop a launch with an error after this many warp instructions (default 2^36: an endless loop ends)");
  cmd->add_flag("--list", run->list, "list the file's kernels and their parameters, and exit");
  add_analysis_options(cmd, *args);

  return [&g, args, run]() {
    const std::string text = validate::read_text_file(run->ptx);
    PtxScript script;
    if (!run->script.empty()) script = parse_ptx_script(validate::read_text_file(run->script), run->script);
    if (run->list || (run->launches.empty() && script.launches.empty())) {
      const auto kernels = ptx_kernel_signatures(text, run->ptx);
      if (run->list) {
        for (const auto& k : kernels) fmt::print("{}\n", k);
        return 0;
      }
      std::string list;
      for (const auto& k : kernels) list += "\n  " + k;
      throw InputError(fmt::format("{}: name a launch with --launch 'KERNEL<<<GRID, BLOCK>>>(ARGS)'; the kernels:{}", run->ptx,
                                   kernels.empty() ? std::string("\n  (none)") : list));
    }
    std::vector<PtxBuffer> buffers = script.buffers;
    for (const auto& b : run->buffers) buffers.push_back(parse_ptx_buffer(b));
    std::vector<PtxLaunch> launches = script.launches;
    for (const auto& l : run->launches) launches.push_back(parse_ptx_launch(l));
    PtxRunOptions options;
    for (const auto& d : run->dumps) options.dumps.push_back(parse_ptx_dump(d));
    if (!run->max_instructions.empty()) {
      const auto n = parse_u64(run->max_instructions);
      if (!n || *n == 0) throw InputError(fmt::format("--max-instructions {}: expected a positive number", run->max_instructions));
      options.max_warp_instructions = *n;
    }
    // The program is parsed and the launches checked before anything runs or is written.
    auto source = run_ptx(text, run->ptx, buffers, launches, options);
    auto open = [&]() -> std::unique_ptr<TraceSource> {
      if (run->trace_out.empty()) return std::move(source);
      auto sink = create_trace(run->trace_out, trace_format_for_path(run->trace_out));
      return std::make_unique<TeeSource>(std::move(source), std::move(sink));
    };
    args->progress_label = "run";
    args->progress_threshold = 4096;  // CTAs (the interpreter's progress: CTAs started)
    return analyze_and_report(g, *args, open, run->ptx);
  };
}

}  // namespace warpscope::cli
