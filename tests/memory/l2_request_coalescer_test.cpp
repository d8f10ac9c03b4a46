// The L2 request coalescer (memory/l2_request_coalescer.hpp): an SM's reads
// of a sector it asked for within the window merge; other SMs', later ones and
// other kernels' do not. Then through the sm_90 hierarchy: the suite's
// c_ldcg4_reuse4 shape (validation/h100/merge_probe: 32,768 sectors offered,
// 24,576 merged, 8,192 looked up, 0 hits: a quarter of what L1 sends).
#include <gtest/gtest.h>

#include "memory/l2_request_coalescer.hpp"
#include "memory/memory_test_support.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

using memory::L2RequestCoalescer;

constexpr SectorMask kAll(0xf);

TEST(L2RequestCoalescer, MergesAnSmsRequestsInFlight) {
  L2RequestCoalescer c(4);
  EXPECT_EQ(c.offer(0, 100, kAll, 10), kAll);
  EXPECT_EQ(c.offer(0, 100, kAll, 10), SectorMask{});             // same round
  EXPECT_EQ(c.offer(0, 100, SectorMask(0x3), 13), SectorMask{});  // 3 rounds apart: still in flight
  EXPECT_EQ(c.offer(0, 100, kAll, 7), SectorMask{});              // trace order is not time order
  EXPECT_EQ(c.offer(0, 100, kAll, 14), kAll);                     // 4 apart: returned, a new request
  EXPECT_EQ(c.offer(0, 100, kAll, 17), SectorMask{});             // ... in flight from 14
}

TEST(L2RequestCoalescer, OnlySectorsInFlightMerge) {
  L2RequestCoalescer c(4);
  EXPECT_EQ(c.offer(3, 5, SectorMask(0x1), 0), SectorMask(0x1));
  EXPECT_EQ(c.offer(3, 5, SectorMask(0x3), 1), SectorMask(0x2));
  EXPECT_EQ(c.offer(3, 5, SectorMask(0xf), 2), SectorMask(0xc));
  EXPECT_EQ(c.offer(3, 6, SectorMask(0x1), 2), SectorMask(0x1));  // another line
}

TEST(L2RequestCoalescer, OtherSmsAndKernelsDoNotMerge) {
  L2RequestCoalescer c(4);
  EXPECT_EQ(c.offer(0, 100, kAll, 0), kAll);
  EXPECT_EQ(c.offer(1, 100, kAll, 0), kAll);  // another SM (the model does not merge across SMs)
  c.begin_kernel();
  EXPECT_EQ(c.offer(0, 100, kAll, 0), kAll);
}

TEST(L2RequestCoalescer, ManyKernelsReuseTheTable) {
  L2RequestCoalescer c(4, 2);  // 4 buckets
  for (int k = 0; k < 600; ++k) {  // past the 8-bit generation
    c.begin_kernel();
    ASSERT_EQ(c.offer(0, 1, kAll, 0), kAll) << k;
    ASSERT_EQ(c.offer(0, 1, kAll, 1), SectorMask{}) << k;
  }
}

TEST(L2RequestCoalescer, AFullBucketDropsItsOldestEntry) {
  L2RequestCoalescer c(100, 0);  // one bucket of 4 entries
  for (std::uint64_t line = 0; line < 4; ++line) EXPECT_EQ(c.offer(0, line, kAll, line), kAll);
  EXPECT_EQ(c.offer(0, 9, kAll, 5), kAll);           // evicts line 0 (round 0)
  EXPECT_EQ(c.offer(0, 1, kAll, 6), SectorMask{});   // still there
  EXPECT_EQ(c.offer(0, 0, kAll, 6), kAll);           // forgotten: sent again
}

// One CTA of eight warps reading its 1 KB window in four rotated passes with
// ld.global.cg, recorded pass by pass (pass k, warp i: line (i + 2k) % 8).
void reuse4_cta(MemorySystem& m, int sm, std::uint32_t cta, std::uint64_t base) {
  for (int pass = 0; pass < 4; ++pass)
    for (std::uint16_t warp = 0; warp < 8; ++warp) {
      WarpAccess a = line_access(base + 128u * static_cast<std::uint64_t>((warp + 2 * pass) % 8), Op::Load, CacheOp::Cg);
      a.cta = cta;
      a.warp = warp;
      m.access(a, sm);
    }
}

TEST(L2RequestCoalescer, ReuseFourThroughTheH100Hierarchy) {
  auto m = memory("sm_90");
  reuse4_cta(*m, 0, 0, 0x100000);
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.global_ld.sectors, 128u);   // L1TEX looks every sector up ...
  EXPECT_EQ(k.global_ld.sector_hits, 0u);  // ... and .cg misses
  EXPECT_EQ(k.l2_read_requests, 8u);      // a quarter reaches L2
  EXPECT_EQ(k.l2_read_sectors, 32u);
  EXPECT_EQ(k.l2_read_sector_hits, 0u);

  // The same window read by a CTA on another SM of the same L2 partition: its
  // requests are its own (not merged with SM 0's), and hit.
  reuse4_cta(*m, 1, 1, 0x100000);
  EXPECT_EQ(k.l2_read_requests, 16u);
  EXPECT_EQ(k.l2_read_sectors, 64u);
  EXPECT_EQ(k.l2_read_sector_hits, 32u);
}

TEST(L2RequestCoalescer, ANegativeWindowIsADatabaseError) {
  ArchSpec a = arch("sm_90");
  a.l2_merge_window = -1;
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
  a.l2_merge_window = 0;  // no coalescer: the reuse shape reaches L2 whole
  MemorySystem m(a, MemoryConfig{});
  m.begin_kernel();
  reuse4_cta(m, 0, 0, 0x100000);
  EXPECT_EQ(m.kernel_counters().l2_read_sectors, 128u);
  EXPECT_EQ(m.kernel_counters().l2_read_sector_hits, 96u);
}

TEST(L2RequestCoalescer, VoltaHasNoneModelled) {
  auto m = memory("sm_70");
  reuse4_cta(*m, 0, 0, 0x100000);
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.l2_read_requests, 32u);
  EXPECT_EQ(k.l2_read_sectors, 128u);
  EXPECT_EQ(k.l2_read_sector_hits, 96u);
}

}  // namespace
}  // namespace warpscope::test
