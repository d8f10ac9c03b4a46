// `warpscope analyze --html FILE`: the analysis as one self-contained HTML
// page: per kernel a chart and the full metric table on every architecture, and
// for the instructions that waste the most bytes a picture of what their first
// execution touched (lines and sectors, or shared-memory banks) with the rules
// engine's counts of it.
#pragma once

#include <string>

#include "analyze/analyzer.hpp"
#include "report/metric_rows.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::report {

struct AnalyzeHtmlOptions {
  std::string trace_path;   // as the user named it
  int top = 10;             // instructions listed and drawn
  bool all_metrics = false; // also rows that are zero everywhere
  std::string gpu_note;     // "GPU model: ..." when --gpu was given
  std::vector<std::string> notes;  // warnings and notes analyze printed on stderr
  // Bounds that keep the page one a browser opens (a trace can hold 20,000 launches):
  // summary rows and full sections per kernel, pictures of instructions. The page says
  // what it left out; --json has everything.
  std::size_t max_summary_kernels = 5000;
  std::size_t max_kernel_sections = 500;
  std::size_t max_pictures = 50;
};

// "XxYxZ", an instruction's "file:line" ("" when the trace has no line for it) and its
// access: as every analyze output writes them.
std::string dim_text(const Dim3& d);
// An instruction's access, "global ld 4 B", "global atom.cas 4 B".
std::string access_text(const PcCounters& p);
std::string source_text(const KernelInfo* k, std::uint64_t pc);

// Kernel `k`'s metric rows on every architecture of `result` (the analyze
// text table and the HTML report).
std::vector<MetricRow> kernel_metric_rows(const AnalyzeResult& result, std::size_t k, bool all);

std::string analyze_html(const AnalyzeResult& result, const TraceSource& trace, const AnalyzeHtmlOptions& options);

}  // namespace warpscope::report
