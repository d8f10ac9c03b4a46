#include "rules/atomic_passes.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

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

// Whether the active lanes' addresses rise with the lane (then all are different).
bool rising_addresses(const WarpAccess& a) {
  const std::uint32_t active = a.active.bits();
  bool rising = true;
  if (active == 0xffffffffu) {
    for (unsigned l = 1; l < kWarpSize; ++l) rising &= a.addr[l] > a.addr[l - 1];  // vectorised
    return rising;
  }
  std::uint64_t previous = 0;
  for (std::uint32_t lanes = active; lanes != 0 && rising; lanes &= lanes - 1) {
    const std::uint64_t addr = a.addr[static_cast<unsigned>(std::countr_zero(lanes))];
    rising = lanes == active || addr > previous;
    previous = addr;
  }
  return rising;
}

}  // namespace

bool serializes_same_address(const WarpAccess& a, const ArchSpec& arch) {
  if (a.op != Op::Atomic && a.op != Op::Reduction) return false;
  if (a.atomic_op == AtomicOp::PopcInc) return false;  // one increment per address, by the popcount of its lanes
  if (a.space == Space::Global) return arch.global_atomics_serialize;
  // Reductions into another CTA's shared memory (red.async, REDAS) serialize as global ones do where they do
  // (validation/h100/async_store_probe red_async<1>: 32 lanes on one word, 32 sectors and set accesses a request).
  if (a.space == Space::DShared) return a.op == Op::Reduction && arch.global_atomics_serialize;
  if (a.space == Space::Shared)
    return arch.shared_atomics_serialize && (a.atomic_op != AtomicOp::Unknown || arch.shared_unknown_atomics_serialize);
  return false;
}

namespace {
bool splits_cas(const ArchSpec& arch) {
  return arch.global_cas_access_bytes > 0 && arch.global_cas_access_bytes < arch.l1_line;
}
}  // namespace

bool splits_cas_blocks(const WarpAccess& a, const ArchSpec& arch) {
  return a.atomic_op == AtomicOp::Cas && a.space == Space::Global && splits_cas(arch);
}

