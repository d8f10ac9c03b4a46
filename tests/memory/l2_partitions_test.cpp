// The H100's two L2 partitions (memory/l2_partitions.hpp), replayed through the
// sm_90 model the way validation/h100/partition_probe measured them: one warp
// on SM A reads sector 0 of 4,096 consecutive lines (one lane per line), then a
// warp on SM B reads the same lines. Measured there (summary.csv): B hits 4,096
// times from A's group of SMs and 2,048 from the other; DRAM reads 64 B per
// line either way; a reduction to 4,096 lines counts 2,048 hits and reads
// 1.5 x 32 B per line. The home of a line is the parity of address bits 12, 13,
// 16, 17 and 19 (partition_probe homes: all 32,768 lines of the latency map).
#include <gtest/gtest.h>

#include <tuple>

#include "memory/l2_partitions.hpp"
#include "memory/memory_test_support.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kProbeBase = 0x40000000;  // 1 GB: aligned as the probe's 64 MB buffer
constexpr int kLines = 4096;

// 32 lanes, each at sector `sector` of its own line: lines first..first+31.
WarpAccess lines_from(int first, int sector, Op op = Op::Load) {
  return make({Space::Global, op, 4, op == Op::Load ? CacheOp::Cg : CacheOp::Default},
              [first, sector](int l) { return kProbeBase + 128u * static_cast<std::uint64_t>(first + l) + 32u * sector; });
}

void read_all(MemorySystem& m, int sm, int sector) {
  for (int i = 0; i < kLines; i += 32) m.access(lines_from(i, sector), sm);
}

// (SM A, SM B, B's hits) from validation/h100/partition_probe/summary.csv
// (pair:A:B:4096:S: tex read hits minus A's 0).
struct Pair {
  int a, b, sector;
  std::uint64_t hits;
};

class PartitionPair : public ::testing::TestWithParam<Pair> {};

TEST_P(PartitionPair, HitsOfTheSecondReaderAsMeasured) {
  const Pair p = GetParam();
  auto m = memory("sm_90");
  const Counters& k = m->kernel_counters();
  read_all(*m, p.a, 0);
  EXPECT_EQ(k.l2_read_sector_hits, 0u);
  EXPECT_EQ(k.dram_read_bytes, 64u * kLines);  // the 64 B fill, from the home partition
  read_all(*m, p.b, p.sector);
  EXPECT_EQ(k.l2_read_sector_hits, p.hits);
  EXPECT_EQ(k.dram_read_bytes, 64u * kLines);  // the other partition reads over the fabric, not DRAM
}

INSTANTIATE_TEST_SUITE_P(H100, PartitionPair,
                         ::testing::Values(Pair{0, 0, 1, 4096}, Pair{0, 1, 1, 4096}, Pair{0, 8, 1, 4096},
                                           Pair{0, 131, 1, 4096}, Pair{0, 2, 1, 2048}, Pair{0, 14, 1, 2048},
                                           Pair{0, 123, 1, 2048}, Pair{0, 2, 0, 2048}, Pair{1, 16, 1, 4096},
                                           Pair{1, 7, 1, 2048}));

TEST(L2Partitions, ReductionsAtTheHome) {
  for (const int sm : {0, 2, 77}) {
    auto m = memory("sm_90");
    for (int i = 0; i < kLines; i += 32) m->access(lines_from(i, 0, Op::Reduction), sm);
    const Counters& k = m->kernel_counters();
    EXPECT_EQ(k.l2_red_sectors, static_cast<std::uint64_t>(kLines)) << "SM " << sm;
    EXPECT_EQ(k.l2_red_sector_hits, kLines / 2u) << "SM " << sm;        // measured: 2,048
    EXPECT_EQ(k.l2_atom_sectors, 0u) << "SM " << sm;  // reductions are counted apart (lts__t_*_op_red)
    EXPECT_EQ(k.dram_read_bytes, 48u * kLines) << "SM " << sm;           // measured: 201,728 B (+ ~5 KB floor)
  }
}

