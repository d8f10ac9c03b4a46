// Parser and evaluator of index expressions; see warpscope/lane_expr.hpp for
// the grammar and the exact semantics.
#include "warpscope/lane_expr.hpp"

#include <array>
#include <cstdio>
#include <limits>
#include <utility>

#include "core/splitmix.hpp"

namespace warpscope {

namespace {

std::string format_what(const std::string& message, std::size_t column) {
  return "bad index expression: " + message + " at column " + std::to_string(column + 1);
}

enum Op : std::uint8_t {
  kLiteral,
  kLane,
  kNeg,
  kNot,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kShl,
  kShr,
  kAnd,
  kXor,
  kOr,
  kRand,
  kPerm,
  kMin,
  kMax,
};

enum class Tok {
  kEnd,
  kNumber,
  kIdent,
  kLParen,
  kRParen,
  kComma,
  kPlus,
  kMinus,
  kTilde,
  kStar,
  kSlash,
  kPercent,
  kShl,
  kShr,
  kAmp,
  kCaret,
  kPipe,
};

struct Token {
  Tok kind = Tok::kEnd;
  std::size_t begin = 0;  // byte offset
  std::size_t end = 0;
  std::int64_t value = 0;  // for kNumber
};

constexpr std::uint64_t sm(std::uint64_t x) { return splitmix_mix(x + kSplitmixGamma); }

std::int64_t rand_value(std::int64_t seed, std::int64_t n, std::int64_t lane) {
  const std::uint64_t h = sm(sm(static_cast<std::uint64_t>(seed)) ^ static_cast<std::uint64_t>(lane));
  return static_cast<std::int64_t>(h % static_cast<std::uint64_t>(n));
}

std::int64_t perm_value(std::int64_t seed, std::int64_t lane) {
  std::array<std::int64_t, 32> p{};
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<std::int64_t>(i);
  std::uint64_t s = static_cast<std::uint64_t>(seed);
  for (std::size_t i = 31; i >= 1; --i) {
    const std::size_t j = static_cast<std::size_t>(splitmix_next(s) % (i + 1));
    std::swap(p[i], p[j]);
  }
  const std::int64_t r = lane & 31;  // lane mod 32 in 0..31 (two's complement)
  return (lane - r) + p[static_cast<std::size_t>(r)];
}

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Shows a byte of the expression in a message, quoted when printable.
std::string describe_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned>(u));
  return buf;
}

std::string shorten(std::string_view s) {
  constexpr std::size_t kMax = 32;
  if (s.size() <= kMax) return std::string(s);
  return std::string(s.substr(0, kMax)) + "...";
}

