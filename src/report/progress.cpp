#include "report/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace warpscope::report {

ProgressBar::ProgressBar(std::string label, std::uint64_t total, std::uint64_t show_threshold)
    : label_(std::move(label)),
      total_(total),
      enabled_(total >= show_threshold && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(std::uint64_t done, std::uint64_t records) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const double fraction = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 0.0;
  const int width = 30;
  const int filled = static_cast<int>(fraction * width + 0.5);
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(records) / secs / 1e6 : 0.0;
  fmt::print(stderr, "\r{} [{}{}] {:3.0f}%  {:.1f} M records/s", label_, std::string(static_cast<std::size_t>(filled), '#'),
             std::string(static_cast<std::size_t>(width - filled), ' '), fraction * 100.0, rate);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (enabled_ && drawn_) {
    fmt::print(stderr, "\r{}\r", std::string(label_.size() + 60, ' '));
    std::fflush(stderr);
  }
  drawn_ = false;
}

}  // namespace warpscope::report
