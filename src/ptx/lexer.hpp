// PTX tokens (PTX ISA chapter 4, "Syntax"): words (identifiers, opcodes with
// their modifiers, registers, numbers), punctuation and strings, each with its
// line. Comments are dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::ptx {

enum class TokenKind : std::uint8_t { Word, Punct, String, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // a view into the source (String: without the quotes)
  std::uint32_t line = 0;
};

// Throws PtxError (an unterminated string or comment, a character PTX does not use).
std::vector<Token> tokenize(std::string_view source, const std::string& path);

}  // namespace warpscope::ptx
