// The shared side of cp.async (rules/async_copy.hpp): wavefronts worked out by hand for shapes whose
// counts the H100 measured (validation/h100/async_probe; the per-instruction values quoted below).
#include <gtest/gtest.h>

#include "rules/async_copy.hpp"
#include "test_support.hpp"

namespace warpscope::test {
namespace {

using rules::async_copy_wavefronts;

// The two records of one LDGSTS: the read of `src(l)` (lanes in src_mask) and the write to `dst(l)`.
struct Copy {
  WarpAccess src, dst;
};
Copy copy(unsigned size, CacheOp cache, const std::function<std::uint64_t(int)>& src,
          const std::function<std::uint64_t(int)>& dst, std::uint32_t src_mask = 0xffffffffu,
          std::uint32_t dst_mask = 0xffffffffu) {
  Copy c;
  c.src = make({Space::Global, Op::AsyncCopy, size, cache, src_mask}, [&](int l) { return 0x7f0000000000 + src(l); });
  c.dst = make({Space::Shared, Op::AsyncCopy, size, cache, dst_mask}, dst);
  return c;
}
rules::AsyncCopyWavefronts waves(const Copy& c) { return async_copy_wavefronts(c.dst, &c.src); }

TEST(AsyncCopyCa, BothSidesConflictFreeTakeOneWavefrontPerGroup) {
  // 4 B: one group of 32 lanes; 16 B: four of 8 (cp_ca4/p0: 1, cp_ca16/p0: 4 per instruction).
  const auto w4 = waves(copy(4, CacheOp::Ca, [](int l) { return 4 * l; }, [](int l) { return 4 * l; }));
  EXPECT_EQ(w4.wavefronts, 1u);
  EXPECT_EQ(w4.conflicts, 0u);
  const auto w16 = waves(copy(16, CacheOp::Ca, [](int l) { return 16 * l; }, [](int l) { return 16 * l; }));
  EXPECT_EQ(w16.wavefronts, 4u);
  EXPECT_EQ(w16.ideal, 4u);
  // A partial warp: lanes 0-19 of 16 B fill three groups (cp_ca16/partial: 3).
  EXPECT_EQ(waves(copy(16, CacheOp::Ca, [](int l) { return 16 * l; }, [](int l) { return 16 * l; }, 0xfffffu, 0xfffffu))
                .wavefronts,
            3u);
}

TEST(AsyncCopyCa, SourceBanksConflictLikeAnAccessWithoutBroadcast) {
  // Sources 8 B apart: lanes l and l + 16 read bank 2l: 2 (cp_ca4/p1).
  const auto stride = waves(copy(4, CacheOp::Ca, [](int l) { return 8 * l; }, [](int l) { return 4 * l; }));
  EXPECT_EQ(stride.wavefronts, 2u);
  EXPECT_EQ(stride.conflicts, 1u);
  // One address for all lanes is not a broadcast: each lane after the one before (cp_ca4/p3: 32).
  EXPECT_EQ(waves(copy(4, CacheOp::Ca, [](int) { return 64; }, [](int l) { return 4 * l; })).wavefronts, 32u);
  // 16 B sources 32 B apart: in each group of 8, lanes l and l + 4 share banks: 2 a group (cp_ca16/p1: 8).
  EXPECT_EQ(waves(copy(16, CacheOp::Ca, [](int l) { return 32 * l; }, [](int l) { return 16 * l; })).wavefronts, 8u);
  // Sources one line each (cp_ca4/p2: 32).
  EXPECT_EQ(waves(copy(4, CacheOp::Ca, [](int l) { return 128 * l; }, [](int l) { return 4 * l; })).wavefronts, 32u);
}

TEST(AsyncCopyCa, DestinationBanksConflictLikeASharedStore) {
  // Destinations 2, 4 and 33 words apart, sources coalesced (banks_ca4/s2, s4, s33: 2, 4, 1).
  for (const auto& [stride, want] : std::vector<std::pair<int, unsigned>>{{2, 2}, {4, 4}, {33, 1}}) {
    const int s = stride;
    EXPECT_EQ(waves(copy(4, CacheOp::Ca, [](int l) { return 4 * l; }, [s](int l) { return 4 * s * l; })).wavefronts, want)
        << stride;
  }
  // Without its read the write alone decides (a trace with no global record of it).
  const Copy c = copy(4, CacheOp::Ca, [](int l) { return 4 * l; }, [](int l) { return 8 * l; });
  EXPECT_EQ(async_copy_wavefronts(c.dst, nullptr).wavefronts, 2u);
}

TEST(AsyncCopyCa, LanesOnOneSourceWaitForTheWavefrontAfterTheFirstReader) {
  // Lanes 2k and 2k+1 read one word, destinations 8 B apart (shape_ca4/s8/d3: 3). Worked in lane order:
  // even lanes 0-14 take wavefront 1, odd lanes 1-15 wavefront 2 (after their partner's); lane 16 writes
  // bank 0 like lane 0, so wavefront 2; lane 17 reads lane 16's word: wavefront 3.
  const auto w = waves(copy(4, CacheOp::Ca, [](int l) { return 4 * (l / 2); }, [](int l) { return 8 * l; }));
  EXPECT_EQ(w.wavefronts, 3u);
  EXPECT_EQ(w.conflicts, 2u);
  // Either side alone gives 2.
  EXPECT_EQ(waves(copy(4, CacheOp::Ca, [](int l) { return 4 * (l / 2); }, [](int l) { return 4 * l; })).wavefronts, 2u);
  EXPECT_EQ(waves(copy(4, CacheOp::Ca, [](int l) { return 8 * l; }, [](int l) { return 8 * l; })).wavefronts, 2u);
}

TEST(AsyncCopyCg, OneWavefrontPerLineWhenSectorsCorrespond) {
  // Contiguous, aligned: one per 128 B line (cp_cg16/p0: 4); reversed within the warp's lines: still 4 (p6).
  EXPECT_EQ(waves(copy(16, CacheOp::Cg, [](int l) { return 16 * l; }, [](int l) { return 16 * l; })).wavefronts, 4u);
  const auto rev = waves(copy(16, CacheOp::Cg, [](int l) { return 16 * (31 - l); }, [](int l) { return 16 * l; }));
  EXPECT_EQ(rev.wavefronts, 4u);
  EXPECT_EQ(rev.conflicts, 0u);
  // Destinations 32 B past a row: each line's lanes write two rows: 8 (shape_cg16/s0/d0, warp 1).
  EXPECT_EQ(waves(copy(16, CacheOp::Cg, [](int l) { return 16 * l; }, [](int l) { return 32 + 16 * l; })).wavefronts,
            8u);
}

TEST(AsyncCopyCg, LanesSplitWhereSectorsDoNotCorrespond) {
  // Sources 32 B apart: two lanes write one destination sector from two source sectors, and no two of
  // them move their bytes by the same distance: one wavefront a lane (cp_cg16/p1: 32). Destinations
  // 32 B apart from contiguous sources: the same (banks_cg16/s2: 32).
  EXPECT_EQ(waves(copy(16, CacheOp::Cg, [](int l) { return 32 * l; }, [](int l) { return 16 * l; })).wavefronts, 32u);
  EXPECT_EQ(waves(copy(16, CacheOp::Cg, [](int l) { return 16 * l; }, [](int l) { return 32 * l; })).wavefronts, 32u);
  // One chunk for every lane: one a lane (p3: 32).
  EXPECT_EQ(waves(copy(16, CacheOp::Cg, [](int) { return 0; }, [](int l) { return 16 * l; })).wavefronts, 32u);
  // Sources 16 B past the line: lanes 0-6 read line 0 into row 0, lane 7 line 1 into row 0; of lanes 0-6
  // the even ones (upper source halves) and the odd ones (lower) form two wavefronts: 3 a line, 12 (p5).
  EXPECT_EQ(waves(copy(16, CacheOp::Cg, [](int l) { return 16 + 16 * l; }, [](int l) { return 16 * l; })).wavefronts,
            12u);
}

TEST(AsyncCopyCg, ZeroFilledLanesWriteWithTheirRow) {
  // Even lanes ignore their source: the odd lanes' read takes its four wavefronts and the even lanes
  // write in them (zfill_ignore<1>/m2: 4).
  const Copy c = copy(16, CacheOp::Cg, [](int l) { return 16 * l; }, [](int l) { return 16 * l; }, 0xaaaaaaaau);
  EXPECT_EQ(waves(c).wavefronts, 4u);
  // No read at all: one per destination row.
  EXPECT_EQ(async_copy_wavefronts(c.dst, nullptr).wavefronts, 4u);
}

}  // namespace
}  // namespace warpscope::test
