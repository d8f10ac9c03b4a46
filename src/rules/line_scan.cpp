#include "rules/line_scan.hpp"

#include <algorithm>
#include <bit>
#include <iterator>


namespace warpscope::rules {
namespace {

struct LineEntry {
  std::uint64_t bytes[2];    // bit i: byte i of the (<= 128 B) line is touched
  std::uint32_t sub_id;      // 1 + last sub-request that touched the line
  std::uint8_t sub_sectors;  // sectors touched by that sub-request
  std::uint8_t all_sectors;  // sectors touched by any sub-request
};

// Marks bytes [offset, offset + size) of a 128-bit mask (size <= 16, aligned, so
// no wrap) and returns how many were not marked before.
inline std::uint32_t mark_bytes(std::uint64_t (&bytes)[2], unsigned offset, unsigned size) {
  const std::uint64_t run = ((1ull << size) - 1) << (offset & 63);
  std::uint64_t& word = bytes[offset >> 6];
  const auto fresh = static_cast<std::uint32_t>(std::popcount(run & ~word));
  word |= run;
  return fresh;
}

// Lines and sectors of the byte range [lo, hi), counted arithmetically.
inline std::uint32_t units(std::uint64_t lo, std::uint64_t hi, int shift) {
  return static_cast<std::uint32_t>(((hi - 1) >> shift) - (lo >> shift) + 1);
}

LineScan scan_contiguous(const WarpAccess& a, int lanes_per_sub, int line_shift, int sector_shift) {
  LineScan out;
  const std::uint64_t lo = a.addr[0] & ~static_cast<std::uint64_t>(a.size - 1);
  const std::uint64_t hi = lo + static_cast<std::uint64_t>(kWarpSize) * a.size;
  out.lines = units(lo, hi, line_shift);
  out.sectors = units(lo, hi, sector_shift);
  out.bytes_needed = static_cast<std::uint32_t>(hi - lo);
  const std::uint64_t sub_bytes = static_cast<std::uint64_t>(lanes_per_sub) * a.size;
  for (std::uint64_t s = lo; s < hi; s += sub_bytes) {
    ++out.sub_requests;
    out.sub_lines += units(s, s + sub_bytes, line_shift);
    out.sub_sectors += units(s, s + sub_bytes, sector_shift);
  }
  return out;
}

// The entry of `line` in a 64-slot open-addressing table (kEmptyKey = free slot),
// created zeroed on first use, when `lines` counts one more distinct line.
constexpr unsigned kTableSlots = 64;
constexpr std::uint64_t kEmptyKey = ~0ull;
template <typename Entry>
Entry& line_entry(std::uint64_t (&keys)[kTableSlots], Entry (&entries)[kTableSlots], std::uint64_t line,
                  std::uint32_t& lines) {
  unsigned h = static_cast<unsigned>((line * 0x9E3779B97F4A7C15ull) >> 58);
  while (keys[h] != line && keys[h] != kEmptyKey) h = (h + 1) & (kTableSlots - 1);
  if (keys[h] == kEmptyKey) {
    keys[h] = line;
    entries[h] = Entry{};
    ++lines;
  }
  return entries[h];
}

// Fully scattered warps (every active lane in its own line) are common and need
// no table: a 4096-bit filter of hashed line numbers proves the lines distinct
// when no two lanes hit the same bit (~89% of random warps); any shared bit, or
// two consecutive lanes in one line, sends the warp to the exact scan instead.
bool all_lines_distinct(const WarpAccess& a, int line_shift) {
  std::uint64_t filter[64] = {};
  std::uint64_t previous = ~0ull;
  for (std::uint32_t lanes = a.active.bits(); lanes != 0; lanes &= lanes - 1) {
    const std::uint64_t line = a.addr[static_cast<unsigned>(std::countr_zero(lanes))] >> line_shift;
    if (line == previous) return false;
    previous = line;
    const auto h = static_cast<unsigned>((line * 0x9E3779B97F4A7C15ull) >> 52);  // 12 bits
    const std::uint64_t bit = 1ull << (h & 63);
    if (filter[h >> 6] & bit) return false;
    filter[h >> 6] |= bit;
  }
  return true;
}

// The whole warp is one request (Volta+, and any sub-request of 32 lanes): the
// per-sub-request bookkeeping drops out, which halves the work per lane.
LineScan scan_whole_warp(const WarpAccess& a, int line_shift, int sector_shift) {
  struct Entry {
    std::uint64_t bytes[2];
    std::uint8_t sectors;
  };
  std::uint64_t keys[kTableSlots];
  Entry entries[kTableSlots];
  std::fill(std::begin(keys), std::end(keys), kEmptyKey);

  LineScan out;
  out.sub_requests = 1;
  const unsigned size = a.size;
  const std::uint64_t align_mask = ~static_cast<std::uint64_t>(size - 1);
  const std::uint64_t line_mask = (1ull << line_shift) - 1;
  std::uint64_t last_line = kEmptyKey;
  Entry* e = nullptr;
  for (std::uint32_t lanes = a.active.bits(); lanes != 0; lanes &= lanes - 1) {
    const std::uint64_t addr = a.addr[static_cast<unsigned>(std::countr_zero(lanes))] & align_mask;
    const std::uint64_t line = addr >> line_shift;
    if (line != last_line) {
      e = &line_entry(keys, entries, line, out.lines);
      last_line = line;
    }
    const unsigned offset = static_cast<unsigned>(addr & line_mask);
    const auto sector_bit = static_cast<std::uint8_t>(1u << (offset >> sector_shift));
    out.sectors += (e->sectors & sector_bit) == 0 ? 1u : 0u;
    e->sectors |= sector_bit;
    out.bytes_needed += mark_bytes(e->bytes, offset, size);
  }
  out.sub_lines = out.lines;
  out.sub_sectors = out.sectors;
  return out;
}

}  // namespace

LineScan scan_lines(const WarpAccess& a, int lanes_per_sub, int line_shift, int sector_shift) {
  LineScan out;
  const unsigned size = a.size;
  const std::uint64_t align_mask = ~static_cast<std::uint64_t>(size - 1);
  const std::uint64_t line_mask = (1ull << line_shift) - 1;
  const std::uint32_t active = a.active.bits();
  if (active == 0) return out;

  // Fast path: every lane active and lane l at addr[0] + l * size (the
  // coalesced case) -- counts follow from the address range, no map needed.
  if (active == 0xffffffffu && lanes_contiguous(a, align_mask))
    return scan_contiguous(a, lanes_per_sub, line_shift, sector_shift);
  if (lanes_per_sub >= kWarpSize) {
    if (all_lines_distinct(a, line_shift)) {
      // one sector and `size` distinct bytes per active lane
      const auto n = static_cast<std::uint32_t>(a.active.count());
      LineScan d;
      d.sub_requests = 1;
      d.lines = d.sectors = d.sub_lines = d.sub_sectors = n;
      d.bytes_needed = n * size;
      return d;
    }
    return scan_whole_warp(a, line_shift, sector_shift);
  }

  // Open-addressing table of the lines touched, cleared per call; counts are
  // accumulated as bits are first set, so no final pass over the table.
  std::uint64_t keys[kTableSlots];
  LineEntry entries[kTableSlots];
  std::fill(std::begin(keys), std::end(keys), kEmptyKey);

  std::uint32_t sub_id = 0;
  const std::uint32_t window = lanes_per_sub >= 32 ? 0xffffffffu : (1u << lanes_per_sub) - 1u;
  for (int first = 0; first < kWarpSize; first += lanes_per_sub) {
    std::uint32_t lanes = (active >> first) & window;
    if (lanes == 0) continue;
    ++sub_id;
    ++out.sub_requests;
    std::uint64_t last_line = kEmptyKey;
    LineEntry* e = nullptr;
    for (; lanes != 0; lanes &= lanes - 1) {
      const int lane = first + std::countr_zero(lanes);
      const std::uint64_t addr = a.addr[static_cast<unsigned>(lane)] & align_mask;
      const std::uint64_t line = addr >> line_shift;
      if (line != last_line) {
        e = &line_entry(keys, entries, line, out.lines);
        last_line = line;
      }
      if (e->sub_id != sub_id) {
        e->sub_id = sub_id;
        e->sub_sectors = 0;
        ++out.sub_lines;
      }
      const unsigned offset = static_cast<unsigned>(addr & line_mask);
      const auto sector_bit = static_cast<std::uint8_t>(1u << (offset >> sector_shift));
      out.sub_sectors += (e->sub_sectors & sector_bit) == 0 ? 1u : 0u;
      out.sectors += (e->all_sectors & sector_bit) == 0 ? 1u : 0u;
      e->sub_sectors |= sector_bit;
      e->all_sectors |= sector_bit;
      out.bytes_needed += mark_bytes(e->bytes, offset, size);
    }
  }
  return out;
}

}  // namespace warpscope::rules
