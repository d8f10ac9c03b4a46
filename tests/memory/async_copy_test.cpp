// cp.async through the memory system (memory/access_path.cpp access_async_copy): the read as a load of
// its cache operator, the write's wavefronts from both records of the instruction, and the counters
// Nsight Compute names (validation/h100/async_probe).
#include <gtest/gtest.h>

#include "memory_test_support.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kSrc = 0x7f0000000000;

WarpAccess read_side(std::uint32_t cta, std::uint16_t warp, CacheOp cache, unsigned size,
                     const std::function<std::uint64_t(int)>& src, std::uint32_t mask = 0xffffffffu) {
  WarpAccess a = make({Space::Global, Op::AsyncCopy, size, cache, mask}, [&](int l) { return kSrc + src(l); });
  a.pc = 0x120, a.cta = cta, a.warp = warp;
  return a;
}
WarpAccess write_side(std::uint32_t cta, std::uint16_t warp, CacheOp cache, unsigned size,
                      const std::function<std::uint64_t(int)>& dst) {
  WarpAccess a = make({Space::Shared, Op::AsyncCopy, size, cache}, dst);
  a.pc = 0x120, a.cta = cta, a.warp = warp;
  return a;
}

TEST(AsyncCopyMemory, TheWritePairsWithItsWarpsReadAcrossOtherWarpsRecords) {
  auto m = memory("sm_90");
  // Warp 0's read (sources 8 B apart: 2 wavefronts once paired), then warp 1's whole copy, then warp 0's write.
  m->access(read_side(0, 0, CacheOp::Ca, 4, [](int l) { return 8u * l; }), 0);
  m->access(read_side(0, 1, CacheOp::Ca, 4, [](int l) { return 4096u + 4u * l; }), 0);
  m->access(write_side(0, 1, CacheOp::Ca, 4, [](int l) { return 512u + 4u * l; }), 0);
  m->access(write_side(0, 0, CacheOp::Ca, 4, [](int l) { return 4u * l; }), 0);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.instructions"), 2);  // one each, not one a record
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.instructions_cache_access"), 2);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.wavefronts"), 3);  // 2 + 1
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.bank_conflicts"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.requests"), 2);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.sectors"), 8 + 4);
}

TEST(AsyncCopyMemory, ReadsCountInTheGlobalLoadTagCountersButNotItsInstructions) {
  auto m = memory("sm_90");
  // .ca twice over one line: the second finds its 4 sectors in L1; then a .cg of 16 B over 512 B.
  for (int rep = 0; rep < 2; ++rep) {
    m->access(read_side(0, 0, CacheOp::Ca, 4, [](int l) { return 4u * l; }), 0);
    m->access(write_side(0, 0, CacheOp::Ca, 4, [](int l) { return 4u * l; }), 0);
  }
  m->access(read_side(0, 0, CacheOp::Cg, 16, [](int l) { return 8192u + 16u * l; }), 0);
  m->access(write_side(0, 0, CacheOp::Cg, 16, [](int l) { return 1024u + 16u * l; }), 0);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.sector_hits"), 4);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.sectors_cache_access"), 8);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.sectors_cache_bypass"), 16);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.instructions_cache_bypass"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.wavefronts"), 1 + 1 + 4);
  // Nsight Compute's l1tex__t_*_global_op_ld count the reads, smsp__inst_executed_op_global_ld does not.
  EXPECT_EQ(metric(*m, "sm_90", "global_ld.instructions"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "global_ld.requests"), 3);
  EXPECT_EQ(metric(*m, "sm_90", "global_ld.sectors"), 24);
  EXPECT_EQ(metric(*m, "sm_90", "global_ld.sector_hits"), 4);
  // The .ca line came from L2 once, the .cg sectors bypassed L1 to L2.
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 4u + 16u);
}

TEST(AsyncCopyMemory, AWriteWithoutItsReadIsAZeroFilledInstruction) {
  // Every lane zero-filled: no read record. Nsight Compute counts the instruction, its tag-stage
  // request (l1tex__t_requests_..._ldgsts_cache_access) and its wavefront, no SASS-patched request.
  auto m = memory("sm_90");
  m->access(write_side(0, 0, CacheOp::Ca, 16, [](int l) { return 16u * l; }), 0);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.requests"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.requests_cache_access"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.wavefronts"), 4);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 0u);
}

TEST(AsyncCopyMemory, BeforeSm80TheCopyIsTheLoadAndSharedStoreItWouldTake) {
  // No LDGSTS before 8.0: analysed there, the copy counts as an LDG and an STS, and no ldgsts metric shows.
  auto m = memory("sm_75");
  m->access(read_side(0, 0, CacheOp::Ca, 4, [](int l) { return 4u * l; }), 0);
  m->access(write_side(0, 0, CacheOp::Ca, 4, [](int l) { return 8u * l; }), 0);
  const Counters& c = m->kernel_counters();
  EXPECT_EQ(c.global_ld.instructions, 1u);
  EXPECT_EQ(c.global_ld.sectors, 4u);
  EXPECT_EQ(c.shared_st.instructions, 1u);
  EXPECT_EQ(c.shared_st.wavefronts, 2u);
  EXPECT_EQ(c.shared_ldgsts.instructions + c.global_ldgsts.instructions, 0u);
  for (const Metric& x : metrics(c, arch("sm_75"))) EXPECT_FALSE(x.our_key.starts_with("ldgsts.")) << x.our_key;
}

TEST(AsyncCopyMemory, RecordsOfOneInstructionPairOnlyWithinAKernel) {
  auto m = memory("sm_90");
  m->access(read_side(0, 0, CacheOp::Ca, 4, [](int l) { return 8u * l; }), 0);
  m->begin_kernel();  // the read's kernel ended without its write
  m->access(write_side(0, 0, CacheOp::Ca, 4, [](int l) { return 4u * l; }), 0);
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.wavefronts"), 1);  // the write alone
  EXPECT_EQ(metric(*m, "sm_90", "ldgsts.instructions"), 1);
}

}  // namespace
}  // namespace warpscope::test
