#include "core/parse_number.hpp"

#include <charconv>

namespace warpscope {

std::optional<std::uint64_t> parse_plain_u64(std::string_view t) {
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  if (t.empty()) return std::nullopt;
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parse_u64(std::string_view t) {
  if (t.empty()) return std::nullopt;
  std::uint64_t mult = 1;
  switch (t.back()) {
    case 'K': case 'k': mult = 1ull << 10; t.remove_suffix(1); break;
    case 'M': case 'm': mult = 1ull << 20; t.remove_suffix(1); break;
    case 'G': case 'g': mult = 1ull << 30; t.remove_suffix(1); break;
    default: break;
  }
  const auto plain = parse_plain_u64(t);
  if (!plain) return std::nullopt;
  const std::uint64_t v = *plain;
  if (v > UINT64_MAX / mult) return std::nullopt;
  return v * mult;
}

std::optional<std::uint32_t> parse_hex_mask(std::string_view t) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  if (t.empty() || t.size() > 8) return std::nullopt;
  std::uint32_t v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

}  // namespace warpscope
