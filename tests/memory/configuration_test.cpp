// The memory system's configuration: default GPUs, L1 capacity from the
// carveout or the L1/shared split, cache geometry from the database.
#include <gtest/gtest.h>

#include "memory_test_support.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

constexpr std::int64_t KB = 1024, MB = 1024 * 1024;

std::int64_t l1_with(const char* arch_name, int carveout, std::int64_t shared = -1) {
  MemoryConfig c;
  c.carveout_percent = carveout;
  c.shared_capacity = shared;
  return MemorySystem(arch(arch_name), c).l1_size();
}

TEST(MemoryConfiguration, DefaultGpus) {
  struct Gpu {
    const char* arch;
    int sms;
    std::int64_t l2;
  };
  for (const Gpu& g : {Gpu{"sm_90", 132, 50 * MB}, Gpu{"sm_80", 108, 40 * MB}, Gpu{"sm_86", 82, 6 * MB},
                       Gpu{"sm_35", 15, 1536 * KB}, Gpu{"sm_20", 15, 768 * KB}, Gpu{"sm_13", 30, 0}}) {
    MemorySystem m(arch(g.arch), {});
    EXPECT_EQ(m.num_sms(), g.sms) << g.arch;
    EXPECT_EQ(m.l2_size(), g.l2) << g.arch;
  }
  MemorySystem h100(arch("sm_90"), {});
  EXPECT_NE(h100.describe().find("132 SMs"), std::string::npos) << h100.describe();
  // Two partitions of 25 MB (validation/h100/partition_probe).
  EXPECT_NE(h100.describe().find("L2: 25 MB, 10240 sets x 20 ways"), std::string::npos) << h100.describe();
  EXPECT_NE(h100.describe().find("2 such partitions (50 MB)"), std::string::npos) << h100.describe();
  EXPECT_EQ(h100.l2_partitions(), 2);
  EXPECT_EQ(MemorySystem(arch("sm_80"), {}).l2_partitions(), 1);
}

TEST(MemoryConfiguration, Overrides) {
  MemoryConfig c;
  c.num_sms = 2;
  c.l2_size = 256 * KB;
  c.l2_replacement = Replacement::Fifo;
  MemorySystem m(arch("sm_90"), c);
  EXPECT_EQ(m.num_sms(), 2);
  EXPECT_EQ(m.l2_size(), 256 * KB);
  EXPECT_EQ(m.l2_cache()->config().replacement, Replacement::Fifo);
  EXPECT_EQ(m.l2_cache()->sets(), 256u * 1024 / 2 / 128 / 20);  // per partition: 1024 lines / 20 ways, rounded down
  EXPECT_EQ(m.l2_cache(1)->sets(), m.l2_cache(0)->sets());
  EXPECT_EQ(m.l2_cache(2), nullptr);
}

// 7.0+: the carveout (a percentage of the maximum shared capacity) is rounded
// up to a supported capacity (seed001 20.7.3); L1 = unified - shared.
TEST(MemoryConfiguration, CarveoutSetsL1) {
  // The H100's driver default, and its smallest carveout: 32 KB of shared memory
  // whatever percentage below 15% is asked for (validation/h100/l1_geometry).
  EXPECT_EQ(l1_with("sm_90", -1), 224 * KB);
  EXPECT_EQ(l1_with("sm_90", 0), 224 * KB);
  EXPECT_EQ(l1_with("sm_90", 7), 224 * KB);  // rounds up to 16 KB by seed001 20.7.3, measured 32 KB
  EXPECT_EQ(l1_with("sm_90", 28), 192 * KB);  // 64 KB shared, measured
  EXPECT_EQ(l1_with("sm_70", 0), 128 * KB);  // elsewhere 0% is no shared memory (seed001 20.7.3)
  EXPECT_EQ(l1_with("sm_90", 50), 124 * KB);  // 50% of 228 KB = 114 KB -> 132 KB shared
  EXPECT_EQ(l1_with("sm_90", 100), 28 * KB);  // 228 KB shared
  EXPECT_EQ(l1_with("sm_80", 50), 92 * KB);   // seed001 20.7.3: 50% maps to 100 KB on 8.0
  EXPECT_EQ(l1_with("sm_75", -1), 64 * KB);   // 96 KB - 32 KB
  EXPECT_EQ(l1_with("sm_90", -1, 64 * KB), 192 * KB);
  EXPECT_THROW(l1_with("sm_90", 101), InputError);
}

