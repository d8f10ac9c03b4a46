// Local memory windows per resident warp slot (memory/local_windows.hpp): the
// warps of a later CTA on an SM reuse the local lines of the slot they take.
// Measured: validation/h100/suite local_array, 41.5% of the local stores hit
// in L1 on the H100 (the model: 38.2% with slot windows, 0% with a window per
// warp).
#include <gtest/gtest.h>

#include "memory/local_windows.hpp"
#include "memory/memory_test_support.hpp"

namespace warpscope::test {
namespace {

WarpAccess local_rec(std::uint32_t cta, std::uint16_t warp) {
  WarpAccess a;
  a.space = Space::Local;
  a.cta = cta;
  a.warp = warp;
  return a;
}

TEST(LocalWindows, ACtaTakesTheSlotOfTheCtaBlocksBeforeIt) {
  memory::LocalWindows w;
  w.begin_kernel(2, 2, 4);  // 2 SMs, 2 resident CTAs of 4 warps each
  const auto k = [&](std::uint32_t cta, std::uint16_t warp, int sm) { return w.key(local_rec(cta, warp), sm, 5); };
  const std::uint64_t c0 = k(0, 1, 0), c1 = k(1, 1, 0);
  EXPECT_NE(c0, c1);          // co-resident CTAs: different slots
  EXPECT_EQ(k(2, 1, 0), c0);  // the third CTA on SM 0 takes CTA 0's slot
  EXPECT_EQ(k(3, 1, 0), c1);
  EXPECT_EQ(k(2, 1, 0), c0);  // and keeps it
  EXPECT_NE(k(2, 2, 0), c0);  // another warp of it: another window
  EXPECT_NE(k(4, 1, 1), c0);  // another SM: other windows
  EXPECT_NE(w.key(local_rec(2, 1), 0, 6), c0);  // another line of the window
  EXPECT_EQ(c0 >> 62, 3u);    // local (bit 63), slot window (bit 62): apart from global lines
}

TEST(LocalWindows, WithoutALaunchShapeEachWarpHasItsOwn) {
  memory::LocalWindows w;
  w.begin_kernel(2, 0, 0);
  EXPECT_NE(w.key(local_rec(0, 1), 0, 5), w.key(local_rec(2, 1), 0, 5));
  EXPECT_EQ(w.key(local_rec(0, 1), 0, 5) >> 62, 2u);  // local, no slot window
}

// One local store per warp: thread t writes word 0 of its local memory (one
// line per warp in the interleaved layout).
WarpAccess local_store(std::uint32_t cta, std::uint16_t warp) {
  WarpAccess a = make({Space::Local, Op::Store, 4}, [](int) { return std::uint64_t{0}; });
  a.cta = cta;
  a.warp = warp;
  return a;
}

TEST(LocalWindows, LaterCtasHitTheLinesOfTheirSlot) {
  OccupancyInput launch;
  launch.threads = 256;  // 8 warps; 32 registers: 8 CTAs per SM on sm_90
  launch.regs = 32;
  auto m = memory("sm_90");
  m->begin_kernel(launch);
  for (std::uint32_t cta = 0; cta < 8; ++cta) m->access(local_store(cta, 3), 0);  // the first wave on SM 0: misses
  EXPECT_EQ(m->kernel_counters().local_st.sector_hits, 0u);
  m->access(local_store(8, 3), 0);  // the 9th CTA on SM 0 takes CTA 0's slot: its line is there
  EXPECT_EQ(m->kernel_counters().local_st.sectors, 36u);
  EXPECT_EQ(m->kernel_counters().local_st.sector_hits, 4u);
  m->begin_kernel();  // no launch shape: a window per warp, no reuse
  for (std::uint32_t cta = 0; cta <= 8; ++cta) m->access(local_store(cta, 3), 0);
  EXPECT_EQ(m->kernel_counters().local_st.sector_hits, 0u);
}

}  // namespace
}  // namespace warpscope::test
