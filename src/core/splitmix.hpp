// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators"): the lane expressions' rand()/perm() and `warpscope run`'s
// random and index fills draw from it, so their values are reproducible
// outside warpscope (validation/kernels make the same streams).
#pragma once

#include <cstdint>

namespace warpscope {

inline constexpr std::uint64_t kSplitmixGamma = 0x9E3779B97F4A7C15ULL;

// The output function of one state.
constexpr std::uint64_t splitmix_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Advances the state and returns the next value of the stream.
constexpr std::uint64_t splitmix_next(std::uint64_t& state) { return splitmix_mix(state += kSplitmixGamma); }

}  // namespace warpscope
