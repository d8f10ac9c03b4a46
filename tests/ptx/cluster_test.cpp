// Thread block clusters in the interpreter (sm_90): a cluster's CTAs run together, reach each other's shared memory
// through mapa (.shared::cluster and generic addresses), meet at barrier.cluster, arrive on each other's mbarriers;
// the cluster special registers; what is recorded (a CTA's own shared memory as shared, another's as distributed
// shared memory at its offset there); and the errors.
// Written from the PTX ISA (9.7.9.22 mapa, 9.7.13.3 barrier.cluster, 10.x "Special registers"); nvcc's
// cooperative-groups cluster code (cluster.sync, map_shared_rank) has this shape.
#include <gtest/gtest.h>

#include <string>

#include "ptx/ptx_error.hpp"
#include "ptx_test_support.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope::test {
namespace {

// Each thread t of CTA rank r writes 100 r + t to s[t], the cluster syncs, and the thread reads s[(t + 1) % 32] of
// rank r ^ 1 (`remote`: generic mapa, or .shared::cluster mapa and ld.shared::cluster) into out[32 ctaid + t];
// out[128 + 8 ctaid ..] get the cluster registers.
std::string kernel(const std::string& remote, const std::string& directives = ".reqnctapercluster 2, 1, 1",
                   const std::string& second_sync = "  barrier.cluster.arrive;\n  barrier.cluster.wait;\n") {
  return R"(.visible .entry k(.param .u64 out)
)" + directives + R"(
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<16>;
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mad.lo.s32 %r3, %r2, 100, %r1;
  shl.b32 %r4, %r1, 2;
  mov.u32 %r5, s;
  add.s32 %r6, %r5, %r4;
  st.shared.u32 [%r6], %r3;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  xor.b32 %r8, %r2, 1;
  add.s32 %r9, %r4, 4;
  and.b32 %r9, %r9, 124;
)" + remote + R"(
  mov.u32 %r11, %ctaid.x;
  shl.b32 %r12, %r11, 5;
  add.s32 %r13, %r12, %r1;
  mul.wide.u32 %rd8, %r13, 4;
  add.s64 %rd9, %rd2, %rd8;
  st.global.u32 [%rd9], %r10;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mul.wide.u32 %rd10, %r11, 32;
  add.s64 %rd11, %rd2, %rd10;
  mov.u32 %r14, %clusterid.x;
  mov.u32 %r15, %nclusterid.x;
  mov.u32 %r16, %cluster_ctaid.x;
  mov.u32 %r17, %cluster_nctaid.x;
  mov.u32 %r18, %cluster_nctarank;
  mov.u32 %r19, %is_explicit_cluster;
  st.global.v4.u32 [%rd11+512], {%r14, %r15, %r16, %r17};
  st.global.v4.u32 [%rd11+528], {%r2, %r18, %r19, %r19};
DONE:
)" + second_sync + R"(  ret;
}
)";
}
const std::string kGeneric = R"(  cvt.u64.u32 %rd3, %r5;
  cvta.shared.u64 %rd3, %rd3;
  mapa.u64 %rd4, %rd3, %r8;
  cvt.u64.u32 %rd5, %r9;
  add.s64 %rd7, %rd4, %rd5;
  ld.u32 %r10, [%rd7];)";
const std::string kCluster = R"(  mapa.shared::cluster.u32 %r20, %r5, %r8;
  add.u32 %r21, %r20, %r9;
  ld.shared::cluster.u32 %r10, [%r21];
  getctarank.shared::cluster.u32 %r22, %r21;)";

std::string with_pred(std::string k) {
  const std::string at = ".reg .b64 %rd<16>;";
  return k.replace(k.find(at), at.size(), at + "\n  .reg .pred %p<2>;");
}

