// wgmma.mma_async in the interpreter: hand-worked values through the A-register and D fragments, the records each
// warp issues, and the errors. The descriptor layouts: tests/ptx/wgmma_layout_test.cpp; every layout and form
// against the H100's results: tests/validation/h100_wgmma_probe_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "ptx/ptx_error.hpp"
#include "ptx_test_support.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope::test {
namespace {

// One warpgroup; B (8 x 16 .f16, 256 bytes) at shared 0 is all 1.0, so D's row r is the sum of A's row r. Lane t
// (g = t % 32 / 4) puts g + 1 in A registers 0 and 2 and g + 9 in 1 and 3: if A register i holds row g + 8 (i % 2)
// (mma.sync's A fragment) and D element e row g + 8 (e / 2), lane t's D is 16 (g + 1) twice, then 16 (g + 9) twice.
std::string kernel(const std::string& wgmma, const std::string& extra = "") {
  return R"(.visible .entry wg(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<16>;
  .reg .pred %p<4>;
  .shared .align 1024 .b8 smem[2048];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 64;
  mov.u32 %r2, 0x3c003c00;
  mul.lo.u32 %r3, %r1, 4;
  mov.u32 %r4, smem;
  add.u32 %r5, %r4, %r3;
  @%p1 st.shared.u32 [%r5], %r2;
  bar.sync 0;
  and.b32 %r6, %r1, 31;
  shr.u32 %r6, %r6, 2;
  add.u32 %r7, %r6, 1;
  add.u32 %r8, %r6, 9;
  cvt.rn.f32.u32 %f1, %r7;
  cvt.rn.f32.u32 %f2, %r8;
  cvt.rn.f16x2.f32 %r9, %f1, %f1;
  cvt.rn.f16x2.f32 %r10, %f2, %f2;
  cvt.u64.u32 %rd2, %r4;
  shr.u64 %rd2, %rd2, 4;
  or.b64 %rd3, %rd2, 0x0000001000080000;
  setp.ne.u32 %p2, %r1, 999;
  wgmma.fence.sync.aligned;
)" + extra + wgmma + R"(
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd1, %rd4;
  st.global.v4.f32 [%rd5], {%f4, %f5, %f6, %f7};
  ret;
}
)";
}
// B: K-major without swizzle, LBO 128 (bits 16-29: 8), SBO 256 (bits 32-45: 16): 0x0000001000080000 | start.
const std::string kRegA =
    "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, {%r9, %r10, %r9, %r10}, %rd3, %p2, 1, 1, 0;";

TEST(PtxInterpreter, WgmmaRowsAndColumnsFollowTheFragments) {
  PtxRun run(ptx_module(kernel(kRegA)));
  const std::uint64_t out = run.buffer("out", 128 * 16);
  const auto rec = run.launch("wg", {1, 1, 1}, {128, 1, 1}, {out});
  for (unsigned t = 0; t < 128; ++t) {
    const float g = static_cast<float>(t % 32 / 4);
    EXPECT_EQ(run.read<float>("out", 4 * t), 16 * (g + 1)) << t;
    EXPECT_EQ(run.read<float>("out", 4 * t + 1), 16 * (g + 1)) << t;
    EXPECT_EQ(run.read<float>("out", 4 * t + 2), 16 * (g + 9)) << t;
    EXPECT_EQ(run.read<float>("out", 4 * t + 3), 16 * (g + 9)) << t;
  }
  // One gmma record a warp: A is in registers, so only the first warp reads shared memory, all of B (8 x 32 B).
  std::vector<WarpAccess> gmma;
  for (const auto& r : rec)
    if (r.op == Op::GmmaRead) gmma.push_back(r);
  ASSERT_EQ(gmma.size(), 4u);
  for (std::size_t w = 0; w < 4; ++w) {
    EXPECT_EQ(gmma[w].warp, w);
    EXPECT_EQ(gmma[w].space, Space::Shared);
    EXPECT_EQ(gmma[w].active.bits(), kGmmaMask);
    EXPECT_EQ(gmma[w].addr[0], 0u);  // B's start: smem is the CTA's first shared byte
    EXPECT_EQ(gmma[w].addr[1], w == 0 ? 256u : 0u);
  }
}

// imm-scale-a -1 negates A; scale-d true adds D's registers (here 1.0 set before).
TEST(PtxInterpreter, WgmmaScalesAndAccumulates) {
  const std::string init = "  mov.f32 %f4, 0f3F800000;\n  mov.f32 %f5, 0f3F800000;\n  mov.f32 %f6, 0f3F800000;\n  mov.f32 %f7, 0f3F800000;\n";
  PtxRun run(ptx_module(kernel(
      "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, {%r9, %r10, %r9, %r10}, %rd3, %p2, -1, 1, 0;", init)));
  const std::uint64_t out = run.buffer("out", 128 * 16);
  run.launch("wg", {1, 1, 1}, {128, 1, 1}, {out});
  EXPECT_EQ(run.read<float>("out", 0), 1 - 16.0f);       // lane 0, g 0: 1 - 16 (0 + 1)
  EXPECT_EQ(run.read<float>("out", 4 * 37 + 3), 1 - 16.0f * 10);  // lane 37: g 1, row 9
}

std::string error_of(const std::string& wgmma, unsigned threads = 128) {
  try {
    PtxRun run(ptx_module(kernel(wgmma)));
    const std::uint64_t out = run.buffer("out", 128 * 16);
    run.launch("wg", {1, 1, 1}, {threads, 1, 1}, {out});
  } catch (const Error& e) {
    return e.what();
  }
  return "ran";
}

TEST(PtxInterpreter, WgmmaErrorsNameTheProblem) {
  EXPECT_EQ(error_of(kRegA), "ran");
  // The warp must be whole (.sync.aligned).
  EXPECT_NE(error_of(kRegA, 48).find("needs all 32 lanes"), std::string::npos);
  // A descriptor is one value for the warpgroup.
  EXPECT_NE(error_of("  cvt.u64.u32 %rd6, %r1;\n  add.s64 %rd3, %rd3, %rd6;\n" + kRegA).find("differs from lane 0's"), std::string::npos);
  // B past the CTA's shared memory (start 0x3fff0, the largest a descriptor holds).
  EXPECT_NE(error_of("  or.b64 %rd3, %rd3, 0x3fff;\n" + kRegA).find("B element (0, 0) at shared 0x3fff0 is past the CTA's"),
            std::string::npos);
  // Operands, checked when the module is read.
  EXPECT_NE(error_of("  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, {%r9, %r10, %r9, %r10}, %rd3, %p2, 1, 1;")
                .find("takes 7 operands"),
            std::string::npos);
  EXPECT_NE(error_of("  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5}, {%r9, %r10, %r9, %r10}, %rd3, %p2, 1, 1, 0;")
                .find("vector of 4 registers"),
            std::string::npos);
  EXPECT_NE(error_of("  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, {%r9, %r10, %r9, %r10}, %rd3, %p2, 2, 1, 0;")
                .find("must be 1 or -1"),
            std::string::npos);
  // Sparse wgmma and shapes PTX does not have are refused by name when the kernel would run.
  EXPECT_NE(error_of("  wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f4, %f5, %f6, %f7}, %rd3, %rd3, %rd3, 0, %p2, 1, 1, 0, 0;")
                .find("cannot run"),
            std::string::npos);
  EXPECT_NE(error_of("  wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, {%r9, %r10, %r9, %r10}, %rd3, %p2, 1, 1, 0;")
                .find("cannot run"),
            std::string::npos);
}

}  // namespace
}  // namespace warpscope::test
