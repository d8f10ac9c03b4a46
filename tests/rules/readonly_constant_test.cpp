// Read-only data cache queries (seed001 "Read-Only Cache Operation": 32 B
// queries, 4 threads at a time, a minimum of 8 queries per warp, a segment
// misses at most once) and constant-memory serialization (CUDA C Programming
// Guide §5.3.2 "Constant Memory"; seed001 "Constants": broadcast to all lanes).
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace warpscope::test {
namespace {

const Access kLdg{Space::Global, Op::Load, 4, CacheOp::Nc};

TEST(Seed001ReadOnly, CoalescedWarpIsEightQueriesFourSegments) {
  auto c = run("sm_35", kLdg, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.path, MemoryPath::ReadOnly);
  EXPECT_EQ(c.transactions, 8u);  // queries
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.bytes_moved, 128u);
  EXPECT_EQ(c.replays, 0u);  // "Does not require replay for multiple transactions"
}

TEST(Seed001ReadOnly, BroadcastMissesOnce) {
  auto c = run("sm_35", kLdg, [](int) { return kBase + 64; });
  EXPECT_EQ(c.transactions, 8u);  // still 8 groups of 4 threads
  EXPECT_EQ(c.sectors, 1u);
}

TEST(Seed001ReadOnly, SixteenByteWordsTwoQueriesPerGroup) {
  auto c = run("sm_35", Access{Space::Global, Op::Load, 16, CacheOp::Nc}, [](int l) { return kBase + 16u * l; });
  EXPECT_EQ(c.transactions, 16u);
  EXPECT_EQ(c.sectors, 16u);
}

TEST(Seed001ReadOnly, ScatteredIs32QueriesAt32Bytes) {
  auto c = run("sm_35", kLdg, [](int l) { return kBase + 1024u * l; });
  EXPECT_EQ(c.transactions, 32u);
  EXPECT_EQ(c.bytes_moved, 32u * 32u);  // 4x less than 128 B caching lines
}

TEST(Seed000ReadOnly, OnlyFromCC35) {
  // 3.0 has no direct read-only path (seed000 G.4.1): ld.global.nc behaves as a plain load.
  auto c = run("sm_30", kLdg, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.path, MemoryPath::L2);
}

const Access kConst{Space::Const, Op::Load, 4};

TEST(ConstantMemory, UniformAddressIsOneRequest) {
  for (const char* name : {"sm_20", "sm_35", "sm_90"}) {
    auto c = run(name, kConst, [](int) { return 16u; });
    EXPECT_EQ(c.serialization, 1u) << name;
    EXPECT_EQ(c.replays, 0u) << name;
  }
}

TEST(ConstantMemory, SerializedByDistinctAddress) {
  EXPECT_EQ(run("sm_90", kConst, [](int l) { return 4u * l; }).serialization, 32u);
  EXPECT_EQ(run("sm_90", kConst, [](int l) { return 4u * static_cast<unsigned>(l / 2); }).serialization, 16u);
  EXPECT_EQ(run("sm_90", kConst, [](int l) { return 4u * static_cast<unsigned>(l % 3); }).serialization, 3u);
}

TEST(ConstantMemory, CC1xSplitsTheWarpIntoHalfWarps) {
  auto c = run("sm_13", kConst, [](int) { return 0u; });
  EXPECT_EQ(c.sub_requests, 2u);
  EXPECT_EQ(c.serialization, 2u);  // one address per half-warp request
  auto d = run("sm_13", kConst, [](int l) { return 4u * static_cast<unsigned>(l % 4); });
  EXPECT_EQ(d.serialization, 8u);  // 4 distinct addresses in each half-warp
}

}  // namespace
}  // namespace warpscope::test
