#include "trace/text_lexer.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "warpscope/trace.hpp"

namespace warpscope::trace {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }
// Characters of an unquoted token.
bool is_bare(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7f && c != '"' && c != '#';
}
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void TextLexer::fail(std::size_t column, const std::string& what) const {
  throw TraceError(fmt::format("{}:{}:{}: {}", in_->name(), std::max<std::uint64_t>(line_number_, 1), column, what),
                   line_offset_ + (column > 0 ? column - 1 : 0));
}

bool TextLexer::next_line() {
  for (;;) {
    const std::size_t nl = buf_.find('\n', scanned_);
    if (nl != std::string::npos || (eof_ && pos_ < buf_.size())) {
      const std::size_t end = nl != std::string::npos ? nl : buf_.size();
      line_ = std::string_view(buf_).substr(pos_, end - pos_);
      line_offset_ = base_ + pos_;
      if (line_.size() > kMaxLineBytes) {
        ++line_number_;
        fail(1, fmt::format("line is longer than {} bytes", kMaxLineBytes));
      }
      pos_ = scanned_ = end + (nl != std::string::npos ? 1 : 0);
      ++line_number_;
      if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
      // A UTF-8 byte order mark, as some editors save a hand-written file.
      if (line_number_ == 1 && line_.starts_with("\xEF\xBB\xBF")) {
        line_.remove_prefix(3);
        line_offset_ += 3;  // columns count from after it; byte offsets stay the file's
      }
      tokenize();
      return true;
    }
    if (eof_) return false;
    scanned_ = buf_.size();
    if (buf_.size() - pos_ > kMaxLineBytes) {
      line_offset_ = base_ + pos_;
      ++line_number_;
      fail(1, fmt::format("line is longer than {} bytes", kMaxLineBytes));
    }
    base_ += pos_;
    buf_.erase(0, pos_);
    scanned_ -= pos_;
    pos_ = 0;
    constexpr std::size_t kStep = 1 << 16;
    const std::size_t old = buf_.size();
    buf_.resize(old + kStep);
    const std::size_t n = in_->read(buf_.data() + old, kStep);
    buf_.resize(old + n);
    if (n < kStep) eof_ = true;
  }
}

std::size_t TextLexer::quoted(std::size_t i, std::string& out) const {
  const std::size_t open = i++;
  while (i < line_.size()) {
    const char c = line_[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '"') return i + 1;
    if (c == '\\') {
      if (i + 1 >= line_.size()) break;
      const char e = line_[i + 1];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'x': {
          const int hi = i + 2 < line_.size() ? hex_digit(line_[i + 2]) : -1;
          const int lo = i + 3 < line_.size() ? hex_digit(line_[i + 3]) : -1;
          if (hi < 0 || lo < 0) fail(i + 1, "expected two hex digits after \\x");
          out += static_cast<char>(hi * 16 + lo);
          i += 2;
          break;
        }
        default: fail(i + 1, fmt::format("unknown escape \\{} (known: \\\" \\\\ \\n \\r \\t \\xHH)", e));
      }
      i += 2;
      continue;
    }
    if (u < 0x20 || u == 0x7f) fail(i + 1, fmt::format("control byte {:#04x} inside a string (write \\x{:02x})", u, u));
    out += c;
    ++i;
  }
  fail(open + 1, "unterminated string: no closing '\"'");
}

void TextLexer::tokenize() {
  tokens_.clear();
  unescaped_.clear();
  const std::string_view s = line_;
  std::size_t i = 0;
  for (;;) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i == s.size() || s[i] == '#') return;
    TextToken t;
    t.column = i + 1;
    std::size_t v = i;
    while (v < s.size() && is_bare(s[v]) && s[v] != '=') ++v;
    if (v < s.size() && s[v] == '=' && v > i) {
      t.key = s.substr(i, v - i);
      t.has_key = true;
      i = v + 1;
    }
    t.value_column = i + 1;
    if (i < s.size() && s[i] == '"') {
      std::string& out = unescaped_.emplace_back();
      i = quoted(i, out);
      t.value = out;
    } else {
      const std::size_t start = i;
      while (i < s.size() && is_bare(s[i])) ++i;
      t.value = s.substr(start, i - start);
    }
    if (i < s.size() && !is_space(s[i]) && s[i] != '#') {
      const auto u = static_cast<unsigned char>(s[i]);
      if (s[i] == '"') fail(i + 1, "unexpected '\"': quotes may only enclose a whole value");
      fail(i + 1, fmt::format("unexpected byte {:#04x} (outside quotes a line holds printable ASCII only)", u));
    }
    tokens_.push_back(t);
  }
}

}  // namespace warpscope::trace
