// Bulk copies through the memory system (memory/access_path.cpp access_bulk): the TMA's pieces and their L2
// requests on 9.0 (rules/bulk_copy.hpp), past L1 and the request coalescer, counted as Nsight Compute names
// them (validation/h100/barrier_probe); before 9.0, the one warp's 16-byte copies it would take.
#include <gtest/gtest.h>

#include "memory_test_support.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kSrc = 0x7f0000000000;

WarpAccess bulk(Op op, std::uint64_t global, std::uint64_t shared, std::uint64_t bytes) {
  WarpAccess a;
  a.op = op;
  a.size = 16;
  a.pc = 0x80;
  a.active = LaneMask(0x7u);
  a.addr[0] = global;
  a.addr[1] = shared;
  a.addr[2] = bytes;
  return a;
}

// bulk_g2s/s64/o16 on the H100, per copy: 3 requests and 3 sectors (16-32 and 64-80 in part, 32-64 whole) the
// first time, all 3 hits the second; the first request's miss fills its 64-byte group, so the whole sector behind
// it hits at once (64 hits of 96 over 16 CTAs x 2 repeats).
TEST(BulkCopyMemory, ReadsAreTheTmasPiecesThroughL2) {
  auto m = memory("sm_90");
  for (int rep = 0; rep < 2; ++rep) m->access(bulk(Op::BulkLoad, kSrc + 16, 0, 64), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.instructions"), 2);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.sectors"), 6);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.bytes"), 6 * 32);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.bytes_needed"), 128);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_requests"), 6);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sectors"), 6);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sector_hits"), 4);
  // Past L1: no tag-stage traffic, no global-load instruction.
  EXPECT_EQ(metric(*m, "sm_90", "global_ld.instructions"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "global_ld.sectors"), 0);
}

// The request coalescer would merge the second piece's request for sector 0 of line 1 into the first's; the
// H100 merges none at 48 or 112 B past a line (bulk_g2s/s144/o48, o112: lts sectors = TMA sectors).
TEST(BulkCopyMemory, ThePiecesSharedSectorsReachL2Twice) {
  auto m = memory("sm_90");
  m->access(bulk(Op::BulkLoad, kSrc + 112, 0, 144), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.sectors"), 6);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sectors"), 6);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_requests"), 4);
}

// bulk_s2g/s128/o16: 2 write requests (one per line), 5 sectors, every one an L2 "hit" (writes allocate).
TEST(BulkCopyMemory, WritesAreOneRequestPerLineOfEachPiece) {
  auto m = memory("sm_90");
  m->access(bulk(Op::BulkStore, kSrc + 16, 0x100, 128), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.sectors"), 5);
  EXPECT_EQ(metric(*m, "sm_90", "l2.write_requests"), 2);
  EXPECT_EQ(metric(*m, "sm_90", "l2.write_sectors"), 5);
  EXPECT_EQ(metric(*m, "sm_90", "l2.write_sector_hits"), 5);
  EXPECT_EQ(metric(*m, "sm_90", "global_st.instructions"), 0);
}

// Before 9.0 there is no TMA: 1,040 bytes are three warp copies of 16 bytes a lane (32 + 32 + 1 lanes), each a
// global load and a shared store; no tma_* counter exists there.
TEST(BulkCopyMemory, BeforeHopperACopyIsTheWarpCopiesItWouldTake) {
  auto m = memory("sm_80");
  m->access(bulk(Op::BulkLoad, kSrc, 0x200, 1040), 0);
  EXPECT_EQ(metric(*m, "sm_80", "global_ld.instructions"), 3);
  EXPECT_EQ(metric(*m, "sm_80", "global_ld.sectors"), 16 + 16 + 1);
  EXPECT_EQ(metric(*m, "sm_80", "shared_st.instructions"), 3);
  for (const Metric& x : metrics(m->kernel_counters(), arch("sm_80"))) EXPECT_EQ(x.our_key.rfind("tma_", 0), std::string_view::npos) << x.our_key;
}

}  // namespace
}  // namespace warpscope::test
