// Promoted L2 sectors and the L2 partition that holds them (9.0: l2.fill_bytes
// = 64, l2.partitions = 2).
//
// A read miss fetches its aligned sector group from DRAM; the sectors nobody
// asked for are "promoted". Nsight Compute counts each promoted sector as a
// lookup miss when it is filled: lts__t_sectors_srcunit_tex_op_read_lookup_miss
// exceeds the lookups (validation/h100/suite g_ld4_stride32: 131,072 misses of
// 65,536 sectors, every requested sector plus its partner; cache_kernels gather:
// 236,176 of 146,761, the excess = lts__t_sectors_lookup_miss_data_promoted).
// A later request for the sector is then a hit where the data is - in the L2
// partition that filled it. Each partition keeps the data of the SMs attached
// to it (NVIDIA A100 whitepaper, "L2 cache"; H100: 2 partitions, cross traffic
// in lts__t_sectors_srcunit_ltcfabric), so a request from an SM of another
// partition misses there and is served over the fabric, without a DRAM read.
// Measured: g_ld4_misalign32/96 (the partner sector requested by the next warp
// of the same CTA, same SM) hit in 76%/86% of cases; random gathers, whose
// partner requests come from any SM, in about half.
#pragma once

#include <cstdint>
#include <vector>

namespace warpscope::memory {

inline constexpr int kMaxL2Partitions = 8;

// The L2 partition of SM `sm`. Consecutive SMs alternate: the model places CTA
// c on SM c, and the hardware's block scheduler spreads consecutive CTAs over
// GPCs of both halves of the chip (assumed; which SMs form a half is not
// measured).
constexpr int l2_partition_of(int sm, int partitions) { return sm % partitions; }

// The bit of (sector slot, partition) in the promotion table: the partitions'
// bits of one sector share a 64-bit word (low bits flipped), so one host-cache
// line serves every partition.
constexpr std::uint64_t promoted_bit_index(std::uint64_t sector_slot, int partition) {
  return sector_slot ^ static_cast<std::uint64_t>(partition);
}

// Records that `partition` filled the sector at `sector_slot` by promotion.
inline void mark_promoted(std::vector<std::uint64_t>& table, std::uint64_t sector_slot, int partition) {
  const std::uint64_t i = promoted_bit_index(sector_slot, partition);
  table[i >> 6] |= 1ull << (i & 63);
}

// A request from `partition` that found the sector valid: forgets the
// promotion and says whether the lookup is a miss after all (promoted by
// another partition only).
inline bool promoted_elsewhere(std::vector<std::uint64_t>& table, std::uint64_t sector_slot, int partitions,
                               int partition) {
  std::uint64_t& word = table[sector_slot >> 6];
  std::uint64_t own = 0, others = 0;
  for (int q = 0; q < partitions; ++q) {
    const std::uint64_t bit = 1ull << (promoted_bit_index(sector_slot, q) & 63);
    (q == partition ? own : others) |= bit;
  }
  const bool miss = (word & own) == 0 && (word & others) != 0;
  word &= ~(own | others);
  return miss;
}

}  // namespace warpscope::memory
