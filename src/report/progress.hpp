// A progress bar on stderr for long passes: shown only when stderr is a
// terminal and the work is large; silent otherwise (pipes, CI, small inputs).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace warpscope::report {

class ProgressBar {
 public:
  // total: bytes expected; show_threshold: smaller totals stay silent.
  ProgressBar(std::string label, std::uint64_t total, std::uint64_t show_threshold = 64ull << 20);
  ~ProgressBar();
  void update(std::uint64_t done, std::uint64_t records);
  void finish();

 private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace warpscope::report
