// The PTX interpreter on hand-written kernels whose records and results are
// worked out by hand: SIMT divergence and reconvergence (IPDOM, reference/
// tracing_and_ptx.md section 3), barriers, shuffles and votes (PTX ISA 9.7.8),
// atomics, calls, local and generic addressing, and the kernel faults it reports.
#include <gtest/gtest.h>

#include <bit>

#include "ptx/ptx_error.hpp"
#include "ptx_test_support.hpp"

namespace warpscope::test {
namespace {

// The common prologue: %rd2 = out + 4 * %tid.x (global), %r1 = %tid.x.
const char* kPrologue = R"(
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd1, %rd3;
)";

std::string kernel(const std::string& name, const std::string& body, const std::string& decls = "") {
  return ".visible .entry " + name + "(.param .u64 out)\n{\n  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n" +
         decls + kPrologue + body + "\n  ret;\n}\n";
}

TEST(PtxInterpreter, DivergentPathsIssueOneRecordEachAndReconverge) {
  PtxRun run(ptx_module(kernel("diverge", R"(
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra $EVEN;
  st.global.u32 [%rd2], 1;
  bra.uni $JOIN;
$EVEN:
  st.global.u32 [%rd2], 2;
$JOIN:
  st.global.u32 [%rd2+128], 3;)")));
  const std::uint64_t out = run.buffer("out", 256);
  const auto rec = run.launch("diverge", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_EQ(rec.size(), 3u);
  // The taken path (even lanes) runs first, then the other; after the join one record with every lane.
  EXPECT_EQ(rec[0].active.bits(), 0x55555555u);
  EXPECT_EQ(rec[1].active.bits(), 0xaaaaaaaau);
  EXPECT_EQ(rec[2].active.bits(), 0xffffffffu);
  EXPECT_EQ(rec[0].pc + 1, rec[2].pc);  // the store after the join
  EXPECT_EQ(rec[2].addr[5], out + 128 + 20);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(run.read<std::uint32_t>("out", static_cast<std::size_t>(t)), t % 2 ? 1u : 2u);
    EXPECT_EQ(run.read<std::uint32_t>("out", static_cast<std::size_t>(32 + t)), 3u);
  }
}

TEST(PtxInterpreter, LoopTripCountsPerLaneShrinkTheMaskThenReconverge) {
  // Lane l runs l % 4 iterations: 0 lanes leave at once, the loop's masks shrink, all meet after it.
  PtxRun run(ptx_module(kernel("loop", R"(
  and.b32 %r2, %r1, 3;
  mov.u32 %r3, 0;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra $DONE;
$LOOP:
  mad.lo.s32 %r4, %r3, 32, %r1;
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r3;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, %r2;
  @%p2 bra $LOOP;
$DONE:
  st.global.u32 [%rd2+512], 7;)")));
  const std::uint64_t out = run.buffer("out", 1024);
  const auto rec = run.launch("loop", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_EQ(rec.size(), 4u);
  EXPECT_EQ(rec[0].active.bits(), 0xeeeeeeeeu);  // l % 4 >= 1
  EXPECT_EQ(rec[1].active.bits(), 0xccccccccu);  // >= 2
  EXPECT_EQ(rec[2].active.bits(), 0x88888888u);  // == 3
  EXPECT_EQ(rec[3].active.bits(), 0xffffffffu);
  EXPECT_EQ(rec[1].addr[2], out + 4 * (32 + 2));
  EXPECT_EQ(run.read<std::uint32_t>("out", 2 * 32 + 7), 2u);  // lane 7, iteration 2
}

TEST(PtxInterpreter, BarrierMakesOtherWarpsSharedStoresVisible) {
  // 64 threads: t stores t in shared memory, then reads (t + 1) % 64; lane 31 of warp 0 reads warp 1's word.
  PtxRun run(ptx_module(kernel("rotate", R"(
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sm;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  add.s32 %r5, %r1, 1;
  and.b32 %r5, %r5, 63;
  shl.b32 %r6, %r5, 2;
  add.s32 %r6, %r3, %r6;
  ld.shared.u32 %r7, [%r6];
  st.global.u32 [%rd2], %r7;)",
                                       "  .shared .align 4 .b8 sm[256];\n")));
  const std::uint64_t out = run.buffer("out", 256);
  const auto rec = run.launch("rotate", {1, 1, 1}, {64, 1, 1}, {out});
  for (std::size_t t = 0; t < 64; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), (t + 1) % 64) << t;
  // Shared records carry offsets in the CTA's shared memory.
  ASSERT_EQ(rec.size(), 6u);
  EXPECT_EQ(rec[0].space, Space::Shared);
  EXPECT_EQ(rec[0].addr[3], 12u);
  EXPECT_EQ(rec[0].warp, 0u);
  // Warp 0 stops at the barrier until warp 1 arrives: both stores come before any load.
  EXPECT_EQ(rec[1].space, Space::Shared);
  EXPECT_EQ(rec[1].op, Op::Store);
  EXPECT_EQ(rec[1].warp, 1u);
}

TEST(PtxInterpreter, ShuffleDownReductionAndClampAtTheLastLane) {
  PtxRun run(ptx_module(kernel("reduce", R"(
  mov.u32 %r2, %r1;
  shfl.sync.down.b32 %r3|%p1, %r2, 16, 31, -1;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 8, 31, -1;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 4, 31, -1;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 2, 31, -1;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 1, 31, -1;
  add.s32 %r2, %r2, %r3;
  st.global.u32 [%rd2], %r2;
  selp.u32 %r4, 1, 0, %p1;
  st.global.u32 [%rd2+128], %r4;)")));
  run.buffer("out", 256);
  run.launch("reduce", {1, 1, 1}, {32, 1, 1}, {run.state->memory.allocation("out")->base});
  EXPECT_EQ(run.read<std::uint32_t>("out", 0), 496u);  // 0 + 1 + ... + 31
  // Lane 31's sources lie past the clamp: it adds its own value five times.
  EXPECT_EQ(run.read<std::uint32_t>("out", 31), 31u * 32u);
  // The predicate of the first shuffle: lanes 0-15 had a source lane.
  EXPECT_EQ(run.read<std::uint32_t>("out", 32 + 15), 1u);
  EXPECT_EQ(run.read<std::uint32_t>("out", 32 + 16), 0u);
}

TEST(PtxInterpreter, BallotAndVotesOverTheActiveLanes) {
  PtxRun run(ptx_module(kernel("vote", R"(
  setp.lt.u32 %p1, %r1, 5;
  vote.sync.ballot.b32 %r2, %p1, -1;
  vote.sync.any.pred %p2, %p1, -1;
  vote.sync.all.pred %p3, %p1, -1;
  selp.u32 %r3, 1, 0, %p2;
  selp.u32 %r4, 1, 0, %p3;
  activemask.b32 %r5;
  st.global.u32 [%rd2], %r2;
  st.global.u32 [%rd2+128], %r3;
  st.global.u32 [%rd2+256], %r4;
  st.global.u32 [%rd2+384], %r5;)")));
  const std::uint64_t out = run.buffer("out", 512);
  run.launch("vote", {1, 1, 1}, {20, 1, 1}, {out});  // a partial warp: lanes 20-31 do not exist
  EXPECT_EQ(run.read<std::uint32_t>("out", 3), 0x1fu);
  EXPECT_EQ(run.read<std::uint32_t>("out", 32 + 3), 1u);
  EXPECT_EQ(run.read<std::uint32_t>("out", 64 + 3), 0u);
  EXPECT_EQ(run.read<std::uint32_t>("out", 96 + 3), 0xfffffu);
}

TEST(PtxInterpreter, AtomicsSerialiseInWarpThenLaneOrderAndUnusedResultsAreReductions) {
  const std::string text = ptx_module(kernel("counted", R"(
  ld.param.u64 %rd6, [out];
  add.s64 %rd7, %rd6, 4096;
  atom.global.add.u32 %r2, [%rd7], 1;
  st.global.u32 [%rd2], %r2;)") + kernel("uncounted", R"(
  add.s64 %rd7, %rd1, 4096;
  atom.global.add.u32 %r2, [%rd7], 1;)"));
  PtxRun run(text);
  const std::uint64_t out = run.buffer("out", 8192);
  const auto rec = run.launch("counted", {2, 1, 1}, {64, 1, 1}, {out});
  // CTA 0 runs before CTA 1, warp 0 before warp 1, lane 0 before lane 1: CTA 1's thread t saw 64 + t,
  // and wrote the same slot as CTA 0's thread t, later.
  for (std::size_t t = 0; t < 64; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), 64 + t);
  EXPECT_EQ(run.read<std::uint32_t>("out", 1024), 128u);
  ASSERT_FALSE(rec.empty());
  EXPECT_EQ(rec[0].op, Op::Atomic);
  EXPECT_EQ(rec[0].atomic_op, AtomicOp::Add);
  EXPECT_EQ(rec[0].addr[7], out + 4096);
  const auto red = run.launch("uncounted", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_EQ(red.size(), 1u);
  EXPECT_EQ(red[0].op, Op::Reduction);  // ptxas emits RED for an atom whose result is unused
  EXPECT_EQ(run.read<std::uint32_t>("out", 1024), 160u);
}

TEST(PtxInterpreter, CallsPassParametersAndReturnValuesPerLane) {
  const std::string text = ptx_module(R"(
.func (.param .b32 retval) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [retval], %r2;
  ret;
}
)" + kernel("caller", R"(
  and.b32 %r5, %r1, 1;
  setp.eq.s32 %p1, %r5, 1;
  {
  .param .b32 p0;
  st.param.b32 [p0], %r1;
  .param .b32 r0;
  @%p1 call.uni (r0), twice, (p0);
  ld.param.b32 %r2, [r0];
  }
  st.global.u32 [%rd2], %r2;)"));
  PtxRun run(text);
  const std::uint64_t out = run.buffer("out", 128);
  run.launch("caller", {1, 1, 1}, {32, 1, 1}, {out});
  for (std::size_t t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), t % 2 ? 2 * t : 0u) << t;
}

TEST(PtxInterpreter, LocalAndGenericAccessesCarryWindowOffsets) {
  PtxRun run(ptx_module(kernel("locals", R"(
  mov.u64 %rd4, depot;
  st.local.u32 [%rd4+4], %r1;
  ld.local.u32 %r2, [%rd4+4];
  cvta.local.u64 %rd5, %rd4;
  ld.u32 %r3, [%rd5+4];
  mov.u32 %r6, sm;
  cvt.u64.u32 %rd6, %r6;
  cvta.shared.u64 %rd7, %rd6;
  st.u32 [%rd7+8], %r1;
  add.s32 %r3, %r3, %r2;
  st.global.u32 [%rd2], %r3;)",
                                       "  .local .align 4 .b8 depot[16];\n  .shared .align 4 .b8 sm[64];\n")));
  const std::uint64_t out = run.buffer("out", 128);
  const auto rec = run.launch("locals", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_EQ(rec.size(), 5u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(rec[static_cast<std::size_t>(i)].space, Space::Local) << i;
    EXPECT_EQ(rec[static_cast<std::size_t>(i)].addr[9], 4u) << i;  // the same per-thread offset in every lane
  }
  EXPECT_EQ(rec[3].space, Space::Shared);  // a generic store into the shared window
  EXPECT_EQ(rec[3].addr[0], 8u);
  EXPECT_EQ(rec[4].space, Space::Global);
  for (std::size_t t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), 2 * t);
}

TEST(PtxInterpreter, CpAsyncCopiesAtOnceAndRecordsBothSides) {
  // 32 threads copy 16 B each from in + 16 t into shared memory, then read it back reversed.
  PtxRun run(ptx_module(R"(.visible .entry cp(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 sm[512];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd4, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd4, %rd5;
  cp.async.cg.shared.global [%r4], [%rd6], 16, 16;
  cp.async.commit_group;
  cp.async.wait_group 0;
  bar.sync 0;
  sub.s32 %r5, 31, %r1;
  shl.b32 %r5, %r5, 4;
  add.s32 %r5, %r2, %r5;
  ld.shared.u32 %r6, [%r5];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 128), in = run.buffer("in", 512);
  for (std::size_t i = 0; i < 128; ++i) run.write<std::uint32_t>("in", i, static_cast<std::uint32_t>(i));
  const auto rec = run.launch("cp", {1, 1, 1}, {32, 1, 1}, {out, in});
  // The LDGSTS is two records (types.hpp Op::AsyncCopy): the global read, then the shared write.
  ASSERT_EQ(rec.size(), 4u);
  EXPECT_EQ(rec[0].space, Space::Global);
  EXPECT_EQ(rec[0].op, Op::AsyncCopy);
  EXPECT_EQ(rec[0].size, 16u);
  EXPECT_EQ(rec[0].cache, CacheOp::Cg);
  EXPECT_EQ(rec[0].addr[3], in + 48);
  EXPECT_EQ(rec[1].space, Space::Shared);
  EXPECT_EQ(rec[1].op, Op::AsyncCopy);
  EXPECT_EQ(rec[1].cache, CacheOp::Cg);
  EXPECT_EQ(rec[1].pc, rec[0].pc);
  EXPECT_EQ(rec[1].addr[3] - rec[1].addr[0], 48u);
  EXPECT_EQ(rec[2].op, Op::Load);  // ld.shared
  for (std::size_t t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), 4 * (31 - t));
}

// .L2::cache_hint adds a cache-policy operand at the end (PTX ISA cp.async): not a source size, so a
// policy of 0 still copies all 16 bytes; with a src-size before it, the size counts.
TEST(PtxInterpreter, CpAsyncCacheHintIsNotASourceSize) {
  PtxRun run(ptx_module(R"(.visible .entry cp(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 sm[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd4, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  add.s32 %r5, %r4, 512;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd4, %rd5;
  mov.u64 %rd7, 0;
  cp.async.cg.shared.global.L2::cache_hint [%r4], [%rd6], 16, %rd7;
  cp.async.cg.shared.global.L2::cache_hint [%r5], [%rd6], 16, 4, %rd7;
  cp.async.wait_all;
  ld.shared.u32 %r6, [%r4+12];
  ld.shared.u32 %r7, [%r5+12];
  add.u32 %r6, %r6, %r7;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 128), in = run.buffer("in", 512);
  for (std::size_t i = 0; i < 128; ++i) run.write<std::uint32_t>("in", i, static_cast<std::uint32_t>(i + 1));
  const auto rec = run.launch("cp", {1, 1, 1}, {32, 1, 1}, {out, in});
  ASSERT_GE(rec.size(), 4u);
  EXPECT_EQ(rec[0].active.bits(), 0xffffffffu);  // every lane read
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), 4 * t + 4) << t;  // word 3; 0
}

// PTX ISA cp.async: src-size below cp-size reads that many bytes and zero-fills the rest; the ignore-src
// predicate, set, reads nothing. A lane that reads nothing is not in the global record (the H100 sends no
// request for a warp whose lanes all zero-fill: validation/h100/async_probe zfill_*).
TEST(PtxInterpreter, CpAsyncZeroFillsAndLeavesNonReadingLanesOutOfTheRead) {
  PtxRun run(ptx_module(R"(.visible .entry cp(.param .u64 out, .param .u64 in)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 sm[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd4, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  add.s32 %r9, %r4, 512;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd4, %rd5;
  and.b32 %r5, %r1, 1;
  mul.lo.u32 %r6, %r5, 8;
  cp.async.ca.shared.global [%r4], [%rd6], 16, %r6;
  setp.ne.u32 %p1, %r5, 0;
  cp.async.ca.shared.global [%r9], [%rd6], 16, %p1;
  cp.async.wait_all;
  ld.shared.u32 %r7, [%r4+4];
  ld.shared.u32 %r8, [%r9];
  add.u32 %r10, %r7, %r8;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r10;
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 128), in = run.buffer("in", 512);
  for (std::size_t i = 0; i < 128; ++i) run.write<std::uint32_t>("in", i, static_cast<std::uint32_t>(i + 1));
  const auto rec = run.launch("cp", {1, 1, 1}, {32, 1, 1}, {out, in});
  ASSERT_EQ(rec.size(), 7u);
  // src-size 8 on odd lanes, 0 on even ones: only odd lanes read.
  EXPECT_EQ(rec[0].space, Space::Global);
  EXPECT_EQ(rec[0].active.bits(), 0xaaaaaaaau);
  EXPECT_EQ(rec[1].space, Space::Shared);
  EXPECT_EQ(rec[1].active.bits(), 0xffffffffu);
  // ignore-src set on odd lanes: only even lanes read.
  EXPECT_EQ(rec[2].active.bits(), 0x55555555u);
  EXPECT_EQ(rec[3].active.bits(), 0xffffffffu);
  for (std::uint32_t t = 0; t < 32; ++t) {
    const std::uint32_t second_word = (t & 1) ? 4 * t + 2 : 0;  // bytes 4-7: read where src-size is 8
    const std::uint32_t first_word = (t & 1) ? 0 : 4 * t + 1;   // ignore-src: zeros where set
    EXPECT_EQ(run.read<std::uint32_t>("out", t), second_word + first_word) << t;
  }
}

TEST(PtxInterpreter, GenericAtomicsInSharedMemoryStayAtomicsAndConstantMemoryIsReadOnly) {
  const std::string text = ptx_module(R"(.const .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0};
.visible .entry generic_atom()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 sm[128];
  mov.u32 %r1, sm;
  cvt.u64.u32 %rd1, %r1;
  cvta.shared.u64 %rd2, %rd1;
  atom.add.u32 %r2, [%rd2], 1;
  ret;
}
.visible .entry const_write(.param .u32 store)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  ld.param.u32 %r3, [store];
  setp.ne.u32 %p1, %r3, 0;
  .reg .b64 %rd<4>;
  mov.u64 %rd1, table;
  cvta.const.u64 %rd2, %rd1;
  ld.u32 %r1, [%rd2+4];
  @%p1 st.u32 [%rd2], %r1;
  ret;
}
)");
  PtxRun run(text);
  const auto rec = run.launch("generic_atom", {1, 1, 1}, {32, 1, 1}, {});
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].space, Space::Shared);
  EXPECT_EQ(rec[0].op, Op::Atomic);  // its result is unused, but shared memory has no RED
  // A generic load through the constant window reads the initialiser's second word.
  const auto load = run.launch("const_write", {1, 1, 1}, {32, 1, 1}, {0});
  ASSERT_EQ(load.size(), 1u);
  EXPECT_EQ(load[0].space, Space::Const);
  EXPECT_EQ(load[0].addr[0], 4u);
  try {
    run.launch("const_write", {1, 1, 1}, {32, 1, 1}, {1});
    FAIL() << "wrote";
  } catch (const ptx::PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("a write to constant memory"), std::string::npos) << e.what();
  }
}

TEST(PtxInterpreter, HalvesReductionsAndMatches) {
  PtxRun run(ptx_module(kernel("halves", R"(
  mov.b16 %rs1, 0x3C00;
  mov.b16 %rs2, 0x4000;
  add.f16 %rs3, %rs1, %rs2;
  neg.f16 %rs4, %rs1;
  mov.b32 %r3, 0x40003C00;
  mov.b32 %r4, 0x42004000;
  mov.b32 %r5, 0x3C003C00;
  fma.rn.f16x2 %r2, %r3, %r4, %r5;
  cvt.rn.bf16.f32 %rs5, 0f3FC00000;
  cvt.rn.f16x2.f32 %r6, 0f3F800000, 0f40000000;
  redux.sync.add.u32 %r7, %r1, -1;
  sub.s32 %r8, %r1, 16;
  redux.sync.max.s32 %r8, %r8, -1;
  and.b32 %r9, %r1, 3;
  match.any.sync.b32 %r10, %r9, -1;
  match.all.sync.b32 %r11|%p1, 7, -1;
  selp.u32 %r12, 1, 0, %p1;
  st.global.u16 [%rd1+0], %rs3;
  st.global.u16 [%rd1+2], %rs4;
  st.global.u32 [%rd1+4], %r2;
  st.global.u16 [%rd1+8], %rs5;
  st.global.u32 [%rd1+12], %r6;
  st.global.u32 [%rd2+128], %r7;
  st.global.u32 [%rd2+256], %r8;
  st.global.u32 [%rd2+384], %r10;
  st.global.u32 [%rd2+512], %r11;
  st.global.u32 [%rd2+640], %r12;)",
                                       "  .reg .b16 %rs<8>;\n")));
  const std::uint64_t out = run.buffer("out", 1024);
  run.launch("halves", {1, 1, 1}, {32, 1, 1}, {out});
  EXPECT_EQ(run.read<std::uint16_t>("out", 0), 0x4200u);     // 1 + 2 = 3 in half precision
  EXPECT_EQ(run.read<std::uint16_t>("out", 1), 0xbc00u);     // -1
  EXPECT_EQ(run.read<std::uint32_t>("out", 1), 0x47004200u); // per half: 2 * 3 + 1 = 7, 1 * 2 + 1 = 3
  EXPECT_EQ(run.read<std::uint16_t>("out", 4), 0x3fc0u);     // 1.5 in bfloat16
  EXPECT_EQ(run.read<std::uint32_t>("out", 3), 0x3c004000u); // a to the upper half, b to the lower
  EXPECT_EQ(run.read<std::uint32_t>("out", 32 + 5), 496u);   // every lane gets the warp's sum
  EXPECT_EQ(run.read<std::uint32_t>("out", 64 + 5), 15u);    // max(t - 16)
  EXPECT_EQ(run.read<std::uint32_t>("out", 96 + 5), 0x22222222u);  // lanes with t & 3 == 1
  EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 5), 0xffffffffu);
  EXPECT_EQ(run.read<std::uint32_t>("out", 160 + 5), 1u);
}

