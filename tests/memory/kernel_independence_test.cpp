// Each kernel starts from the state Nsight Compute's `--cache-control all`
// gives it (every L1 and L2 line invalidated), so its counters depend on its
// own records only: the same kernel replayed after another gives the counters
// it gives when replayed first, and `analyze --kernel` agrees with a full run.
// The sm_90 L1 replaces with randm8 (data/arch/sm_90.toml), a random choice:
// its generator restarts at every kernel too.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "analyze/analyzer.hpp"
#include "memory/memory_test_support.hpp"

namespace warpscope::test {
namespace {

// One warp on SM 0 reading `lines` lines twice: past the sm_90 L1's 1,792
// lines (224 KB at the smallest carveout), so the second pass evicts with
// randm8's random choices.
Counters thrash(MemorySystem& m, int lines) {
  m.begin_kernel();
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < lines; ++i) m.access(line_access(kBase + 128u * static_cast<std::uint64_t>(i)), 0);
  m.end_kernel(false);
  Counters c = m.kernel_counters();
  m.reset_kernel_counters();
  return c;
}

TEST(KernelIndependence, AKernelsCountersDoNotDependOnTheKernelsBefore) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  const Counters first = thrash(m, 2500);
  // Some of the second pass hits, as many as randm8's choices leave (LRU: none).
  ASSERT_GT(first.global_ld.sector_hits, 0u);
  ASSERT_LT(first.global_ld.sector_hits, first.global_ld.sectors / 2);
  thrash(m, 3100);  // another kernel in between, with other evictions
  EXPECT_EQ(thrash(m, 2500), first);
  EXPECT_EQ(thrash(m, 2500), first);
}

// The same through analyze: two identical kernels in one trace count the
// same, and selecting the second alone changes nothing.
TEST(KernelIndependence, AnalyzeWithAKernelFilterAgreesWithAFullRun) {
  std::string text = "wstrace 1\n";
  for (int k = 0; k < 2; ++k)
    text += "kernel " + std::to_string(k) + " name=thrash" + std::to_string(k) +
            " grid=1,1,1 block=32,1,1 regs=8 arch=sm_90\n";
  for (int k = 0; k < 2; ++k)
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < 2500; ++i)
        text += "rec k=" + std::to_string(k) + " pc=0x10 cta=0 warp=0 sm=0 global ld 4 default mask=ffffffff addr=" +
                std::to_string(0x10000000 + 128 * i) + "+4\n";
  auto run = [&](const char* filter) {
    auto trace = open_trace_buffer(text, "thrash.txt");
    AnalyzeOptions o;
    o.threads = 1;
    if (filter) o.kernel_filter = std::regex(filter);
    return analyze_trace(*trace, {&arch("sm_90")}, o).archs.at(0);
  };
  const ArchResult all = run(nullptr), second = run("thrash1");
  ASSERT_EQ(all.kernels.size(), 2u);
  ASSERT_EQ(second.kernels.size(), 1u);
  EXPECT_GT(all.kernels[0].counters.global_ld.sector_hits, 0u);
  EXPECT_EQ(all.kernels[1].counters, all.kernels[0].counters);
  EXPECT_EQ(second.kernels[0].counters, all.kernels[1].counters);
}

}  // namespace
}  // namespace warpscope::test