// partition_probe whomes (validation/h100/partition_probe/writes): a warp on
// SM A writes whole sector 0 of 8,192 lines (two 16 B stores per line), then
// one thread on SM B loads each line. B in A's group: every line answers as a
// hit in B's partition, also the half homed in the other (8,088 and 8,176 of
// 8,192 in two runs; 32,136 of 32,768 far-homed lines at 65,536): the writer's
// partition keeps a copy. B in the other group: only the lines homed there
// (4,096 of 4,096; none of the others).
TEST(L2Partitions, StoresLeaveACopyInTheWritersPartition) {
  constexpr int kWritten = 8192;
  const auto write_all = [](MemorySystem& m, int sm) {
    for (int i = 0; i < kWritten; i += 32)
      for (int half = 0; half < 2; ++half)
        m.access(make({Space::Global, Op::Store, 16, CacheOp::Default},
                      [i, half](int l) { return kProbeBase + 128u * static_cast<std::uint64_t>(i + l) + 16u * half; }),
                 sm);
  };
  for (const auto& [a, b, hits] : {std::tuple{0, 1, kWritten}, std::tuple{1, 0, kWritten}, std::tuple{0, 2, kWritten / 2}}) {
    auto m = memory("sm_90");
    write_all(*m, a);
    const Counters& k = m->kernel_counters();
    for (int i = 0; i < kWritten; i += 32) m->access(lines_from(i, 0), b);
    EXPECT_EQ(k.l2_read_sectors, static_cast<std::uint64_t>(kWritten)) << a << " -> " << b;
    EXPECT_EQ(k.l2_read_sector_hits, static_cast<std::uint64_t>(hits)) << a << " -> " << b;
    // Same group: whole sectors in the copy, nothing to fetch. (From the other group the model's
    // 64 B request makes the home fetch sector 1; DRAM was not measured there.)
    if (hits == kWritten) {
      EXPECT_EQ(k.dram_read_bytes, 0u) << a << " -> " << b;
    }
  }
}

TEST(L2Partitions, HomeBitsAsMeasured) {
  // Line bits 5, 6, 9, 10, 12 = address bits 12, 13, 16, 17, 19 (partition_probe homes).
  auto m = memory("sm_90");
  (void)m;
  const std::uint64_t mask = (1u << 5) | (1u << 6) | (1u << 9) | (1u << 10) | (1u << 12);
  EXPECT_EQ(memory::l2_home_of(0, mask), 0);
  EXPECT_EQ(memory::l2_home_of(31, mask), 0);       // the first 4 KB share a home
  EXPECT_EQ(memory::l2_home_of(32, mask), 1);
  EXPECT_EQ(memory::l2_home_of(32 + 64, mask), 0);  // bits 5 and 6
  EXPECT_EQ(memory::l2_home_of(1u << 11, mask), 0);
}

TEST(L2Partitions, NoPartitionsBefore90) {
  auto m = memory("sm_80");  // one L2, 32 B fills: each miss reads its own sector, a re-read hits from any SM
  m->access(one_lane(kBase), 0);
  m->access(one_lane(kBase), 1);
  m->access(one_lane(kBase + 32), 2);
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 1u);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 64u);
}

TEST(L2Partitions, BadDatabaseValuesAreErrors) {
  ArchSpec a = arch("sm_90");
  a.l2_partitions = 3;
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
  a = arch("sm_90");
  a.l2_home_bits.clear();
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
  a = arch("sm_90");
  a.l2_home_bits = {6};  // inside a line
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
  a = arch("sm_90");
  a.l2_sm_partitions[5] = 2;
  EXPECT_THROW(MemorySystem(a, MemoryConfig{}), InputError);
}

TEST(L2Partitions, AnotherSmCountAlternates) {
  MemoryConfig cfg;
  cfg.num_sms = 8;  // the measured map names 132 SMs: SM s is in partition s mod 2
  auto m = memory("sm_90", cfg);
  read_all(*m, 0, 0);
  read_all(*m, 2, 1);
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 4096u);
  read_all(*m, 1, 0);
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 4096u + 2048u);
}

}  // namespace
}  // namespace warpscope::test
