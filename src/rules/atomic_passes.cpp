#include "rules/atomic_passes.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "rules/local_layout.hpp"

namespace warpscope::rules {
namespace {

// For each active lane, how many active lanes before it share its address (0: the first): one
// pass over the lanes with a 64-slot open-addressing table of the addresses seen (at most 32).
std::array<std::uint8_t, kWarpSize> earlier_on_same_address(const WarpAccess& a) {
  constexpr unsigned kSlots = 64;
  std::array<std::uint64_t, kSlots> key;  // read only where seen[] says it was written
  std::array<std::uint8_t, kSlots> seen{};
  std::array<std::uint8_t, kWarpSize> rank{};
  for (std::uint32_t lanes = a.active.bits(); lanes != 0; lanes &= lanes - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(lanes));
    const std::uint64_t addr = a.addr[l];
    auto h = static_cast<unsigned>((addr * 0x9E3779B97F4A7C15ull) >> 58);
    while (seen[h] != 0 && key[h] != addr) h = (h + 1) & (kSlots - 1);
    key[h] = addr;
    rank[l] = seen[h]++;
  }
  return rank;
}

}  // namespace

bool serializes_same_address(const WarpAccess& a, const ArchSpec& arch) {
  if (a.op != Op::Atomic && a.op != Op::Reduction) return false;
  if (a.atomic_op == AtomicOp::PopcInc) return false;  // one increment per address, by the popcount of its lanes
  if (a.space == Space::Global) return arch.global_atomics_serialize;
  if (a.space == Space::Shared)
    return arch.shared_atomics_serialize && (a.atomic_op != AtomicOp::Unknown || arch.shared_unknown_atomics_serialize);
  return false;
}

bool splits_cas_blocks(const WarpAccess& a, const ArchSpec& arch) {
  return a.atomic_op == AtomicOp::Cas && a.space == Space::Global && arch.global_cas_access_bytes > 0 &&
         arch.global_cas_access_bytes < arch.l1_line;
}

AtomicPasses atomic_passes_on(const WarpAccess& a, const ArchSpec& arch) {
  AtomicPasses passes;
  if (serializes_same_address(a, arch)) {
    passes = split_atomic(a);
  } else {
    passes.count = a.active.none() ? 0 : 1;
    passes.lanes[0] = a.active.bits();
  }
  if (!splits_cas_blocks(a, arch) || passes.count == 0) return passes;
  // Each pass's lanes by block of the line: every lane is in one pass, so at most 32 passes remain.
  const auto block_bytes = static_cast<std::uint64_t>(arch.global_cas_access_bytes);
  const auto line_bytes = static_cast<std::uint64_t>(arch.l1_line);
  const auto blocks = static_cast<unsigned>(line_bytes / block_bytes);  // at most 128 / 8
  AtomicPasses split;
  for (int p = 0; p < passes.count; ++p) {
    std::array<std::uint32_t, 16> by_block{};
    for (std::uint32_t lanes = passes.lanes[static_cast<std::size_t>(p)]; lanes != 0; lanes &= lanes - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(lanes));
      by_block[static_cast<std::size_t>((a.addr[l] & (line_bytes - 1)) / block_bytes)] |= 1u << l;
    }
    const bool repeat = ((passes.repeats >> p) & 1u) != 0;
    for (unsigned b = 0; b < blocks; ++b) {
      if (by_block[b] == 0) continue;
      if (repeat) split.repeats |= 1u << split.count;
      split.lanes[static_cast<std::size_t>(split.count++)] = by_block[b];
    }
  }
  return split;
}

AtomicPasses split_atomic(const WarpAccess& a) {
  AtomicPasses out;
  const std::uint32_t active = a.active.bits();
  if (active == 0) return out;
  // Coalesced and strided warps: addresses rising with the lane are all different (no table).
  bool rising = true;
  if (active == 0xffffffffu) {
    for (unsigned l = 1; l < kWarpSize; ++l) rising &= a.addr[l] > a.addr[l - 1];  // vectorised
  } else {
    std::uint64_t previous = 0;
    for (std::uint32_t lanes = active; lanes != 0 && rising; lanes &= lanes - 1) {
      const std::uint64_t addr = a.addr[static_cast<unsigned>(std::countr_zero(lanes))];
      rising = lanes == active || addr > previous;
      previous = addr;
    }
  }
  out.count = 1;
  out.lanes[0] = active;
  if (rising) return out;
  const auto rank = earlier_on_same_address(a);
  const std::uint8_t last = *std::max_element(rank.begin(), rank.end());  // inactive lanes: 0
  if (last == 0) return out;  // scattered, every address once
  out.count = last + 1;
  out.repeats = ~std::uint32_t{1} & (out.count >= 32 ? ~0u : (1u << out.count) - 1u);  // all but the first
  out.lanes[0] = 0;
  for (std::uint32_t lanes = active; lanes != 0; lanes &= lanes - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(lanes));
    out.lanes[rank[l]] |= 1u << l;
  }
  return out;
}

int atomic_passes(const WarpAccess& a) { return split_atomic(a).count; }

WarpAccess atomic_pass(const WarpAccess& a, int pass) {
  WarpAccess p = a;
  p.active = LaneMask(split_atomic(a).lanes.at(static_cast<std::size_t>(pass)));
  return p;
}

void add_pass(InstructionCounts& total, const InstructionCounts& pass, bool repeat) {
  InstructionCounts more = pass;  // the same instruction: no request, piece or replay it did not have
  more.requests = more.sub_requests = more.replays = 0;
  if (repeat) more.bytes_needed = 0;  // the addresses of an earlier pass
  add_part(total, more);
  total.wavefronts += pass.wavefronts;
  total.bank_conflicts = total.wavefronts - total.ideal_wavefronts;
}

}  // namespace warpscope::rules