TEST(PtxInterpreter, InlineAsmRegistersAndReservedSharedMemory) {
  // nvcc -G: an inline-asm block names registers without '%' and the CTA's reserved shared memory
  // (cooperative groups), which lies after the kernel's own: 100 bytes of sm, aligned to 16 -> 112.
  PtxRun run(ptx_module(kernel("reserved", R"(
  {
  .reg .u32 start;
  .reg .u64 extended;
  mov.u32 start, %reserved_smem_offset_begin;
  cvt.u64.u32 extended, start;
  cvta.shared.u64 %rd4, extended;
  }
  st.u32 [%rd4], %r1;
  mov.u32 %r2, sm;
  st.shared.u8 [%r2+99], %r1;)",
                                       "  .shared .align 4 .b8 sm[100];\n")));
  const auto rec = run.launch("reserved", {1, 1, 1}, {32, 1, 1}, {0});
  ASSERT_EQ(rec.size(), 2u);
  EXPECT_EQ(rec[0].space, Space::Shared);
  EXPECT_EQ(rec[0].addr[0], 112u);
  EXPECT_EQ(rec[1].addr[0], 99u);
}

TEST(PtxInterpreter, IntegerAndFloatRules) {
  // One thread writes each result to out[k]; expected values from the PTX ISA's definitions.
  PtxRun run(ptx_module(kernel("arith", R"(
  cvt.rzi.s32.f32 %r2, 0f4F32D05E;
  st.global.u32 [%rd1+0], %r2;
  cvt.rzi.s32.f32 %r2, 0f7FC00000;
  st.global.u32 [%rd1+4], %r2;
  cvt.rni.s32.f32 %r2, 0f40200000;
  st.global.u32 [%rd1+8], %r2;
  mul.hi.u32 %r2, -1, -1;
  st.global.u32 [%rd1+12], %r2;
  mul.hi.s32 %r2, -2, 3;
  st.global.u32 [%rd1+16], %r2;
  mov.u32 %r3, 33;
  shl.b32 %r2, 1, %r3;
  st.global.u32 [%rd1+20], %r2;
  shr.s32 %r2, -8, 40;
  st.global.u32 [%rd1+24], %r2;
  bfe.u32 %r2, 0xABCD1234, 8, 8;
  st.global.u32 [%rd1+28], %r2;
  bfe.s32 %r2, 0x8000, 12, 4;
  st.global.u32 [%rd1+32], %r2;
  prmt.b32 %r2, 0x33221100, 0x77665544, 0x5140;
  st.global.u32 [%rd1+36], %r2;
  min.f32 %r2, 0f7FC00000, 0f3F800000;
  st.global.u32 [%rd1+40], %r2;
  mov.u32 %r4, 0;
  div.u32 %r2, 7, %r4;
  st.global.u32 [%rd1+44], %r2;
  brev.b32 %r2, 1;
  st.global.u32 [%rd1+48], %r2;
  clz.b32 %r2, 1;
  st.global.u32 [%rd1+52], %r2;
  popc.b32 %r2, 0xF0F0;
  st.global.u32 [%rd1+56], %r2;
  add.sat.s32 %r2, 0x7FFFFFFF, 1;
  st.global.u32 [%rd1+60], %r2;
  mul.wide.s32 %rd8, -3, 5;
  st.global.u64 [%rd1+64], %rd8;
  cvt.u32.u16 %r2, 0xFFFF1;
  st.global.u32 [%rd1+72], %r2;
  cvt.s32.s8 %r2, 0x80;
  st.global.u32 [%rd1+76], %r2;
  cvt.sat.u8.s32 %r2, -5;
  st.global.u32 [%rd1+80], %r2;
  cvt.rn.f32.s32 %r2, 16777217;
  st.global.u32 [%rd1+84], %r2;
  fma.rn.f32 %r2, 0f40000000, 0f40400000, 0f3F800000;
  st.global.u32 [%rd1+88], %r2;
  lop3.b32 %r2, 0xF0, 0xCC, 0xAA, 0x80;
  st.global.u32 [%rd1+92], %r2;
  shf.l.wrap.b32 %r2, 0x80000000, 1, 1;
  st.global.u32 [%rd1+96], %r2;)")));
  const std::uint64_t out = run.buffer("out", 128);
  run.launch("arith", {1, 1, 1}, {1, 1, 1}, {out});
  auto at = [&](std::size_t k) { return run.read<std::uint32_t>("out", k); };
  EXPECT_EQ(at(0), 0x7fffffffu);  // 3e9 clamps to INT_MAX
  EXPECT_EQ(at(1), 0u);           // NaN converts to 0
  EXPECT_EQ(at(2), 2u);           // 2.5 rounds to the even 2
  EXPECT_EQ(at(3), 0xfffffffeu);  // (2^32-1)^2 >> 32
  EXPECT_EQ(at(4), 0xffffffffu);  // -6 >> 32
  EXPECT_EQ(at(5), 0u);           // shifts past the width give 0
  EXPECT_EQ(at(6), 0xffffffffu);  // ... or the sign
  EXPECT_EQ(at(7), 0x12u);
  EXPECT_EQ(at(8), 0xfffffff8u);  // the field's top bit extends
  EXPECT_EQ(at(9), 0x55114400u);  // bytes a0, b0, a1, b1
  EXPECT_EQ(at(10), 0x3f800000u); // min(NaN, 1) = 1
  EXPECT_EQ(at(11), 0xffffffffu);
  EXPECT_EQ(at(12), 0x80000000u);
  EXPECT_EQ(at(13), 31u);
  EXPECT_EQ(at(14), 8u);
  EXPECT_EQ(at(15), 0x7fffffffu);
  EXPECT_EQ(run.read<std::uint64_t>("out", 8), static_cast<std::uint64_t>(-15));
  EXPECT_EQ(at(18), 0xfff1u);      // a 16-bit source: the immediate's low 16 bits
  EXPECT_EQ(at(19), 0xffffff80u);  // sign-extended from 8 bits
  EXPECT_EQ(at(20), 0u);           // .sat clamps to the destination's range
  EXPECT_EQ(at(21), 0x4b800000u);  // 2^24 + 1 rounds to 2^24
  EXPECT_EQ(at(22), 0x40e00000u);  // 2 * 3 + 1 = 7
  EXPECT_EQ(at(23), 0x80u);        // lop3 0x80 = a & b & c
  EXPECT_EQ(at(24), 3u);           // shf.l: (hi << 1) | (lo >> 31) = 2 | 1
}

TEST(PtxInterpreter, FaultsNameTheLineTheCtaAndTheThread) {
  const std::string text = ptx_module(kernel("oob", "  st.global.u32 [%rd2], %r1;") + kernel("misaligned", "  st.global.u32 [%rd2+2], %r1;") +
                                      kernel("spin", "$L:\n  bra.uni $L;") + kernel("trapper", "  trap;"));
  PtxRun run(text);
  const std::uint64_t out = run.buffer("out", 128);
  try {
    run.launch("oob", {1, 1, 1}, {64, 1, 1}, {out});
    FAIL() << "no fault";
  } catch (const ptx::PtxError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("test.ptx:"), std::string::npos) << m;
    EXPECT_NE(m.find("thread (32,0,0)"), std::string::npos) << m;
    EXPECT_NE(m.find("0 bytes past the end of out"), std::string::npos) << m;
  }
  EXPECT_THROW(
      {
        try {
          run.launch("misaligned", {1, 1, 1}, {32, 1, 1}, {out});
        } catch (const ptx::PtxError& e) {
          EXPECT_NE(std::string(e.what()).find("misaligned"), std::string::npos) << e.what();
          throw;
        }
      },
      ptx::PtxError);
  EXPECT_THROW(
      {
        try {
          run.launch("spin", {1, 1, 1}, {32, 1, 1}, {out}, 1000);
        } catch (const ptx::PtxError& e) {
          EXPECT_NE(std::string(e.what()).find("did not finish within 1000"), std::string::npos) << e.what();
          throw;
        }
      },
      ptx::PtxError);
  EXPECT_THROW(run.launch("trapper", {1, 1, 1}, {32, 1, 1}, {out}), ptx::PtxError);
}

TEST(PtxInterpreter, UnsupportedInstructionsAreRefusedAtLaunchNotAtParse) {
  // ldmatrix of sm_100's 16x16 8-bit matrices: not run (the m8n8 .b16 forms are).
  const std::string text = ptx_module(kernel("texture", "  ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r2, %r3}, [%r1];") +
                                      kernel("plain", "  st.global.u32 [%rd2], %r1;"));
  PtxRun run(text);  // parses
  const std::uint64_t out = run.buffer("out", 128);
  run.launch("plain", {1, 1, 1}, {32, 1, 1}, {out});  // the other kernel runs
  try {
    run.launch("texture", {1, 1, 1}, {32, 1, 1}, {out});
    FAIL() << "ran";
  } catch (const ptx::PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("line 16: 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8'"), std::string::npos) << e.what();
  }
}

