// seed001 (KAUST CS 380 "CUDA Memories"), slides "Caching Load" / "Non-caching Load"
// for CC 2.x: 32 lanes, 4-byte words. Expected values are the slides' numbers.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace warpscope::test {
namespace {

const Access kCaching{Space::Global, Op::Load, 4, CacheOp::Ca};
const Access kNonCaching{Space::Global, Op::Load, 4, CacheOp::Cg};

TEST(Seed001CachingLoad, AlignedConsecutiveIsOneLineNoReplay) {
  auto c = run("sm_20", kCaching, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.path, MemoryPath::L1);
  EXPECT_EQ(c.transactions, 1u);
  EXPECT_EQ(c.replays, 0u);
  EXPECT_EQ(c.bytes_needed, 128u);
  EXPECT_EQ(c.bytes_moved, 128u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 1.0);
}

TEST(Seed001NonCachingLoad, AlignedConsecutiveIsFourSegments) {
  auto c = run("sm_20", kNonCaching, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.path, MemoryPath::L2);
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.replays, 0u);
  EXPECT_EQ(c.bytes_moved, 128u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 1.0);
}

TEST(Seed001CachingLoad, PermutedWithinLineIsStillOneLine) {
  // A fixed permutation of 0..31 (reverse, then swap pairs).
  auto c = run("sm_20", kCaching, [](int l) { return kBase + 4u * static_cast<unsigned>((31 - l) ^ 1); });
  EXPECT_EQ(c.transactions, 1u);
  EXPECT_EQ(c.bytes_moved, 128u);
  auto n = run("sm_20", kNonCaching, [](int l) { return kBase + 4u * static_cast<unsigned>((31 - l) ^ 1); });
  EXPECT_EQ(n.sectors, 4u);
  EXPECT_EQ(n.bytes_moved, 128u);
}

TEST(Seed001CachingLoad, MisalignedTakesTwoLinesHalfUtilization) {
  auto c = run("sm_20", kCaching, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(c.transactions, 2u);
  EXPECT_EQ(c.replays, 1u);
  EXPECT_EQ(c.bytes_moved, 256u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 0.5);
}

TEST(Seed001NonCachingLoad, MisalignedAtMostFiveSegmentsAtLeast80Percent) {
  // "Addresses fall within at most 5 segments ... Bus utilization: at least 80%"
  for (unsigned shift = 4; shift < 128; shift += 4) {
    auto c = run("sm_20", kNonCaching, [shift](int l) { return kBase + shift + 4u * l; });
    EXPECT_LE(c.sectors, 5u) << "shift " << shift;
    EXPECT_GE(c.bus_utilization(), 0.8) << "shift " << shift;
    EXPECT_EQ(c.transactions, 2u) << "shift " << shift;  // "1 replay (2 transactions)"
    EXPECT_EQ(c.replays, 1u);
  }
  // "Some misaligned patterns will fall within 4 segments, so 100% utilization"
  auto aligned32 = run("sm_20", kNonCaching, [](int l) { return kBase + 32 + 4u * l; });
  EXPECT_EQ(aligned32.sectors, 4u);
  EXPECT_DOUBLE_EQ(aligned32.bus_utilization(), 1.0);
  auto by4 = run("sm_20", kNonCaching, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(by4.sectors, 5u);
  EXPECT_EQ(by4.bytes_moved, 160u);
  EXPECT_DOUBLE_EQ(by4.bus_utilization(), 0.8);
}

TEST(Seed001Broadcast, CachingIs3Point125PercentNonCaching12Point5) {
  auto c = run("sm_20", kCaching, [](int) { return kBase + 40; });
  EXPECT_EQ(c.transactions, 1u);
  EXPECT_EQ(c.bytes_needed, 4u);
  EXPECT_EQ(c.bytes_moved, 128u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 0.03125);
  auto n = run("sm_20", kNonCaching, [](int) { return kBase + 40; });
  EXPECT_EQ(n.sectors, 1u);
  EXPECT_EQ(n.bytes_moved, 32u);
  EXPECT_DOUBLE_EQ(n.bus_utilization(), 0.125);
}

TEST(Seed001Scattered, NLinesVersusNSegments) {
  // 32 words in 32 different lines: N = 32.
  auto far = [](int l) { return kBase + 4096u * static_cast<unsigned>(l) + 8; };
  auto c = run("sm_20", kCaching, far);
  EXPECT_EQ(c.transactions, 32u);
  EXPECT_EQ(c.replays, 31u);  // "(N-1) replays"
  EXPECT_EQ(c.bytes_moved, 32u * 128u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 128.0 / (32 * 128));
  auto n = run("sm_20", kNonCaching, far);
  EXPECT_EQ(n.sectors, 32u);
  EXPECT_EQ(n.bytes_moved, 32u * 32u);
  EXPECT_DOUBLE_EQ(n.bus_utilization(), 128.0 / (32 * 32));  // 4x the caching load
  // 8 lines, each holding 4 lanes in 4 different segments: N = 8 lines, 32 segments.
  auto grouped = [](int l) { return kBase + 1024u * static_cast<unsigned>(l / 4) + 32u * static_cast<unsigned>(l % 4); };
  EXPECT_EQ(run("sm_20", kCaching, grouped).bytes_moved, 8u * 128u);
  EXPECT_EQ(run("sm_20", kNonCaching, grouped).bytes_moved, 32u * 32u);
}

TEST(Seed001Writes, StoresGoToL2InSegments) {
  // "GMEM Writes: not cached in the SM ... 32 B segment granularity ... only the required segments"
  const Access store{Space::Global, Op::Store, 4, CacheOp::Default};
  auto c = run("sm_20", store, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(c.path, MemoryPath::L2);
  EXPECT_EQ(c.sectors, 5u);
  EXPECT_EQ(c.bytes_moved, 160u);
  auto half = run("sm_20", Access{Space::Global, Op::Store, 4, CacheOp::Default, 0x0000ffffu},
                  [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(half.sectors, 2u);
}

}  // namespace
}  // namespace warpscope::test
