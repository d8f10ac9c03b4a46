// The index expression language of `warpscope pattern --index EXPR`: lane i of
// a warp accesses `base + size * EXPR(i)`.
//
// Grammar (C precedence and associativity, all binary operators left-assoc):
//
//   expr    := xor   ( '|'  xor   )*
//   xor     := and   ( '^'  and   )*
//   and     := shift ( '&'  shift )*
//   shift   := add   ( ('<<' | '>>') add )*
//   add     := mul   ( ('+' | '-') mul )*
//   mul     := unary ( ('*' | '/' | '%') unary )*
//   unary   := ('-' | '+' | '~') unary | primary
//   primary := DECIMAL | HEX | 'lane' | 'tid' | '(' expr ')'
//            | 'rand' '(' expr ',' expr ')' | 'perm' '(' expr ')'
//            | 'min' '(' expr ',' expr ')' | 'max' '(' expr ',' expr ')'
//
// DECIMAL is `0` or a digit string without leading zeros (no octal); HEX is
// `0x`/`0X` and hex digits. Literals must fit in a signed 64-bit integer.
// Spaces and tabs separate tokens. `tid` is an alias of `lane`. Expressions
// are limited to 4096 bytes and 200 levels of nesting (parentheses, function
// calls and unary operators each count as a level).
//
// Evaluation uses 64-bit two's-complement arithmetic that wraps on overflow
// (never undefined behaviour). `/` and `%` truncate toward zero as in C, and
// INT64_MIN / -1 wraps to INT64_MIN (with remainder 0). `>>` is an arithmetic
// shift. Division or modulo by zero and shift counts outside 0..63 are errors
// reported by eval() with the lane and the column of the operator.
//
// Pseudo-random functions, fixed forever so results are reproducible. Let
// sm(x) be the first output of a SplitMix64 generator seeded with x:
//
//   z = x + 0x9E3779B97F4A7C15
//   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//   z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//   sm(x) = z ^ (z >> 31)                       (all on uint64, wrapping)
//
// * rand(seed, n) = sm(sm(seed) ^ lane) mod n, computed on uint64 (seed and
//   lane reinterpreted as uint64). n must be > 0 at evaluation time. The
//   result lies in [0, n).
// * perm(seed): start from p = [0, 1, ..., 31] and a SplitMix64 generator
//   with state s = seed; for i = 31 down to 1 { s += 0x9E3779B97F4A7C15;
//   j = mix(s) mod (i + 1); swap(p[i], p[j]) } where mix is the output
//   function above (so the k-th draw is sm(seed + (k-1) * golden)).
//   For lane in 0..31 the result is p[lane]; for any other lane it is
//   (lane - r) + p[r] with r = lane mod 32 taken in 0..31, i.e. every aligned
//   block of 32 lanes is permuted the same way.
// * min(a, b), max(a, b): the smaller / larger argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/error.hpp"

namespace warpscope {

// A parse or evaluation error of an index expression. what() is one line:
// "bad index expression: <message> at column <N>" with N 1-based.
class LaneExprError : public InputError {
 public:
  LaneExprError(std::string message, std::string expression, std::size_t column);

  // 0-based byte offset of the problem in the expression (may equal the
  // expression's length for "unexpected end").
  std::size_t column() const { return column_; }
  // The message without the "bad index expression: " prefix and the column.
  const std::string& message() const { return message_; }
  const std::string& expression() const { return expression_; }
  // Two lines (no trailing newline): the expression, then spaces and a '^'
  // under the problem column. Control bytes in the expression are shown as
  // '?', tabs are kept so that the caret lines up.
  std::string caret() const;

 private:
  std::string message_;
  std::string expression_;
  std::size_t column_;
};

class LaneExpr {
 public:
  static constexpr std::size_t kMaxLength = 4096;
  static constexpr int kMaxDepth = 200;

  // Parses `text`; throws LaneExprError.
  static LaneExpr parse(std::string_view text);

  // Value of the expression for `lane`; throws LaneExprError on division or
  // modulo by zero, a shift count outside 0..63 or rand() with n <= 0.
  std::int64_t eval(std::int64_t lane) const;

  const std::string& text() const { return text_; }

  // Implementation detail: one node of the post-ordered syntax tree.
  struct Node {
    std::uint8_t op;
    std::uint32_t lhs;      // index of the first operand, if any
    std::uint32_t rhs;      // index of the second operand, if any
    std::uint32_t column;   // where errors about this node point
    std::int64_t value;     // literal value
  };

 private:
  LaneExpr() = default;
  std::string text_;
  std::vector<Node> nodes_;  // children precede parents; the root is last
};

}  // namespace warpscope
