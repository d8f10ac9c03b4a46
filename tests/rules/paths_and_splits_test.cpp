// Which path each access takes per generation, and the Maxwell/Pascal request
// split. Sources: seed000 G.3.2/G.4.2/G.5.2, seed001 "GMEM Writes" and "GMEM
// Reads", Pascal Tuning Guide 1.4.3.2 (GP100 caches global loads in L1 by
// default), reference/ncu_and_microbench.md 1.1 (Maxwell/Pascal: 8/4/2 threads
// per request for <=32/64/128-bit accesses).
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace warpscope::test {
namespace {

TEST(MaxwellPascalSplit, ThreadGroupsOf8_4_2) {
  for (unsigned size : {4u, 8u, 16u}) {
    auto c = run("sm_61", Access{Space::Global, Op::Load, size}, [size](int l) { return kBase + size * l; });
    const unsigned groups = size == 4 ? 4u : size == 8 ? 8u : 16u;
    EXPECT_EQ(c.sub_requests, groups) << size;
    EXPECT_EQ(c.transactions, groups) << size;  // each group looks up its one line
    EXPECT_EQ(c.sectors, size) << size;         // 4, 8, 16 sectors: no over-fetch
  }
}

TEST(GlobalPaths, DefaultLoadCachingPerGeneration) {
  auto path = [](const char* arch_name) {
    return run(arch_name, Access{Space::Global, Op::Load, 4}, [](int l) { return kBase + 4u * l; }).path;
  };
  EXPECT_EQ(path("sm_13"), MemoryPath::Dram);  // seed001: "CC 1.x: no L1"
  EXPECT_EQ(path("sm_20"), MemoryPath::L1);    // seed000 G.3.2: cached by default (-dlcm=ca)
  EXPECT_EQ(path("sm_35"), MemoryPath::L2);    // seed000 G.4.2: normally not cached in L1
  EXPECT_EQ(path("sm_52"), MemoryPath::L2);    // seed000 G.5.2: by default not cached
  EXPECT_EQ(path("sm_60"), MemoryPath::L1);    // Pascal Tuning Guide: GP100 caches by default
  EXPECT_EQ(path("sm_61"), MemoryPath::L2);    // ... GP104 follows Maxwell
  EXPECT_EQ(path("sm_90"), MemoryPath::L1);
}

TEST(GlobalPaths, Maxwell50CannotOptIn52Can) {
  // seed000 G.5.2: non-read-only data cannot be cached in L1 on 5.0; 5.2 may opt in.
  auto ca = [](const char* arch_name) {
    return run(arch_name, Access{Space::Global, Op::Load, 4, CacheOp::Ca}, [](int l) { return kBase + 4u * l; }).path;
  };
  EXPECT_EQ(ca("sm_50"), MemoryPath::L2);
  EXPECT_EQ(ca("sm_52"), MemoryPath::L1);
  // __ldg goes through the unified L1/texture cache on every 5.x
  EXPECT_EQ(run("sm_50", Access{Space::Global, Op::Load, 4, CacheOp::Nc}, [](int l) { return kBase + 4u * l; }).path,
            MemoryPath::ReadOnly);
}

TEST(GlobalPaths, StoresAndAtomicsGoToL2BeforeVolta) {
  for (Op op : {Op::Store, Op::Atomic, Op::Reduction}) {
    EXPECT_EQ(run("sm_20", Access{Space::Global, op, 4}, [](int l) { return kBase + 4u * l; }).path, MemoryPath::L2);
    EXPECT_EQ(run("sm_90", Access{Space::Global, op, 4}, [](int l) { return kBase + 4u * l; }).path, MemoryPath::L1);
  }
  // atomics on Fermi are counted in 32 B segments like stores
  auto atom = run("sm_20", Access{Space::Global, Op::Atomic, 4}, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(atom.sectors, 5u);
}

TEST(GlobalPaths, LocalMemoryIsCachedInL1OnFermiAndKepler) {
  // seed000 G.4.1: "The L1 cache is used to cache accesses to local memory"
  auto local = [](const char* arch_name) {
    // every thread at the same per-thread offset: one 128 B line once interleaved
    return run(arch_name, Access{Space::Local, Op::Load, 4}, [](int) { return kBase; });
  };
  EXPECT_EQ(local("sm_20").path, MemoryPath::L1);
  EXPECT_EQ(local("sm_35").path, MemoryPath::L1);
  EXPECT_EQ(local("sm_35").bytes_moved, 128u);
  EXPECT_EQ(local("sm_52").path, MemoryPath::L2);  // Maxwell: local memory in L2 (data/arch/sm_50.toml)
  EXPECT_EQ(local("sm_61").path, MemoryPath::L1);  // Pascal Tuning Guide: "Pascal caches thread-local memory in L1"
}

TEST(GlobalPaths, CacheGlobalOperatorBypassesL1OnFermi) {
  auto cg = run("sm_20", Access{Space::Global, Op::Load, 4, CacheOp::Cg}, [](int) { return kBase; });
  auto cv = run("sm_20", Access{Space::Global, Op::Load, 4, CacheOp::Cv}, [](int) { return kBase; });
  auto cs = run("sm_20", Access{Space::Global, Op::Load, 4, CacheOp::Cs}, [](int) { return kBase; });
  EXPECT_EQ(cg.path, MemoryPath::L2);
  EXPECT_EQ(cv.path, MemoryPath::L2);
  EXPECT_EQ(cs.path, MemoryPath::L1);  // .cs: "allocates global lines with evict-first policy in L1 and L2"
}

}  // namespace
}  // namespace warpscope::test