// ldmatrix (PTX ISA 9.7.14.5.15): lane r of the first 8 gives the address of row r of an 8x8 matrix of
// 16-bit elements; thread t receives elements (t / 4, 2 (t % 4)) and (t / 4, 2 (t % 4) + 1), with .trans
// elements (2 (t % 4), t / 4) and (2 (t % 4) + 1, t / 4). Element h of the tile below holds h. The second
// takes generic addresses (no .shared), which land in the shared window.
TEST(PtxInterpreter, LdmatrixGivesEachThreadItsPairOfElements) {
  PtxRun run(ptx_module(".shared .align 16 .b8 tile[128];\n" + kernel("ldsm", R"(
  mul.lo.u32 %r2, %r1, 2;
  add.u32 %r3, %r2, 1;
  shl.b32 %r3, %r3, 16;
  or.b32 %r2, %r2, %r3;
  mov.u32 %r4, tile;
  shl.b32 %r5, %r1, 2;
  add.u32 %r6, %r4, %r5;
  st.shared.u32 [%r6], %r2;
  bar.sync 0;
  and.b32 %r7, %r1, 7;
  shl.b32 %r7, %r7, 4;
  add.u32 %r8, %r4, %r7;
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r9}, [%r8];
  cvt.u64.u32 %rd6, %r8;
  cvta.shared.u64 %rd7, %rd6;
  ldmatrix.sync.aligned.m8n8.x1.trans.b16 {%r10}, [%rd7];
  st.global.u32 [%rd2], %r9;
  st.global.u32 [%rd2+128], %r10;)")));
  const std::uint64_t out = run.buffer("out", 256);
  const auto rec = run.launch("ldsm", {1, 1, 1}, {32, 1, 1}, {out});
  for (std::uint32_t t = 0; t < 32; ++t) {
    const std::uint32_t h = (t / 4) * 8 + 2 * (t % 4);
    EXPECT_EQ(run.read<std::uint32_t>("out", t), h | (h + 1) << 16) << t;
    const std::uint32_t lo = 2 * (t % 4) * 8 + t / 4, hi = (2 * (t % 4) + 1) * 8 + t / 4;
    EXPECT_EQ(run.read<std::uint32_t>("out", 32 + t), lo | hi << 16) << t;
  }
  // Records: the store of the tile, then each ldmatrix with the 8 row lanes, 16 bytes each.
  ASSERT_EQ(rec.size(), 5u);
  for (int i : {1, 2}) {
    EXPECT_EQ(rec[static_cast<std::size_t>(i)].op, Op::LoadMatrix);
    EXPECT_EQ(rec[static_cast<std::size_t>(i)].space, Space::Shared);
    EXPECT_EQ(rec[static_cast<std::size_t>(i)].size, 16);
    EXPECT_EQ(rec[static_cast<std::size_t>(i)].active.bits(), 0xffu);
    EXPECT_EQ(rec[static_cast<std::size_t>(i)].addr[7], rec[0].addr[0] + 7 * 16);
  }
  // Half a warp cannot run it (.sync.aligned): one error naming the instruction.
  try {
    run.launch("ldsm", {1, 1, 1}, {16, 1, 1}, {out});
    FAIL() << "ran";
  } catch (const ptx::PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("needs all 32 lanes of the warp"), std::string::npos) << e.what();
  }
}

