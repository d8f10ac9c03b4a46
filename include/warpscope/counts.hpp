// What the rules engine reports for one warp instruction on one architecture.
#pragma once

#include <cstdint>
#include <string_view>

namespace warpscope {

// Which hardware path served the access; decides what the counters mean.
enum class MemoryPath : std::uint8_t {
  Dram,          // CC 1.x global/local: no cache between SM and DRAM
  L1,            // cached in L1 (128 B lines on 2.x/3.x, sectored L1TEX on 5.x+)
  L2,            // L1 bypassed, 32 B segments from L2 (non-caching loads, stores, atomics)
  ReadOnly,      // read-only data / texture cache (ld.global.nc, __ldg)
  Shared,        // shared-memory banks
  Constant,      // constant cache
  DShared,       // another CTA's shared memory over the crossbar (9.0+ clusters): sectors as for global, no cache
};
std::string_view to_string(MemoryPath p);

// Per-instruction counts. Keys that do not apply to the space/path are left at 0
// and flagged in `applies` so printers can omit them.
struct InstructionCounts {
  enum Key : std::uint32_t {
    kRequests = 1u << 0,
    kTransactions = 1u << 1,
    kSectors = 1u << 2,
    kBytes = 1u << 3,        // bytes_needed, bytes_moved, bus utilization
    kReplays = 1u << 4,
    kWavefronts = 1u << 5,   // shared wavefronts and bank conflicts
    kSerialization = 1u << 6 // constant-cache serialization
  };

  MemoryPath path = MemoryPath::L2;
  std::uint32_t applies = 0;

  std::uint32_t requests = 0;       // requests the profiler counts (1 per warp instruction)
  std::uint32_t sub_requests = 0;   // independent pieces the request is split into (half/quarter-warp, thread groups)
  std::uint32_t transactions = 0;   // cache-line (or DRAM segment) requests, summed over sub-requests
  std::uint32_t sectors = 0;        // 32 B pieces moved
  std::uint32_t bytes_needed = 0;   // distinct bytes the active lanes touch
  std::uint32_t bytes_moved = 0;    // bytes moved to serve the instruction
  std::uint32_t replays = 0;        // extra issue passes (transactions - 1, wavefronts - 1, ...)
  std::uint32_t wavefronts = 0;     // shared-memory data-stage passes
  std::uint32_t ideal_wavefronts = 0;
  std::uint32_t bank_conflicts = 0; // wavefronts - ideal_wavefronts
  std::uint32_t serialization = 0;  // constant cache: distinct addresses served one after another
  // CC 1.x transaction sizes (the 1.x profiler's gld_32b/64b/128b counters).
  std::uint32_t tx32 = 0, tx64 = 0, tx128 = 0;

  bool has(Key k) const { return (applies & k) != 0; }
  // needed / moved; 1.0 when nothing was moved (no lane active).
  double bus_utilization() const {
    return bytes_moved == 0 ? 1.0 : static_cast<double>(bytes_needed) / bytes_moved;
  }
};

}  // namespace warpscope
