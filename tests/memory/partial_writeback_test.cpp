// l2.partial_writeback_reads (9.0, validation/h100/write_probe): a dirty L2
// sector written only in part is read from DRAM before it is written back,
// on eviction and in the end-of-kernel flush.
#include <gtest/gtest.h>

#include "memory/memory_test_support.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kLineA = kBase;

// One 20-way L2 set (2,560 B): a 4 B store leaves a partial sector in line A,
// then 20 other lines read through L2 evict it.
Counters evict_partial(const ArchSpec& a) {
  MemoryConfig c;
  c.l2_size = 20 * 128;
  auto m = std::make_unique<MemorySystem>(a, c);
  m->begin_kernel();
  m->access(one_lane(kLineA, Op::Store), 0);
  for (std::uint64_t i = 1; i <= 20; ++i) m->access(one_lane(kLineA + i * 128, Op::Load, CacheOp::Cg), 0);
  return m->kernel_counters();
}

TEST(PartialWriteback, APartialSectorIsReadBeforeItIsWrittenBack) {
  ArchSpec plain = arch("sm_90");
  ASSERT_TRUE(plain.l2_partial_writeback_reads);
  const Counters rmw = evict_partial(plain);
  plain.l2_partial_writeback_reads = false;
  const Counters masked = evict_partial(plain);
  EXPECT_EQ(rmw.dram_write_bytes, 32u);  // the partial sector, written back
  EXPECT_EQ(masked.dram_write_bytes, 32u);
  EXPECT_EQ(rmw.dram_read_bytes, masked.dram_read_bytes + 32u);  // ... and read first
}

TEST(PartialWriteback, TheEndOfKernelFlushReadsThemToo) {
  auto m = memory("sm_90");
  m->access(one_lane(kLineA, Op::Store), 0);                     // 4 B of sector 0: partial
  m->access(line_access(kLineA + 4096, Op::Store), 0);            // a whole line: 4 whole sectors
  const std::uint64_t read_before = m->kernel_counters().dram_read_bytes;
  m->end_kernel(true);
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 5u * 32u);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, read_before + 32u);  // the partial one only
  auto a100 = memory("sm_80");                                    // not measured: byte-masked writes
  a100->access(one_lane(kLineA, Op::Store), 0);
  a100->end_kernel(true);
  EXPECT_EQ(a100->kernel_counters().dram_read_bytes, 0u);
}

}  // namespace
}  // namespace warpscope::test
