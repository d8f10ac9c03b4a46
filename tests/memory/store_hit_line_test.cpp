// What a store counts as an L1 hit (l1.store_hit, memory/store_hits.hpp): on
// sm_90 every sector of a store whose line tag is present (validation/h100/suite
// g_st1_every4th_lane), on 7.0-8.9 only sectors already valid or partly
// written. Expected values worked by hand.
#include <gtest/gtest.h>

#include "memory/memory_test_support.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kLine = kBase + 0x2000;

// g_st1_every4th_lane: warp w stores 1 byte at bytes 0, 4, ..., 28 of sector w
// of one line (lanes 0, 4, ..., 28 active).
WarpAccess every4th_byte(unsigned sector) {
  return make({Space::Global, Op::Store, 1, CacheOp::Default, 0x11111111u},
              [sector](int l) { return kLine + 32u * sector + static_cast<std::uint64_t>(l); });
}

TEST(StoreHits, LineRuleOn90CountsEverySectorOfATaggedLine) {
  auto m = memory("sm_90");
  for (unsigned w = 0; w < 4; ++w) m->access(every4th_byte(w), 0);  // four warps, four sectors, one SM
  EXPECT_EQ(m->kernel_counters().global_st.sectors, 4u);
  EXPECT_EQ(m->kernel_counters().global_st.sector_hits, 3u);         // warps 1-3 find the tag
}

TEST(StoreHits, SectorRuleBefore90) {
  auto m = memory("sm_80");
  for (unsigned w = 0; w < 4; ++w) m->access(every4th_byte(w), 0);
  EXPECT_EQ(m->kernel_counters().global_st.sector_hits, 0u);         // no sector was written before
  m->access(every4th_byte(2), 0);                                      // sector 2 again: partly written
  EXPECT_EQ(m->kernel_counters().global_st.sector_hits, 1u);
}

TEST(StoreHits, OtherSmsAndFreshLinesMiss) {
  auto m = memory("sm_90");
  m->access(every4th_byte(0), 0);
  m->access(every4th_byte(1), 1);                                      // another SM's L1: no tag there
  EXPECT_EQ(m->kernel_counters().global_st.sector_hits, 0u);
  m->access(line_access(kLine, Op::Store), 1);                         // a whole-line store on SM 1: 4 hits
  EXPECT_EQ(m->kernel_counters().global_st.sector_hits, 4u);           // (the sector rule: 1, sector 1)
}

TEST(StoreHits, UnknownRuleIsAnError) {
  ArchSpec a = arch("sm_90");
  a.l1_store_hit = "word";
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
}

}  // namespace
}  // namespace warpscope::test
