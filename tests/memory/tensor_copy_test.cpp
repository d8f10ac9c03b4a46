// Tensor copies through the memory system (memory/access_path.cpp access_bulk): a cp.async.bulk.tensor is one
// record a row of its box (types.hpp kTensorRowMask), each row cut into the TMA's pieces like a bulk copy
// (rules/bulk_copy.hpp), but only the first row is the instruction (kTensorRowLater on the others), and a load's
// row out of bounds above dimension 0 (kTensorRowOutside) counts its sectors in the TMA's counter and sends nothing
// to L2 (validation/h100/tensor_probe). Every count below is worked out by hand from the rows' addresses.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "analyze/analyzer.hpp"
#include "memory_test_support.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kSrc = 0x7f0000000000;

WarpAccess tensor_row(Op op, std::uint64_t global, std::uint64_t shared, std::uint64_t bytes, std::uint64_t flags) {
  WarpAccess a;
  a.op = op;
  a.size = 16;
  a.pc = 0x80;
  a.active = LaneMask(kTensorRowMask);
  a.addr[0] = global;
  a.addr[1] = shared;
  a.addr[2] = bytes;
  a.addr[3] = flags;
  return a;
}

// Three rows of 128 bytes, each 16 bytes into a line (0x1000 apart) and on a 128-byte block of shared memory: one
// piece a row, whose line holds bytes 16..127 (sector 0 in part, a request of its own; sectors 1-3 whole, one
// request) and whose next line holds bytes 0..15 (sector 0 in part, a request): 3 requests and 5 sectors a row
// (tensor_probe's tload2d#2: "5 sectors a row"). The copy is 1 instruction, 15 sectors (480 bytes) for 384 bytes
// copied, 9 L2 requests.
TEST(TensorCopyMemory, RowsAfterTheFirstAddSectorsButNoInstruction) {
  auto m = memory("sm_90");
  for (std::uint64_t r = 0; r < 3; ++r) {
    const std::uint64_t flags = r == 0 ? 0 : kTensorRowLater;
    const InstructionCounts c = m->access(tensor_row(Op::BulkLoad, kSrc + 16 + 0x1000 * r, 128 * r, 128, flags), 0);
    EXPECT_EQ(c.requests, r == 0 ? 1u : 0u) << r;
    EXPECT_EQ(c.transactions, 3u) << r;
    EXPECT_EQ(c.sectors, 5u) << r;
    EXPECT_EQ(c.bytes_needed, 128u) << r;
    EXPECT_EQ(c.bytes_moved, 160u) << r;
  }
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.sectors"), 15);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.bytes"), 480);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.bytes_needed"), 384);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.l2_requests"), 9);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_requests"), 9);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sectors"), 15);
  EXPECT_EQ(metric(*m, "sm_90", "global_ld.instructions"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.instructions"), 0);
}

// Two 128-byte rows on whole lines: row 0 in bounds (1 request, 4 sectors), row 1 out of bounds in dimension 1
// (flags 1 | 2): its 4 sectors count in the TMA's sectors (tensor_probe's "top" box: l1tex__m_xbar2l1tex_read_
// sectors_mem_global_op_tma_ld counts every row whole), but no request and no sector reaches L2.
TEST(TensorCopyMemory, ARowOutsideCountsItsSectorsAndSendsNothingToL2) {
  auto m = memory("sm_90");
  m->access(tensor_row(Op::BulkLoad, kSrc, 0, 128, 0), 0);
  const InstructionCounts c =
      m->access(tensor_row(Op::BulkLoad, kSrc + 0x1000, 128, 128, kTensorRowLater | kTensorRowOutside), 0);
  EXPECT_EQ(c.requests, 0u);
  EXPECT_EQ(c.transactions, 0u);
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.bytes_moved, 128u);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.sectors"), 8);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.bytes"), 256);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.l2_requests"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_requests"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sectors"), 4);

  // A copy whose first row is outside (flag 2 alone): the instruction and its 4 sectors, no L2 traffic; the same
  // row in bounds sends its request.
  auto outside = memory("sm_90");
  outside->access(tensor_row(Op::BulkLoad, kSrc, 0, 128, kTensorRowOutside), 0);
  EXPECT_EQ(metric(*outside, "sm_90", "tma_ld.instructions"), 1);
  EXPECT_EQ(metric(*outside, "sm_90", "tma_ld.sectors"), 4);
  EXPECT_EQ(metric(*outside, "sm_90", "l2.read_requests"), 0);
  EXPECT_EQ(metric(*outside, "sm_90", "l2.read_sectors"), 0);
  outside->access(tensor_row(Op::BulkLoad, kSrc, 0, 128, 0), 0);
  EXPECT_EQ(metric(*outside, "sm_90", "tma_ld.instructions"), 2);
  EXPECT_EQ(metric(*outside, "sm_90", "l2.read_requests"), 1);
  EXPECT_EQ(metric(*outside, "sm_90", "l2.read_sectors"), 4);
}

