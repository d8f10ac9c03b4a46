// The rules engine: pure, allocation-free functions of one warp instruction and
// one architecture (coalescing, shared-memory banks, constant serialization).
#pragma once

#include "warpscope/arch.hpp"
#include "warpscope/counts.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope {

struct RulesOptions {
  // Shared-memory bank width in bytes (Kepler: 4 or 8); 0 = the architecture's default.
  int bank_width = 0;
};

// Counts for one warp instruction. Lane addresses are rounded down to the access
// size (GPUs require natural alignment). Never allocates; never throws.
InstructionCounts analyze(const WarpAccess& access, const ArchSpec& arch, const RulesOptions& options = {});

// The path a global/local access takes on this architecture with this cache operator.
MemoryPath global_path(const WarpAccess& access, const ArchSpec& arch);

}  // namespace warpscope
