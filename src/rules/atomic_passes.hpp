// Atomics whose lanes share an address. On the H100 an atomic or reduction is
// served one lane per address at a time: lanes on the same address go in
// separate passes, and every pass counts its own set accesses, sectors and L2
// requests (global) or wavefronts (shared), while different addresses in one
// word, sector or line still share an access (validation/h100/atomics_probe,
// 84 single-warp launches; arch keys global/shared.serialize_same_address_atomics).
#pragma once

#include "warpscope/arch.hpp"
#include "warpscope/counts.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

// Whether `a` is served pass by pass on `arch` (an atomic or reduction of a space whose key is set).
bool serializes_same_address(const WarpAccess& a, const ArchSpec& arch);

// Passes of an atomic: the largest number of active lanes on one address (0 with no active lane).
int atomic_passes(const WarpAccess& a);

// Pass `pass` (0-based): the access restricted to the lanes that are the (pass + 1)-th, in lane
// order, on their address.
WarpAccess atomic_pass(const WarpAccess& a, int pass);

// Adds a later pass to the counts of the first: its set accesses, sectors, bytes moved and
// wavefronts (all bank conflicts: the instruction's ideal is the first pass's); not another
// request or instruction, and no bytes the first pass did not already need.
void add_pass(InstructionCounts& total, const InstructionCounts& pass);

}  // namespace warpscope::rules
