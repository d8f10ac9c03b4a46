// Lines of a text file from a ByteInput, in bounded memory whatever the file
// size: the readers of other tools' text traces (Accel-Sim) use it. Errors
// name the file, the line and its byte offset.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "trace/byte_input.hpp"

namespace warpscope::trace {

class LineReader {
 public:
  explicit LineReader(std::unique_ptr<ByteInput> in);

  // The next line without its "\n" (and a "\r" before it); false at the end.
  // The view stays valid until the next call. Throws TraceError for a line
  // longer than kMaxLine or a NUL byte (not a text file).
  bool next(std::string_view& line);
  std::uint64_t line_number() const { return line_number_; }  // of the line last returned (1-based)
  std::uint64_t line_offset() const { return line_offset_; }  // byte offset of its first byte
  std::uint64_t bytes_consumed() const { return consumed_; }
  const ByteInput& input() const { return *in_; }
  // Throws TraceError: "NAME line N (byte OFFSET): what".
  [[noreturn]] void fail(std::string_view what) const;

  static constexpr std::size_t kMaxLine = 16u << 20;

 private:
  std::unique_ptr<ByteInput> in_;
  std::string buf_;
  std::size_t pos_ = 0;  // start of the unread part of buf_
  bool eof_ = false;
  std::uint64_t line_number_ = 0, line_offset_ = 0, consumed_ = 0;
};

}  // namespace warpscope::trace
