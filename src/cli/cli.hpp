// The warpscope command: each subcommand registers itself on the CLI11 app and
// is a thin client of the library.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::cli {

struct GlobalOptions {
  std::vector<std::string> arch_dirs;  // --arch-dir, searched after the built-in database
};

// The architecture database with the user's extra directories.
const ArchDatabase& database(const GlobalOptions& g);

// open_trace, and for "-" read from a terminal a note on stderr that the
// command waits for a trace typed or pasted there.
std::unique_ptr<TraceSource> open_input_trace(const std::string& path, const TraceReadOptions& options = {});

// Each returns the action to run when its subcommand was selected.
using Action = std::function<int()>;
Action add_archs_commands(CLI::App& app, const GlobalOptions& g, Action& arch_action);
Action add_pattern_command(CLI::App& app, const GlobalOptions& g);
Action add_demo_command(CLI::App& app, const GlobalOptions& g);
Action add_convert_command(CLI::App& app, const GlobalOptions& g);
Action add_occupancy_command(CLI::App& app, const GlobalOptions& g);
Action add_analyze_command(CLI::App& app, const GlobalOptions& g);
Action add_gpus_command(CLI::App& app, const GlobalOptions& g);
Action add_trace_command(CLI::App& app, const GlobalOptions& g);
Action add_validate_command(CLI::App& app, const GlobalOptions& g);
Action add_run_command(CLI::App& app, const GlobalOptions& g);

}  // namespace warpscope::cli
