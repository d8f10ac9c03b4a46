// `warpscope pattern`: one warp access described on the command line.
#pragma once

#include <cstdint>
#include <string>

#include "warpscope/warp_access.hpp"

namespace warpscope {

struct PatternSpec {
  Space space = Space::Global;
  Op op = Op::Load;
  unsigned size = 4;
  std::string index = "lane";  // lane i accesses base + size * index(i)
  std::uint64_t base = 0;
  CacheOp cache = CacheOp::Default;
  std::uint32_t mask = 0xffffffffu;
  AtomicOp atomic_op = AtomicOp::Unknown;  // atomics and reductions only
};

// Builds the warp record. Throws InputError (LaneExprError for the expression)
// naming the flag and lane at fault: bad size, misaligned base, negative or
// overflowing address, cache operator that does not fit the space/operation.
WarpAccess build_pattern(const PatternSpec& spec);

// One line describing the pattern, e.g. "global ld 4 B, index lane*2, base 0x0".
std::string describe(const PatternSpec& spec);

}  // namespace warpscope