// A multicast row delivered to one more CTA (flags 1 | 16): the TMA counts its sectors again, nothing more in L2
// (validation/h100/multicast_probe: 8,192 TMA sectors for 4,096 read once from L2, two CTAs a copy). A row 16 bytes
// into a line is 5 sectors each time; before 9.0 a delivery moves nothing.
TEST(TensorCopyMemory, AMulticastDeliveryCountsSectorsNotL2) {
  auto m = memory("sm_90");
  m->access(tensor_row(Op::BulkLoad, kSrc + 16, 0, 128, 0), 0);
  m->access(tensor_row(Op::BulkLoad, kSrc + 16, 0, 128, kTensorRowLater | kTensorRowDelivery), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.sectors"), 10);
  EXPECT_EQ(metric(*m, "sm_90", "tma_ld.l2_requests"), 3);  // the first delivery's partial, whole and partial pieces
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_requests"), 3);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sectors"), 5);
  auto old = memory("sm_80");
  old->access(tensor_row(Op::BulkLoad, kSrc, 0, 128, kTensorRowLater | kTensorRowDelivery), 0);
  EXPECT_EQ(metric(*old, "sm_80", "global_ld.instructions"), 0);
  EXPECT_EQ(metric(*old, "sm_80", "shared_st.instructions"), 0);
}

// A store with nothing in bounds is one row of 0 bytes: the instruction, no piece, no sector, no L2 write.
TEST(TensorCopyMemory, AnEmptyRowIsTheInstructionAlone) {
  auto m = memory("sm_90");
  const InstructionCounts c = m->access(tensor_row(Op::BulkStore, kSrc, 0, 0, 0), 0);
  EXPECT_EQ(c.requests, 1u);
  EXPECT_EQ(c.sectors, 0u);
  EXPECT_EQ(c.bytes_needed, 0u);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.sectors"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.bytes"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.bytes_needed"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.l2_requests"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "l2.write_requests"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "l2.write_sectors"), 0);
}

// A store's rows clipped to 56 bytes (14 floats in bounds): each starts a line, bytes 0..55 of it, sectors 0 and 1;
// row 1's shared side, 64..119, stays in one 128-byte block. One write request and 2 sectors a row.
TEST(TensorCopyMemory, StoreRowsOfAnyLengthWriteTheSectorsTheyTouch) {
  auto m = memory("sm_90");
  m->access(tensor_row(Op::BulkStore, kSrc, 0, 56, 0), 0);
  m->access(tensor_row(Op::BulkStore, kSrc + 256, 64, 56, kTensorRowLater), 0);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.sectors"), 4);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.bytes"), 128);
  EXPECT_EQ(metric(*m, "sm_90", "tma_st.bytes_needed"), 112);
  EXPECT_EQ(metric(*m, "sm_90", "l2.write_requests"), 2);
  EXPECT_EQ(metric(*m, "sm_90", "l2.write_sectors"), 4);
  EXPECT_EQ(metric(*m, "sm_90", "global_st.instructions"), 0);
}

// Which records are an execution of their instruction (warp_access.hpp counts_execution): a tensor copy's first
// row, with or without the outside flag; not its later rows. Lane 3 means nothing to a mask-7 bulk copy.
TEST(TensorCopyMemory, OnlyACopysFirstRowIsAnExecution) {
  EXPECT_TRUE(counts_execution(tensor_row(Op::BulkLoad, kSrc, 0, 64, 0)));
  EXPECT_FALSE(counts_execution(tensor_row(Op::BulkLoad, kSrc, 0, 64, 1)));
  EXPECT_TRUE(counts_execution(tensor_row(Op::BulkLoad, kSrc, 0, 64, 2)));
  EXPECT_FALSE(counts_execution(tensor_row(Op::BulkLoad, kSrc, 0, 64, 3)));
  EXPECT_FALSE(counts_execution(tensor_row(Op::BulkStore, kSrc, 0, 64, 1)));
  WarpAccess bulk = tensor_row(Op::BulkLoad, kSrc, 0, 64, 3);
  bulk.active = LaneMask(kBulkMask);
  EXPECT_TRUE(counts_execution(bulk));
  EXPECT_FALSE(continues_tensor_copy(bulk));
  EXPECT_FALSE(tensor_row_outside(bulk));
}

