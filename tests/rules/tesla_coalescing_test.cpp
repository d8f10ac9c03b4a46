// CC 1.x global coalescing, per half-warp, to DRAM. Source: CUDA C Programming
// Guide 3.2, G.3.2.1 (1.0/1.1: k-th thread reads the k-th word of an aligned
// 64/128 B segment, else one 32 B transaction per thread; inactive threads do
// not break coalescing) and G.3.2.2 (1.2/1.3: 32/64/128 B segments by word
// size, reduced to the used half). Expected values worked by hand below.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace warpscope::test {
namespace {

TEST(Tesla10Strict, ConsecutiveWordsAreOne64ByteTransactionPerHalfWarp) {
  auto c = run("sm_10", Access{Space::Global, Op::Load, 4}, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.path, MemoryPath::Dram);
  EXPECT_EQ(c.sub_requests, 2u);
  EXPECT_EQ(c.transactions, 2u);
  EXPECT_EQ(c.tx64, 2u);
  EXPECT_EQ(c.bytes_moved, 128u);
}

TEST(Tesla10Strict, InactiveThreadsDoNotBreakCoalescing) {
  auto c = run("sm_11", Access{Space::Global, Op::Load, 4, CacheOp::Default, 0x0000fff7u},
               [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.transactions, 1u);
  EXPECT_EQ(c.bytes_moved, 64u);
}

TEST(Tesla10Strict, OutOfSequenceHalfWarpIsSixteen32ByteTransactions) {
  // lanes 0 and 1 swap their words: half-warp 0 breaks, half-warp 1 coalesces
  auto c = run("sm_10", Access{Space::Global, Op::Load, 4},
               [](int l) { return kBase + 4u * static_cast<unsigned>(l < 2 ? 1 - l : l); });
  EXPECT_EQ(c.transactions, 17u);
  EXPECT_EQ(c.tx32, 16u);
  EXPECT_EQ(c.bytes_moved, 16u * 32u + 64u);
}

TEST(Tesla10Strict, MisalignedBreaksBothHalves) {
  auto c = run("sm_10", Access{Space::Global, Op::Load, 4}, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(c.transactions, 32u);
  EXPECT_EQ(c.bytes_moved, 1024u);
}

TEST(Tesla10Strict, WideWordsUse128ByteTransactions) {
  auto c8 = run("sm_10", Access{Space::Global, Op::Load, 8}, [](int l) { return kBase + 8u * l; });
  EXPECT_EQ(c8.tx128, 2u);
  EXPECT_EQ(c8.bytes_moved, 256u);
  auto c16 = run("sm_10", Access{Space::Global, Op::Load, 16}, [](int l) { return kBase + 16u * l; });
  EXPECT_EQ(c16.tx128, 4u);  // two per half-warp
  EXPECT_EQ(c16.bytes_moved, 512u);
}

TEST(Tesla10Strict, ByteWordsNeverCoalesce) {
  auto c = run("sm_10", Access{Space::Global, Op::Load, 1}, [](int l) { return kBase + 1u * l; });
  EXPECT_EQ(c.transactions, 32u);
  EXPECT_EQ(c.tx32, 32u);
}

TEST(Tesla13Segments, ConsecutiveWordsReduceTo64BytesPerHalfWarp) {
  auto c = run("sm_13", Access{Space::Global, Op::Load, 4}, [](int l) { return kBase + 4u * l; });
  EXPECT_EQ(c.transactions, 2u);
  EXPECT_EQ(c.tx64, 2u);
  EXPECT_EQ(c.bytes_moved, 128u);
  // any permutation within the half-warp gives the same transactions
  auto p = run("sm_13", Access{Space::Global, Op::Load, 4},
               [](int l) { return kBase + 4u * static_cast<unsigned>((l & 16) | (15 - (l & 15))); });
  EXPECT_EQ(p.tx64, 2u);
}

TEST(Tesla13Segments, MisalignedByOneWord) {
  // half 0: bytes 4..67 of segment 0 -> both halves used -> 128 B;
  // half 1: bytes 68..127 (upper 64 B of segment 0) -> 64 B, then bytes 128..131 -> 32 B.
  auto c = run("sm_13", Access{Space::Global, Op::Load, 4}, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(c.transactions, 3u);
  EXPECT_EQ(c.tx128, 1u);
  EXPECT_EQ(c.tx64, 1u);
  EXPECT_EQ(c.tx32, 1u);
  EXPECT_EQ(c.bytes_moved, 224u);
}

TEST(Tesla13Segments, BroadcastReducesTo32Bytes) {
  auto c = run("sm_12", Access{Space::Global, Op::Load, 4}, [](int) { return kBase + 8; });
  EXPECT_EQ(c.tx32, 2u);
  EXPECT_EQ(c.bytes_moved, 64u);
  EXPECT_EQ(c.bytes_needed, 4u);
}

TEST(Tesla13Segments, SegmentSizeFollowsWordSize) {
  EXPECT_EQ(run("sm_13", Access{Space::Global, Op::Load, 1}, [](int l) { return kBase + 1u * l; }).tx32, 2u);
  EXPECT_EQ(run("sm_13", Access{Space::Global, Op::Load, 2}, [](int l) { return kBase + 2u * l; }).tx32, 2u);
  auto c16 = run("sm_13", Access{Space::Global, Op::Load, 16}, [](int l) { return kBase + 16u * l; });
  EXPECT_EQ(c16.tx128, 4u);
  auto stride2 = run("sm_13", Access{Space::Global, Op::Load, 4}, [](int l) { return kBase + 8u * l; });
  EXPECT_EQ(stride2.tx128, 2u);
  EXPECT_DOUBLE_EQ(stride2.bus_utilization(), 0.5);
}

// The last segment below 2^64 (its end wraps to 0) coalesces like any other;
// the search for a segment's threads once never ended there.
TEST(Tesla13Segments, TheLastSegmentOfTheAddressSpace) {
  for (unsigned size : {1u, 4u, 8u, 16u}) {
    const std::uint64_t top = 0 - 2 * 16 * std::uint64_t{size};  // 32 words below 2^64
    auto low = run("sm_13", Access{Space::Global, Op::Load, size}, [&](int l) { return kBase + size * l; });
    auto high = run("sm_13", Access{Space::Global, Op::Load, size}, [&](int l) { return top + size * l; });
    EXPECT_EQ(high.transactions, low.transactions) << size;
    EXPECT_EQ(high.bytes_moved, low.bytes_moved) << size;
  }
  // Lanes on both sides of the wrap: half 0 in the last 64 B, half 1 at 0..63.
  auto wrap = run("sm_13", Access{Space::Global, Op::Load, 4}, [](int l) { return std::uint64_t{0} - 64 + 4u * l; });
  EXPECT_EQ(wrap.transactions, 2u);
  EXPECT_EQ(wrap.tx64, 2u);
}

}  // namespace
}  // namespace warpscope::test
