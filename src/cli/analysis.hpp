// What `analyze` and `run` share: the options that choose the architectures,
// the GPU model and the outputs, and the pass that runs a trace through the
// models and writes the tables, JSON, CSV and HTML.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>

#include "cli/cli.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::cli {

struct AnalysisArgs {
  std::string archs = "sm_35,sm_70,sm_90";
  std::string kernel;
  std::string json_file, csv_file, html_file;
  int top = 10;
  int num_sms = 0;
  std::string l2_size;
  std::string gpu;
  int carveout = -1;
  std::string shared_capacity;
  bool flush_dirty = false;
  bool all_metrics = false;
  int threads = 0;
  bool no_interleave = false;
  std::string sass;  // a SASS listing: atomic operations of kernels whose trace lacks them
  // Not options: the progress bar's label, and the input size (TraceSource::file_size) from which it shows.
  std::string progress_label = "analyze";
  std::uint64_t progress_threshold = 64ull << 20;
};

void add_analysis_options(CLI::App* cmd, AnalysisArgs& args);

// Checks the options, then opens the trace (open_trace) and analyses it; input_name names it in
// the output. Returns the exit code.
int analyze_and_report(const GlobalOptions& g, AnalysisArgs& args, const std::function<std::unique_ptr<TraceSource>()>& open_trace,
                       const std::string& input_name);

}  // namespace warpscope::cli