// A text-format record line of a tensor row (lanes 0-3, the others '-').
std::string row_line(const char* op, std::uint32_t cta, std::uint64_t pc, std::uint64_t global, std::uint64_t shared,
                     std::uint64_t bytes, std::uint64_t flags) {
  std::string line = fmt::format("rec k=0 pc={:#x} cta={} warp=0 sm={} global {} 16 mask=f addr={:#x},{:#x},{},{}", pc,
                                 cta, cta, op, global, shared, bytes, flags);
  for (int l = 4; l < kWarpSize; ++l) line += ",-";
  return line + "\n";
}

// analyze: two copies at PC 0x10 (3 rows, then 2; rows of 128 bytes on whole lines, 4 sectors each, the third row of
// the first copy outside) and one wholly out-of-bounds store at PC 0x20 are 2 and 1 executions, with the TMA's
// instructions, sectors (5 x 4 = 20) and L2 requests (the 4 rows not outside) counted per instruction.
TEST(TensorCopyMemory, AnalyzeCountsOneExecutionACopy) {
  std::string text = "wstrace 1\nkernel 0 name=t grid=2,1,1 block=32,1,1 arch=sm_90\n";
  text += row_line("tma_ld", 0, 0x10, kSrc, 0, 128, 0);
  text += row_line("tma_ld", 0, 0x10, kSrc + 0x100, 128, 128, 1);
  text += row_line("tma_ld", 0, 0x10, kSrc + 0x200, 256, 128, 3);
  text += row_line("tma_ld", 1, 0x10, kSrc + 0x1000, 0, 128, 0);
  text += row_line("tma_ld", 1, 0x10, kSrc + 0x1100, 128, 128, 1);
  text += row_line("tma_st", 1, 0x20, kSrc + 0x2000, 0, 0, 0);
  auto trace = open_trace_buffer(text, "tensor.txt");
  AnalyzeOptions o;
  o.threads = 1;
  const ArchResult r = analyze_trace(*trace, {&arch("sm_90")}, o).archs.at(0);
  ASSERT_EQ(r.pcs.size(), 2u);
  const PcCounters& load = r.pcs[0].pc == 0x10 ? r.pcs[0] : r.pcs[1];
  const PcCounters& store = r.pcs[0].pc == 0x10 ? r.pcs[1] : r.pcs[0];
  ASSERT_EQ(load.pc, 0x10u);
  ASSERT_EQ(store.pc, 0x20u);
  EXPECT_EQ(load.op, Op::BulkLoad);
  EXPECT_EQ(load.executions, 2u);
  EXPECT_EQ(load.counters.bulk_ld.instructions, 2u);
  EXPECT_EQ(load.counters.bulk_ld.sectors, 20u);
  EXPECT_EQ(load.counters.bulk_ld.requests, 4u);
  EXPECT_EQ(load.bytes_needed, 5u * 128);
  EXPECT_EQ(store.op, Op::BulkStore);
  EXPECT_EQ(store.executions, 1u);
  EXPECT_EQ(store.counters.bulk_st.instructions, 1u);
  EXPECT_EQ(store.counters.bulk_st.sectors, 0u);
}

// stencil5's halo rows of 160 B above and below the grid (validation/h100/tma_kernels): shared offset 33 x 160 =
// 5,280, 32 B into a 128-byte block, so pieces of 96 and 64 bytes: 3 + 2 = 5 sectors counted, where the row's
// address, 16 B before a line, would touch 4 + 3 = 7 (sector 3 of one line, 0-2 of the next; then 2-3 and the
// following line's 0). The H100 counted 60,864 TMA sectors for the kernel, 64 (32 rows x 2) under 7 a row.
TEST(TensorCopyMemory, ARowOutsideCountsItsPiecesBytesNotItsAddressesSectors) {
  auto m = memory("sm_90");
  const InstructionCounts c = m->access(tensor_row(Op::BulkLoad, kSrc + 112, 5280, 160, kTensorRowOutside), 0);
  EXPECT_EQ(c.sectors, 5u);
  const InstructionCounts in = m->access(tensor_row(Op::BulkLoad, kSrc + 0x10000 + 112, 5280, 160, 0), 0);
  EXPECT_EQ(in.sectors, 7u);
}