struct Function {
  std::string_view name;
  Op op;
  int arity;
};
constexpr std::array<Function, 4> kFunctions{{
    {"rand", kRand, 2},
    {"perm", kPerm, 1},
    {"min", kMin, 2},
    {"max", kMax, 2},
}};
constexpr const char* kKnownNames = "lane, tid, rand, perm, min, max";

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::vector<LaneExpr::Node> run() {
    if (text_.size() > LaneExpr::kMaxLength) {
      fail("expression is too long (" + std::to_string(text_.size()) + " bytes, at most " +
               std::to_string(LaneExpr::kMaxLength) + ")",
           LaneExpr::kMaxLength);
    }
    advance();
    parse_binary(0);
    if (tok_.kind != Tok::kEnd) {
      if (tok_.kind == Tok::kRParen) fail("unmatched ')'", tok_.begin);
      fail("unexpected " + describe(tok_) + " after complete expression", tok_.begin);
    }
    return std::move(nodes_);
  }

 private:
  [[noreturn]] void fail(const std::string& message, std::size_t column) const {
    throw LaneExprError(message, std::string(text_), column);
  }

  std::string describe(const Token& t) const {
    if (t.kind == Tok::kEnd) return "end of expression";
    std::string out(1, '\'');
    out += shorten(text_.substr(t.begin, t.end - t.begin));
    out += '\'';
    return out;
  }

  // Lexes the next token into tok_.
  void advance() {
    std::size_t i = tok_.end;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t')) ++i;
    tok_ = Token{};
    tok_.begin = i;
    tok_.end = i;
    if (i >= text_.size()) return;
    const char c = text_[i];
    auto single = [&](Tok kind, std::size_t len = 1) {
      tok_.kind = kind;
      tok_.end = i + len;
    };
    switch (c) {
      case '(': return single(Tok::kLParen);
      case ')': return single(Tok::kRParen);
      case ',': return single(Tok::kComma);
      case '+': return single(Tok::kPlus);
      case '-': return single(Tok::kMinus);
      case '~': return single(Tok::kTilde);
      case '*': return single(Tok::kStar);
      case '/': return single(Tok::kSlash);
      case '%': return single(Tok::kPercent);
      case '&': return single(Tok::kAmp);
      case '^': return single(Tok::kCaret);
      case '|': return single(Tok::kPipe);
      case '<':
        if (i + 1 < text_.size() && text_[i + 1] == '<') return single(Tok::kShl, 2);
        fail("unexpected character '<' (comparisons are not supported; did you mean '<<'?)", i);
      case '>':
        if (i + 1 < text_.size() && text_[i + 1] == '>') return single(Tok::kShr, 2);
        fail("unexpected character '>' (comparisons are not supported; did you mean '>>'?)", i);
      default: break;
    }
    if (is_digit(c)) return lex_number(i);
    if (is_ident_start(c)) {
      std::size_t j = i;
      while (j < text_.size() && is_ident_char(text_[j])) ++j;
      tok_.kind = Tok::kIdent;
      tok_.end = j;
      return;
    }
    fail("unexpected character " + describe_char(c), i);
  }

  void lex_number(std::size_t i) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::size_t j = i;
    std::uint64_t value = 0;
    bool overflow = false;
    if (text_[i] == '0' && i + 1 < text_.size() && (text_[i + 1] == 'x' || text_[i + 1] == 'X')) {
      j = i + 2;
      if (j >= text_.size() || hex_digit(text_[j]) < 0) fail("expected hex digits after '0x'", j);
      while (j < text_.size() && hex_digit(text_[j]) >= 0) {
        const auto d = static_cast<std::uint64_t>(hex_digit(text_[j]));
        if (value > (kMax - d) / 16) overflow = true;
        else value = value * 16 + d;
        ++j;
      }
    } else {
      if (text_[i] == '0' && i + 1 < text_.size() && is_digit(text_[i + 1])) {
        fail("integer literal with a leading zero (octal is not supported)", i);
      }
      while (j < text_.size() && is_digit(text_[j])) {
        const auto d = static_cast<std::uint64_t>(text_[j] - '0');
        if (value > (kMax - d) / 10) overflow = true;
        else value = value * 10 + d;
        ++j;
      }
    }
    if (j < text_.size() && is_ident_char(text_[j])) {
      fail("unexpected character " + describe_char(text_[j]) + " in integer literal", j);
    }
    if (overflow) {
      fail("integer literal " + shorten(text_.substr(i, j - i)) +
               " does not fit in a signed 64-bit integer",
           i);
    }
    tok_.kind = Tok::kNumber;
    tok_.end = j;
    tok_.value = static_cast<std::int64_t>(value);
  }

  void expect(Tok kind, const char* what) {
    if (tok_.kind == kind) {
      advance();
      return;
    }
    if (tok_.kind == Tok::kEnd) {
      fail(std::string("unexpected end of expression (expected ") + what + ")", tok_.begin);
    }
    fail(std::string("expected ") + what + " but found " + describe(tok_), tok_.begin);
  }

  std::uint32_t push(Op op, std::size_t column, std::uint32_t lhs = 0, std::uint32_t rhs = 0,
                     std::int64_t value = 0) {
    nodes_.push_back(LaneExpr::Node{op, lhs, rhs, static_cast<std::uint32_t>(column), value});
    return static_cast<std::uint32_t>(nodes_.size() - 1);
  }

  void enter(std::size_t column) {
    if (++depth_ > LaneExpr::kMaxDepth) {
      fail("expression is nested too deeply (more than " + std::to_string(LaneExpr::kMaxDepth) +
               " levels)",
           column);
    }
  }

  // Binary operator of tok_ at precedence `level` (0 = '|' ... 5 = '* / %'),
  // or false if tok_ is not one.
  bool binary_op(int level, Op& op) const {
    switch (level) {
      case 0:
        if (tok_.kind == Tok::kPipe) return op = kOr, true;
        return false;
      case 1:
        if (tok_.kind == Tok::kCaret) return op = kXor, true;
        return false;
      case 2:
        if (tok_.kind == Tok::kAmp) return op = kAnd, true;
        return false;
      case 3:
        if (tok_.kind == Tok::kShl) return op = kShl, true;
        if (tok_.kind == Tok::kShr) return op = kShr, true;
        return false;
      case 4:
        if (tok_.kind == Tok::kPlus) return op = kAdd, true;
        if (tok_.kind == Tok::kMinus) return op = kSub, true;
        return false;
      default:
        if (tok_.kind == Tok::kStar) return op = kMul, true;
        if (tok_.kind == Tok::kSlash) return op = kDiv, true;
        if (tok_.kind == Tok::kPercent) return op = kMod, true;
        return false;
    }
  }

  // Recursion depth here is bounded by the 6 precedence levels per nesting
  // level, and nesting is bounded by kMaxDepth.
  std::uint32_t parse_binary(int level) {
    if (level > 5) return parse_unary();
    std::uint32_t lhs = parse_binary(level + 1);
    Op op{};
    while (binary_op(level, op)) {
      const std::size_t column = tok_.begin;
      advance();
      const std::uint32_t rhs = parse_binary(level + 1);
      lhs = push(op, column, lhs, rhs);
    }
    return lhs;
  }

  std::uint32_t parse_unary() {
    if (tok_.kind == Tok::kMinus || tok_.kind == Tok::kPlus || tok_.kind == Tok::kTilde) {
      const Tok kind = tok_.kind;
      const std::size_t column = tok_.begin;
      enter(column);
      advance();
      std::uint32_t operand = parse_unary();
      --depth_;
      if (kind == Tok::kMinus) return push(kNeg, column, operand);
      if (kind == Tok::kTilde) return push(kNot, column, operand);
      return operand;
    }
    return parse_primary();
  }

  std::uint32_t parse_primary() {
    const Token t = tok_;
    switch (t.kind) {
      case Tok::kNumber:
        advance();
        return push(kLiteral, t.begin, 0, 0, t.value);
      case Tok::kLParen: {
        enter(t.begin);
        advance();
        const std::uint32_t inner = parse_binary(0);
        expect(Tok::kRParen, "')'");
        --depth_;
        return inner;
      }
      case Tok::kIdent:
        return parse_identifier(t);
      case Tok::kEnd:
        fail("unexpected end of expression", t.begin);
      default:
        fail("unexpected " + describe(t), t.begin);
    }
  }

  std::uint32_t parse_identifier(const Token& t) {
    const std::string_view name = text_.substr(t.begin, t.end - t.begin);
    if (name == "lane" || name == "tid") {
      advance();
      return push(kLane, t.begin);
    }
    for (const Function& f : kFunctions) {
      if (name != f.name) continue;
      advance();
      if (tok_.kind != Tok::kLParen) {
        fail("expected '(' after '" + std::string(name) + "' but found " + describe(tok_),
             tok_.begin);
      }
      enter(tok_.begin);
      advance();
      std::array<std::uint32_t, 2> args{};
      int count = 0;
      if (tok_.kind != Tok::kRParen) {
        while (true) {
          const std::uint32_t arg = parse_binary(0);
          if (count < 2) args[static_cast<std::size_t>(count)] = arg;
          ++count;
          if (tok_.kind != Tok::kComma) break;
          advance();
        }
      }
      if (tok_.kind != Tok::kRParen) {
        if (tok_.kind == Tok::kEnd) {
          fail("unexpected end of expression (expected ',' or ')')", tok_.begin);
        }
        fail("expected ',' or ')' but found " + describe(tok_), tok_.begin);
      }
      advance();
      --depth_;
      if (count != f.arity) {
        fail(std::string(name) + "() takes " + std::to_string(f.arity) + " argument" +
                 (f.arity == 1 ? "" : "s") + " but got " + std::to_string(count),
             t.begin);
      }
      return push(f.op, t.begin, args[0], args[1]);
    }
    fail("unknown identifier '" + shorten(name) + "' (known: " + kKnownNames + ")", t.begin);
  }

  std::string_view text_;
  Token tok_;
  int depth_ = 0;
  std::vector<LaneExpr::Node> nodes_;
};

