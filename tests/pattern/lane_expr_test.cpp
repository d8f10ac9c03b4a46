// Tests of the index expression language (warpscope/lane_expr.hpp). Expected
// values are worked out by hand; the pinned rand/perm values come from an
// independent Python transcription of the algorithm documented in the header.
#include "warpscope/lane_expr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace warpscope {
namespace {

std::int64_t eval(const std::string& text, std::int64_t lane) {
  return LaneExpr::parse(text).eval(lane);
}

// Parses `text` (and evaluates it for `lane` when parsing succeeds) and
// returns the error that results; fails the test if there is none.
LaneExprError error_of(const std::string& text, std::int64_t lane = 0) {
  try {
    (void)LaneExpr::parse(text).eval(lane);
  } catch (const LaneExprError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for: " << text;
  return LaneExprError("none", text, 0);
}

std::vector<std::int64_t> warp(const std::string& text) {
  const LaneExpr expr = LaneExpr::parse(text);
  std::vector<std::int64_t> out;
  for (std::int64_t lane = 0; lane < 32; ++lane) out.push_back(expr.eval(lane));
  return out;
}

constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();

TEST(LaneExprEval, Basics) {
  EXPECT_EQ(eval("lane", 9), 9);
  EXPECT_EQ(eval("42", 9), 42);
  EXPECT_EQ(eval("0", 9), 0);
  EXPECT_EQ(eval("  lane\t+ 1 ", 9), 10);
  EXPECT_EQ(LaneExpr::parse("lane * 4").text(), "lane * 4");
}

TEST(LaneExprEval, Precedence) {
  EXPECT_EQ(eval("lane*2+1", 5), 11);
  EXPECT_EQ(eval("1+lane*2", 5), 11);
  EXPECT_EQ(eval("lane<<2|1", 3), 13);   // (3<<2)|1, not 3<<(2|1) = 24
  EXPECT_EQ(eval("(lane+1)*4", 3), 16);
  EXPECT_EQ(eval("lane%8*33", 13), 165);  // (13%8)*33, not 13%264 = 13
  EXPECT_EQ(eval("-lane", 7), -7);
  EXPECT_EQ(eval("~lane&7", 5), 2);       // (~5)&7 = ...11010 & 111, not ~(5&7) = -6
  EXPECT_EQ(eval("lane+1<<2", 1), 8);     // (1+1)<<2, not 1+(1<<2) = 5
  EXPECT_EQ(eval("lane^1&3", 6), 7);      // 6^(1&3), not (6^1)&3 = 3
  EXPECT_EQ(eval("lane|1^3", 1), 3);      // 1|(1^3), not (1|1)^3 = 2
  EXPECT_EQ(eval("lane&2|1", 4), 1);      // (4&2)|1 = 1, not 4&(2|1) = 0
  EXPECT_EQ(eval("lane-2*-3", 1), 7);
  EXPECT_EQ(eval("--lane", 4), 4);
  EXPECT_EQ(eval("+lane", 4), 4);
  EXPECT_EQ(eval("-~lane", 4), 5);
}

TEST(LaneExprEval, LeftAssociative) {
  EXPECT_EQ(eval("10-lane-1", 2), 7);   // (10-2)-1, not 10-(2-1) = 9
  EXPECT_EQ(eval("100/lane/2", 5), 10);  // (100/5)/2, not 100/(5/2) = 50
  EXPECT_EQ(eval("1<<lane<<1", 2), 8);
  EXPECT_EQ(eval("64>>lane>>1", 2), 8);
}

TEST(LaneExprEval, TidAlias) {
  EXPECT_EQ(eval("tid", 17), 17);
  EXPECT_EQ(eval("tid*4+lane", 3), 15);
}

TEST(LaneExprEval, Hex) {
  EXPECT_EQ(eval("0x10+lane", 1), 17);
  EXPECT_EQ(eval("0XfF", 0), 255);
  EXPECT_EQ(eval("0x7fffffffffffffff", 0), kMax64);
  EXPECT_EQ(eval("lane&0x1F", 45), 13);
}

TEST(LaneExprEval, CDivisionAndShifts) {
  EXPECT_EQ(eval("-7/2", 0), -3);
  EXPECT_EQ(eval("-7%2", 0), -1);
  EXPECT_EQ(eval("7%-2", 0), 1);
  EXPECT_EQ(eval("-lane>>1", 5), -3);  // arithmetic shift of -5
  EXPECT_EQ(eval("1<<63", 0), kMin64);
  EXPECT_EQ(eval("lane>>63", 1), 0);
}

TEST(LaneExprEval, WrapsInsteadOfOverflowing) {
  EXPECT_EQ(eval("9223372036854775807+1", 0), kMin64);
  EXPECT_EQ(eval("-9223372036854775807-2", 0), kMax64);
  EXPECT_EQ(eval("(-9223372036854775807-1)/-1", 0), kMin64);
  EXPECT_EQ(eval("(-9223372036854775807-1)%-1", 0), 0);
  EXPECT_EQ(eval("-(-9223372036854775807-1)", 0), kMin64);
  EXPECT_EQ(eval("0x4000000000000000*4", 0), 0);
  EXPECT_EQ(eval("-1<<63", 0), kMin64);
  EXPECT_EQ(eval("lane*lane", 3037000500), -9223372036709301616);  // 3037000500^2 - 2^64
}

TEST(LaneExprEval, MinMax) {
  EXPECT_EQ(eval("min(lane, 4)", 7), 4);
  EXPECT_EQ(eval("min(lane, 4)", 2), 2);
  EXPECT_EQ(eval("max(lane,4)", 2), 4);
  EXPECT_EQ(eval("max(lane,4)", 9), 9);
  EXPECT_EQ(eval("max(-lane, min(lane*2, 3)) + 1", 1), 3);
}

TEST(LaneExprRand, PinnedValues) {
  // Values from the Python transcription (whose sm(0) equals SplitMix64's
  // well-known first output for seed 0, 0xE220A8397B1DCDAF).
  EXPECT_EQ(eval("rand(42, 1000)", 0), 668);
  EXPECT_EQ(eval("rand(42, 1000)", 1), 893);
  EXPECT_EQ(eval("rand(42, 1000)", 2), 94);
  EXPECT_EQ(eval("rand(42, 1000)", 3), 698);
  EXPECT_EQ(eval("rand(7, 1<<62)", 0), 4086104717852921413);
  EXPECT_EQ(eval("rand(7, 1<<62)", 1), 4414019431610648415);
}

TEST(LaneExprRand, DeterministicAndInRange) {
  for (std::int64_t n : {1, 2, 7, 32, 1024, 1000003}) {
    const std::string text = "rand(123, " + std::to_string(n) + ")";
    const std::vector<std::int64_t> a = warp(text);
    const std::vector<std::int64_t> b = warp(text);
    EXPECT_EQ(a, b) << text;
    for (std::int64_t v : a) {
      EXPECT_GE(v, 0) << text;
      EXPECT_LT(v, n) << text;
    }
  }
  // n = 1 leaves only 0.
  EXPECT_EQ(warp("rand(5, 1)"), std::vector<std::int64_t>(32, 0));
}

TEST(LaneExprRand, SeedsAndLanesDiffer) {
  const std::vector<std::int64_t> s1 = warp("rand(1, 1024)");
  const std::vector<std::int64_t> s2 = warp("rand(2, 1024)");
  EXPECT_NE(s1, s2);
  // 32 draws out of 1024 values: far more than 8 distinct ones.
  EXPECT_GT(std::set<std::int64_t>(s1.begin(), s1.end()).size(), 8U);
}

TEST(LaneExprRand, ArgumentsAreExpressions) {
  // The seed expression is evaluated per lane: lane 5 uses seed 5/4 = 1.
  const LaneExpr expr = LaneExpr::parse("rand(lane/4, 1024)");
  EXPECT_EQ(expr.eval(5), eval("rand(1, 1024)", 5));
  EXPECT_EQ(expr.eval(13), eval("rand(3, 1024)", 13));
  EXPECT_EQ(eval("rand(1, 512 + 512)", 9), eval("rand(1, 1024)", 9));
}

TEST(LaneExprPerm, PinnedSeedZero) {
  const std::vector<std::int64_t> expected{13, 17, 7,  26, 21, 14, 18, 1,  20, 8,  16,
                                           29, 10, 6,  2,  22, 9,  30, 0,  3,  4,  24,
                                           5,  11, 31, 28, 12, 23, 27, 19, 25, 15};
  EXPECT_EQ(warp("perm(0)"), expected);
  EXPECT_EQ(eval("perm(1)", 0), 25);
  EXPECT_EQ(eval("perm(1)", 31), 1);
  EXPECT_EQ(eval("perm(-1)", 31), 0);
}

TEST(LaneExprPerm, IsPermutationForSeveralSeeds) {
  std::vector<std::int64_t> identity(32);
  for (std::size_t i = 0; i < 32; ++i) identity[i] = static_cast<std::int64_t>(i);
  std::set<std::vector<std::int64_t>> seen;
  for (std::int64_t seed : std::vector<std::int64_t>{0, 1, 2, 3, 99, -1, 123456789, kMax64}) {
    const std::string text = "perm(" + std::to_string(seed) + ")";
    std::vector<std::int64_t> p = warp(text);
    EXPECT_EQ(p, warp(text)) << text;  // deterministic
    seen.insert(p);
    std::sort(p.begin(), p.end());
    EXPECT_EQ(p, identity) << text;
  }
  EXPECT_EQ(seen.size(), 8U);  // different seeds, different permutations
}

TEST(LaneExprPerm, LanesOutsideTheWarpKeepTheirBlock) {
  // perm(0) maps 0 -> 13, 1 -> 17 and 31 -> 15.
  EXPECT_EQ(eval("perm(0)", 32), 45);
  EXPECT_EQ(eval("perm(0)", 65), 81);
  EXPECT_EQ(eval("perm(0)", -1), -17);  // block -32..-1, offset 31 -> 15
  EXPECT_EQ(eval("perm(0)", -32), -19);  // offset 0 -> 13
  EXPECT_EQ(eval("perm(lane/32)", 33), eval("perm(1)", 1) + 32);
}

// --- errors ---------------------------------------------------------------

void expect_error(const std::string& text, std::size_t column, const std::string& message,
                  std::int64_t lane = 0) {
  const LaneExprError e = error_of(text, lane);
  EXPECT_EQ(e.column(), column) << text << ": " << e.what();
  EXPECT_EQ(e.message(), message) << text;
  EXPECT_EQ(std::string(e.what()),
            "bad index expression: " + message + " at column " + std::to_string(column + 1))
      << text;
  EXPECT_EQ(e.expression(), text);
}

TEST(LaneExprErrors, IsAnInputError) {
  try {
    (void)LaneExpr::parse("lane+");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "bad index expression: unexpected end of expression at column 6");
  }
}

TEST(LaneExprErrors, UnexpectedToken) {
  expect_error("(lane+)", 6, "unexpected ')'");
  expect_error("lane**2", 5, "unexpected '*'");
  expect_error("lane&&1", 5, "unexpected '&'");
  expect_error(",", 0, "unexpected ','");
}

TEST(LaneExprErrors, UnexpectedCharacter) {
  expect_error("lane $ 2", 5, "unexpected character '$'");
  expect_error("lane+\x01", 5, "unexpected character byte 0x01");
  expect_error("lane < 2", 5,
               "unexpected character '<' (comparisons are not supported; did you mean '<<'?)");
  expect_error("lane>2", 4,
               "unexpected character '>' (comparisons are not supported; did you mean '>>'?)");
  expect_error("2.5", 1, "unexpected character '.'");
}

TEST(LaneExprErrors, UnexpectedEnd) {
  expect_error("", 0, "unexpected end of expression");
  expect_error("   ", 3, "unexpected end of expression");
  expect_error("lane +", 6, "unexpected end of expression");
  expect_error("-", 1, "unexpected end of expression");
  expect_error("(lane", 5, "unexpected end of expression (expected ')')");
  expect_error("min(1,", 6, "unexpected end of expression");
  expect_error("min(1", 5, "unexpected end of expression (expected ',' or ')')");
  expect_error("rand", 4, "expected '(' after 'rand' but found end of expression");
}

TEST(LaneExprErrors, TrailingInput) {
  expect_error("(lane))", 6, "unmatched ')'");
  expect_error("lane 2", 5, "unexpected '2' after complete expression");
  expect_error("lane lane", 5, "unexpected 'lane' after complete expression");
  expect_error("lane(1)", 4, "unexpected '(' after complete expression");
}

TEST(LaneExprErrors, MissingClosingParenthesis) {
  expect_error("(lane 2)", 6, "expected ')' but found '2'");
  expect_error("min(1 2)", 6, "expected ',' or ')' but found '2'");
  expect_error("perm 3", 5, "expected '(' after 'perm' but found '3'");
}

TEST(LaneExprErrors, UnknownIdentifier) {
  expect_error("2*foo+1", 2,
               "unknown identifier 'foo' (known: lane, tid, rand, perm, min, max)");
  expect_error("LANE", 0, "unknown identifier 'LANE' (known: lane, tid, rand, perm, min, max)");
  expect_error("lane+threadIdx", 5,
               "unknown identifier 'threadIdx' (known: lane, tid, rand, perm, min, max)");
}

TEST(LaneExprErrors, WrongArgumentCount) {
  expect_error("rand(1)", 0, "rand() takes 2 arguments but got 1");
  expect_error("1 + perm(1, 2)", 4, "perm() takes 1 argument but got 2");
  expect_error("min()", 0, "min() takes 2 arguments but got 0");
  expect_error("max(1,2,3)", 0, "max() takes 2 arguments but got 3");
  expect_error("perm()", 0, "perm() takes 1 argument but got 0");
}

TEST(LaneExprErrors, IntegerLiterals) {
  EXPECT_EQ(eval("9223372036854775807", 0), kMax64);
  expect_error("9223372036854775808", 0,
               "integer literal 9223372036854775808 does not fit in a signed 64-bit integer");
  expect_error("1+99999999999999999999", 2,
               "integer literal 99999999999999999999 does not fit in a signed 64-bit integer");
  expect_error("0x8000000000000000", 0,
               "integer literal 0x8000000000000000 does not fit in a signed 64-bit integer");
  expect_error("lane+0x", 7, "expected hex digits after '0x'");
  expect_error("0xg", 2, "expected hex digits after '0x'");
  expect_error("12ab", 2, "unexpected character 'a' in integer literal");
  expect_error("0x1fz", 4, "unexpected character 'z' in integer literal");
  expect_error("010", 0, "integer literal with a leading zero (octal is not supported)");
}

TEST(LaneExprErrors, DivisionByZeroNamesTheLane) {
  const LaneExpr expr = LaneExpr::parse("lane/(lane-3)");
  EXPECT_EQ(expr.eval(4), 4);
  try {
    (void)expr.eval(3);
    FAIL() << "no exception";
  } catch (const LaneExprError& e) {
    EXPECT_EQ(e.column(), 4U);
    EXPECT_STREQ(e.what(), "bad index expression: division by zero for lane 3 at column 5");
    EXPECT_EQ(e.caret(), "lane/(lane-3)\n    ^");
  }
  expect_error("lane % 0", 5, "modulo by zero for lane 17", 17);
  expect_error("1/lane", 1, "division by zero for lane 0", 0);
}

TEST(LaneExprErrors, ShiftCountOutOfRange) {
  EXPECT_EQ(eval("1<<lane", 63), kMin64);
  expect_error("1<<lane", 1, "shift count 64 is outside 0..63 for lane 64", 64);
  expect_error("8 >> lane", 2, "shift count -1 is outside 0..63 for lane -1", -1);
}

TEST(LaneExprErrors, RandNeedsPositiveN) {
  expect_error("3 + rand(1, lane)", 4, "rand(seed, n) needs n > 0 but n is 0 for lane 0", 0);
  expect_error("rand(1, -lane)", 0, "rand(seed, n) needs n > 0 but n is -2 for lane 2", 2);
}

TEST(LaneExprErrors, Limits) {
  std::string ok = "1";
  while (ok.size() + 2 <= LaneExpr::kMaxLength) ok += "+1";
  ASSERT_LE(ok.size(), LaneExpr::kMaxLength);
  EXPECT_EQ(eval(ok, 0), static_cast<std::int64_t>((ok.size() + 1) / 2));

  const std::string too_long = std::string(LaneExpr::kMaxLength, ' ') + "1";
  expect_error(too_long, 4096, "expression is too long (4097 bytes, at most 4096)");

  const std::string nest200 = std::string(200, '(') + "lane" + std::string(200, ')');
  EXPECT_EQ(eval(nest200, 6), 6);
  const std::string nest201 = std::string(201, '(') + "lane" + std::string(201, ')');
  expect_error(nest201, 200, "expression is nested too deeply (more than 200 levels)");

  EXPECT_EQ(eval(std::string(200, '-') + "lane", 6), 6);
  expect_error(std::string(201, '~') + "lane", 200,
               "expression is nested too deeply (more than 200 levels)");

  std::string calls;
  for (int i = 0; i < 201; ++i) calls += "min(";
  expect_error(calls, 4 * 200 + 3, "expression is nested too deeply (more than 200 levels)");
}

TEST(LaneExprErrors, Caret) {
  EXPECT_EQ(error_of("(lane+)").caret(), "(lane+)\n      ^");
  EXPECT_EQ(error_of("lane $ 2").caret(), "lane $ 2\n     ^");
  EXPECT_EQ(error_of("lane +").caret(), "lane +\n      ^");    // past the end
  EXPECT_EQ(error_of("\tlane+").caret(), "\tlane+\n\t     ^");  // tabs kept
  EXPECT_EQ(error_of("lane+\x01").caret(), "lane+?\n     ^");   // control byte shown as '?'
  EXPECT_EQ(error_of("foo").caret(), "foo\n^");
}

TEST(LaneExprErrors, CaretAlignsAfterUtf8) {
  // "é" is two bytes but one column on screen.
  const LaneExprError e = error_of("\xC3\xA9");
  EXPECT_EQ(e.column(), 0U);
  const LaneExprError f = error_of("1+1 \xC3\xA9");
  EXPECT_EQ(f.column(), 4U);
  EXPECT_EQ(f.message(), "unexpected character byte 0xc3");
  EXPECT_EQ(f.caret(), "1+1 \xC3\xA9\n    ^");
}

}  // namespace
}  // namespace warpscope
