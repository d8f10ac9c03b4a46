// 7.0+: unless the configuration fixes the carveout, each kernel's L1 is what
// the driver's shared-memory choice for its launch leaves (driver_shared_capacity,
// measured against the H100 in tests/occupancy/driver_carveout_test.cpp).
#include <gtest/gtest.h>

#include "memory/memory_test_support.hpp"

namespace warpscope::test {
namespace {

OccupancyInput launch(int threads, std::int64_t smem) {
  OccupancyInput in;
  in.threads = threads;
  in.regs = 32;
  in.smem = smem;
  return in;
}

TEST(PerKernelCarveout, TheL1FollowsEachKernelsSharedMemory) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  EXPECT_EQ(m.l1_size(), 224 * 1024);  // the driver's default: 32 KB shared of 256 KB
  m.begin_kernel(launch(256, 32 * 1024));  // 6 blocks x 33 KB = 198 KB -> 228 KB shared
  EXPECT_EQ(m.shared_capacity(), 228 * 1024);
  EXPECT_EQ(m.l1_size(), 28 * 1024);
  EXPECT_EQ(m.l1_cache(0)->capacity(), 28 * 1024);
  m.begin_kernel(launch(256, 0));  // back to the default
  EXPECT_EQ(m.l1_size(), 224 * 1024);
  m.begin_kernel(launch(4096, 0));  // cannot run on an H100: the default split, no error
  EXPECT_EQ(m.l1_size(), 224 * 1024);
}

TEST(PerKernelCarveout, AFixedCarveoutWins) {
  MemoryConfig c;
  c.carveout_percent = 0;  // 32 KB, the floor
  MemorySystem m(arch("sm_90"), c);
  m.begin_kernel(launch(256, 32 * 1024));
  EXPECT_EQ(m.l1_size(), 224 * 1024);
  MemoryConfig s;
  s.shared_capacity = 100 * 1024;
  MemorySystem fixed(arch("sm_90"), s);
  fixed.begin_kernel(launch(256, 0));
  EXPECT_EQ(fixed.l1_size(), 156 * 1024);
}

TEST(PerKernelCarveout, CachesRestartEmptyWithTheNewSize) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  m.begin_kernel(launch(256, 0));
  m.access(line_access(0x10000), 0);
  m.begin_kernel(launch(256, 16 * 1024));  // 8 x 17 KB = 136 KB -> 164 KB shared, 92 KB L1
  EXPECT_EQ(m.l1_size(), 92 * 1024);
  m.access(line_access(0x10000), 0);  // a miss again in L1 (kernels start with empty L1s)
  EXPECT_EQ(m.kernel_counters().global_ld.sector_hits, 0u);
  EXPECT_EQ(m.kernel_counters().global_ld.sectors, 4u);
}

TEST(PerKernelCarveout, OlderGenerationsKeepTheirSplit) {
  MemorySystem m(arch("sm_35"), MemoryConfig{});
  const std::int64_t before = m.l1_size();
  m.begin_kernel(launch(256, 40 * 1024));
  EXPECT_EQ(m.l1_size(), before);
}

}  // namespace
}  // namespace warpscope::test
