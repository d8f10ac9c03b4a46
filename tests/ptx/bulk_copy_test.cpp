// cp.async.bulk in the interpreter (src/ptx/warp_bulk_copy.cpp; PTX ISA 9.7.9.25.4.1): the copy happens when the
// instruction runs, a global -> shared copy pays its bytes to its mbarrier, and each copy is one tma_ld / tma_st
// record holding its descriptor (types.hpp Op::BulkLoad). The H100's results: tests/validation/h100_barrier_probe_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "ptx/ptx_error.hpp"
#include "ptx/ptx_test_support.hpp"

namespace warpscope::test {
namespace {

// Thread 0 copies `bytes` bytes at in + `offset` into shared memory (expect_tx, then the copy); every thread waits
// for the phase, then writes shared word t to out[t]; then thread 0 copies words 0-63 back to out + 256.
std::string copier(const std::string& bytes, const std::string& offset, const std::string& extra = "") {
  return ptx_module(R"(.visible .entry copier(.param .u64 out, .param .u64 in)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  .shared .align 8 .b64 bar;
  .shared .align 128 .b8 buf[1024];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, bar;
  mov.u32 %r3, buf;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra WAIT;
  mbarrier.init.shared::cta.b64 [%r2], 1;
  fence.mbarrier_init.release.cluster;
  mov.u32 %r4, )" + bytes + R"(;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], %r4;
  add.s64 %rd3, %rd2, )" + offset + R"(;
  )" + extra + R"(cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd3], %r4, [%r2];
WAIT:
  bar.sync 0;
LOOP:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
  @!%p2 bra LOOP;
  shl.b32 %r5, %r1, 2;
  add.s32 %r6, %r3, %r5;
  ld.shared.u32 %r7, [%r6];
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r7;
  bar.sync 0;
  @%p1 bra DONE;
  fence.proxy.async.shared::cta;
  add.s64 %rd6, %rd1, 256;
  cp.async.bulk.global.shared::cta.bulk_group [%rd6], [%r3], 256;
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group 0;
DONE:
  ret;
}
)");
}

TEST(PtxBulkCopy, CopiesCompleteOnTheirMbarrierAndRecordADescriptor) {
  PtxRun run(copier("256", "16"));
  const std::uint64_t out = run.buffer("out", 1024), in = run.buffer("in", 1024);
  for (std::uint32_t i = 0; i < 256; ++i) run.write<std::uint32_t>("in", i, 1000 + i);
  const auto rec = run.launch("copier", {1, 1, 1}, {64, 1, 1}, {out, in});
  // Words 4.. of in (16 bytes in) to out[0..63] through shared memory, and back again to out + 256.
  for (std::uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(run.read<std::uint32_t>("out", t), 1004 + t) << t;
    EXPECT_EQ(run.read<std::uint32_t>("out", 64 + t), 1004 + t) << t;
  }
  std::vector<WarpAccess> bulk;
  for (const WarpAccess& r : rec)
    if (is_bulk(r.op)) bulk.push_back(r);
  ASSERT_EQ(bulk.size(), 2u);
  EXPECT_EQ(bulk[0].op, Op::BulkLoad);
  EXPECT_TRUE(bulk_record_ok(bulk[0]));
  EXPECT_EQ(bulk_global(bulk[0]), in + 16);
  EXPECT_EQ(bulk_bytes(bulk[0]), 256u);
  EXPECT_EQ(bulk[1].op, Op::BulkStore);
  EXPECT_EQ(bulk_global(bulk[1]), out + 256);
  EXPECT_EQ(bulk_shared(bulk[1]), bulk_shared(bulk[0]));
}

TEST(PtxBulkCopy, BadCopiesAreErrorsNamingTheThread) {
  const std::pair<std::string, std::string> cases[] = {
      {copier("256", "8"), "that is not a multiple of 16"},
      {copier("20", "16"), "a bulk copy of 20 bytes"},
      {copier("1024", "16"), "run past the end of their buffer"},
  };
  for (const auto& [text, what] : cases) {
    PtxRun run(text);
    const std::uint64_t out = run.buffer("out", 1024), in = run.buffer("in", 1024);
    try {
      run.launch("copier", {1, 1, 1}, {64, 1, 1}, {out, in});
      ADD_FAILURE() << "no error: " << what;
    } catch (const ptx::PtxError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("thread (0,0,0)"), std::string::npos) << e.what();
    }
  }
}

// Tensor copies run (tests/ptx/tensor_copy_test.cpp), but not their .im2col mode: such a launch is refused before
// it runs, naming the instruction.
TEST(PtxBulkCopy, Im2colTensorCopiesAreRefusedBeforeTheLaunch) {
  PtxRun run(ptx_module(R"(.visible .entry tensor(.param .u64 map)
{
  .reg .b32 %r<4>;
  .reg .b16 %h<2>;
  .reg .b64 %rd<2>;
  .shared .align 8 .b64 bar;
  .shared .align 128 .b8 buf[1024];
  ld.param.u64 %rd1, [map];
  mov.u32 %r1, bar;
  mov.u32 %r2, buf;
  mov.u32 %r3, 0;
  cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r2], [%rd1, {%r3, %r3, %r3}], [%r1], {%h1};
  ret;
}
)"));
  try {
    run.launch("tensor", {1, 1, 1}, {32, 1, 1}, {0});
    FAIL() << "no error";
  } catch (const ptx::PtxError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cp.async.bulk.tensor.3d.shared::cluster.global.im2col"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpscope::test
