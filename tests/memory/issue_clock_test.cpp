// The issue clock (memory/issue_clock.hpp): warps of a CTA in lockstep, a
// later CTA starting where the CTA whose slot it takes ended. Expected rounds
// worked out by hand from that rule.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

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

TEST(IssueClock, WarpIndicesBeyondAnyRealCtaAreStillCountedApart) {
  // A CTA has at most 32 warps; a hand-written trace may name warp 1000.
  IssueClock c;
  c.begin_kernel(1, 1);
  EXPECT_EQ(c.next(0, 5, 1000), 0u);
  EXPECT_EQ(c.next(0, 5, 1000), 1u);
  EXPECT_EQ(c.next(0, 5, 65535), 0u);
  EXPECT_EQ(c.next(0, 5, 0), 0u);
  EXPECT_EQ(c.next(0, 6, 1000), 2u);  // CTA 6 takes the slot: starts where CTA 5 ended, warp 1000 afresh
  EXPECT_EQ(c.next(0, 5, 1000), 3u);  // CTA 5 again: a new CTA, after CTA 6
}

// The rule written plainly (ordered maps, linear scans): the flat tables of
// IssueClock must give the same round for every record, also while CTAs keep
// replacing each other in the slots (the open-addressed index deletes).
class ReferenceClock {
 public:
  ReferenceClock(int sms, int slots) : slots_per_sm_(slots), slots_(static_cast<std::size_t>(sms)) {}
  std::uint64_t next(int sm, std::uint32_t cta, std::uint16_t warp) {
    ++seen_;
    if (!ctas_.contains(cta)) {
      auto& slots = slots_[static_cast<std::size_t>(sm)];
      std::uint64_t start = 0;
      if (slots.size() < static_cast<std::size_t>(slots_per_sm_)) {
        slots.push_back(cta);
      } else {
        std::size_t pick = 0;
        for (std::size_t i = 1; i < slots.size(); ++i)
          if (ctas_[slots[i]].last_seen < ctas_[slots[pick]].last_seen) pick = i;
        start = ctas_[slots[pick]].end;
        ctas_.erase(slots[pick]);
        slots[pick] = cta;
      }
      ctas_[cta] = Cta{start, start, 0, {}};
    }
    Cta& c = ctas_[cta];
    const std::uint64_t round = c.start + c.next[warp]++;
    c.end = std::max(c.end, round + 1);
    c.last_seen = seen_;
    return round;
  }

 private:
  struct Cta {
    std::uint64_t start, end, last_seen;
    std::map<std::uint16_t, std::uint64_t> next;
  };
  int slots_per_sm_;
  std::uint64_t seen_ = 0;
  std::vector<std::vector<std::uint32_t>> slots_;
  std::map<std::uint32_t, Cta> ctas_;
};

TEST(IssueClock, AgreesWithThePlainRuleOverLongRandomGrids) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    const int sms = 1 + static_cast<int>(rng() % 4);
    const int slots = 1 + static_cast<int>(rng() % 6);
    IssueClock clock;
    clock.begin_kernel(sms, slots);
    ReferenceClock ref(sms, slots);
    // CTAs arrive in id order, a few resident at a time, each on a fixed SM;
    // their warps issue in random order; some ids are far apart (hash collisions
    // in the index), some warps use large indices.
    std::vector<std::uint32_t> live;
    std::uint32_t next_cta = 0;
    for (int step = 0; step < 4000; ++step) {
      if (live.empty() || (live.size() < 12 && rng() % 8 == 0)) live.push_back(next_cta++ * (1u + static_cast<std::uint32_t>(trial % 3) * 4096u));
      const std::size_t pick = rng() % live.size();
      const std::uint32_t cta = live[pick];
      const int sm = static_cast<int>(cta % static_cast<std::uint32_t>(sms));
      const auto warp = static_cast<std::uint16_t>(rng() % 5 == 0 ? 60 + rng() % 8 : rng() % 8);
      ASSERT_EQ(clock.next(sm, cta, warp), ref.next(sm, cta, warp)) << "trial " << trial << " step " << step;
      if (rng() % 50 == 0) live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
    }
  }
}

}  // namespace
}  // namespace warpscope::memory
