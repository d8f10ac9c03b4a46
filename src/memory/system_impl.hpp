// MemorySystem's state and its per-record access path, shared by
// memory_system.cpp (construction, kernels, describe) and access_path.cpp (the
// hot path).
#pragma once

#include <bit>
#include <vector>

#include "memory/hierarchy.hpp"
#include "memory/issue_clock.hpp"
#include "memory/l2_request_coalescer.hpp"
#include "memory/local_windows.hpp"
#include "memory/warp_lines.hpp"
#include "warpscope/cache.hpp"
#include "warpscope/counters.hpp"
#include "warpscope/memory_system.hpp"

namespace warpscope {

namespace memory {

// Which L1Traffic of Counters a record adds to.
enum class Kind : std::uint8_t { GlobalLd, GlobalSt, GlobalAtom, LocalLd, LocalSt, ReadOnlyLd, SharedLd, SharedSt,
                                 SharedAtom, Const };

// What one record adds, applied to the kernel counters and to the caller's
// per-PC counters.
struct Delta {
  Kind kind = Kind::GlobalLd;
  L1Traffic l1;
  SharedTraffic shared;
  std::uint64_t const_serialization = 0;
  std::uint64_t l2r_req = 0, l2r_sec = 0, l2r_hit = 0;
  std::uint64_t l2w_req = 0, l2w_sec = 0, l2w_hit = 0;
  std::uint64_t l2a_req = 0, l2a_sec = 0, l2a_hit = 0;
  std::uint64_t dram_r = 0, dram_w = 0;
};

void apply(Counters& c, const Delta& d);

}  // namespace memory

struct MemorySystem::Impl {
  ArchSpec arch;
  MemoryConfig cfg;
  memory::Hierarchy h;
  std::vector<Cache> l1;        // per SM (empty when there is no L1)
  std::vector<Cache> readonly;  // per SM x partition (3.5/3.7)
  std::vector<Cache> l2;        // none, or one per L2 partition (memory/l2_partitions.hpp)
  int l2_partition = 0;         // L2 partition of the SM whose record is in flight
  int sm_in_flight = 0;         // the SM whose record is in flight
  std::uint64_t round = 0;      // its issue round (memory/issue_clock.hpp; kept only with a coalescer)
  memory::IssueClock clock;
  memory::L2RequestCoalescer coalescer;
  // Per SM: whether its L1 may hold a global line. Until one is allocated,
  // invalidating global lines there is a no-op and is skipped (2.x/3.x
  // non-caching loads and stores would otherwise look up L1 for nothing).
  std::vector<std::uint8_t> l1_has_global;
  Counters kernel;
  memory::WarpLines lines;      // scratch for the record in flight
  memory::LocalWindows local_windows;  // where each warp's local lines live (memory/local_windows.hpp)

  Impl(const ArchSpec& a, const MemoryConfig& c);
  // (Re)creates the per-SM L1s for h.l1 (construction, a kernel with another carveout).
  void build_l1();
  // Whether the driver chooses the carveout per kernel: 7.0+ unified L1/shared
  // and no carveout or shared capacity in MemoryConfig.
  bool per_kernel_carveout() const;

  // The hot path (access_path.cpp).
  void cached(const WarpAccess& rec, int sm, const InstructionCounts& c, memory::Delta& d);
  void load(const WarpAccess& rec, int sm, const InstructionCounts& c, memory::Delta& d);
  void store(const WarpAccess& rec, int sm, const InstructionCounts& c, memory::Delta& d);
  void atomic(int sm, memory::Delta& d);
  void l2_read(std::uint64_t line, SectorMask sectors, bool evict_first, memory::Delta& d);
  void l2_write(std::uint64_t line, const LineBytes& bytes, bool evict_first, memory::Delta& d);
  void write_back(const Eviction& e, memory::Delta& d);
  void l2_evicted(const Eviction& e, memory::Delta& d) const;  // DRAM traffic of a line leaving L2
  int l2_home(std::uint64_t line) const;  // the partition that reads DRAM for `line` and holds its written data
};

}  // namespace warpscope
