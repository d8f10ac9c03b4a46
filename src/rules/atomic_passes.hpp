// Atomics whose lanes share an address. On the H100 an atomic or reduction is
// served one lane per address at a time: lanes on the same address go in
// separate passes, and every pass counts its own set accesses, sectors and L2
// requests (global) or wavefronts (shared), while different addresses in one
// word, sector or line still share an access (validation/h100/atomics_probe;
// arch keys global/shared.serialize_same_address_atomics).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "warpscope/arch.hpp"
#include "warpscope/counts.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

// Whether `a` is served pass by pass on `arch` (an atomic or reduction of a space whose key is set).
bool serializes_same_address(const WarpAccess& a, const ArchSpec& arch);

// The passes of an atomic: pass p holds the lanes that are the (p + 1)-th, in lane order, on
// their address. count: the largest number of active lanes on one address (0 with none active).
struct AtomicPasses {
  int count = 0;
  std::array<std::uint32_t, kWarpSize> lanes{};  // active mask of each pass
};
AtomicPasses split_atomic(const WarpAccess& a);

// Passes of an atomic (split_atomic(a).count).
int atomic_passes(const WarpAccess& a);

// Pass `pass` (0-based): the access restricted to that pass's lanes.
WarpAccess atomic_pass(const WarpAccess& a, int pass);

// Adds a later pass to the counts of the first: its set accesses, sectors, bytes moved and
// wavefronts (all bank conflicts: the instruction's ideal is the first pass's); not another
// request or instruction, and no bytes the first pass did not already need.
void add_pass(InstructionCounts& total, const InstructionCounts& pass);

// An atomic served pass by pass on `arch` with more than one pass: `one(pass_access, first)` for
// each pass, added up (the rules engine and the memory system share this); nullopt otherwise,
// for the caller to serve the access whole.
template <class One>
std::optional<InstructionCounts> serve_by_passes(const WarpAccess& a, const ArchSpec& arch, One&& one) {
  if (!serializes_same_address(a, arch)) return std::nullopt;
  const AtomicPasses passes = split_atomic(a);
  if (passes.count <= 1) return std::nullopt;
  WarpAccess pass = a;
  pass.active = LaneMask(passes.lanes[0]);
  InstructionCounts total = one(pass, true);
  for (int p = 1; p < passes.count; ++p) {
    pass.active = LaneMask(passes.lanes[static_cast<std::size_t>(p)]);
    add_pass(total, one(pass, false));
  }
  return total;
}

}  // namespace warpscope::rules
