// CC 1.x global/local coalescing, per half-warp, straight to DRAM (no caches).
// Source: CUDA C Programming Guide 3.2, G.3.2 "Global Memory" for 1.0/1.1 and
// 1.2/1.3 (public; summarised in docs/ARCHITECTURE.md), and seed002 8.1.3.
#include <algorithm>
#include <bit>

#include "rules/global_rules.hpp"
#include "rules/line_scan.hpp"

namespace warpscope::rules {
namespace {

void add_transaction(InstructionCounts& c, unsigned bytes) {
  ++c.transactions;
  c.bytes_moved += bytes;
  if (bytes <= 32) ++c.tx32;
  else if (bytes <= 64) ++c.tx64;
  else ++c.tx128;
}

// 1.0/1.1: a half-warp coalesces only if its k-th active thread reads the k-th
// word of one aligned segment (64 B for 4-byte words, 128 B for 8-byte words,
// 2 x 128 B for 16-byte words). Inactive threads do not break coalescing.
// Otherwise every active thread gets its own 32-byte transaction.
void tesla_strict_half(const WarpAccess& a, int first, InstructionCounts& c) {
  const unsigned size = a.size;
  const bool coalescible_size = size == 4 || size == 8 || size == 16;
  const std::uint64_t span = 16ull * size;  // bytes covered by 16 words
  bool coalesced = coalescible_size;
  std::uint64_t segment = ~0ull;
  int active = 0;
  for (int k = 0; k < 16; ++k) {
    const int lane = first + k;
    if (!a.active.test(lane)) continue;
    ++active;
    const std::uint64_t addr = a.addr[static_cast<unsigned>(lane)] & ~static_cast<std::uint64_t>(size - 1);
    const std::uint64_t base = addr - static_cast<std::uint64_t>(k) * size;
    if (segment == ~0ull) segment = base;
    if (base != segment || base % std::min<std::uint64_t>(span, 128) != 0) coalesced = false;
  }
  if (active == 0) return;
  ++c.sub_requests;
  if (coalesced) {
    if (size == 4) add_transaction(c, 64);
    else if (size == 8) add_transaction(c, 128);
    else { add_transaction(c, 128); add_transaction(c, 128); }
  } else {
    for (int k = 0; k < active; ++k) add_transaction(c, 32);
  }
}

// 1.2/1.3: repeat { take the segment (32/64/128 B by word size) holding the
// lowest-numbered pending thread's word; serve every pending thread inside it;
// shrink 128 -> 64 -> 32 B while only one half of the segment is used }.
void tesla_relaxed_half(const WarpAccess& a, const ArchSpec& arch, int first, InstructionCounts& c) {
  const unsigned size = a.size;
  const auto seg_bytes = static_cast<std::uint64_t>(arch.segment_bytes[static_cast<unsigned>(size_index(size))]);
  std::uint32_t pending = 0;
  for (int k = 0; k < 16; ++k)
    if (a.active.test(first + k)) pending |= 1u << k;
  if (pending == 0) return;
  ++c.sub_requests;
  auto addr_of = [&](int k) {
    return a.addr[static_cast<unsigned>(first + k)] & ~static_cast<std::uint64_t>(size - 1);
  };
  while (pending != 0) {
    const int leader = std::countr_zero(pending);
    const std::uint64_t seg = addr_of(leader) / seg_bytes * seg_bytes;
    // Offsets within the segment: seg + seg_bytes overflows for the last
    // segment below 2^64, and the leader must always be served.
    std::uint64_t lo = ~0ull, hi = 0;
    for (int k = 0; k < 16; ++k) {
      if (!((pending >> k) & 1u)) continue;
      const std::uint64_t offset = addr_of(k) - seg;  // huge when below seg
      if (offset >= seg_bytes) continue;
      pending &= ~(1u << k);
      lo = std::min(lo, offset);
      hi = std::max(hi, offset + size);
    }
    std::uint64_t tx_base = 0, tx = seg_bytes;
    while (tx > 32) {  // reduce while the used bytes fit in one half
      const std::uint64_t half = tx / 2;
      if (hi <= tx_base + half) {
        tx = half;
      } else if (lo >= tx_base + half) {
        tx_base += half;
        tx = half;
      } else {
        break;
      }
    }
    add_transaction(c, static_cast<unsigned>(tx));
  }
}

}  // namespace

void tesla_global(const WarpAccess& a, const ArchSpec& arch, InstructionCounts& c) {
  const int lanes = arch.request_lanes[static_cast<unsigned>(size_index(a.size))];
  for (int first = 0; first < kWarpSize; first += lanes) {
    if (arch.rules == RulesFamily::TeslaStrict)
      tesla_strict_half(a, first, c);
    else
      tesla_relaxed_half(a, arch, first, c);
  }
  c.sectors = c.bytes_moved / 32;
  c.bytes_needed = scan_lines(a, kWarpSize, 7, 5).bytes_needed;
  c.applies |= InstructionCounts::kTransactions | InstructionCounts::kSectors;
}

}  // namespace warpscope::rules