std::int64_t wrap(std::uint64_t v) { return static_cast<std::int64_t>(v); }
std::uint64_t u(std::int64_t v) { return static_cast<std::uint64_t>(v); }

}  // namespace

LaneExprError::LaneExprError(std::string message, std::string expression, std::size_t column)
    : InputError(format_what(message, column)),
      message_(std::move(message)),
      expression_(std::move(expression)),
      column_(column) {}

std::string LaneExprError::caret() const {
  std::string out;
  out.reserve(2 * expression_.size() + 3);
  for (char c : expression_) {
    const auto b = static_cast<unsigned char>(c);
    out += (b < 0x20 && c != '\t') || b == 0x7f ? '?' : c;
  }
  out += '\n';
  for (std::size_t i = 0; i < column_ && i < expression_.size(); ++i) {
    const auto b = static_cast<unsigned char>(expression_[i]);
    if (b >= 0x80 && b < 0xc0) continue;  // UTF-8 continuation byte: same glyph
    out += expression_[i] == '\t' ? '\t' : ' ';
  }
  for (std::size_t i = expression_.size(); i < column_; ++i) out += ' ';
  out += '^';
  return out;
}

LaneExpr LaneExpr::parse(std::string_view text) {
  LaneExpr expr;
  expr.nodes_ = Parser(text).run();
  expr.text_ = std::string(text);
  return expr;
}

