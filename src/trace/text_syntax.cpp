#include "trace/text_syntax.hpp"

#include "core/parse_number.hpp"

#include <fmt/format.h>

#include <charconv>
#include <limits>

namespace warpscope::trace {

void append_string(std::string& out, std::string_view s) {
  bool bare = !s.empty();
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f || c == '"' || c == '\\' || c == '#') bare = false;
  }
  if (bare) {
    out += s;
    return;
  }
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
        else out += c;  // printable ASCII and UTF-8 bytes as they are
    }
  }
  out += '"';
}

std::optional<std::uint64_t> parse_text_u64(std::string_view t) { return parse_plain_u64(t); }

std::optional<std::int64_t> parse_text_i64(std::string_view t) {
  bool negative = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    negative = t[0] == '-';
    t.remove_prefix(1);
  }
  const auto magnitude = parse_text_u64(t);
  if (!magnitude) return std::nullopt;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (*magnitude > kMax + (negative ? 1 : 0)) return std::nullopt;
  return negative ? static_cast<std::int64_t>(0 - *magnitude) : static_cast<std::int64_t>(*magnitude);
}

}  // namespace warpscope::trace
