// The occupancy calculator: how many blocks of a kernel are resident on one SM
// of an architecture, which resource limits them, and what would fit one more.
// The rules are those of cuda_occupancy.h (and, for CC 1.x, the legacy
// CUDA_Occupancy_Calculator.xls), driven by the architecture database's
// [limits], [allocation] and [l1] values; docs/OCCUPANCY.md gives the formula.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/arch.hpp"

namespace warpscope {

// cudaFuncSetCacheConfig: which L1/shared split a kernel prefers. Chooses the
// shared-memory size on CC 2.x/3.x; on 7.0+ it stands for a carveout (L1 = 0 %,
// Equal = 50 %, Shared = 100 %) when no carveout is given; fixed on 1.x, 5.x, 6.x.
enum class CachePreference : std::uint8_t { None, Shared, L1, Equal };
std::string_view to_string(CachePreference p);
std::optional<CachePreference> parse_cache_preference(std::string_view text);  // none|shared|l1|equal

struct OccupancyInput {
  int threads = 0;                  // threads per block
  int regs = 0;                     // registers per thread (as the compiler reports them)
  std::int64_t smem = 0;            // shared memory per block in bytes: static + dynamic
  std::optional<int> carveout_pct;  // 7.0+: cudaFuncAttributePreferredSharedMemoryCarveout, 0..100
  CachePreference cache = CachePreference::None;
};

// What limits the number of resident blocks (bit set; several when tied).
enum Limiter : unsigned {
  kLimitWarps = 1u,         // warp slots of the SM
  kLimitRegisters = 2u,     // register file
  kLimitSharedMemory = 4u,  // shared memory (the carveout in effect)
  kLimitBlocks = 8u,        // resident blocks per SM
};
// "warps", "registers", "shared_memory", "blocks" for each bit set, in that order.
std::vector<std::string> limiter_names(unsigned limiters);

inline constexpr int kUnlimited = std::numeric_limits<int>::max();

// One resource's answer to "what would fit one more block per SM".
struct RaiseHint {
  // Registers per thread (or shared bytes per block) at or below which one more
  // block fits; nullopt when changing this resource alone cannot do it.
  std::optional<std::int64_t> at_most;
  unsigned blocked_by = 0;  // when at_most is empty: the other limits in the way
};

struct OccupancyResult {
  int blocks_per_sm = 0, warps_per_sm = 0, threads_per_sm = 0;
  double occupancy = 0;  // active warps / max_warps_per_sm
  unsigned limiters = 0;
  int warps_per_block = 0;

  // Blocks per SM allowed by each resource alone (kUnlimited: no limit).
  int limit_warps = 0, limit_registers = 0, limit_shared = 0, limit_blocks = 0;

  // What the hardware allocates.
  std::int64_t registers_per_warp = 0;  // 0 on 1.x (allocated per block)
  std::int64_t registers_per_block = 0;
  std::int64_t shared_per_block = 0;  // smem + reserved, rounded up to the allocation unit
  std::int64_t shared_per_sm = 0;     // the shared-memory capacity the limit was computed with
  bool needs_optin = false;           // smem > max_shared_per_block: needs the opt-in attribute (7.0+)

  RaiseHint raise_registers, raise_shared;
};

// Throws InputError naming the limit broken when the block cannot run at all:
// threads <= 0 or > max_threads_per_block, regs < 0 or > max_registers_per_thread,
// the block's registers > max_registers_per_block, smem < 0 or > max_shared_per_block_optin,
// carveout outside 0..100.
OccupancyResult compute_occupancy(const ArchSpec& arch, const OccupancyInput& in);

// The shared-memory capacity (of l1.shared_capacities) the driver gives a
// launch whose application states no carveout, 7.0+ (the CUDA guide: the driver
// picks a configuration per kernel, seed001 20.7.3): the smallest capacity that
// holds the blocks the occupancy allows (each with its reserved shared memory);
// for blocks of up to 512 threads also l1.driver_blocks_factor times the blocks
// the warp slots allow, where that stays within l1.driver_factor_cap, and at
// least l1.default_shared_capacity. On the H100 (factor 2, cap 132 KB) this is
// the driver's choice for all 210 suite launches and 240 of 241 probe launches
// (tests/occupancy/driver_carveout_test.cpp). Throws InputError as
// compute_occupancy; before 7.0, the database's default.
std::int64_t driver_shared_capacity(const ArchSpec& arch, const OccupancyInput& in);

// The classic calculator's graphs: occupancy while one input varies.
enum class SweepAxis : std::uint8_t { BlockSize, Registers, SharedMemory };
std::string_view to_string(SweepAxis a);  // "block", "regs", "smem"

struct SweepPoint {
  std::int64_t value = 0;  // threads, registers or bytes
  std::optional<OccupancyResult> result;
  std::string error;  // why this point cannot run, when result is empty
};

// BlockSize: warp_size .. max_threads_per_block in steps of warp_size.
// Registers: 8, 16, ... up to max_registers_per_thread (and the maximum itself).
// SharedMemory: 0 .. max_shared_per_block_optin in power-of-two steps (at most 32 intervals).
std::vector<SweepPoint> sweep_occupancy(const ArchSpec& arch, const OccupancyInput& base, SweepAxis axis);

}  // namespace warpscope
