// An integer read from a TOML file (arch database, GPU models, tolerances.toml).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <toml++/toml.h>

namespace warpscope {

// An integer value, or a float with an exact integer value in int64 range (48.0);
// nothing otherwise. toml++'s own value<int64_t>() converts a float before checking
// its range (1e24: undefined behaviour, found by fuzz_arch_file), so integer reads
// of the project's TOML files go through here.
inline std::optional<std::int64_t> toml_integer(const toml::node& n) {
  if (const auto* i = n.as_integer()) return i->get();
  if (const auto* f = n.as_floating_point()) {
    const double v = f->get();
    // [-2^63, 2^63): the doubles an int64 can hold; NaN fails both comparisons.
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0 && std::trunc(v) == v)
      return static_cast<std::int64_t>(v);
  }
  return std::nullopt;
}

}  // namespace warpscope
