// Lines and tokens of the text trace form: reads one line at a time with a
// bounded buffer and splits it into `key=value` and bare tokens, with quoted
// values and '#' comments. Errors name the file, line and column.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trace/byte_input.hpp"

namespace warpscope::trace {

struct TextToken {
  std::string_view key;    // empty for a bare token
  std::string_view value;  // unescaped
  bool has_key = false;
  std::size_t column = 0;        // 1-based, of the token
  std::size_t value_column = 0;  // 1-based, of the value
};

class TextLexer {
 public:
  static constexpr std::size_t kMaxLineBytes = 16u << 20;

  explicit TextLexer(std::unique_ptr<ByteInput> in) : in_(std::move(in)) {}

  // Reads the next line and tokenizes it; false at the end of the input.
  // Blank and comment-only lines give an empty token list.
  bool next_line();
  const std::vector<TextToken>& tokens() const { return tokens_; }
  std::string_view line() const { return line_; }

  // Throws TraceError "file:line:column: what".
  [[noreturn]] void fail(std::size_t column, const std::string& what) const;

  std::uint64_t line_number() const { return line_number_; }
  std::uint64_t bytes_consumed() const { return base_ + pos_; }
  const ByteInput& input() const { return *in_; }

 private:
  void tokenize();
  std::size_t quoted(std::size_t i, std::string& out) const;

  std::unique_ptr<ByteInput> in_;
  std::string buf_;
  std::size_t pos_ = 0, scanned_ = 0;
  std::uint64_t base_ = 0;  // file offset of buf_[0]
  bool eof_ = false;
  std::string_view line_;
  std::uint64_t line_offset_ = 0, line_number_ = 0;
  std::vector<TextToken> tokens_;
  std::deque<std::string> unescaped_;
};

}  // namespace warpscope::trace
