// `warpscope convert IN OUT`: copies a trace between the native and text
// forms (docs/TRACE_FORMAT.md). The output appears only when complete.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "cli/cli.hpp"
#include "warpscope/error.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::cli {
namespace {

struct ConvertArgs {
  std::string in, out, to;
  int level = TraceWriteOptions{}.zstd_level;
  std::uint32_t records_per_chunk = TraceWriteOptions{}.records_per_chunk;
  bool recover = false;
};

// "\r45% of in.wst" on a terminal, every quarter second; nothing when piped.
class Progress {
 public:
  explicit Progress(const std::string& name) : name_(name), on_(isatty(STDERR_FILENO) != 0) {}
  void update(const TraceSource& src) {
    if (!on_ || src.file_size() == 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    fmt::print(stderr, "\rconverting {}: {:3}%", name_, src.bytes_read() * 100 / src.file_size());
    shown_ = true;
  }
  ~Progress() {
    if (shown_) fmt::print(stderr, "\r\033[K");
  }

 private:
  std::string name_;
  bool on_, shown_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

int convert(const ConvertArgs& a) {
  TraceFormat format = trace_format_for_path(a.out);
  if (!a.to.empty()) format = *parse_trace_format(a.to);
  TraceReadOptions read;
  read.recover = a.recover;
  read.kernel_tables_first = true;  // the writer puts them in each kernel's block
  auto src = open_input_trace(a.in, read);
  TraceWriteOptions write;
  write.zstd_level = a.level;
  write.records_per_chunk = a.records_per_chunk;
  auto sink = create_trace(a.out, format, write);

  std::size_t kernels = 0;
  const auto declare_kernels = [&] {
    for (; kernels < src->kernels().size(); ++kernels) sink->begin_kernel(src->kernels()[kernels]);
  };
  Progress progress(a.in);
  WarpAccess rec;
  std::uint64_t records = 0;
  while (src->next(rec)) {
    declare_kernels();
    sink->write(rec);
    if ((++records & 0xffff) == 0) progress.update(*src);
  }
  declare_kernels();
  sink->close();

  const TraceSummary summary = src->summary();
  if (!summary.note.empty()) fmt::print(stderr, "warpscope: note: {}: {}\n", a.in, summary.note);
  // With the trace on standard output, the summary goes to standard error.
  fmt::print(a.out == "-" ? stderr : stdout, "{} -> {} ({}): {} records, {} kernels\n", a.in, a.out, to_string(format),
             records, kernels);
  return 0;
}

}  // namespace

Action add_convert_command(CLI::App& app, const GlobalOptions&) {
  auto args = std::make_shared<ConvertArgs>();
  auto* cmd = app.add_subcommand("convert", "convert a trace between the native and text forms (or from Accel-Sim's)");
  cmd->footer(
      "The output format follows OUT's extension (.txt, .wstxt: text; anything else: native) unless --to says.\n"
      "OUT is written as OUT.partial and renamed when complete; on error nothing is left behind.\n"
      "Example: warpscope convert kernel.wst kernel.txt");
  cmd->add_option("IN", args->in,
                  "trace to read (native, text, or Accel-Sim's kernel-N.traceg / kernelslist.g; detected; '-': "
                  "standard input)")
      ->required();
  cmd->add_option("OUT", args->out, "trace to write ('-': standard output, text unless --to native)")->required();
  cmd->add_option("--to", args->to, "output format: native | text")->check(CLI::IsMember({"native", "text"}));
  cmd->add_option("--level", args->level, "zstd compression level of native output")->capture_default_str();
  cmd->add_option("--records-per-chunk", args->records_per_chunk, "records per compressed chunk of native output")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1u << 22));
  cmd->add_flag("--recover", args->recover,
                "read a native trace without footer (a crashed tracer's .partial) up to its last complete chunk");
  return [args] { return convert(*args); };
}

}  // namespace warpscope::cli
