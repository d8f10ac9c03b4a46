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

// log2 of a power of two.
constexpr int log2_exact(unsigned v) { return std::countr_zero(v); }

}  // namespace warpscope::rules
