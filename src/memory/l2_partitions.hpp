// The L2 partitions of the H100 (9.0: l2.partitions = 2, l2.home_bits,
// l2.sm_partitions) and promoted sectors (l2.fill_bytes = 64).
//
// Measured (validation/h100/partition_probe): the SMs fall into two groups of
// 66, each attached to one L2 partition. Every line has a home partition, the
// XOR of a few address bits (l2.home_bits). A read looks up the partition of
// the SM that asks; there a line is cached whichever its home, so a line read
// once by an SM hits for every SM of the same group. A miss there is served by
// the home partition (over the fabric when that is the other one; Nsight
// Compute counts that second lookup as lts__t_sectors_srcunit_ltcfabric, not
// as tex traffic), and only the home partition reads DRAM. So a line first read
// by the other group hits for half the lines (those homed here) and misses for
// the rest, without a DRAM read: one warp reading 4,096 lines, then another
// warp the same lines, hits 4,096 times from its own group and 2,048 from the
// other, and DRAM reads 64 B per line either way.
//
// A read miss fills the aligned 64 B sector pair (validation/h100/cache); the
// sector nobody asked for is "promoted": a lookup miss when filled
// (lts__t_sectors_srcunit_tex_op_read_lookup_miss exceeds the lookups by
// them, g_ld4_stride32: 131,072 of 65,536) and a hit later in that partition.
//
// Reductions and atomics are performed at the home partition: from the home
// group a miss fills 64 B and counts as in a read; from the other group the
// near lookup counts a hit and the home fetches 32 B (partition_probe red:
// 4,096 lines, 2,048 hits, DRAM 1.5 x 32 B per line, from every SM; the
// suite's g_red_add4_* read 1.5 x too). Stores are written at the home
// partition (dirty there, written back from there) and into the writer's
// partition as a clean copy, which later reads from that group hit (measured,
// partition_probe whomes: whole sectors written from SM 0 are near hits for SM
// 1 also where homed in the other partition, 8,088-8,176 of 8,192 lines; it
// also fit the suite best of the variants tried, docs/VALIDATION.md).
#pragma once

#include <bit>
#include <cstdint>

namespace warpscope::memory {

// The home partition of `line` (a line address, i.e. byte address >> 7, with
// home_mask the home bits shifted the same way): the parity of its home bits.
constexpr int l2_home_of(std::uint64_t line, std::uint64_t home_mask) { return std::popcount(line & home_mask) & 1; }

}  // namespace warpscope::memory