bool atomic_counts_depend_on_operation(const ArchSpec& arch) {
  // The operation-dependent branches of serializes_same_address, splits_cas_blocks and cas_wavefront_factor.
  return arch.global_atomics_serialize || arch.shared_atomics_serialize || splits_cas(arch) ||
         arch.shared_cas_wavefronts > 1;
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

// The group of a line: bit i is the parity of the line index under mask i.
unsigned word_group(std::uint64_t line, const std::vector<int>& masks) {
  unsigned g = 0;
  for (std::size_t i = 0; i < masks.size(); ++i)
    g |= static_cast<unsigned>(std::popcount(line & static_cast<std::uint64_t>(masks[i])) & 1) << i;
  return g;
}

// Global atomics by word slots (global.atomic_word_groups; validation/h100/atomics_probe
// gather_pairs). Lanes in lane order: a lane joins an access of its line unless a lane since that
// access opened took one of its 4-byte word slots in a line of the same group (same-address lanes
// included), else it opens another. The k-th access of each line is served in pass k.
AtomicPasses split_by_word_slots(const WarpAccess& a, const ArchSpec& arch) {
  // Addresses rising with the lane (coalesced, strided): a line's lanes are consecutive and take
  // different slots, so nothing comes between them: one pass.
  AtomicPasses out = one_pass(a);
  if (out.count == 0 || rising_addresses(a)) return out;
  const std::uint32_t active = a.active.bits();
  // Lanes whose line another lane has too (a 64-slot table of lines); the other lines are one
  // access each, in the first pass.
  std::array<std::uint64_t, kWarpSize> line{};
  std::array<std::uint64_t, 64> key;  // read only where count[] says it was written
  std::array<std::uint8_t, 64> count{};
  std::array<std::uint8_t, kWarpSize> at{};
  for (std::uint32_t m = active; m != 0; m &= m - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(m));
    line[l] = a.addr[l] >> 7;
    auto h = static_cast<unsigned>((line[l] * 0x9E3779B97F4A7C15ull) >> 58);
    while (count[h] != 0 && key[h] != line[l]) h = (h + 1) & 63u;
    key[h] = line[l];
    ++count[h];
    at[l] = static_cast<std::uint8_t>(h);
  }
  std::uint32_t shared_line = 0;
  for (std::uint32_t m = active; m != 0; m &= m - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(m));
    if (count[at[l]] > 1) shared_line |= 1u << l;
  }
  if (shared_line == 0) return out;
  // Each lane's cells: its word slots (one per 4 bytes, a 32-bit row per group).
  std::array<unsigned, kWarpSize> group{};
  std::array<std::uint32_t, kWarpSize> slots{};
  const unsigned words = std::max(1u, a.size / 4u);
  for (std::uint32_t m = active; m != 0; m &= m - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(m));
    group[l] = word_group(line[l], arch.global_atomic_word_groups);
    const auto first = static_cast<unsigned>((a.addr[l] & 127) >> 2);
    slots[l] = static_cast<std::uint32_t>(((std::uint64_t{1} << words) - 1) << first);
  }
  // Open accesses of shared lines: their line, pass, and the cells taken since they opened.
  struct Access {
    std::uint64_t line;
    int pass;
    std::array<std::uint32_t, 16> taken;  // per group
  };
  std::array<Access, kWarpSize> open;
  int opened = 0;
  std::array<std::uint32_t, kWarpSize> pass_lanes{};
  pass_lanes[0] = active & ~shared_line;
  int passes = 1;
  for (std::uint32_t m = active; m != 0; m &= m - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(m));
    int joined = -1, accesses_of_line = 0;
    if ((shared_line >> l) & 1u) {
      for (int x = 0; x < opened && joined < 0; ++x) {
        if (open[static_cast<std::size_t>(x)].line != line[l]) continue;
        ++accesses_of_line;
        if ((open[static_cast<std::size_t>(x)].taken[group[l]] & slots[l]) == 0) joined = x;
      }
      if (joined < 0) {  // opens the line's next access, served in the next pass of the line
        Access& n = open[static_cast<std::size_t>(opened)];
        n.line = line[l];
        n.pass = accesses_of_line;
        n.taken.fill(0);
        joined = opened++;
        passes = std::max(passes, accesses_of_line + 1);
      }
      pass_lanes[static_cast<std::size_t>(open[static_cast<std::size_t>(joined)].pass)] |= 1u << l;
    }
    for (int x = 0; x < opened; ++x) open[static_cast<std::size_t>(x)].taken[group[l]] |= slots[l];
  }
  out.count = passes;
  out.lanes = pass_lanes;
  // A later pass repeats earlier ones when each of its lanes' addresses was asked for before: by an
  // earlier lane on the same address, which is always in an earlier pass (its slot was taken since
  // any access the later lane could join opened).
  if (passes > 1) {
    const auto rank = earlier_on_same_address(a);
    std::uint32_t again = 0;  // lanes whose address an earlier lane has
    for (std::uint32_t m = active; m != 0; m &= m - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(m));
      if (rank[l] > 0) again |= 1u << l;
    }
    for (int p = 1; p < passes; ++p)
      if ((pass_lanes[static_cast<std::size_t>(p)] & ~again) == 0) out.repeats |= 1u << p;
  }
  return out;
}

}  // namespace

AtomicPasses atomic_passes_on(const WarpAccess& a, const ArchSpec& arch) {
  // Word slots measured for 4- and 8-byte atomics (ATOMG, with a result); sub-word ones keep the
  // same-address rule, and so do reductions: REDG.E.ADD lanes on 64 random words of two lines take
  // the passes of their addresses alone (validation/h100/red_probe r_bins64_*: 9,755 L2 requests and
  // 26,856 sectors, exactly the same-address rule's; the word slots' 11,895 and 28,039 over-count).
  const bool by_slots = a.space == Space::Global && a.size >= 4 && a.op == Op::Atomic && !arch.global_atomic_word_groups.empty();
  AtomicPasses passes = !serializes_same_address(a, arch) ? one_pass(a)
                        : by_slots                        ? split_by_word_slots(a, arch)
                                                          : split_atomic(a);
  if (passes.count > 0 && splits_cas_blocks(a, arch)) split_by_cas_blocks(a, arch, passes);
  return passes;
}

AtomicPasses split_atomic(const WarpAccess& a) {
  // Coalesced and strided warps: addresses rising with the lane are all different (no table).
  AtomicPasses out = one_pass(a);
  if (out.count == 0 || rising_addresses(a)) return out;
  const std::uint32_t active = a.active.bits();
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
