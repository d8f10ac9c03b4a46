// libFuzzer target for the index expression language: parse arbitrary bytes
// and, when they parse, evaluate lanes 0..31 (plus a few extreme lanes).
// LaneExprError is the only exception allowed to escape the library; anything
// else (another exception, a sanitizer report, a broken invariant) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "warpscope/lane_expr.hpp"

namespace {

void check_error(const warpscope::LaneExprError& e, std::string_view text) {
  // The column points into the expression or just past its end (the
  // "too long" error points at the first byte past the limit).
  if (e.column() > text.size()) std::abort();
  if (e.expression() != text) std::abort();
  // what() is one line; caret() is exactly two.
  if (std::strchr(e.what(), '\n') != nullptr) std::abort();
  const std::string caret = e.caret();
  const std::size_t newline = caret.find('\n');
  if (newline == std::string::npos || caret.find('\n', newline + 1) != std::string::npos) {
    std::abort();
  }
  if (caret.back() != '^') std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<warpscope::LaneExpr> parsed;
  try {
    parsed.emplace(warpscope::LaneExpr::parse(text));
  } catch (const warpscope::LaneExprError& e) {
    check_error(e, text);
    return 0;
  }
  const warpscope::LaneExpr& expr = *parsed;
  if (expr.text() != text) std::abort();

  constexpr std::int64_t kExtremes[] = {std::numeric_limits<std::int64_t>::min(), -1,
                                        std::numeric_limits<std::int64_t>::max()};
  for (std::int64_t lane = 0; lane < 32 + 3; ++lane) {
    const std::int64_t l = lane < 32 ? lane : kExtremes[lane - 32];
    try {
      const std::int64_t a = expr.eval(l);
      if (expr.eval(l) != a) std::abort();  // deterministic
    } catch (const warpscope::LaneExprError& e) {
      check_error(e, text);
    }
  }
  return 0;
}
