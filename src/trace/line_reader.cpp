#include "trace/line_reader.hpp"

#include <fmt/format.h>

#include <cstring>

#include "warpscope/trace.hpp"

namespace warpscope::trace {

LineReader::LineReader(std::unique_ptr<ByteInput> in) : in_(std::move(in)) {}

bool LineReader::next(std::string_view& line) {
  constexpr std::size_t kBlock = 1u << 20;
  for (;;) {
    const std::size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos || (eof_ && pos_ < buf_.size())) {
      const std::size_t end = nl == std::string::npos ? buf_.size() : nl;
      line_offset_ = consumed_;
      ++line_number_;
      line = std::string_view(buf_).substr(pos_, end - pos_);
      consumed_ += (end - pos_) + (nl == std::string::npos ? 0 : 1);
      pos_ = nl == std::string::npos ? buf_.size() : nl + 1;
      if (line.size() > kMaxLine) fail(fmt::format("line longer than {} bytes", kMaxLine));
      if (line.find('\0') != std::string_view::npos) fail("a NUL byte: not a text file");
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      return true;
    }
    if (eof_) return false;
    // Keep the unread tail, read another block after it.
    buf_.erase(0, pos_);
    pos_ = 0;
    if (buf_.size() > kMaxLine + 1) {
      line_offset_ = consumed_;
      ++line_number_;
      fail(fmt::format("line longer than {} bytes", kMaxLine));
    }
    const std::size_t had = buf_.size();
    buf_.resize(had + kBlock);
    const std::size_t got = in_->read(buf_.data() + had, kBlock);
    buf_.resize(had + got);
    eof_ = got == 0;
  }
}

void LineReader::fail(std::string_view what) const {
  throw TraceError(fmt::format("{} line {} (byte {}): {}", in_->name(), line_number_, line_offset_, what),
                   line_offset_);
}

}  // namespace warpscope::trace
