#include "ptx/lexer.hpp"

#include <fmt/format.h>

#include "ptx/ptx_error.hpp"

namespace warpscope::ptx {

void fail_at(const std::string& path, std::uint32_t line, const std::string& message) {
  throw PtxError(fmt::format("{}:{}: {}", path, line, message));
}

namespace {

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '%' || c == '.';
}

}  // namespace

std::vector<Token> tokenize(std::string_view s, const std::string& path) {
  std::vector<Token> out;
  std::uint32_t line = 1;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      const std::uint32_t start = line;
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) line += s[i++] == '\n';
      if (i + 1 >= n) fail_at(path, start, "unterminated /* comment");
      i += 2;
    } else if (c == '"') {
      const std::size_t start = ++i;
      while (i < n && s[i] != '"' && s[i] != '\n') ++i;
      if (i >= n || s[i] != '"') fail_at(path, line, "unterminated string");
      out.push_back({TokenKind::String, s.substr(start, i - start), line});
      ++i;
    } else if (word_char(c)) {
      const std::size_t start = i;
      while (i < n) {
        if (word_char(s[i])) {
          ++i;
        } else if (s[i] == ':' && i + 1 < n && s[i + 1] == ':') {
          i += 2;  // .shared::cta, .L2::evict_last
        } else if ((s[i] == '-' || s[i] == '+') && i > start && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
                   s[start] >= '0' && s[start] <= '9' && !(s[start + 1] == 'x' || s[start + 1] == 'X' ||
                                                          s[start + 1] == 'f' || s[start + 1] == 'F' ||
                                                          s[start + 1] == 'd' || s[start + 1] == 'D')) {
          ++i;  // the exponent sign of a decimal float: 1.5e-3
        } else {
          break;
        }
      }
      out.push_back({TokenKind::Word, s.substr(start, i - start), line});
    } else if (std::string_view(",;{}[]()+-!@|<>=:").find(c) != std::string_view::npos) {
      out.push_back({TokenKind::Punct, s.substr(i, 1), line});
      ++i;
    } else {
      fail_at(path, line,
              fmt::format("unexpected character '{}' (byte 0x{:02x}): not PTX", c >= 32 && c < 127 ? c : '?',
                          static_cast<unsigned char>(c)));
    }
  }
  out.push_back({TokenKind::End, {}, line});
  return out;
}

}  // namespace warpscope::ptx