// A tensor map's L2 promotion of 128 B (flag 4): a read miss fills the whole line. A 128-byte row 16 B into a line
// asks for sector 0 of line A in part, sectors 1-3 of A, and sector 0 of line B in part (5 sectors, 3 requests).
// Promoted: A's first request misses and fetches all of A, so sectors 1-3 hit; B's misses and fetches all of B:
// 3 of 5 hit, 256 bytes from DRAM (tensor_probe's "promo128": 1,536 of 2,560 hit, 60%). Not promoted, the H100's
// 64-byte groups: A's sector 0 fetches sectors 0-1, so sector 1 hits and 2-3 miss (fetching 2-3), B's sector 0
// fetches 0-1: 1 of 5 hits, 192 bytes (tensor_probe's "x4": 512 of 2,560, 20%).
TEST(TensorCopyMemory, PromotedRowsFillWholeLinesInL2) {
  auto promoted = memory("sm_90");
  promoted->access(tensor_row(Op::BulkLoad, kSrc + 16, 0, 128, kTensorRowPromoted), 0);
  EXPECT_EQ(metric(*promoted, "sm_90", "l2.read_sectors"), 5);
  EXPECT_EQ(metric(*promoted, "sm_90", "l2.read_sector_hits"), 3);
  EXPECT_EQ(metric(*promoted, "sm_90", "dram.read_bytes"), 256);
  auto plain = memory("sm_90");
  plain->access(tensor_row(Op::BulkLoad, kSrc + 16, 0, 128, 0), 0);
  EXPECT_EQ(metric(*plain, "sm_90", "l2.read_sectors"), 5);
  EXPECT_EQ(metric(*plain, "sm_90", "l2.read_sector_hits"), 1);
  EXPECT_EQ(metric(*plain, "sm_90", "dram.read_bytes"), 192);
}

// A 256-byte promotion (flags 4 | 8): a miss fills the 256-byte pair of lines. A 128-byte row on line 0 of a pair
// misses its 4 sectors and brings line 1 along: 256 bytes from DRAM (tensor_promo's "x0 256B": 134,656 B for 64 KB
// of rows), no request of its own for line 1, whose later read hits all 4 sectors. The H100 also counts an extra
// 4-sector request for about half such rows, which the model does not.
TEST(TensorCopyMemory, APairPromotionFillsBothLinesOfThePair) {
  auto m = memory("sm_90");
  m->access(tensor_row(Op::BulkLoad, kSrc, 0, 128, kTensorRowPromoted | kTensorRowPromotedPair), 0);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_requests"), 1);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sectors"), 4);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sector_hits"), 0);
  EXPECT_EQ(metric(*m, "sm_90", "dram.read_bytes"), 256);
  m->access(tensor_row(Op::BulkLoad, kSrc + 128, 128, 128, kTensorRowPromoted | kTensorRowPromotedPair), 0);
  EXPECT_EQ(metric(*m, "sm_90", "l2.read_sector_hits"), 4);
  EXPECT_EQ(metric(*m, "sm_90", "dram.read_bytes"), 256);
}

// Before 9.0 there is no TMA: a row counts as the 16-byte loads and stores one warp would make of it, and a row
// out of bounds, which a warp would not read, as nothing. 128 bytes: 8 lanes of 16 B, one line, 4 sectors.
TEST(TensorCopyMemory, BeforeHopperARowOutsideMovesNothing) {
  auto m = memory("sm_80");
  m->access(tensor_row(Op::BulkLoad, kSrc, 0, 128, 0), 0);
  m->access(tensor_row(Op::BulkLoad, kSrc + 0x1000, 128, 128, kTensorRowLater | kTensorRowOutside), 0);
  EXPECT_EQ(metric(*m, "sm_80", "global_ld.instructions"), 1);
  EXPECT_EQ(metric(*m, "sm_80", "l2.read_sectors"), 4);
}

}  // namespace
}  // namespace warpscope::test
