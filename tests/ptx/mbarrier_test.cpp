// mbarrier objects in the interpreter (src/ptx/warp_mbarrier.cpp; PTX ISA 9.7.13.15): phases that complete
// when every expected arrival and every transaction byte is in, waits that let the other warps run, and the
// errors of a program that can never get past one. The H100's results for the same operations are checked
// in tests/validation/h100_barrier_probe_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "ptx/ptx_error.hpp"
#include "ptx/ptx_test_support.hpp"

namespace warpscope::test {
namespace {

// Warp 0 waits on phase 0 of a barrier that only warp 1's 32 arrivals complete, then reads what warp 1
// stored before arriving. Warp 0 runs first: its wait must give way to warp 1, or it spins forever.
// `expected`: the barrier's count (64 never completes: only warp 1 arrives).
std::string handoff(int expected) {
  return ptx_module(R"(.visible .entry handoff(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 words[32];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, bar;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra INITED;
  mbarrier.init.shared::cta.b64 [%r2], )" +
                    std::to_string(expected) + R"(;
INITED:
  bar.sync 0;
  shr.u32 %r3, %r1, 5;
  and.b32 %r4, %r1, 31;
  mov.u32 %r5, words;
  shl.b32 %r6, %r4, 2;
  add.s32 %r7, %r5, %r6;
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra WAIT;
  mul.lo.u32 %r8, %r4, 7;
  st.shared.u32 [%r7], %r8;
  mbarrier.arrive.release.cta.shared::cta.b64 %rd2, [%r2];
  bra.uni DONE;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;
  @!%p3 bra WAIT;
  ld.shared.u32 %r9, [%r7];
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r9;
DONE:
  ret;
}
)");
}

TEST(PtxMbarrier, AWaitGivesWayToTheWarpsThatArrive) {
  PtxRun run(handoff(32));
  const std::uint64_t out = run.buffer("out", 128);
  run.launch("handoff", {1, 1, 1}, {64, 1, 1}, {out});
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), 7 * t) << t;
}

TEST(PtxMbarrier, APhaseNoWarpCanCompleteIsADeadlock) {
  PtxRun run(handoff(64));
  const std::uint64_t out = run.buffer("out", 128);
  try {
    run.launch("handoff", {1, 1, 1}, {64, 1, 1}, {out});
    FAIL() << "no error";
  } catch (const ptx::PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("deadlock"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("mbarrier.try_wait"), std::string::npos) << e.what();
  }
}

// One warp: 32 arrivals on a barrier of 40 leave phase 0 open (test_wait false on every token, pending_count 8
// after the last); 8 more with a count of 1 each close it; a second arrival of every lane in phase 1 with
// count 2 would need 64 of 40, an error. expect_tx holds a phase open until complete_tx pays the bytes.
TEST(PtxMbarrier, PhasesCompleteOnArrivalsAndTransactionBytes) {
  PtxRun run(ptx_module(R"(.visible .entry phases(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, bar;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared.b64 [%r2], 40;
  mbarrier.arrive.shared.b64 %rd2, [%r2];
  mbarrier.test_wait.shared.b64 %p2, [%r2], %rd2;
  selp.u32 %r3, 1, 0, %p2;
  mbarrier.pending_count.b64 %r4, %rd2;
  setp.lt.u32 %p3, %r1, 8;
  @%p3 mbarrier.arrive.shared.b64 %rd3, [%r2], 1;
  mbarrier.test_wait.shared.b64 %p4, [%r2], %rd2;
  selp.u32 %r5, 1, 0, %p4;
  mbarrier.test_wait.parity.shared.b64 %p5, [%r2], 0;
  selp.u32 %r6, 1, 0, %p5;
  @%p1 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r2], 256;
  @%p3 mbarrier.arrive.shared.b64 %rd4, [%r2], 5;
  mbarrier.test_wait.parity.shared.b64 %p6, [%r2], 1;
  selp.u32 %r7, 1, 0, %p6;
  @%p1 mbarrier.complete_tx.shared::cta.b64 [%r2], 256;
  mbarrier.test_wait.parity.shared.b64 %p7, [%r2], 1;
  selp.u32 %r8, 1, 0, %p7;
  shl.b32 %r9, %r3, 1;
  or.b32 %r9, %r9, %r5;
  shl.b32 %r9, %r9, 1;
  or.b32 %r9, %r9, %r6;
  shl.b32 %r9, %r9, 1;
  or.b32 %r9, %r9, %r7;
  shl.b32 %r9, %r9, 1;
  or.b32 %r9, %r9, %r8;
  shl.b32 %r10, %r4, 8;
  or.b32 %r9, %r9, %r10;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r9;
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 128);
  run.launch("phases", {1, 1, 1}, {32, 1, 1}, {out});
  for (std::uint32_t t = 0; t < 32; ++t) {
    const auto v = run.read<std::uint32_t>("out", t);
    // Lane t's first arrival finds 40 - t pending; then: phase 0 not done (bit 4), done (3), parity 0 done (2);
    // phase 1 (40 = 8 x 5 arrivals, 256 bytes expected): not done before complete_tx (1), done after (0).
    EXPECT_EQ(v >> 8, 40 - t) << t;
    EXPECT_EQ(v & 0xffu, 0b01101u) << t;
  }
}

TEST(PtxMbarrier, UseBeforeInitAndTooManyArrivalsAreErrors) {
  const std::string uninit = ptx_module(R"(.visible .entry uninit()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .shared .align 8 .b64 bar;
  mov.u32 %r1, bar;
  mbarrier.arrive.shared.b64 %rd1, [%r1];
  ret;
}
)");
  PtxRun a(uninit);
  EXPECT_THROW(a.launch("uninit", {1, 1, 1}, {32, 1, 1}, {}), ptx::PtxError);
  const std::string over = ptx_module(R"(.visible .entry over()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .shared .align 8 .b64 bar;
  mov.u32 %r1, bar;
  mbarrier.init.shared.b64 [%r1], 4;
  mbarrier.arrive.shared.b64 %rd1, [%r1], 5;
  ret;
}
)");
  PtxRun b(over);
  try {
    b.launch("over", {1, 1, 1}, {1, 1, 1}, {});
    FAIL() << "no error";
  } catch (const ptx::PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("expects only 4 more"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpscope::test
