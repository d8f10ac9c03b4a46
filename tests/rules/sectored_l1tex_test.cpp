// CC 7.0+ sectored L1TEX (sm_90 here): one request per warp instruction, 32 B
// sectors of 128 B lines (Nsight Compute Profiling Guide via
// reference/ncu_and_microbench.md 1.1), and seed001's "Access Patterns vs.
// Memory Throughput" slides, which count 32-byte segments.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace warpscope::test {
namespace {

const Access kLoad{Space::Global, Op::Load, 4};

TEST(Seed001Throughput, AlignedConsecutiveFourSegmentsFullUtilization) {
  auto c = run("sm_90", kLoad, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.requests, 1u);
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.transactions, 1u);  // one 128 B line
  EXPECT_EQ(c.bytes_moved, 128u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 1.0);
}

TEST(Seed001Throughput, MisalignedAtMostFiveSegments) {
  auto c = run("sm_90", kLoad, [](int l) { return kBase + 12 + 4u * l; });
  EXPECT_EQ(c.sectors, 5u);
  EXPECT_EQ(c.bytes_moved, 160u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 0.8);
  EXPECT_EQ(c.transactions, 2u);
}

TEST(Seed001Throughput, BroadcastOneSegment) {
  auto c = run("sm_90", kLoad, [](int) { return kBase + 100; });
  EXPECT_EQ(c.sectors, 1u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 0.125);
}

TEST(Seed001Throughput, ScatteredNSegments) {
  // lanes pairwise share a segment: N = 16 segments in 16 lines
  auto c = run("sm_90", kLoad, [](int l) { return kBase + 8192u * static_cast<unsigned>(l / 2) + 4u * (l % 2); });
  EXPECT_EQ(c.sectors, 16u);
  EXPECT_EQ(c.bytes_moved, 16u * 32u);
  EXPECT_DOUBLE_EQ(c.bus_utilization(), 128.0 / (16 * 32));
}

TEST(Seed001Struct12Bytes, ThreeLoadsMoveThreeTimesTheBytes) {
  // struct Position { float x, y, z; }: three 4-byte loads at a 12-byte stride.
  unsigned needed = 0, moved = 0;
  for (unsigned member = 0; member < 3; ++member) {
    auto c = run("sm_90", kLoad, [member](int l) { return kBase + 12u * l + 4u * member; });
    EXPECT_EQ(c.sectors, 12u) << "member " << member;  // 384 bytes spanned
    needed += c.bytes_needed;
    moved += c.bytes_moved;
  }
  EXPECT_EQ(needed, 3u * 128u);
  EXPECT_EQ(moved, 3u * needed);  // "we end up moving 3x more bytes than application requests"
}

TEST(SectoredL1tex, WideAccessesAreOneRequest) {
  for (unsigned size : {8u, 16u}) {
    auto c = run("sm_90", Access{Space::Global, Op::Load, size}, [size](int l) { return kBase + size * l; });
    EXPECT_EQ(c.requests, 1u);
    EXPECT_EQ(c.sectors, size);  // 4, 8 or 16 sectors for 4, 8, 16 B per lane (ncu note 1.2)
    EXPECT_EQ(c.transactions, size / 4);
  }
}

TEST(SectoredL1tex, InactiveLanesMoveNothing) {
  auto none = run("sm_90", Access{Space::Global, Op::Load, 4, CacheOp::Default, 0}, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(none.requests, 1u);  // "the request is still counted"
  EXPECT_EQ(none.sectors, 0u);
  auto one = run("sm_90", Access{Space::Global, Op::Load, 4, CacheOp::Default, 0x80000000u},
                 [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(one.sectors, 1u);
  EXPECT_EQ(one.bytes_needed, 4u);
}

TEST(SectoredL1tex, CacheOperatorChangesPathNotSectors) {
  const auto addr = [](int l) { return kBase + 256u * l; };
  auto ca = run("sm_90", Access{Space::Global, Op::Load, 4, CacheOp::Default}, addr);
  auto cg = run("sm_90", Access{Space::Global, Op::Load, 4, CacheOp::Cg}, addr);
  auto nc = run("sm_90", Access{Space::Global, Op::Load, 4, CacheOp::Nc}, addr);
  EXPECT_EQ(ca.path, MemoryPath::L1);
  EXPECT_EQ(cg.path, MemoryPath::L2);
  EXPECT_EQ(nc.path, MemoryPath::ReadOnly);
  EXPECT_EQ(ca.sectors, 32u);
  EXPECT_EQ(cg.sectors, 32u);
  EXPECT_EQ(nc.sectors, 32u);
}

}  // namespace
}  // namespace warpscope::test
