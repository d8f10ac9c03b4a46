// Spelling shared by the text trace writer and reader (docs/TRACE_FORMAT.md
// "Text form"): the header line, string quoting, numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::trace {

inline constexpr std::string_view kTextHeader = "wstrace";

// Appends s bare when it is a non-empty run of printable ASCII without
// '"', '\\' or '#'; otherwise in double quotes with \" \\ \n \r \t \xHH escapes.
void append_string(std::string& out, std::string_view s);

// "123" or "0x7b" (no sign, no suffix); nullopt when malformed or over 64 bits.
std::optional<std::uint64_t> parse_text_u64(std::string_view t);
// The same with an optional leading '-' or '+', within int64.
std::optional<std::int64_t> parse_text_i64(std::string_view t);

}  // namespace warpscope::trace
