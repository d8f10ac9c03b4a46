// warpscope: what CUDA kernels do to the GPU memory system.
// Errors become one line on stderr and exit code 2 (bad input) or 1 (internal).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "cli/cli.hpp"
#include "warpscope/error.hpp"
#include "warpscope/lane_expr.hpp"

namespace warpscope::cli {

const ArchDatabase& database(const GlobalOptions& g) {
  if (g.arch_dirs.empty()) return ArchDatabase::builtin();
  static const ArchDatabase db = [&] {
    auto dirs = ArchDatabase::default_search_path();
    for (const auto& d : g.arch_dirs) dirs.emplace_back(d);
    return ArchDatabase::load(dirs);
  }();
  return db;
}

std::unique_ptr<TraceSource> open_input_trace(const std::string& path, const TraceReadOptions& options) {
  if (path == "-" && isatty(STDIN_FILENO) != 0)
    fmt::print(stderr, "warpscope: reading a text trace from the terminal (end it with Ctrl-D)\n");
  return open_trace(path, options);
}

}  // namespace warpscope::cli

int main(int argc, char** argv) {
  using namespace warpscope;
  CLI::App app{"warpscope: what CUDA kernels do to the GPU memory system, for every compute capability 1.0 - 12.x"};
  app.set_version_flag("--version", std::string("warpscope ") + WARPSCOPE_VERSION);
  app.require_subcommand(1);
  cli::GlobalOptions global;
  app.add_option("--arch-dir", global.arch_dirs, "extra directory of architecture files (*.toml); repeatable")
      ->check(CLI::ExistingDirectory);

  cli::Action arch_action;
  cli::Action archs_action = cli::add_archs_commands(app, global, arch_action);
  cli::Action pattern_action = cli::add_pattern_command(app, global);
  cli::Action demo_action = cli::add_demo_command(app, global);
  cli::Action convert_action = cli::add_convert_command(app, global);
  cli::Action occupancy_action = cli::add_occupancy_command(app, global);
  cli::Action analyze_action = cli::add_analyze_command(app, global);
  cli::Action gpus_action = cli::add_gpus_command(app, global);
  cli::Action trace_action = cli::add_trace_command(app, global);
  cli::Action validate_action = cli::add_validate_command(app, global);
  cli::Action run_action = cli::add_run_command(app, global);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string which = app.get_subcommands().empty() ? "" : " " + app.get_subcommands().front()->get_name();
    fmt::print(stderr, "warpscope: error: {}\nRun 'warpscope{} --help' for usage.\n", e.what(), which);
    return 2;
  }

  try {
    const std::string cmd = app.get_subcommands().front()->get_name();
    if (cmd == "archs") return archs_action();
    if (cmd == "arch") return arch_action();
    if (cmd == "pattern") return pattern_action();
    if (cmd == "demo") return demo_action();
    if (cmd == "convert") return convert_action();
    if (cmd == "occupancy") return occupancy_action();
    if (cmd == "analyze") return analyze_action();
    if (cmd == "gpus") return gpus_action();
    if (cmd == "trace") return trace_action();
    if (cmd == "validate") return validate_action();
    if (cmd == "run") return run_action();
    return 2;
  } catch (const LaneExprError& e) {
    fmt::print(stderr, "warpscope: error: {}\n{}\n", e.what(), e.caret());
    return 2;
  } catch (const InputError& e) {
    fmt::print(stderr, "warpscope: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "warpscope: internal error: {}\n", e.what());
    return 1;
  }
}