// 2.x/3.x: the 64 KB array split 48/16 (default), 16/48, 32/32 (3.x).
TEST(MemoryConfiguration, FermiKeplerSplit) {
  EXPECT_EQ(l1_with("sm_20", -1), 16 * KB);
  EXPECT_EQ(l1_with("sm_20", -1, 16 * KB), 48 * KB);
  EXPECT_EQ(l1_with("sm_35", -1, 32 * KB), 32 * KB);
  EXPECT_EQ(l1_with("sm_37", -1), 16 * KB);  // 128 KB - 112 KB
  EXPECT_THROW(l1_with("sm_20", -1, 20 * KB), InputError);
  // The carveout is a 7.0+ notion: ignored where the split is fixed by cudaFuncSetCacheConfig.
  EXPECT_EQ(l1_with("sm_20", 100), 16 * KB);
  // 5.x/6.x: a separate L1 of fixed size.
  EXPECT_EQ(l1_with("sm_61", -1), 48 * KB);
  EXPECT_EQ(l1_with("sm_50", -1), 24 * KB);
  EXPECT_EQ(l1_with("sm_13", -1), 0);
}

// Geometry from the database: L1 sets stay fixed, ways follow the capacity.
TEST(MemoryConfiguration, L1Geometry) {
  MemoryConfig half;
  half.carveout_percent = 50;
  MemorySystem h100(arch("sm_90"), half);
  // 32 XOR-hashed sets (validation/h100/l1_geometry: modulo indexing is ruled out).
  EXPECT_EQ(h100.l1_cache(0)->sets(), 32u);
  EXPECT_EQ(h100.l1_cache(0)->ways(), 31);  // 124 KB / 128 B / 32 sets
  EXPECT_EQ(h100.l1_cache(0)->config().set_hash, SetHash::XorFold);
  MemorySystem fermi(arch("sm_20"), {});
  EXPECT_EQ(fermi.l1_cache(0)->sets(), 32u);
  EXPECT_EQ(fermi.l1_cache(0)->ways(), 4);
  EXPECT_EQ(fermi.l1_cache(0)->config().set_hash, SetHash::XorFold);
}

// Every architecture in the database builds a memory system whose caches hold
// exactly the configured capacities (whole sets), with known policy names.
TEST(MemoryConfiguration, EveryArchitectureBuilds) {
  for (const ArchEntry* e : db().all()) {
    const ArchSpec& a = e->spec;
    SCOPED_TRACE(a.name);
    MemorySystem m(a, {});
    EXPECT_GT(m.num_sms(), 0);
    EXPECT_FALSE(a.gpu_name.empty());
    if (a.rules == RulesFamily::TeslaStrict || a.rules == RulesFamily::TeslaRelaxed) {
      EXPECT_EQ(m.l2_cache(), nullptr);
      continue;
    }
    ASSERT_NE(m.l2_cache(), nullptr);
    EXPECT_EQ(m.l2_cache()->capacity() * m.l2_partitions(), a.gpu_l2_size);
    EXPECT_LE(a.gpu_l2_size, a.l2_max_size);
    ASSERT_NE(m.l1_cache(0), nullptr);
    EXPECT_EQ(m.l1_cache(0)->capacity(), m.l1_size());
    if (const Cache* ro = m.readonly_cache(0, 0)) {
      EXPECT_EQ(ro->capacity() * a.readonly_partitions, a.readonly_size);
    }
  }
}

}  // namespace
}  // namespace warpscope::test