// mma.sync m16n8k8 .f32.f16.f16.f32 (PTX ISA 9.7.14.5.14): with B the identity, D = A + C, and the D
// fragment of thread t (rows t / 4 and t / 4 + 8, columns 2 (t % 4) and 2 (t % 4) + 1) holds the same
// places as its own A registers: a0's two halves, then a1's.
TEST(PtxInterpreter, MmaWithAnIdentityReturnsEachThreadsOwnA) {
  PtxRun run(ptx_module(kernel("mma", R"(
  ld.global.u32 %r2, [%rd2];
  ld.global.u32 %r3, [%rd2+128];
  ld.global.u32 %r4, [%rd2+256];
  mov.f32 %f1, 0f3F000000;
  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r2, %r3}, {%r4}, {%f1, %f1, %f1, %f1};
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd1, %rd4;
  st.global.v4.f32 [%rd5+512], {%f2, %f3, %f4, %f5};)", "  .reg .f32 %f<8>;\n")));
  run.buffer("out", 1024);
  auto f16 = [](int v) {  // small integers in IEEE half precision
    if (v == 0) return std::uint32_t{0};
    const std::uint32_t sign = v < 0 ? 0x8000u : 0u, m = static_cast<std::uint32_t>(v < 0 ? -v : v);
    const int e = 31 - std::countl_zero(m);
    return sign | static_cast<std::uint32_t>(e + 15) << 10 | ((m << (10 - e)) & 0x3ffu);
  };
  for (std::uint32_t t = 0; t < 32; ++t) {
    const int v = static_cast<int>(2 * t + 1);
    run.write<std::uint32_t>("out", t, f16(v) | f16(v + 1) << 16);           // a0: row t/4
    run.write<std::uint32_t>("out", 32 + t, f16(-v) | f16(-v - 1) << 16);    // a1: row t/4 + 8
    const std::uint32_t g = t / 4, q = t % 4;                                 // b0: (k = 2q + j, n = g)
    run.write<std::uint32_t>("out", 64 + t, (2 * q == g ? f16(1) : 0u) | (2 * q + 1 == g ? f16(1) : 0u) << 16);
  }
  run.launch("mma", {1, 1, 1}, {32, 1, 1}, {run.state->memory.allocation("out")->base});
  for (std::uint32_t t = 0; t < 32; ++t) {
    const float v = static_cast<float>(2 * t + 1);
    EXPECT_EQ(run.read<float>("out", 128 + 4 * t), v + 0.5f) << t;
    EXPECT_EQ(run.read<float>("out", 128 + 4 * t + 1), v + 1.5f) << t;
    EXPECT_EQ(run.read<float>("out", 128 + 4 * t + 2), -v + 0.5f) << t;
    EXPECT_EQ(run.read<float>("out", 128 + 4 * t + 3), -v - 0.5f) << t;
  }
}

// An mma shape is read whole: m272n8k8 is not m16n8k8 in a byte, and m16n8k8x is no shape; both refused.
TEST(PtxInterpreter, MmaShapesAreReadWhole) {
  for (const char* shape : {"m272n8k8", "m16n8k8x"}) {
    const std::string mma = std::string("  mma.sync.aligned.") + shape +
                            ".row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, "
                            "{%f1, %f2, %f3, %f4};";
    PtxRun run(ptx_module(kernel("bad_mma", mma, "  .reg .f32 %f<8>;\n")));
    const std::uint64_t out = run.buffer("out", 128);
    try {
      run.launch("bad_mma", {1, 1, 1}, {32, 1, 1}, {out});
      FAIL() << shape << " ran";
    } catch (const ptx::PtxError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot run"), std::string::npos) << e.what();
    }
  }
}

TEST(PtxParser, ErrorsNameTheFileAndLine) {
  auto message = [](const std::string& text) {
    try {
      ptx::parse_module(text, "bad.ptx");
    } catch (const ptx::PtxError& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  EXPECT_EQ(message(ptx_module(".visible .entry k()\n{\n  mov.u32 %r1, 1;\n}\n")), "bad.ptx:7: unknown register %r1");
  EXPECT_EQ(message(ptx_module(".visible .entry k()\n{\n  bra $NOWHERE;\n}\n")), "bad.ptx:7: unknown label or name '$NOWHERE'");
  EXPECT_EQ(message(".version 8.0\n.bogus 1\n"), "bad.ptx:2: unknown directive '.bogus'");
  EXPECT_EQ(message(ptx_module(".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, 1\n}\n")),
            "bad.ptx:9: expected ',' or ';' after an operand of 'mov.u32', found '}'");
  EXPECT_EQ(message(ptx_module(".visible .entry k()\n{\n  ret;\n")), "bad.ptx:8: function k is not closed: expected '}'");
  EXPECT_EQ(message("/* open"), "bad.ptx:1: unterminated /* comment");
}

TEST(PtxParser, ReconvergenceIsTheImmediatePostDominator) {
  const auto m = ptx::parse_module(ptx_module(R"(.visible .entry k()
{
  .reg .pred %p<3>;
  @%p1 bra $A;
  @%p2 bra $B;
  bra.uni $C;
$A:
  bra.uni $C;
$B:
  bra.uni $C;
$C:
  @%p2 bra $D;
  ret;
$D:
  ret;
}
)"),
                                   "k.ptx");
  const auto& code = m.functions.at(0).code;
  // 0 and 1: every path reaches C (index 5) first; 5: one path returns at once, the other later:
  // they meet only at the exit.
  EXPECT_EQ(code[0].reconverge, 5u);
  EXPECT_EQ(code[1].reconverge, 5u);
  EXPECT_EQ(code[5].reconverge, UINT32_MAX);
}

TEST(PtxParser, SharedAtomicsKeepTheirResultAndAddsOfOneBecomePopcInc) {
  // ptxas: an unused global atom is a RED; shared memory has no RED (ATOMS ... RZ), and an add of 1 is
  // ATOMS.POPC.INC (validation/h100/suite/realistic.sass, r_histogram256_shared_atomics).
  const auto m = ptx::parse_module(ptx_module(R"(.visible .entry k()
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  atom.global.add.u32 %r1, [%rd1], 1;
  atom.shared.add.u32 %r2, [%r7], 1;
  atom.shared.add.u32 %r3, [%r7], %r6;
  atom.shared.add.u32 %r4, [%r7], 1;
  st.global.u32 [%rd1], %r4;
}
)"),
                                   "k.ptx");
  const auto& code = m.functions.at(0).code;
  EXPECT_TRUE(code[0].result_unused);
  EXPECT_FALSE(code[1].result_unused);
  EXPECT_EQ(code[1].atomic, AtomicOp::PopcInc);
  EXPECT_EQ(code[2].atomic, AtomicOp::Add);
  EXPECT_EQ(code[3].atomic, AtomicOp::Add);  // its result is read
}


// elect.sync d|p, membermask (CUTLASS's elect_one_sync before a bulk copy): the lowest active lane of
// membermask leads; every lane gets its lane id in d, the leader alone p. setmaxnreg (a register budget of
// warp-specialized kernels) changes nothing.
TEST(PtxInterpreter, ElectSyncPicksTheLowestActiveMember) {
  PtxRun run(ptx_module(R"(.visible .entry el(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 5;
  @!%p1 bra DONE;
  setmaxnreg.inc.sync.aligned.u32 232;
  elect.sync %r2|%p2, 0xfffffff0;
  selp.u32 %r3, 100, 0, %p2;
  add.u32 %r4, %r3, %r2;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
DONE:
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 128);
  run.launch("el", {1, 1, 1}, {32, 1, 1}, {out});
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), t < 5 ? 0u : t == 5 ? 105u : 5u) << t;
}


// bfind (PTX ISA 9.7.1.?; libcu++'s pipeline code uses bfind.shiftamt): the position of the most significant
// bit that differs from the sign, 0xffffffff where there is none; .shiftamt the left shift to the top.
TEST(PtxInterpreter, BfindFindsTheMostSignificantNonSignBit) {
  PtxRun run(ptx_module(R"(.visible .entry bf(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  bfind.u32 %r1, 65536;
  bfind.shiftamt.u32 %r2, 65536;
  bfind.u32 %r3, 0;
  bfind.s32 %r4, -1;
  bfind.s32 %r5, -2;
  bfind.s32 %r6, 2147483647;
  mov.u64 %rd2, 1099511627776;
  bfind.u64 %r7, %rd2;
  bfind.shiftamt.s32 %r8, 1;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 32);
  run.launch("bf", {1, 1, 1}, {1, 1, 1}, {out});
  const std::uint32_t want[] = {16, 15, 0xffffffffu, 0xffffffffu, 0, 30, 40, 31};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(run.read<std::uint32_t>("out", i), want[i]) << i;
}


// bmsk (CUB's BlockRadixSort uses bmsk.clamp): b bits from bit a, as the PTX ISA's semantics compute it;
// the ISA's own example: bmsk.wrap 1, 2 = 0x6.
TEST(PtxInterpreter, BmskMakesTheIsasMasks) {
  PtxRun run(ptx_module(R"(.visible .entry bm(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  bmsk.wrap.b32 %r1, 1, 2;
  bmsk.clamp.b32 %r2, 32, 4;
  bmsk.wrap.b32 %r3, 32, 4;
  bmsk.clamp.b32 %r4, 28, 8;
  bmsk.wrap.b32 %r5, 5, 0;
  bmsk.clamp.b32 %r6, 0, 32;
  bmsk.clamp.b32 %r7, 4, 8;
  bmsk.wrap.b32 %r8, 4, 40;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 32);
  run.launch("bm", {1, 1, 1}, {1, 1, 1}, {out});
  const std::uint32_t want[] = {0x6u, 0u, 0xfu, 0xf0000000u, 0u, 0xffffffffu, 0xff0u, 0xff0u};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(run.read<std::uint32_t>("out", i), want[i]) << i;
}


// set (PTX ISA 9.7.3; cuda_fp16's h2exp compares with set.eq.f16x2.f16x2): true is all ones for an integer
// destination, 1.0 for a float one, and half by half for pairs of halves.
TEST(PtxInterpreter, SetAnswersInTheDestinationsType) {
  PtxRun run(ptx_module(R"(.visible .entry st(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  setp.ne.u32 %p1, 0, 0;
  set.lt.u32.f32 %r1, 0f3F800000, 0f40000000;
  set.ge.f32.s32 %r2, -1, 3;
  set.gt.f32.f32 %r3, 0f40400000, 0f40000000;
  mov.b32 %r9, 0x3c004000;
  mov.b32 %r10, 0x3c003c00;
  set.eq.f16x2.f16x2 %r4, %r9, %r10;
  set.ne.u32.f16x2 %r5, %r9, %r10;
  set.lt.and.u32.s32 %r6, 1, 2, %p1;
  set.lt.or.u32.s32 %r7, 2, 1, !%p1;
  set.nan.u32.f32 %r8, 0f7FC00000, 0f00000000;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 32);
  run.launch("st", {1, 1, 1}, {1, 1, 1}, {out});
  const std::uint32_t want[] = {0xffffffffu, 0u, 0x3f800000u, 0x3c000000u, 0x0000ffffu, 0u, 0xffffffffu, 0xffffffffu};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(run.read<std::uint32_t>("out", i), want[i]) << i;
}


// cuda_fp16.hpp's inline asm declares registers with the type attached and without a '%':
// `{.reg.b16 hl, hu; mov.b32 {hl, hu}, %r;}`.
TEST(PtxInterpreter, RegisterDeclarationsWithTheTypeAttached) {
  PtxRun run(ptx_module(R"(.visible .entry sw(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.b32 %r1, 0x11112222;
  {
  .reg.b16 hl, hu;
  mov.b32 {hl, hu}, %r1;
  mov.b32 %r2, {hu, hl};
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 4);
  run.launch("sw", {1, 1, 1}, {1, 1, 1}, {out});
  EXPECT_EQ(run.read<std::uint32_t>("out", 0), 0x22221111u);
}


// dp2a (PTX ISA: a's two 16-bit halves times b's bytes 0-1 for .lo, 2-3 for .hi, plus c), worked by hand.
TEST(PtxInterpreter, Dp2aMultipliesHalvesByBytes) {
  PtxRun run(ptx_module(R"(.visible .entry dp(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.b32 %r1, 0x00030002;
  mov.b32 %r2, 0x04030201;
  dp2a.lo.u32.u32 %r3, %r1, %r2, 10;
  dp2a.hi.u32.u32 %r4, %r1, %r2, 10;
  mov.b32 %r5, 0xfffe0003;
  dp2a.lo.s32.s32 %r6, %r5, 0x000000ff, 0;
  st.global.v4.u32 [%rd1], {%r3, %r4, %r6, %r6};
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 16);
  run.launch("dp", {1, 1, 1}, {1, 1, 1}, {out});
  EXPECT_EQ(run.read<std::uint32_t>("out", 0), 18u);           // 2 x 1 + 3 x 2 + 10
  EXPECT_EQ(run.read<std::uint32_t>("out", 1), 28u);           // 2 x 3 + 3 x 4 + 10
  EXPECT_EQ(run.read<std::uint32_t>("out", 2), 0xfffffffdu);   // 3 x -1 + -2 x 0
}


// fns: the PTX ISA's four examples on 0xaaaaaaaa, then offset 0, a search past the top, and the 3rd bit down.
TEST(PtxInterpreter, FnsFindsTheNthSetBit) {
  PtxRun run(ptx_module(R"(.visible .entry fn(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  fns.b32 %r1, 0xaaaaaaaa, 3, 1;
  fns.b32 %r2, 0xaaaaaaaa, 3, -1;
  fns.b32 %r3, 0xaaaaaaaa, 2, 1;
  fns.b32 %r4, 0xaaaaaaaa, 2, -1;
  fns.b32 %r5, 0xaaaaaaaa, 2, 0;
  fns.b32 %r6, 0xaaaaaaaa, 29, 3;
  fns.b32 %r7, 0xaaaaaaaa, 31, -3;
  fns.b32 %r8, 0xaaaaaaaa, 5, 0;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 32);
  run.launch("fn", {1, 1, 1}, {1, 1, 1}, {out});
  const std::uint32_t want[] = {3, 3, 3, 1, 0xffffffffu, 0xffffffffu, 27, 5};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(run.read<std::uint32_t>("out", i), want[i]) << i;
}

}  // namespace
}  // namespace warpscope::test
