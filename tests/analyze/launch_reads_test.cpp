// Every launch reads its own data and its code from DRAM besides its memory
// instructions' traffic (memory/launch_reads.hpp). Measured on the H100
// (validation/h100/suite, docs/VALIDATION.md "Every launch's own DRAM reads"):
// Nsight Compute's dram__bytes_read is 2,816 B for the store-only kernels
// with 384 B of code (g_st4_coalesced) and their run-to-run repeats, 3,072 B
// for the shared-memory kernels with 640 B (s_ld4_stride4), and the
// difference to the instructions' traffic is 8,192 B for r_sgemm_tiled16's
// 5,888 B of code. validate_h100_suite checks every launch.
#include <gtest/gtest.h>

#include <string>

#include "analyze/analyzer.hpp"
#include "memory/launch_reads.hpp"
#include "test_support.hpp"

namespace warpscope::test {
namespace {

TEST(LaunchReads, TheH100ReadsItsCodeIn256BytePiecesAnd2304BytesMore) {
  const ArchSpec& h100 = arch("sm_90");
  EXPECT_EQ(memory::launch_dram_read_bytes(h100, 384), 2816u);   // g_st4_coalesced
  EXPECT_EQ(memory::launch_dram_read_bytes(h100, 512), 2816u);   // g_st1_every4th_lane
  EXPECT_EQ(memory::launch_dram_read_bytes(h100, 640), 3072u);   // s_ld4_stride4
  EXPECT_EQ(memory::launch_dram_read_bytes(h100, 896), 3328u);   // s_tile32_unpadded_col
  EXPECT_EQ(memory::launch_dram_read_bytes(h100, 5888), 8192u);  // r_sgemm_tiled16
  EXPECT_EQ(memory::launch_dram_read_bytes(h100, 0), 0u);        // code size unknown: not counted
}

TEST(LaunchReads, OnlyWhereMeasured) {
  for (const char* a : {"sm_20", "sm_35", "sm_70", "sm_80"})
    EXPECT_EQ(memory::launch_dram_read_bytes(arch(a), 384), 0u) << a;
}

// A SASS listing gives each function's code size: its padded length, one
// 16-byte instruction past the highest offset on 7.0+, 8 bytes before.
TEST(LaunchReads, CodeSizesComeFromTheSassListing) {
  const std::string listing =
      "\t.target\tsm_90\n"
      "\t\tFunction : _Z5storePf\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */\n"
      "        /*0090*/                   EXIT ;                     /* 0x000000000000794d */\n"
      "        /*00a0*/                   BRA 0xa0;                  /* 0xfffffffc00fc7947 */\n"
      "        /*0170*/                   NOP;                       /* 0x0000000000007918 */\n"
      "\t\tFunction : _Z5emptyv\n";
  const CodeSizes sizes = code_sizes_from_sass(listing);
  EXPECT_EQ(sizes.at("_Z5storePf"), 0x180u);
  EXPECT_EQ(sizes.at("store(float*)"), 0x180u);
  EXPECT_EQ(sizes.count("_Z5emptyv"), 0u);  // lists no instruction
  EXPECT_EQ(code_sizes_from_sass("\t.target\tsm_52\n\t\tFunction : _Z1fv\n        /*0008*/  EXIT ;\n").at("_Z1fv"), 16u);
}

// analyze adds them to the kernel's dram.read_bytes once per launch (also a
// launch whose records come in several runs), to no instruction's, and only
// for kernels whose code size it was given.
TEST(LaunchReads, AnalyzeAddsThemOncePerLaunchToTheKernelOnly) {
  const std::string a = "rec k=0 pc=0x10 cta=0 warp=0 sm=0 global ld 4 default mask=ffffffff addr=0x1000+4\n";
  const std::string b = "rec k=1 pc=0x10 cta=0 warp=0 sm=0 global ld 4 default mask=ffffffff addr=0x2000+4\n";
  const std::string text = std::string("wstrace 1\n") +
                           "kernel 0 name=_Z1av grid=1,1,1 block=32,1,1 arch=sm_90\n"
                           "kernel 1 name=_Z1bv grid=1,1,1 block=32,1,1 arch=sm_90\n" + a + b + a;
  AnalyzeOptions o;
  o.threads = 1;
  o.code_bytes_by_kernel = {{"_Z1av", 384}};
  auto trace = open_trace_buffer(text, "t.txt");
  const AnalyzeResult r = analyze_trace(*trace, {&arch("sm_90")}, o);
  const ArchResult& h100 = r.archs.at(0);
  ASSERT_EQ(h100.kernels.size(), 2u);
  // Kernel a: two runs, each from empty caches, each reading its line's 128 B from DRAM.
  EXPECT_EQ(h100.kernels[0].launch_dram_read_bytes, 2816u);
  EXPECT_EQ(h100.kernels[0].counters.dram_read_bytes, 2u * 128u + 2816u);
  EXPECT_EQ(h100.kernels[1].launch_dram_read_bytes, 0u);
  EXPECT_EQ(h100.kernels[1].counters.dram_read_bytes, 128u);
  for (const PcCounters& p : h100.pcs) EXPECT_EQ(p.counters.dram_read_bytes, 128u * (p.kernel == 0 ? 2u : 1u));
}

// A trace recorded by `warpscope trace` carries each kernel's code size
// (KernelInfo::code_bytes): it comes first, and a listing fills the kernels
// whose size the trace lacks.
TEST(LaunchReads, TheTracesOwnCodeSizeComesFirst) {
  const std::string text = std::string("wstrace 1\n") +
                           "kernel 0 name=_Z1av grid=1,1,1 block=32,1,1 arch=sm_90 code_bytes=5888\n"
                           "kernel 1 name=_Z1bv grid=1,1,1 block=32,1,1 arch=sm_90\n"
                           "kernel 2 name=_Z1cv grid=1,1,1 block=32,1,1 arch=sm_90\n"
                           "rec k=0 pc=0x10 cta=0 warp=0 sm=0 global st 4 default mask=ffffffff addr=0x1000+4\n"
                           "rec k=1 pc=0x10 cta=0 warp=0 sm=0 global st 4 default mask=ffffffff addr=0x1000+4\n"
                           "rec k=2 pc=0x10 cta=0 warp=0 sm=0 global st 4 default mask=ffffffff addr=0x1000+4\n";
  AnalyzeOptions o;
  o.threads = 1;
  o.code_bytes_by_kernel = {{"_Z1av", 384}, {"_Z1bv", 640}};
  auto trace = open_trace_buffer(text, "t.txt");
  const ArchResult h100 = analyze_trace(*trace, {&arch("sm_90")}, o).archs.at(0);
  ASSERT_EQ(h100.kernels.size(), 3u);
  EXPECT_EQ(h100.kernels[0].code_bytes, 5888u);  // the trace's, not the listing's 384
  EXPECT_EQ(h100.kernels[0].counters.dram_read_bytes, 8192u);  // r_sgemm_tiled16's measured 8,192 B
  EXPECT_EQ(h100.kernels[1].code_bytes, 640u);
  EXPECT_EQ(h100.kernels[1].counters.dram_read_bytes, 3072u);  // s_ld4_stride4's 3,072 B
  EXPECT_EQ(h100.kernels[2].code_bytes, 0u);                   // in neither: not counted
  EXPECT_EQ(h100.kernels[2].counters.dram_read_bytes, 0u);
}

}  // namespace
}  // namespace warpscope::test
