// Atomics served in passes. On the H100 an atomic or reduction is served one
// lane per address at a time: lanes on the same address go in separate passes,
// and every pass counts its own set accesses, sectors and L2 requests (global)
// or wavefronts (shared), while different addresses in one word, sector or line
// still share an access (validation/h100/atomics_probe; arch keys
// global/shared.serialize_same_address_atomics). ATOMS.POPC.INC, one increment
// per address by the count of its lanes, merges them instead. A compare-and-swap
// is further served per 64-byte half of a line (global.cas_access_bytes), and in
// shared memory takes two wavefronts for each of an add (shared.cas_wavefronts).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "warpscope/arch.hpp"
#include "warpscope/counts.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

// Whether `a`'s lanes on one address are served in separate passes on `arch` (an atomic or
// reduction of a space whose key is set, and an operation that does not merge them).
bool serializes_same_address(const WarpAccess& a, const ArchSpec& arch);

// Whether `a` is a compare-and-swap served per block of arch.global_cas_access_bytes.
bool splits_cas_blocks(const WarpAccess& a, const ArchSpec& arch);

// Whether an atomic's operation changes its counts on `arch` (some operation is served apart from
// the others: a CAS by blocks or with more wavefronts, POPC.INC merging lanes others serialize), so
// that records which name none are counted as an assumption (analyze says so).
bool atomic_counts_depend_on_operation(const ArchSpec& arch);

// The wavefronts a shared compare-and-swap takes per wavefront of an add of the same lanes
// (shared.cas_wavefronts: its two operands); 1 for every other access. Its bank conflicts are
// counted once (validation/h100/atomics_probe/ops).
// Inline: the memory system asks for every access.
inline int cas_wavefront_factor(const WarpAccess& a, const ArchSpec& arch) {
  const bool shared_cas = a.atomic_op == AtomicOp::Cas && a.space == Space::Shared &&
                          (a.op == Op::Atomic || a.op == Op::Reduction);
  return shared_cas ? arch.shared_cas_wavefronts : 1;
}

// The passes of an atomic: pass p holds the lanes that are the (p + 1)-th, in lane order, on
// their address. count: the largest number of active lanes on one address (0 with none active).
struct AtomicPasses {
  int count = 0;
  std::array<std::uint32_t, kWarpSize> lanes{};  // active mask of each pass
  std::uint32_t repeats = 0;  // bit p: pass p's addresses were all asked for by an earlier pass
};
AtomicPasses split_atomic(const WarpAccess& a);

// The passes `a` is served in on `arch`: by same-address rank where the architecture serializes
// its operation, each then split by CAS block where it splits CAS; one pass of every lane when
// neither applies.
AtomicPasses atomic_passes_on(const WarpAccess& a, const ArchSpec& arch);

// Passes of an atomic (split_atomic(a).count).
int atomic_passes(const WarpAccess& a);

// Pass `pass` (0-based): the access restricted to that pass's lanes.
WarpAccess atomic_pass(const WarpAccess& a, int pass);

// Adds a later pass to the counts of the first: its set accesses, sectors, bytes moved and
// wavefronts (all bank conflicts: the instruction's ideal is the first pass's); not another
// request or instruction, and, for a repeat, no bytes an earlier pass did not already need.
void add_pass(InstructionCounts& total, const InstructionCounts& pass, bool repeat = true);

// An atomic served pass by pass on `arch` with more than one pass, or a shared CAS:
// `one(pass_access, first, repeat)` for each pass, added up, with a shared CAS's wavefronts and
// ideal times its factor (its bank conflicts stay: counted once per access, not per operand; the
// rules engine and the memory system share this); nullopt otherwise, for the caller to serve the
// access whole.
template <class One>
std::optional<InstructionCounts> serve_by_passes(const WarpAccess& a, const ArchSpec& arch, One&& one) {
  if (a.op != Op::Atomic && a.op != Op::Reduction) return std::nullopt;  // inline: every access asks
  const auto factor = static_cast<std::uint32_t>(cas_wavefront_factor(a, arch));
  if (factor == 1 && !serializes_same_address(a, arch) && !splits_cas_blocks(a, arch)) return std::nullopt;
  const AtomicPasses passes = atomic_passes_on(a, arch);
  if (passes.count == 0 || (passes.count == 1 && factor == 1)) return std::nullopt;
  WarpAccess pass = a;
  pass.active = LaneMask(passes.lanes[0]);
  InstructionCounts total = one(pass, true, false);
  for (int p = 1; p < passes.count; ++p) {
    pass.active = LaneMask(passes.lanes[static_cast<std::size_t>(p)]);
    const bool repeat = ((passes.repeats >> p) & 1u) != 0;
    add_pass(total, one(pass, false, repeat), repeat);
  }
  total.wavefronts *= factor;
  total.ideal_wavefronts *= factor;
  return total;
}

}  // namespace warpscope::rules
