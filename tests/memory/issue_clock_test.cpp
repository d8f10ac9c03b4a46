// The issue clock (memory/issue_clock.hpp): warps of a CTA in lockstep, a
// later CTA starting where the CTA whose slot it takes ended. Expected rounds
// worked out by hand from that rule.
#include <gtest/gtest.h>

#include "memory/issue_clock.hpp"

namespace warpscope::memory {
namespace {

TEST(IssueClock, TheWarpsOfACtaIssueInLockstep) {
  IssueClock c;
  c.begin_kernel(2, 4);
  // Trace order as a tracer records it: every warp's first instruction, then every second.
  EXPECT_EQ(c.next(0, 7, 0), 0u);
  EXPECT_EQ(c.next(0, 7, 1), 0u);
  EXPECT_EQ(c.next(0, 7, 2), 0u);
  EXPECT_EQ(c.next(0, 7, 0), 1u);
  EXPECT_EQ(c.next(0, 7, 2), 1u);
  EXPECT_EQ(c.next(0, 7, 1), 1u);
  EXPECT_EQ(c.next(0, 7, 1), 2u);
  // Another CTA resident from the launch, on another SM or the same one: round 0 too.
  EXPECT_EQ(c.next(1, 8, 0), 0u);
  EXPECT_EQ(c.next(0, 9, 3), 0u);
}

TEST(IssueClock, ALaterCtaStartsWhereTheCtaOfItsSlotEnded) {
  IssueClock c;
  c.begin_kernel(1, 2);  // one SM, two slots
  for (int i = 0; i < 5; ++i) c.next(0, 0, 0);  // CTA 0: rounds 0..4, ends at 5
  for (int i = 0; i < 2; ++i) c.next(0, 1, 0);  // CTA 1: rounds 0..1, ends at 2
  c.next(0, 0, 1);                              // CTA 0 issues again (round 0 of warp 1): CTA 1 is the older
  EXPECT_EQ(c.next(0, 2, 0), 2u);               // CTA 2 takes CTA 1's slot
  EXPECT_EQ(c.next(0, 2, 0), 3u);
  EXPECT_EQ(c.next(0, 3, 0), 5u);               // CTA 3 takes CTA 0's slot (CTA 2 issued since)
}

TEST(IssueClock, ANewKernelStartsAtRoundZero) {
  IssueClock c;
  c.begin_kernel(1, 1);
  for (int i = 0; i < 3; ++i) c.next(0, 0, 0);
  c.begin_kernel(1, 1);
  EXPECT_EQ(c.next(0, 0, 0), 0u);
}

TEST(IssueClock, UnknownOccupancyKeepsThirtyTwoCtasPerSm) {
  IssueClock c;
  c.begin_kernel(1, 0);
  for (std::uint32_t cta = 0; cta < 32; ++cta) EXPECT_EQ(c.next(0, cta, 0), 0u);
  EXPECT_EQ(c.next(0, 32, 0), 1u);  // the 33rd waits for CTA 0 (one round, ended at 1)
}

}  // namespace
}  // namespace warpscope::memory
