// analyze_trace on several architectures with one thread per architecture must
// give exactly what one thread gives: every kernel's and every instruction's
// counters, in the same order, also with a kernel filter.
#include <gtest/gtest.h>

#include <regex>

#include "analyze/analyzer.hpp"
#include "test_support.hpp"

namespace warpscope::test {
namespace {

AnalyzeResult run(int threads, const char* filter) {
  auto trace = open_trace(WARPSCOPE_SOURCE_DIR "/validation/h100/suite/const_local.wst");
  AnalyzeOptions o;
  o.threads = threads;
  if (filter) o.kernel_filter = std::regex(filter);
  return analyze_trace(*trace, {&arch("sm_35"), &arch("sm_70"), &arch("sm_90")}, o);
}

void expect_same(const Counters& a, const Counters& b, const std::string& where) {
  EXPECT_EQ(a.global_ld.sectors, b.global_ld.sectors) << where;
  EXPECT_EQ(a.global_ld.sector_hits, b.global_ld.sector_hits) << where;
  EXPECT_EQ(a.local_ld.sector_hits, b.local_ld.sector_hits) << where;
  EXPECT_EQ(a.local_st.sectors, b.local_st.sectors) << where;
  EXPECT_EQ(a.const_serialization, b.const_serialization) << where;
  EXPECT_EQ(a.l2_read_sectors, b.l2_read_sectors) << where;
  EXPECT_EQ(a.l2_read_sector_hits, b.l2_read_sector_hits) << where;
  EXPECT_EQ(a.dram_read_bytes, b.dram_read_bytes) << where;
  EXPECT_EQ(a.dram_write_bytes, b.dram_write_bytes) << where;
}

TEST(ParallelAnalyze, ThreadsDoNotChangeTheResults) {
  AnalyzeOptions one_thread;
  one_thread.threads = 1;
  EXPECT_EQ(analyze_threads(one_thread, 3), 0);  // everything on the reading thread
  AnalyzeOptions two;
  two.threads = 2;
  EXPECT_EQ(analyze_threads(two, 3), 2);
  EXPECT_EQ(analyze_threads(two, 1), 0);  // one architecture: on the reading thread
  for (const char* filter : {static_cast<const char*>(nullptr), "local"}) {
    const AnalyzeResult one = run(1, filter), many = run(3, filter);
    ASSERT_EQ(one.archs.size(), 3u);
    ASSERT_EQ(many.archs.size(), 3u);
    EXPECT_EQ(one.records_analyzed, many.records_analyzed);
    if (filter) {
      EXPECT_LT(one.records_analyzed, one.records_read);
    }
    for (std::size_t a = 0; a < 3; ++a) {
      const ArchResult &x = one.archs[a], &y = many.archs[a];
      ASSERT_EQ(x.kernels.size(), y.kernels.size());
      ASSERT_GT(x.kernels.size(), 1u);
      for (std::size_t k = 0; k < x.kernels.size(); ++k) {
        const std::string where = x.arch->name + " kernel " + x.kernels[k].info.name;
        EXPECT_EQ(x.kernels[k].info.id, y.kernels[k].info.id) << where;
        EXPECT_EQ(x.kernels[k].records, y.kernels[k].records) << where;
        EXPECT_EQ(x.kernels[k].l1_bytes, y.kernels[k].l1_bytes) << where;
        expect_same(x.kernels[k].counters, y.kernels[k].counters, where);
      }
      ASSERT_EQ(x.pcs.size(), y.pcs.size());
      for (std::size_t p = 0; p < x.pcs.size(); ++p) {
        EXPECT_EQ(x.pcs[p].pc, y.pcs[p].pc);
        EXPECT_EQ(x.pcs[p].executions, y.pcs[p].executions);
        expect_same(x.pcs[p].counters, y.pcs[p].counters, x.arch->name + " pc " + std::to_string(x.pcs[p].pc));
      }
    }
  }
}

// One architecture with two threads: its memory system runs the L2 side on a
// thread of its own (MemorySystem::set_l2_thread); every counter stays the same.
TEST(ParallelAnalyze, AnL2ThreadDoesNotChangeTheResults) {
  AnalyzeOptions two;
  two.threads = 2;
  EXPECT_TRUE(l2_threads(two, 1));
  EXPECT_FALSE(l2_threads(two, 2));  // the architectures' own threads come first
  AnalyzeOptions one_thread;
  one_thread.threads = 1;
  EXPECT_FALSE(l2_threads(one_thread, 1));
  for (const char* file : {"realistic.wst", "local_memory.wst"}) {
    auto run1 = [&](int threads) {
      auto trace = open_trace(std::string(WARPSCOPE_SOURCE_DIR "/validation/h100/suite/") + file);
      AnalyzeOptions o;
      o.threads = threads;
      return analyze_trace(*trace, {&arch("sm_90")}, o);
    };
    const AnalyzeResult one = run1(1), many = run1(2);
    const ArchResult &x = one.archs.at(0), &y = many.archs.at(0);
    ASSERT_EQ(x.kernels.size(), y.kernels.size()) << file;
    for (std::size_t k = 0; k < x.kernels.size(); ++k) EXPECT_EQ(x.kernels[k].counters, y.kernels[k].counters) << file;
    ASSERT_EQ(x.pcs.size(), y.pcs.size()) << file;
    for (std::size_t p = 0; p < x.pcs.size(); ++p) EXPECT_EQ(x.pcs[p].counters, y.pcs[p].counters) << file;
    EXPECT_GT(x.kernels.front().counters.l2_read_sectors + x.kernels.front().counters.l2_write_sectors, 0u) << file;
  }
}

// Several copies of each model (lanes) replay the launches side by side, run
// r of consecutive records on lane r mod lanes; kernels and instructions come
// out summed and in the order one model gives them. global_rules has 91
// launches; the text trace has kernels whose records resume after others'.
TEST(ParallelAnalyze, LanesDoNotChangeTheResults) {
  AnalyzeOptions o;
  o.threads = 1;
  EXPECT_EQ(analyze_lanes(o, 1), 1);
  o.threads = 8;
  EXPECT_EQ(analyze_lanes(o, 1), 4);  // two threads per lane and architecture
  EXPECT_EQ(analyze_lanes(o, 3), 1);
  o.threads = 1000;
  EXPECT_EQ(analyze_lanes(o, 1), static_cast<int>(kMaxLanes));
  EXPECT_EQ(analyze_lanes(o, 3), 5);  // at most 16 models in all
  EXPECT_EQ(analyze_lanes(o, 28), 1);

  std::string text = "wstrace 1\n";
  for (int k = 0; k < 5; ++k) text += "kernel " + std::to_string(k) + " name=k" + std::to_string(k % 2) + " grid=4,1,1 block=64,1,1\n";
  for (int i = 0; i < 3000; ++i)  // runs of 1-40 records, kernels coming back, no SM ids (interleaved)
    text += "rec k=" + std::to_string((i / (1 + i % 40)) % 5) + " pc=" + std::to_string(16 * (i % 7)) + " cta=" +
            std::to_string(i % 4) + " warp=" + std::to_string(i % 2) + " global " + (i % 3 ? "ld" : "st") +
            " 4 mask=ffffffff addr=" + std::to_string(0x100000 + 128 * ((i * 7919) % 4096)) + "+4\n";
  auto run = [&](const std::string& file, int threads, std::vector<const ArchSpec*> archs) {
    auto trace = file.empty() ? open_trace_buffer(text, "t.txt") : open_trace(file);
    AnalyzeOptions opt;
    opt.threads = threads;
    return analyze_trace(*trace, archs, opt);
  };
  const std::string global_rules = WARPSCOPE_SOURCE_DIR "/validation/h100/suite/global_rules.wst";
  for (const std::string& file : {global_rules, std::string()}) {
    for (const auto& [threads, archs] : std::vector<std::pair<int, std::vector<const ArchSpec*>>>{
             {8, {&arch("sm_90")}}, {12, {&arch("sm_35"), &arch("sm_70"), &arch("sm_90")}}}) {
      const AnalyzeResult one = run(file, 1, archs), lanes = run(file, threads, archs);
      ASSERT_EQ(one.archs.size(), lanes.archs.size());
      EXPECT_EQ(one.resumed.size(), lanes.resumed.size());
      if (file.empty()) {
        EXPECT_GT(one.resumed.size(), 0u);
      }
      for (std::size_t a = 0; a < one.archs.size(); ++a) {
        const ArchResult &x = one.archs[a], &y = lanes.archs[a];
        const std::string where = (file.empty() ? "text" : "global_rules") + (" " + x.arch->name) + " threads " +
                                  std::to_string(threads);
        ASSERT_EQ(x.kernels.size(), y.kernels.size()) << where;
        ASSERT_GT(x.kernels.size(), 1u) << where;
        for (std::size_t k = 0; k < x.kernels.size(); ++k) {
          EXPECT_EQ(x.kernels[k].info.id, y.kernels[k].info.id) << where;
          EXPECT_EQ(x.kernels[k].records, y.kernels[k].records) << where;
          EXPECT_EQ(x.kernels[k].l1_bytes, y.kernels[k].l1_bytes) << where;
          EXPECT_EQ(x.kernels[k].counters, y.kernels[k].counters) << where << " kernel " << k;
        }
        ASSERT_EQ(x.pcs.size(), y.pcs.size()) << where;
        for (std::size_t p = 0; p < x.pcs.size(); ++p) {
          EXPECT_EQ(x.pcs[p].kernel, y.pcs[p].kernel) << where;
          EXPECT_EQ(x.pcs[p].pc, y.pcs[p].pc) << where;
          EXPECT_EQ(x.pcs[p].executions, y.pcs[p].executions) << where;
          EXPECT_EQ(x.pcs[p].bytes_moved, y.pcs[p].bytes_moved) << where;
          EXPECT_EQ(x.pcs[p].counters, y.pcs[p].counters) << where;
        }
      }
    }
  }
}

}  // namespace
}  // namespace warpscope::test
