#include "memory/warp_lines.hpp"

#include <algorithm>
#include <bit>
#include <iterator>

#include "rules/line_scan.hpp"

namespace warpscope::memory {
namespace {

SectorMask sectors_of_range(unsigned lo, unsigned hi, unsigned sector_bytes) {
  const unsigned first = lo / sector_bytes, last = (hi - 1) / sector_bytes;
  return SectorMask(static_cast<std::uint8_t>(((2u << last) - 1u) & ~((1u << first) - 1u)));
}

// The coalesced case: lines and sectors follow from the byte range.
void collect_range(std::uint64_t lo, std::uint64_t hi, int line_shift, unsigned sector_bytes, bool with_bytes,
                   WarpLines& out) {
  const std::uint64_t line_bytes = 1ull << line_shift;
  for (std::uint64_t line = lo >> line_shift; line <= (hi - 1) >> line_shift; ++line) {
    const std::uint64_t base = line << line_shift;
    const auto from = static_cast<unsigned>(std::max(lo, base) - base);
    const auto to = static_cast<unsigned>(std::min(hi, base + line_bytes) - base);
    WarpLine& w = out.lines[out.count++];
    w.line = line;
    w.sectors = sectors_of_range(from, to, sector_bytes);
    w.bytes = LineBytes{};
    if (with_bytes) w.bytes.mark(from, to - from);
    out.sectors += static_cast<std::uint32_t>(w.sectors.count());
  }
}

}  // namespace

void collect_lines(const WarpAccess& a, int line_shift, unsigned sector_bytes, bool with_bytes, WarpLines& out) {
  out.count = 0;
  out.sectors = 0;
  const std::uint32_t active = a.active.bits();
  if (active == 0) return;
  const unsigned size = a.size == 0 ? 1u : a.size;
  const std::uint64_t align_mask = ~static_cast<std::uint64_t>(size - 1);
  if (active == 0xffffffffu && rules::lanes_contiguous(a, align_mask)) {
    const std::uint64_t lo = a.addr[0] & align_mask;
    collect_range(lo, lo + std::uint64_t{kWarpSize} * size, line_shift, sector_bytes, with_bytes, out);
    return;
  }

  // Open-addressing table: line -> index in out.lines; cleared per call.
  constexpr unsigned kSlots = 64;
  constexpr std::uint64_t kEmpty = ~0ull;
  std::uint64_t keys[kSlots];
  std::uint8_t pos[kSlots];
  std::fill(std::begin(keys), std::end(keys), kEmpty);

  const std::uint64_t line_mask = (1ull << line_shift) - 1;
  std::uint64_t last_line = kEmpty;
  WarpLine* w = nullptr;
  for (std::uint32_t lanes = active; lanes != 0; lanes &= lanes - 1) {
    const std::uint64_t addr = a.addr[static_cast<unsigned>(std::countr_zero(lanes))] & align_mask;
    const std::uint64_t line = addr >> line_shift;
    if (line != last_line) {
      unsigned h = static_cast<unsigned>((line * 0x9E3779B97F4A7C15ull) >> 58);
      while (keys[h] != line && keys[h] != kEmpty) h = (h + 1) & (kSlots - 1);
      if (keys[h] == kEmpty) {
        keys[h] = line;
        pos[h] = static_cast<std::uint8_t>(out.count);
        w = &out.lines[out.count++];
        w->line = line;
        w->sectors = SectorMask{};
        w->bytes = LineBytes{};
      } else {
        w = &out.lines[pos[h]];
      }
      last_line = line;
    }
    const auto offset = static_cast<unsigned>(addr & line_mask);
    const auto bit = SectorMask(static_cast<std::uint8_t>(1u << (offset / sector_bytes)));
    out.sectors += (w->sectors & bit).none() ? 1u : 0u;
    w->sectors |= bit;
    if (with_bytes) w->bytes.mark(offset, size);
  }
}

}  // namespace warpscope::memory
