// Parsing numbers the user types: decimal, 0x hex, optional K/M/G suffix.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace warpscope {

// "4096", "0x1000" -> value; nullopt when malformed or over 2^64 (no suffix).
std::optional<std::uint64_t> parse_plain_u64(std::string_view text);
// "4096", "0x1000", "48K", "1M" -> value; nullopt when malformed or over 2^64.
std::optional<std::uint64_t> parse_u64(std::string_view text);
// "ffffffff", "0xffff0000" -> 32-bit mask; nullopt when malformed or wider.
std::optional<std::uint32_t> parse_hex_mask(std::string_view text);

}  // namespace warpscope
