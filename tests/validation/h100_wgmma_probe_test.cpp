// Hopper's warpgroup MMA (wgmma.mma_async, SASS HGMMA / IGMMA / QGMMA) against the H100
// (validation/kernels/wgmma_probe, its counters predicted before each run: validation/wgmma_probe/predicted.txt and
// predicted_gmma.txt; docs/VALIDATION.md "Warpgroup MMA"). Checked through the PTX interpreter (the GPU tracer has
// no callback for the tensor cores' reads):
//  - the values: the 21 checksums of the layout and form kernels (every descriptor layout: no swizzle, 32, 64 and
//    128 B, K- and M/N-major, a start off the 1024-byte pattern, imm-scale-a -1, scale-d 0; N 16, 64 and 128, A
//    from registers, .bf16, .f16 accumulators, .tf32, .e4m3 x .e5m2, .s8, .u8 x .s8) and the TMA + wgmma GEMM's;
//  - the counters: every exact counter of the 29 launches, the tensor cores' own shared-memory reads included
//    (l1tex op_gmma wavefronts: (A's 2,048 bytes from shared memory + B's 32 N) / 128 a warpgroup instruction,
//    no bank conflicts; each warp counts the instruction).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";


TEST(H100WgmmaProbe, CountersFromPtxMatchNsightCompute) {
  const ValidationReport r = ptx_validation_report("wgmma_probe");
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 29u);
  EXPECT_EQ(s.exact_matched, s.exact);
  EXPECT_EQ(s.exact, 1661u);
  // The tensor cores' reads, exact on every launch (the instructions of layout<> aside: ptxas's empty HGMMA).
  std::size_t gmma = 0;
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters)
      if (c.counter.find("op_gmma") != std::string::npos) {
        ++gmma;
        EXPECT_EQ(c.hardware, c.model) << k.label << " " << c.counter;
      }
  EXPECT_EQ(gmma, 29u * 2);
  // m64n128k16 in the GEMM: (2,048 + 4,096) / 128 = 48 wavefronts a warpgroup instruction, 1,024 of them.
  EXPECT_EQ(hardware_and_model(r, "gemm", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"),
            std::make_pair(49152.0, 49152.0));
  EXPECT_EQ(hardware_and_model(r, "gemm", "smsp__sass_inst_executed_op_shared_gmma.sum"), std::make_pair(4096.0, 4096.0));
  // A from registers: only B (16 x 32 bytes) comes from shared memory.
  EXPECT_EQ(hardware_and_model(r, "form_f16_rega", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"),
            std::make_pair(4.0, 4.0));
  // No LSU shared load anywhere: the GEMM's operands reach the tensor cores only through op_gmma.
  EXPECT_EQ(hardware_and_model(r, "gemm", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), std::make_pair(0.0, 0.0));
  // ptxas's empty HGMMA at the end of layout<> (4 steps: 16 in the PTX, 20 on the H100).
  EXPECT_EQ(hardware_and_model(r, "layout#5", "smsp__sass_inst_executed_op_shared_gmma.sum"), std::make_pair(20.0, 16.0));
  EXPECT_EQ(hardware_and_model(r, "layout#5", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"), std::make_pair(80.0, 80.0));
}

TEST(H100WgmmaProbe, WhatThePredictionsGotRightAndWrong) {
  const ValidationReport r = ptx_validation_report("wgmma_probe");
  // Before the first run: everything but the GEMM's L2 reads (the LRC merges the tiles the 4 x 4 CTAs read
  // together: 21,504 of 32,768 requests), one L2 write request merged, and DRAM (the launch's own 6.9 KB of code).
  EXPECT_EQ(predictions_held(r, kRoot + "wgmma_probe/predicted.txt"), std::make_pair(std::size_t{245}, std::size_t{249}));
  EXPECT_EQ(hardware_and_model(r, "gemm", "lts__t_sectors_srcunit_tex_op_read.sum"), std::make_pair(86016.0, 131072.0));
  // Before the second: every wavefront and conflict count; the instructions of the 12 layout<> launches missed by
  // ptxas's extra HGMMA.
  EXPECT_EQ(predictions_held(r, kRoot + "wgmma_probe/predicted_gmma.txt"), std::make_pair(std::size_t{54}, std::size_t{66}));
}

// What the tensor cores computed, through the interpreter: the H100's 22 checksums.
TEST(H100WgmmaProbe, InterpreterComputesWhatTheH100Computed) {
  ProbeReplay p(kRoot + "wgmma_probe", "wgmma_probe");
  // main() prints the layouts by their table's names (kLayouts), the launches are layout<TA, TB, SA>.
  for (const char* name : {"kk_none", "kk_none_far", "kk_32B", "kk_64B", "kk_128B", "kk_128B_off"}) p.aliases[name] = "layout<0, 0, 1>";
  for (const char* name : {"mn_none", "mn_128B", "mn_64B", "mn_32B"}) p.aliases[name] = "layout<1, 1, 1>";
  p.aliases["k_mn_128B"] = "layout<0, 1, 1>";
  p.aliases["neg_a_no_c"] = "layout<0, 0, -1>";
  std::size_t checksums = 0;
  p.replay(kRoot + "h100/wgmma_probe/run.txt", [&](const std::string& kind, const std::string& label, std::istringstream& rest,
                                                  const std::string& kernel, const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    const bool gemm = kernel == "gemm";
    auto& bytes = p.run.state->memory.allocation(gemm ? "c" : "out")->bytes;
    // main() checksums the registers the kernel wrote: 128 threads x 8, 32, 64 or 4 words.
    const std::size_t words = label == "form_f16_n64" ? 32 : label == "form_f16_n128" ? 64 : label == "form_f16_f16" ? 4 : 8;
    const std::size_t n = gemm ? bytes.size() : 128 * words * 4;
    EXPECT_EQ(fmt::format("{:016x}", fnv1a(bytes.data(), n)), hex) << label;
    std::fill(bytes.begin(), bytes.end(), 0);
    ++checksums;
  });
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 22u);
}

}  // namespace
}  // namespace warpscope::test
