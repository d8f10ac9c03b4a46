// Shared-memory bank rules of seed000 (CUDA C Programming Guide appendix G):
// G.3.3 (2.x), G.4.3 (3.x modes), G.5.3 (5.x), and PG 1.x G.3.3 for 16 banks.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "rules/bank_passes.hpp"
#include "test_support.hpp"

namespace warpscope::test {
namespace {

const Access kLds{Space::Shared, Op::Load, 4};

TEST(Seed000Shared, StrideIsConflictFreeIffOdd) {
  // G.3.3 "32-Bit Strided Access": threads tid and tid+n share a bank when s*n is
  // a multiple of 32, so a warp has gcd(s, 32)-way conflicts; none iff s is odd.
  for (const char* name : {"sm_20", "sm_52", "sm_90"}) {
    for (unsigned s = 1; s <= 33; ++s) {
      auto c = run(name, kLds, [s](int l) { return 4u * s * static_cast<unsigned>(l); });
      EXPECT_EQ(c.wavefronts, std::gcd(s, 32u)) << name << " stride " << s;
      EXPECT_EQ(c.bank_conflicts == 0, s % 2 == 1) << name << " stride " << s;
    }
  }
}

TEST(Seed000Shared, CharArrayIsConflictFree) {
  // "there are no bank conflicts if an array of char is accessed as shared[BaseIndex + tid]"
  auto c = run("sm_20", Access{Space::Shared, Op::Load, 1}, [](int l) { return 64u + static_cast<unsigned>(l); });
  EXPECT_EQ(c.wavefronts, 1u);
  auto s = run("sm_90", Access{Space::Shared, Op::Load, 2}, [](int l) { return 2u * static_cast<unsigned>(l); });
  EXPECT_EQ(s.wavefronts, 1u);
}

TEST(Seed000Shared, StructOfThreeFloatsIsThreeConflictFreeReads) {
  for (unsigned member = 0; member < 3; ++member) {
    auto c = run("sm_20", kLds, [member](int l) { return 12u * l + 4u * member; });
    EXPECT_EQ(c.wavefronts, 1u) << member;
  }
}

TEST(Seed000Shared, BroadcastOfAnyWords) {
  // Figure 18: several threads reading one word are served together.
  EXPECT_EQ(run("sm_20", kLds, [](int) { return 20u; }).wavefronts, 1u);
  EXPECT_EQ(run("sm_20", kLds, [](int l) { return 4u * static_cast<unsigned>(l / 4); }).wavefronts, 1u);
  // two distinct words in bank 0 (rows 0 and 1), each read by 16 lanes: 2-way
  EXPECT_EQ(run("sm_20", kLds, [](int l) { return 128u * static_cast<unsigned>(l % 2); }).wavefronts, 2u);
}

TEST(Seed000Shared64Bit, ConflictsOnlyWithinAHalfWarp) {
  const Access lds64{Space::Shared, Op::Load, 8};
  auto c = run("sm_20", lds64, [](int l) { return 8u * l; });
  EXPECT_EQ(c.wavefronts, 2u);  // one pass per half-warp
  EXPECT_EQ(c.bank_conflicts, 0u);
  // stride 2 doubles: a half-warp spans 256 B, two rows per bank
  EXPECT_EQ(run("sm_20", lds64, [](int l) { return 16u * l; }).wavefronts, 4u);
  // the two half-warps read the same row of bank 0..1 as each other: no conflict
  EXPECT_EQ(run("sm_20", lds64, [](int l) { return 8u * static_cast<unsigned>(l % 16); }).wavefronts, 2u);
}

TEST(Seed000Shared128Bit, AddOneWayToTheWorstQuarterWarp) {
  const Access lds128{Space::Shared, Op::Load, 16};
  auto c = run("sm_20", lds128, [](int l) { return 16u * l; });
  EXPECT_EQ(c.wavefronts, 8u);  // 4 quarter-warps, each "2-way"
  EXPECT_EQ(c.bank_conflicts, 4u);
  // stride 2 float4: 2 threads of a quarter share each bank -> 1 + 2 ways per quarter
  EXPECT_EQ(run("sm_20", lds128, [](int l) { return 32u * l; }).wavefronts, 12u);
}

TEST(Seed000Kepler, StrideTwoIsConflictFreeUnlikeFermi) {
  // G.3.3: "the access pattern for the example in the middle [stride 2] generates
  // 2-way bank conflicts for devices of compute capability 2.x".
  auto stride2 = [](int l) { return 8u * static_cast<unsigned>(l); };
  EXPECT_EQ(run("sm_20", kLds, stride2).wavefronts, 2u);
  EXPECT_EQ(run("sm_35", kLds, stride2).wavefronts, 1u);
  EXPECT_EQ(run("sm_35", kLds, stride2, RulesOptions{8}).wavefronts, 1u);
}

TEST(Seed000Kepler, ThirtyTwoBitModeWordsIAndIPlus32ShareARow) {
  // G.4.3 32-bit mode: no conflict for words i and j = i + 32 of one 64-word segment.
  auto pairs = [](int l) { return 4u * static_cast<unsigned>((l % 2) * 32 + l / 2); };
  EXPECT_EQ(run("sm_35", kLds, pairs).wavefronts, 1u);
  EXPECT_EQ(run("sm_20", kLds, pairs).wavefronts, 2u);
  // words 32 and 64 are in different 64-word segments: a conflict
  const Access two{Space::Shared, Op::Load, 4, CacheOp::Default, 0x3u};
  EXPECT_EQ(run("sm_35", two, [](int l) { return 4u * static_cast<unsigned>(32 + 32 * l); }).wavefronts, 2u);
  EXPECT_EQ(run("sm_35", two, [](int l) { return 4u * static_cast<unsigned>(32 * l); }).wavefronts, 1u);
}

TEST(Seed000Kepler, SixtyFourBitModeServesAWarpOfDoublesInOnePass) {
  const Access lds64{Space::Shared, Op::Load, 8};
  EXPECT_EQ(run("sm_35", lds64, [](int l) { return 8u * l; }, RulesOptions{8}).wavefronts, 1u);
  EXPECT_EQ(run("sm_35", lds64, [](int l) { return 8u * l; }, RulesOptions{4}).wavefronts, 1u);
  // stride 32 words: 32-way on 2.x, 16-way on 3.x (pairs share a 64-bit row)
  auto stride32 = [](int l) { return 128u * l; };
  EXPECT_EQ(run("sm_20", kLds, stride32).wavefronts, 32u);
  EXPECT_EQ(run("sm_35", kLds, stride32).wavefronts, 16u);
  EXPECT_EQ(run("sm_35", kLds, stride32, RulesOptions{8}).wavefronts, 16u);
}

TEST(Pg1xShared, SixteenBanksPerHalfWarp) {
  // 16 banks: stride 16 words puts a half-warp in one bank; stride 1 is free.
  EXPECT_EQ(run("sm_13", kLds, [](int l) { return 4u * l; }).wavefronts, 2u);
  EXPECT_EQ(run("sm_13", kLds, [](int l) { return 4u * l; }).bank_conflicts, 0u);
  EXPECT_EQ(run("sm_13", kLds, [](int l) { return 64u * l; }).wavefronts, 32u);
  // stride 2: 2-way per half-warp (16 banks), unlike 32 banks where stride 2 is also 2-way per warp
  EXPECT_EQ(run("sm_13", kLds, [](int l) { return 8u * l; }).wavefronts, 4u);
}

TEST(Pg1xShared, CharArrayHasFourWayConflicts) {
  // PG 1.x: char shared[BaseIndex + tid] conflicts (4 bytes per bank word), while
  // shared[BaseIndex + 4 * tid] does not; seed002 8.1.4 on 8/16-bit reads.
  auto c = run("sm_13", Access{Space::Shared, Op::Load, 1}, [](int l) { return static_cast<unsigned>(l); });
  EXPECT_EQ(c.wavefronts, 8u);  // 4 passes per half-warp
  auto d = run("sm_13", Access{Space::Shared, Op::Load, 1}, [](int l) { return 4u * l; });
  EXPECT_EQ(d.wavefronts, 2u);
}

TEST(Pg1xShared, DoublesSplitIntoTwo32BitAccessesWithTwoWayConflicts) {
  auto c = run("sm_13", Access{Space::Shared, Op::Load, 8}, [](int l) { return 8u * l; });
  EXPECT_EQ(c.ideal_wavefronts, 4u);
  EXPECT_EQ(c.wavefronts, 8u);
}

TEST(Pg1xShared, OnlyOneWordIsBroadcastPerPass) {
  // Even lanes read word 0 (bank 0), odd lanes word 1 (bank 1). Pass 1 broadcasts
  // word 0 to the 8 even lanes and serves one odd lane; pass 2 broadcasts word 1
  // to the 7 others: 2 passes per half-warp. 2.x broadcasts both words at once.
  auto pairs = [](int l) { return 4u * static_cast<unsigned>(l % 2); };
  EXPECT_EQ(run("sm_13", kLds, pairs).wavefronts, 4u);
  EXPECT_EQ(run("sm_20", kLds, pairs).wavefronts, 1u);
}

// ldmatrix / stmatrix (LDSM / STSM): lanes 8m..8m+7 give the 16-byte rows of matrix m; each matrix is one
// group of 8 rows, served alone, one wavefront when its rows cover distinct banks or are one row. Measured
// on the H100 (validation/h100/matrix_probe, 90 launches; tests/validation/h100_matrix_probe_test.cpp);
// the per-instruction counts below are that table's divided by its 1,024 instructions.
TEST(MatrixShared, EachMatrixIsOneGroupOfEightRows) {
  const Access x4{Space::Shared, Op::LoadMatrix, 16, CacheOp::Default, 0xffffffffu};
  const Access x1{Space::Shared, Op::LoadMatrix, 16, CacheOp::Default, 0xffu};
  const Access st2{Space::Shared, Op::StoreMatrix, 16, CacheOp::Default, 0xffffu};
  auto rows = [](unsigned stride) { return [stride](int l) { return stride * static_cast<unsigned>(l); }; };
  for (const char* name : {"sm_75", "sm_80", "sm_90"}) {
    // contiguous rows: a matrix is one 128 B row of the banks
    EXPECT_EQ(run(name, x4, rows(16)).wavefronts, 4u) << name;
    EXPECT_EQ(run(name, x4, rows(16)).ideal_wavefronts, 4u) << name;
    // rows 128 B apart all sit on banks 0-3: 8 wavefronts a matrix
    EXPECT_EQ(run(name, x4, rows(128)).wavefronts, 32u) << name;
    EXPECT_EQ(run(name, x4, rows(128)).bank_conflicts, 28u) << name;
    // padded rows (144 B) and an XOR swizzle of 16-byte chunks are conflict-free
    EXPECT_EQ(run(name, x4, rows(144)).wavefronts, 4u) << name;
    EXPECT_EQ(run(name, x4, [](int l) { return 128u * (l & 7u) + 16u * (((l >> 3) ^ l) & 7u); }).wavefronts, 4u) << name;
    // 64 B apart: two rows per bank group, 4-way; 32 B apart: 2-way
    EXPECT_EQ(run(name, x1, rows(64)).wavefronts, 4u) << name;
    EXPECT_EQ(run(name, st2, rows(32)).wavefronts, 4u) << name;
    // one row for every lane: still a wavefront per matrix (no merging across matrices)
    EXPECT_EQ(run(name, x4, [](int) { return 0u; }).wavefronts, 4u) << name;
    // lanes in pairs on one row: 4 distinct rows of one 64 B stretch, conflict-free
    EXPECT_EQ(run(name, x4, [](int l) { return 16u * static_cast<unsigned>(l / 2); }).wavefronts, 4u) << name;
  }
}

// The matrix fast path (4-byte banks) against the general bank model (8-byte banks of Kepler's 64-bit
// mode fall back to it): on 4,000 random matrices of 8 rows, some of them shared, some lanes off, the
// same wavefronts as an LDS.128 of the same 8 lanes on the same banks (rules/bank_passes.hpp).
TEST(MatrixShared, FastPathEqualsTheBankModel) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 4000; ++i) {
    const unsigned span = 1u << (4 + rng() % 8);  // rows within 16 B .. 2 KB
    const std::uint32_t mask = i % 5 == 0 ? static_cast<std::uint32_t>(rng()) & 0xffu : 0xffu;
    if (mask == 0) continue;
    WarpAccess m;
    m.space = Space::Shared;
    m.op = Op::LoadMatrix;
    m.size = 16;
    m.active = LaneMask(mask);
    for (int l = 0; l < 8; ++l) m.addr[static_cast<unsigned>(l)] = (rng() % span) & ~15ull;
    const rules::BankGeometry g(4, 128, 32);
    EXPECT_EQ(analyze(m, arch("sm_90")).wavefronts, rules::bank_passes(m, 0, 8, g)) << i;
  }
}

}  // namespace
}  // namespace warpscope::test
