// Local memory as the hardware lays it out. A trace holds per-thread offsets
// (the Sanitizer API reports local accesses as offsets in the thread's window,
// the same for every lane of a warp); the hardware interleaves the threads of
// a warp word by word: "consecutive 32-bit words are accessed by consecutive
// thread IDs" (CUDA C++ Programming Guide, "Device Memory Accesses: Local
// Memory"). So a warp reading the same offset in every thread touches 128
// consecutive bytes, and an 8- or 16-byte access is 2 or 4 such word accesses:
// on the H100 an LDL.128 of 32 lanes is 4 requests and 16 sectors
// (validation/h100/suite const_local l_local_float4_array).
#pragma once

#include "warpscope/counts.hpp"
#include "warpscope/rules.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

// How many word accesses a local access is: 1 for 1-4 bytes, size / 4 above.
inline int local_parts(const WarpAccess& a) { return a.size > 4 ? a.size / 4 : 1; }

// Word access `part` of a local access, at the interleaved addresses: per-thread
// byte offset o of lane l lives at ((o / 4 + part) * 32 + l) * 4 + o % 4.
WarpAccess local_part(const WarpAccess& a, int part);

// The rules for one access at the addresses it has (no local interleaving).
InstructionCounts analyze_at_addresses(const WarpAccess& a, const ArchSpec& arch, const RulesOptions& options);

// Counters of the parts of one instruction, summed (path and `applies` of the first).
void add_part(InstructionCounts& total, const InstructionCounts& part);

}  // namespace warpscope::rules
