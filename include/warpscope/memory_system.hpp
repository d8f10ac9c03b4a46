// The memory hierarchy of one GPU, composed from the architecture database:
// per-SM L1 (and read-only cache where separate), a shared L2, DRAM. Each warp
// record goes through the rules engine, then the caches, and updates counters.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "warpscope/arch.hpp"
#include "warpscope/cache.hpp"
#include "warpscope/counters.hpp"
#include "warpscope/occupancy.hpp"
#include "warpscope/rules.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope {

// Replacement (Lru, Fifo, Random) is declared in warpscope/cache.hpp.

struct MemoryConfig {
  int num_sms = 0;                     // 0: the arch's default GPU
  std::int64_t l2_size = 0;            // bytes; 0: the arch's default GPU
  std::string gpu_name;                // the GPU model num_sms and l2_size describe (analyze --gpu,
                                       // validate); empty: the arch's default GPU, or "custom" when set
  int carveout_percent = -1;           // 7.0+: preferred shared capacity, % of max; -1: the driver's
                                       // choice per kernel (begin_kernel(launch); driver_shared_capacity)
  std::int64_t shared_capacity = -1;   // shared size of the L1/shared split (bytes), one of
                                       // l1.shared_capacities; -1: carveout (7.0+) or the default
  std::optional<Replacement> l1_replacement;  // empty: the database's l1.replacement
  std::optional<Replacement> l2_replacement;  // empty: the database's l2.replacement
  std::uint64_t seed = 1;                      // Random replacement
  bool flush_l2_between_kernels = true;  // as Nsight Compute's default --cache-control all
  RulesOptions rules;
};

class MemorySystem {
 public:
  MemorySystem(const ArchSpec& arch, const MemoryConfig& config);
  ~MemorySystem();
  MemorySystem(const MemorySystem&) = delete;
  MemorySystem& operator=(const MemorySystem&) = delete;

  // A new kernel starts: L1s are invalidated (the driver does so between
  // dependent grids, seed001 ".ca"); L2 flushed if configured; the kernel
  // counters restart from zero.
  void begin_kernel();
  // The same for a launch of this shape: on 7.0+, unless MemoryConfig fixes the
  // carveout, the L1 gets what the driver leaves it for this kernel
  // (driver_shared_capacity; its default when the launch cannot run here).
  void begin_kernel(const OccupancyInput& launch);
  // One warp record on SM `sm` (0 <= sm < num_sms(); InputError otherwise).
  // Returns the rules-engine counts of the instruction and adds everything to
  // kernel_counters() and to `pc_counters` when not null.
  InstructionCounts access(const WarpAccess& rec, int sm, Counters* pc_counters = nullptr);

  // Runs the L2 side (request coalescer, L2 partitions, DRAM) on a thread of
  // its own: access() then does the rules engine and the L1s and hands the
  // record's L2 operations over. Counters and caches are exactly as without it
  // once the L2 side has caught up, which every other member function waits
  // for; the L2 and DRAM fields of a `pc_counters` are added then too, so such
  // an object must stay where it is until the kernel's end_kernel() or
  // kernel_counters(). Off by default.
  void set_l2_thread(bool on);
  bool l2_thread() const;
  // Writes back what the kernel left dirty in L2 if `flush_dirty` (counted as
  // DRAM writes of this kernel). Nsight Compute does not count that write-back
  // in dram__bytes_write (validation/h100/cache stencil2d: 1 MB stored, 0 B
  // written), so pass false to compare with it. Dirty local data left in a
  // write-back L1 (2.x/3.x) is dead after the kernel and is never counted.
  void end_kernel(bool flush_dirty);

  const Counters& kernel_counters() const;
  void reset_kernel_counters();
  int num_sms() const;
  std::int64_t l1_size() const;  // per SM, bytes, for the kernel in progress
  std::int64_t shared_capacity() const;  // the L1/shared array's shared part, bytes (0: separate)
  std::int64_t l2_size() const;
  std::string describe() const;  // effective configuration, one line per level

  // The caches, for tests and reports: nullptr where the level does not exist.
  const Cache* l1_cache(int sm) const;
  const Cache* readonly_cache(int sm, int partition) const;  // separate read-only caches (3.5/3.7)
  // The L2 of `partition` (0..l2_partitions()-1: 9.0 has two, each half the L2), or nullptr.
  const Cache* l2_cache(int partition = 0) const;
  int l2_partitions() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpscope
