// The effective memory hierarchy of one GPU: what the architecture database
// and a MemoryConfig resolve to (cache geometries and the per-generation
// policies the access path follows). Built once, printed by describe().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/cache.hpp"
#include "warpscope/memory_system.hpp"

namespace warpscope::memory {

// What a global store does to the L1 (database l1.store_policy).
enum class StorePolicy : std::uint8_t {
  Invalidate,  // 2.x/3.x: invalidate the line, go to L2 (seed001 "GMEM Writes")
  Update,      // 5.x/6.x: write-through, no allocate; a resident line is updated
  Allocate,    // 7.0+: write-through, write-allocate with byte masks
};

struct Hierarchy {
  std::string gpu;            // default GPU name (or "custom")
  int num_sms = 0;
  bool dram_only = false;     // 1.x: no caches at all

  // L1 (per SM)
  std::int64_t shared_capacity = 0;  // bytes of the L1/shared array given to shared memory
  std::int64_t l1_bytes = 0;         // 0: no L1
  CacheConfig l1;
  bool sector_fills = true;          // 5.x+: a miss fetches the missing sectors; 2.x/3.x: the whole line
  bool count_bypass_lookups = false; // 7.0+: .cg/.cv loads are looked up (and miss) in L1TEX
  bool invalidate_on_bypass = false; // 2.x/3.x: non-caching loads invalidate the L1 line (seed001 "GMEM Reads")
  bool readonly_in_l1 = false;       // 5.x+: the read-only/texture path is the unified L1
  bool nc_counts_as_global = false;  // 7.0+: LDG.CONSTANT is pipe_lsu global traffic for Nsight Compute
  StorePolicy store = StorePolicy::Invalidate;
  bool local_write_back = false;     // 2.x/3.x: local stores allocate in L1 and write back on eviction
  bool store_hits_whole_line = false; // 9.0: a store whose line tag is present hits in every sector (l1.store_hit)

  // separate read-only caches (3.5/3.7)
  int readonly_partitions = 0;
  CacheConfig readonly;

  // L2 (shared)
  std::int64_t l2_bytes = 0;         // 0: no L2
  CacheConfig l2;
  int dram_sector_bytes = 32;        // DRAM traffic per L2 sector filled or written back
  int l2_partitions = 1;             // L2 partitions, one cache each (memory/l2_partitions.hpp)
  std::uint64_t l2_home_mask = 0;    // partitions = 2: the line-address bits whose parity is a line's home partition
  std::vector<std::uint8_t> l2_partition_of_sm;  // per SM (num_sms entries)
  bool l2_partial_writeback_reads = false;  // partial dirty sectors are read before written back
  int l2_merge_window = 0;  // rounds: an SM's reads of a sector in flight merge (memory/l2_request_coalescer.hpp)

  static Hierarchy resolve(const ArchSpec& arch, const MemoryConfig& config);
};

}  // namespace warpscope::memory
