// Records of concurrent launches may come interleaved (a trace converted from
// another tool, or written by hand). analyze replays each run of a kernel's
// consecutive records as a launch of its own, from empty caches (Nsight
// Compute profiles one launch at a time), sums the runs' counters, and reports
// the kernel once; with --kernel the runs are the same as in a full pass.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "analyze/analyzer.hpp"
#include "test_support.hpp"

namespace warpscope::test {
namespace {

// Kernel a reads line 0x1000 twice, kernel b line 0x2000 in between (when
// `interleaved`) or after.
std::string two_kernels(bool interleaved) {
  const std::string a = "rec k=0 pc=0x10 cta=0 warp=0 sm=0 global ld 4 default mask=ffffffff addr=0x1000+4\n";
  const std::string b = "rec k=1 pc=0x10 cta=0 warp=0 sm=0 global ld 4 default mask=ffffffff addr=0x2000+4\n";
  return std::string("wstrace 1\n") +
         "kernel 0 name=a grid=1,1,1 block=32,1,1 arch=sm_90\n"
         "kernel 1 name=b grid=1,1,1 block=32,1,1 arch=sm_90\n" +
         (interleaved ? a + b + a : a + a + b);
}

AnalyzeResult run(const std::string& text, const char* filter) {
  auto trace = open_trace_buffer(text, "t.txt");
  AnalyzeOptions o;
  o.threads = 1;
  if (filter) o.kernel_filter = std::regex(filter);
  return analyze_trace(*trace, {&arch("sm_90")}, o);
}

TEST(ResumedKernels, EachRunStartsFromEmptyCachesAndIsReportedOnce) {
  const AnalyzeResult serial = run(two_kernels(false), nullptr);
  EXPECT_TRUE(serial.resumed.empty());
  const Counters& once = serial.archs.at(0).kernels.at(0).counters;
  EXPECT_EQ(once.global_ld.sectors, 8u);
  EXPECT_EQ(once.global_ld.sector_hits, 4u);  // the second read hits in L1

  for (const char* filter : {static_cast<const char*>(nullptr), "^a$"}) {
    const AnalyzeResult r = run(two_kernels(true), filter);
    ASSERT_EQ(r.resumed.size(), 1u) << (filter ? filter : "all");
    EXPECT_EQ(r.resumed[0].kernel, 0u);
    EXPECT_EQ(r.resumed[0].record, 2u);  // the third record
    const KernelResult& a = r.archs.at(0).kernels.at(0);
    EXPECT_EQ(a.info.name, "a");
    EXPECT_EQ(a.records, 2u);
    EXPECT_EQ(a.counters.global_ld.sectors, 8u);
    EXPECT_EQ(a.counters.global_ld.sector_hits, 0u);  // two launches, each from empty caches
    EXPECT_EQ(a.counters.l2_read_sectors, 8u);
  }
  // A kernel that is not selected is not reported.
  EXPECT_TRUE(run(two_kernels(true), "^b$").resumed.empty());
}

TEST(ResumedKernels, AKernelResumingManyTimesIsReportedOnce) {
  std::string text = "wstrace 1\nkernel 0 name=a grid=1,1,1 block=32,1,1\nkernel 1 name=b grid=1,1,1 block=32,1,1\n";
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 2; ++k)
      text += "rec k=" + std::to_string(k) + " pc=0x10 cta=0 warp=0 sm=0 global ld 4 default mask=ffffffff addr=0x1000+4\n";
  const AnalyzeResult r = run(text, nullptr);
  ASSERT_EQ(r.resumed.size(), 2u);  // a at record 2, b at record 3
  EXPECT_EQ(r.resumed[0].kernel, 0u);
  EXPECT_EQ(r.resumed[0].record, 2u);
  EXPECT_EQ(r.resumed[1].kernel, 1u);
  EXPECT_EQ(r.resumed[1].record, 3u);
  for (const KernelResult& k : r.archs.at(0).kernels) EXPECT_EQ(k.counters.global_ld.sector_hits, 0u) << k.info.name;
}

}  // namespace
}  // namespace warpscope::test
