// One pass over the active lanes of a warp access that counts distinct cache
// lines and sectors, per sub-request and over the whole instruction, and the
// distinct bytes touched. The building block of every global-memory rule set.
#pragma once

#include <bit>
#include <cstdint>

#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

struct LineScan {
  std::uint32_t sub_requests = 0;  // sub-requests with at least one active lane
  std::uint32_t lines = 0;         // distinct lines, whole instruction
  std::uint32_t sectors = 0;       // distinct sectors, whole instruction
  std::uint32_t sub_lines = 0;     // sum over sub-requests of their distinct lines
  std::uint32_t sub_sectors = 0;   // sum over sub-requests of their distinct sectors
  std::uint32_t bytes_needed = 0;  // distinct bytes touched
};

// lanes_per_sub: lanes of one independent request (32, 16, 8, 4, 2).
// line_shift/sector_shift: log2 of line and sector size (line <= 128 B, >= sector).
LineScan scan_lines(const WarpAccess& a, int lanes_per_sub, int line_shift, int sector_shift);

// Lane l at addr[0] + l * size for every lane, addresses compared under
// `align_mask` (an OR-reduction the compiler vectorises). The coalesced fast
// path of the rules engine and of the memory system's line collection.
inline bool lanes_contiguous(const WarpAccess& a, std::uint64_t align_mask) {
  const std::uint64_t a0 = a.addr[0] & align_mask;
  const std::uint64_t size = a.size;
  std::uint64_t diff = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) diff |= (a.addr[l] & align_mask) ^ (a0 + l * size);
  return diff == 0;
}

// log2 of a power of two.
constexpr int log2_exact(unsigned v) { return std::countr_zero(v); }

}  // namespace warpscope::rules
