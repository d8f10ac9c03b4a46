// Runs the warpscope binary the way a user does and captures what it prints.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace warpscope::test {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// args are passed through the shell: quote what needs quoting.
inline CliResult run_cli(const std::string& args, const std::string& env = "") {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() / ("warpscope_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto out = dir / ("out" + std::to_string(counter));
  const auto err = dir / ("err" + std::to_string(counter++));
  const std::string cmd = env + " " WARPSCOPE_BINARY " " + args + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace warpscope::test