std::int64_t LaneExpr::eval(std::int64_t lane) const {
  // Nodes are in post-order, so one forward pass evaluates every subtree
  // before its parent without recursion.
  std::vector<std::int64_t> v(nodes_.size());
  auto fail = [&](const std::string& message, const Node& n) {
    throw LaneExprError(message + " for lane " + std::to_string(lane), text_, n.column);
  };
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    const std::int64_t a = n.op >= kNeg ? v[n.lhs] : 0;
    const std::int64_t b = n.op >= kAdd && n.op != kPerm ? v[n.rhs] : 0;
    std::int64_t r = 0;
    switch (static_cast<Op>(n.op)) {
      case kLiteral: r = n.value; break;
      case kLane: r = lane; break;
      case kNeg: r = wrap(0 - u(a)); break;
      case kNot: r = ~a; break;
      case kAdd: r = wrap(u(a) + u(b)); break;
      case kSub: r = wrap(u(a) - u(b)); break;
      case kMul: r = wrap(u(a) * u(b)); break;
      case kDiv:
      case kMod:
        if (b == 0) fail(n.op == kDiv ? "division by zero" : "modulo by zero", n);
        if (b == -1) {
          r = n.op == kDiv ? wrap(0 - u(a)) : 0;  // avoids INT64_MIN / -1
        } else {
          r = n.op == kDiv ? a / b : a % b;
        }
        break;
      case kShl:
      case kShr:
        if (b < 0 || b > 63) {
          fail("shift count " + std::to_string(b) + " is outside 0..63", n);
        }
        r = n.op == kShl ? wrap(u(a) << b) : a >> b;
        break;
      case kAnd: r = a & b; break;
      case kXor: r = a ^ b; break;
      case kOr: r = a | b; break;
      case kRand:
        if (b <= 0) fail("rand(seed, n) needs n > 0 but n is " + std::to_string(b), n);
        r = rand_value(a, b, lane);
        break;
      case kPerm: r = perm_value(a, lane); break;
      case kMin: r = a < b ? a : b; break;
      case kMax: r = a < b ? b : a; break;
    }
    v[i] = r;
  }
  return v.back();
}

}  // namespace warpscope
