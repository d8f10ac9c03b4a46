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
//
// The L2 Cache keeps the promotion state itself, next to each line
// (CacheConfig::fill_sectors, ReadOptions::group_fill / requester): the
// requester is the partition of the SM that asks.
#pragma once

namespace warpscope::memory {

inline constexpr int kMaxL2Partitions = 8;

// The L2 partition of SM `sm`. Consecutive SMs alternate: the model places CTA
// c on SM c, and the hardware's block scheduler spreads consecutive CTAs over
// GPCs of both halves of the chip (assumed; which SMs form a half is not
// measured).
constexpr int l2_partition_of(int sm, int partitions) { return sm % partitions; }

}  // namespace warpscope::memory
