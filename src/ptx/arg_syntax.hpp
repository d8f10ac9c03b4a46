// The run script's argument words (launch lines, tmap(...), tex(...)): spaces trimmed, lists split at the commas
// outside parentheses.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <utility>
#include <string_view>
#include <vector>

#include "core/parse_number.hpp"

namespace warpscope::ptx {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "a, (b, c), d" -> {"a", "(b, c)", "d"}, each trimmed.
inline std::vector<std::string_view> split_top(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') {
      ++depth;
    } else if (s[i] == ')') {
      --depth;
    } else if (s[i] == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(s.substr(start)));
  return out;
}

// "BUFFER" or "BUFFER+BYTES": the name and the offset; nullopt where BYTES is not a number.
inline std::optional<std::pair<std::string_view, std::uint64_t>> buffer_and_offset(std::string_view s) {
  const auto plus = s.find('+');
  if (plus == std::string_view::npos) return std::pair{trim(s), std::uint64_t{0}};
  const auto n = parse_u64(trim(s.substr(plus + 1)));
  if (!n) return std::nullopt;
  return std::pair{trim(s.substr(0, plus)), *n};
}

}  // namespace warpscope::ptx
