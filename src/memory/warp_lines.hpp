// The distinct cache lines one warp record touches, with the sectors (and, for
// writes, the bytes) of each: what the caches see of an instruction. The same
// walk as the rules engine's line scan (src/rules/line_scan.cpp), keeping the
// lines instead of counting them. Allocation-free: the result lives in a
// fixed array (an aligned access of <= 16 B never crosses a 128 B line, so a
// warp touches at most 32 lines).
#pragma once

#include <array>
#include <cstdint>

#include "warpscope/cache.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::memory {

struct WarpLine {
  std::uint64_t line = 0;  // byte address >> line_shift
  SectorMask sectors;      // sectors with at least one byte touched
  LineBytes bytes;         // bytes touched (only when collected with_bytes)
};

struct WarpLines {
  std::uint32_t count = 0;             // lines, in order of first touch by lane
  std::uint32_t sectors = 0;           // distinct sectors over all lines
  std::array<WarpLine, kWarpSize> lines;
};

// line_shift: log2(line bytes) (<= 7); sector_bytes: 32 typically.
void collect_lines(const WarpAccess& a, int line_shift, unsigned sector_bytes, bool with_bytes, WarpLines& out);

}  // namespace warpscope::memory
