// The shared side of cp.async (SASS LDGSTS, 8.0+): how many data wavefronts its shared write takes.
// Measured on the H100 (validation/h100/async_probe, 107 launches; docs/VALIDATION.md "cp.async"):
//  - through L1 (.ca, 4/8/16 B): lanes go in groups of 128 bytes (32 lanes of 4 B, 16 of 8 B, 8 of 16 B).
//    Each lane, in lane order, takes the first wavefront in which none of the banks of its global source
//    is read yet and none of the banks of its shared destination is written yet, and not before the
//    wavefront after the last lane that read the same source address (lanes on one address are never
//    served together). Every wavefront beyond one a group is a bank conflict. 49 of 49 shapes exact;
//  - bypassing L1 (.cg, 16 B): the warp's lanes are grouped by (source 128-byte line, destination
//    128-byte row). A group takes one wavefront when no two of its lanes read one 16-byte chunk and its
//    lanes that share a source 32-byte sector are exactly those that share a destination sector; one per
//    lane when two read one chunk; otherwise, in lane order, each lane joins the first of its group's
//    wavefronts whose lanes keep that sector correspondence and move their bytes by the same distance
//    (destination - source, mod 128). Nsight Compute counts none of them as bank conflicts. 28 of 30
//    shapes exact (a source stride of 48 B, and sources and destinations both 16 B past a sector, not).
#pragma once

#include <cstdint>

#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

struct AsyncCopyWavefronts {
  std::uint32_t wavefronts = 0, ideal = 0, conflicts = 0;
};

// `dst`: the shared record of one LDGSTS (destination offsets, every lane that executed it); `src`: its
// global record (the lanes that read, at their sources), or null when the trace has none (every lane
// zero-filled, or a source that records only one side): then the destinations alone decide.
AsyncCopyWavefronts async_copy_wavefronts(const WarpAccess& dst, const WarpAccess* src);

}  // namespace warpscope::rules
