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

int cas_wavefront_factor(const WarpAccess& a, const ArchSpec& arch) {
  const bool shared_cas = a.space == Space::Shared && a.atomic_op == AtomicOp::Cas &&
                          (a.op == Op::Atomic || a.op == Op::Reduction);
  return shared_cas ? arch.shared_cas_wavefronts : 1;
}

InstructionCounts with_cas_wavefronts(InstructionCounts c, const WarpAccess& a, const ArchSpec& arch) {
  const auto f = static_cast<std::uint32_t>(cas_wavefront_factor(a, arch));
  c.wavefronts *= f;
  c.ideal_wavefronts *= f;  // bank conflicts stay: counted once per access, not per operand
  return c;
}

namespace {

// Every lane in one pass (an atomic whose same-address lanes are not served apart).
AtomicPasses one_pass(const WarpAccess& a) {
  AtomicPasses p;
  p.count = a.active.none() ? 0 : 1;
  p.lanes[0] = a.active.bits();
  return p;
}

// Splits each pass by block of arch.global_cas_access_bytes within the line, in place. Every lane
// is in one pass, so at most 32 passes remain.
void split_by_cas_blocks(const WarpAccess& a, const ArchSpec& arch, AtomicPasses& passes) {
  // Powers of two (arch_file.cpp checks them): a shift, not a division per lane.
  const auto block_shift = static_cast<unsigned>(std::countr_zero(static_cast<unsigned>(arch.global_cas_access_bytes)));
  const auto line_bytes = static_cast<std::uint64_t>(arch.l1_line);
  const auto blocks = static_cast<unsigned>(line_bytes >> block_shift);  // at most 128 / 8
  // Each lane's block, then each block's lanes as a mask: compares the compiler vectorises.
  std::array<std::uint8_t, kWarpSize> block{};
  for (unsigned l = 0; l < kWarpSize; ++l) block[l] = static_cast<std::uint8_t>((a.addr[l] & (line_bytes - 1)) >> block_shift);
  std::array<std::uint32_t, 16> in_block{};
  for (unsigned b = 0; b < blocks; ++b) {
    std::uint32_t m = 0;
    for (unsigned l = 0; l < kWarpSize; ++l) m |= static_cast<std::uint32_t>(block[l] == b) << l;
    in_block[b] = m;
  }
  const AtomicPasses by_rank = passes;
  passes.count = 0;
  passes.repeats = 0;
  for (int p = 0; p < by_rank.count; ++p) {
    const std::uint32_t lanes = by_rank.lanes[static_cast<std::size_t>(p)];
    const bool repeat = ((by_rank.repeats >> p) & 1u) != 0;
    for (unsigned b = 0; b < blocks; ++b) {
      const std::uint32_t part = lanes & in_block[b];
      if (part == 0) continue;
      if (repeat) passes.repeats |= 1u << passes.count;
      passes.lanes[static_cast<std::size_t>(passes.count++)] = part;
    }
  }
}

}  // namespace

AtomicPasses atomic_passes_on(const WarpAccess& a, const ArchSpec& arch) {
  AtomicPasses passes = serializes_same_address(a, arch) ? split_atomic(a) : one_pass(a);
  if (passes.count > 0 && splits_cas_blocks(a, arch)) split_by_cas_blocks(a, arch, passes);
  return passes;
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