TEST(PtxInterpreter, ClusterCtasReadEachOthersSharedMemory) {
  for (const std::string& remote : {kGeneric, kCluster}) {
    PtxRun run(ptx_module(with_pred(kernel(remote))));
    const std::uint64_t out = run.buffer("out", 1024);
    const auto rec = run.launch("k", {4, 1, 1}, {32, 1, 1}, {out});
    for (unsigned cta = 0; cta < 4; ++cta)
      for (unsigned t = 0; t < 32; ++t)
        EXPECT_EQ(run.read<std::uint32_t>("out", 32 * cta + t), 100 * ((cta % 2) ^ 1) + (t + 1) % 32) << cta << " " << t;
    // Cluster registers of CTA 3: cluster 1 of 2, x 1 in a cluster of 2, rank 1 of 2, an explicit cluster.
    EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 3 + 0), 1u);
    EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 3 + 1), 2u);
    EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 3 + 2), 1u);
    EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 3 + 3), 2u);
    EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 3 + 4), 1u);
    EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 3 + 5), 2u);
    EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 3 + 6), 1u);
    // Recorded: each CTA's store to its own shared memory, and its read of the other's as a dshared load at the
    // other CTA's offsets: lane t reads word (t + 1) % 32 of s, which lies at the start of both CTAs' memory.
    std::size_t shared = 0, dshared = 0;
    for (const auto& r : rec) {
      if (r.space == Space::Shared) {
        ++shared;
        EXPECT_EQ(r.op, Op::Store);
      }
      if (r.space == Space::DShared) {
        ++dshared;
        EXPECT_EQ(r.op, Op::Load);
        EXPECT_EQ(r.active.bits(), 0xffffffffu);
        for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(r.addr[t], 4u * ((t + 1) % 32)) << t;
      }
    }
    EXPECT_EQ(shared, 4u);
    EXPECT_EQ(dshared, 4u);
  }
}

// A launch without a cluster shape is a cluster of one CTA per CTA: barrier.cluster is the CTA's, mapa to rank 0 is
// the CTA itself (and is recorded as its own shared memory), the registers say so.
TEST(PtxInterpreter, WithoutAClusterEachCtaIsItsOwn) {
  const std::string own = R"(  mov.u32 %r8, 0;
  mapa.shared::cluster.u32 %r20, %r5, %r8;
  add.u32 %r21, %r20, %r9;
  ld.shared::cluster.u32 %r10, [%r21];)";
  PtxRun run(ptx_module(with_pred(kernel(own, ""))));
  const std::uint64_t out = run.buffer("out", 1024);
  const auto rec = run.launch("k", {3, 1, 1}, {32, 1, 1}, {out});
  for (unsigned cta = 0; cta < 3; ++cta)
    for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", 32 * cta + t), (t + 1) % 32) << cta;
  EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 2 + 0), 2u);  // %clusterid.x: the CTA's own
  EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 2 + 1), 3u);  // %nclusterid.x
  EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 2 + 5), 1u);  // %cluster_nctarank
  EXPECT_EQ(run.read<std::uint32_t>("out", 128 + 8 * 2 + 6), 0u);  // not an explicit cluster
  std::size_t loads = 0;
  for (const auto& r : rec) loads += r.space == Space::Shared && r.op == Op::Load ? 1 : 0;
  EXPECT_EQ(loads, 3u);
}

std::string error_of(const std::string& text, Dim3 grid = {4, 1, 1}) {
  try {
    PtxRun run(ptx_module(with_pred(text)));
    const std::uint64_t out = run.buffer("out", 1024);
    run.launch("k", grid, {32, 1, 1}, {out});
  } catch (const Error& e) {
    return e.what();
  }
  return "ran";
}

