// L2 sector promotion per L2 partition (memory/promoted_sectors.hpp): on sm_90
// (l2.fill_bytes = 64, l2.partitions = 2, SM s in partition s mod 2) the first
// request for a promoted sector is a hit from the partition that filled it and
// a miss, without a DRAM read, from the other. Expected values worked by hand.
#include <gtest/gtest.h>

#include "memory/memory_test_support.hpp"
#include "memory/promoted_sectors.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kLineA = kBase + 0x4000;  // two lines apart from everything else
constexpr std::uint64_t kLineB = kBase + 0x8000;

TEST(PromotedSectors, PartitionOfAnSm) {
  EXPECT_EQ(memory::l2_partition_of(0, 2), 0);
  EXPECT_EQ(memory::l2_partition_of(5, 2), 1);
  EXPECT_EQ(memory::l2_partition_of(130, 2), 0);
  EXPECT_EQ(memory::l2_partition_of(7, 1), 0);
}

TEST(PromotedSectors, HitInTheFillingPartitionMissInTheOther) {
  auto m = memory("sm_90");
  const Counters& k = m->kernel_counters();
  m->access(one_lane(kLineA), 0);       // SM 0 (partition 0): sector 0 misses, DRAM reads sectors 0 and 1
  EXPECT_EQ(k.dram_read_bytes, 64u);
  EXPECT_EQ(k.l2_read_sector_hits, 0u);
  m->access(one_lane(kLineA + 32), 2);  // SM 2, partition 0: the promoted sector 1 is a hit
  EXPECT_EQ(k.l2_read_sector_hits, 1u);
  EXPECT_EQ(k.dram_read_bytes, 64u);
  m->access(one_lane(kLineB + 64), 0);  // SM 0: sector 2 of B misses, sector 3 promoted by partition 0
  EXPECT_EQ(k.dram_read_bytes, 128u);
  m->access(one_lane(kLineB + 96), 1);  // SM 1, partition 1: a lookup miss, no DRAM read
  EXPECT_EQ(k.l2_read_sector_hits, 1u);
  EXPECT_EQ(k.dram_read_bytes, 128u);
  m->access(one_lane(kLineB + 96), 3);  // SM 3, partition 1 again: now an ordinary hit
  EXPECT_EQ(k.l2_read_sector_hits, 2u);
  m->access(one_lane(kLineA + 32), 4);  // SM 4: sector 1 of A, requested before: an ordinary hit
  EXPECT_EQ(k.l2_read_sector_hits, 3u);
  EXPECT_EQ(k.l2_read_sectors, 6u);
  EXPECT_EQ(k.dram_read_bytes, 128u);
}

TEST(PromotedSectors, NoPromotionBefore90) {
  auto m = memory("sm_80");             // l2.fill_bytes = 32: each miss reads its own sector
  m->access(one_lane(kLineA), 0);
  m->access(one_lane(kLineA + 32), 2);
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 0u);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 64u);
}

TEST(PromotedSectors, PartitionsOutsideTheRangeAreErrors) {
  ArchSpec a = arch("sm_90");
  a.l2_partitions = 0;
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
  a.l2_partitions = memory::kMaxL2Partitions + 1;
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
}

}  // namespace
}  // namespace warpscope::test
