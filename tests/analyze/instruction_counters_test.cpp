// analyze keeps one set of counters per instruction: a (kernel, PC) pair. PCs
// use all 64 bits (a tracer may record absolute code addresses), so no two
// instructions may share an entry, whatever their PCs.
#include <gtest/gtest.h>

#include "analyze/analyzer.hpp"
#include "test_support.hpp"

namespace warpscope::test {
namespace {

TEST(InstructionCounters, EveryKernelAndPcHasItsOwnEntry) {
  // Kernel 0's load at PC 2^40 + 0x10 and kernel 1's store at 0x10 once
  // shared an entry (the key was kernel << 40 XOR PC).
  const std::string text =
      "wstrace 1\n"
      "kernel 0 name=a grid=1,1,1 block=32,1,1 arch=sm_90\n"
      "kernel 1 name=b grid=1,1,1 block=32,1,1 arch=sm_90\n"
      "rec k=0 pc=0x10000000010 cta=0 warp=0 sm=0 global ld 4 default mask=ffffffff addr=0x1000+4\n"
      "rec k=1 pc=0x10 cta=0 warp=0 sm=0 global st 4 default mask=ffffffff addr=0x2000+4\n"
      "rec k=1 pc=0xffffffffffffff10 cta=0 warp=0 sm=0 global ld 8 default mask=ffffffff addr=0x3000+8\n"
      "rec k=1 pc=0x10 cta=0 warp=1 sm=0 global st 4 default mask=ffffffff addr=0x2080+4\n";
  auto trace = open_trace_buffer(text, "pcs.txt");
  AnalyzeOptions o;
  o.threads = 1;
  const ArchResult r = analyze_trace(*trace, {&arch("sm_90")}, o).archs.at(0);
  ASSERT_EQ(r.pcs.size(), 3u);
  EXPECT_EQ(r.pcs[0].kernel, 0u);
  EXPECT_EQ(r.pcs[0].pc, 0x10000000010ull);
  EXPECT_EQ(r.pcs[0].op, Op::Load);
  EXPECT_EQ(r.pcs[0].executions, 1u);
  EXPECT_EQ(r.pcs[1].kernel, 1u);
  EXPECT_EQ(r.pcs[1].pc, 0x10u);
  EXPECT_EQ(r.pcs[1].op, Op::Store);
  EXPECT_EQ(r.pcs[1].executions, 2u);  // warps 0 and 1, around another instruction
  EXPECT_EQ(r.pcs[1].counters.global_st.sectors, 8u);
  EXPECT_EQ(r.pcs[2].pc, 0xffffffffffffff10ull);
  EXPECT_EQ(r.pcs[2].size, 8u);
  EXPECT_EQ(r.pcs[2].counters.global_ld.sectors, 8u);  // 256 B
}

}  // namespace
}  // namespace warpscope::test