TEST(PtxInterpreter, ClusterErrorsNameTheProblem) {
  EXPECT_EQ(error_of(kernel(kCluster)), "ran");
  EXPECT_NE(error_of(kernel(kCluster), {3, 1, 1}).find("is not a whole number of clusters (2,1,1)"), std::string::npos);
  EXPECT_NE(error_of(kernel(kCluster, ".reqnctapercluster 4, 4, 2"), {32, 4, 2}).find("a cluster of 32 CTAs"), std::string::npos);
  // mapa to a rank the cluster does not have.
  EXPECT_NE(error_of(kernel("  mov.u32 %r8, 2;\n" + kCluster)).find("mapa to CTA rank 2 of a cluster of 2"), std::string::npos);
  // A wait with no arrive, and a cluster barrier one warp never reaches (it exits early: the others are released;
  // it is the arrive missing in the same phase that cannot complete).
  EXPECT_NE(error_of(kernel(kCluster, ".reqnctapercluster 2, 1, 1", "  barrier.cluster.wait;\n")).find("without barrier.cluster.arrive"),
            std::string::npos);
}

// A remote arrive: CTA rank 1 arrives on rank 0's mbarrier through mapa; rank 0 waits for the phase, then reads.
TEST(PtxInterpreter, ARemoteArriveCompletesAnotherCtasMbarrier) {
  PtxRun run(ptx_module(R"(.visible .entry k(.param .u64 out)
.reqnctapercluster 2, 1, 1
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 .b8 bar[8];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, bar;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r2], 32;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  @%p1 bra WAIT;
  mov.u32 %r3, 0;
  mapa.shared::cluster.u32 %r4, %r2, %r3;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r4];
  bra END;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
  @!%p2 bra WAIT;
  mov.u32 %r5, 7;
  st.global.u32 [%rd2], %r5;
END:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 64);
  run.launch("k", {2, 1, 1}, {32, 1, 1}, {out});
  EXPECT_EQ(run.read<std::uint32_t>("out", 0), 7u);
}


// st.async (PTX ISA 9.7.9.12): rank 1 stores 32 words into rank 0's s, each completing 4 bytes on rank 0's mbarrier,
// which expects 128; rank 0 waits for the phase and copies s out. With the mbarrier of the wrong CTA: an error.
std::string st_async_kernel(const std::string& bar_rank) {
  return R"(.visible .entry k(.param .u64 out)
.reqnctapercluster 2, 1, 1
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 .b8 bar[8];
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, bar;
  mov.u32 %r9, s;
  mov.u32 %r10, %tid.x;
  shl.b32 %r11, %r10, 2;
  add.s32 %r12, %r9, %r11;
  setp.eq.u32 %p1, %r1, 0;
  setp.eq.u32 %p3, %r10, 0;
  and.pred %p3, %p3, %p1;
  @%p3 mbarrier.init.shared::cta.b64 [%r2], 1;
  @%p3 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  @%p1 bra WAIT;
  mov.u32 %r3, 0;
  mov.u32 %r13, )" + bar_rank + R"(;
  mapa.shared::cluster.u32 %r4, %r2, %r13;
  mapa.shared::cluster.u32 %r5, %r12, %r3;
  add.s32 %r6, %r10, 500;
  st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r5], %r6, [%r4];
  bra END;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
  @!%p2 bra WAIT;
  ld.shared.u32 %r7, [%r12];
  mul.wide.u32 %rd3, %r10, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r7;
END:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";
}

TEST(PtxInterpreter, StAsyncWritesAnotherCtaAndCompletesItsMbarrier) {
  PtxRun run(ptx_module(st_async_kernel("0")));
  const std::uint64_t out = run.buffer("out", 128);
  const auto records = run.launch("k", {2, 1, 1}, {32, 1, 1}, {out});
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), 500u + t) << t;
  std::size_t stas = 0;
  for (const auto& r : records) stas += r.op == Op::StoreAsync && r.space == Space::DShared ? 1 : 0;
  EXPECT_EQ(stas, 1u);
  std::string error = "ran";
  try {
    PtxRun wrong(ptx_module(st_async_kernel("1")));
    wrong.launch("k", {2, 1, 1}, {32, 1, 1}, {wrong.buffer("out", 128)});
  } catch (const Error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("the mbarrier is in another CTA than the bytes it counts"), std::string::npos) << error;
}

}  // namespace
}  // namespace warpscope::test
