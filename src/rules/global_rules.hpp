// Internal entry points of the rules engine, one per rule set.
#pragma once

#include "warpscope/arch.hpp"
#include "warpscope/counts.hpp"
#include "warpscope/rules.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

// CC 1.x coalescing (strict or segment reduction, chosen by arch.rules).
void tesla_global(const WarpAccess& a, const ArchSpec& arch, InstructionCounts& c);
// CC 2.x+ global/local: line/segment/sector counting for the given path.
void cached_global(const WarpAccess& a, const ArchSpec& arch, MemoryPath path, InstructionCounts& c);
// Shared-memory banks: wavefronts and conflicts.
void shared_banks(const WarpAccess& a, const ArchSpec& arch, const RulesOptions& options, InstructionCounts& c);
// Constant cache: serialization by distinct address.
void constant_cache(const WarpAccess& a, const ArchSpec& arch, InstructionCounts& c);

}  // namespace warpscope::rules
