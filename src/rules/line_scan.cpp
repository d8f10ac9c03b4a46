#include "rules/line_scan.hpp"

#include <bit>

#include "rules/small_map.hpp"

namespace warpscope::rules {
namespace {

struct LineEntry {
  std::uint64_t bytes[2];    // bit i: byte i of the (<= 128 B) line is touched
  std::uint32_t sub_id;      // 1 + last sub-request that touched the line
  std::uint8_t sub_sectors;  // sectors touched by that sub-request
  std::uint8_t all_sectors;  // sectors touched by any sub-request
};

// Bytes [offset, offset + size) of a 128-bit mask, size <= 16, no wrap (aligned).
inline void mark_bytes(std::uint64_t (&bytes)[2], unsigned offset, unsigned size) {
  const std::uint64_t run = size >= 64 ? ~0ull : ((1ull << size) - 1);
  bytes[offset >> 6] |= run << (offset & 63);
}

}  // namespace

LineScan scan_lines(const WarpAccess& a, int lanes_per_sub, int line_shift, int sector_shift) {
  LineScan out;
  SmallMap<LineEntry, 64> lines;
  const unsigned size = a.size;
  const std::uint64_t align_mask = ~static_cast<std::uint64_t>(size - 1);
  const std::uint64_t line_mask = (1ull << line_shift) - 1;

  std::uint64_t last_line = ~0ull;
  LineEntry* last = nullptr;
  std::uint32_t sub_id = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lane % lanes_per_sub == 0) {
      sub_id = 0;  // assigned when the sub-request has its first active lane
      last_line = ~0ull;
    }
    if (!a.active.test(lane)) continue;
    if (sub_id == 0) {
      sub_id = static_cast<std::uint32_t>(lane / lanes_per_sub) + 1;
      ++out.sub_requests;
    }
    const std::uint64_t addr = a.addr[static_cast<unsigned>(lane)] & align_mask;
    const std::uint64_t line = addr >> line_shift;
    LineEntry* e = last;
    if (line != last_line) {
      bool inserted = false;
      e = &lines.get(line, inserted);
      last_line = line;
      last = e;
    }
    if (e->sub_id != sub_id) {
      e->sub_id = sub_id;
      e->sub_sectors = 0;
      ++out.sub_lines;
    }
    const unsigned offset = static_cast<unsigned>(addr & line_mask);
    const auto sector_bit = static_cast<std::uint8_t>(1u << (offset >> sector_shift));
    if ((e->sub_sectors & sector_bit) == 0) {
      e->sub_sectors |= sector_bit;
      ++out.sub_sectors;
    }
    e->all_sectors |= sector_bit;
    mark_bytes(e->bytes, offset, size);
  }
  out.lines = static_cast<std::uint32_t>(lines.size());
  lines.for_each([&](std::uint64_t, const LineEntry& e) {
    out.sectors += static_cast<std::uint32_t>(std::popcount(e.all_sectors));
    out.bytes_needed += static_cast<std::uint32_t>(std::popcount(e.bytes[0]) + std::popcount(e.bytes[1]));
  });
  return out;
}

}  // namespace warpscope::rules
