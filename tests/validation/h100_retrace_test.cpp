// The same programs recorded again (validation/h100/suite_retrace): the suite's global_rules
// (recorded 2026-11-22) and two recordings of 2026-11-24 with the tracer of that day, replayed
// against the one Nsight Compute run of validation/h100/suite. What docs/VALIDATION.md "Three
// recordings of the suite" says: the records and every exact counter are the same whichever
// recording is replayed; the cache-dependent values move with the recorded order, and on the
// later recordings only two misaligned loads leave their tolerance.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "validation/csv_table.hpp"
#include "warpscope/trace.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kSuite = WARPSCOPE_SOURCE_DIR "/validation/h100/suite/";
const std::string kRetrace = WARPSCOPE_SOURCE_DIR "/validation/h100/suite_retrace/";
const std::vector<std::string> kRecordings = {kSuite + "global_rules.wst", kRetrace + "global_rules.r2.wst",
                                              kRetrace + "global_rules.r3.wst"};

// validate on a directory holding the suite's hardware run of global_rules and one recording.
const ValidationReport& report(std::size_t recording) {
  static std::map<std::size_t, ValidationReport> done;
  if (auto it = done.find(recording); it != done.end()) return it->second;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("warpscope_retrace_" + std::to_string(::getpid()) + "_" + std::to_string(recording));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // The SASS listing names the atomics' operations, which these recordings do not store.
  for (const char* f : {"environment.txt", "tolerances.toml", "global_rules.ncu.csv", "global_rules.sass"})
    std::filesystem::copy_file(kSuite + f, dir / f);
  std::filesystem::copy_file(kRecordings[recording], dir / "global_rules.wst");
  ValidationReport r = validate_directory(dir, db());
  std::filesystem::remove_all(dir);
  return done.emplace(recording, std::move(r)).first->second;
}

// Records per kernel of a recording.
std::vector<std::uint64_t> records_per_kernel(const std::string& path) {
  auto trace = open_trace(path);
  std::vector<std::uint64_t> n;  // kernels are declared as the reader reaches them
  for (auto batch = trace->next_batch(); !batch.empty(); batch = trace->next_batch())
    for (const PackedAccess& r : batch) {
      if (r.kernel >= n.size()) n.resize(r.kernel + 1, 0);
      ++n[r.kernel];
    }
  return n;
}

const CounterComparison& counter(const ValidationReport& r, const std::string& kernel, const std::string& name) {
  for (const auto& k : r.kernels)
    if (k.name == kernel)
      for (const auto& c : k.counters)
        if (c.counter == name) return c;
  throw std::runtime_error("no " + kernel + " " + name);
}

TEST(H100Retrace, EveryRecordingHasTheSameRecordsPerLaunch) {
  const auto first = records_per_kernel(kRecordings[0]);
  ASSERT_EQ(first.size(), 91u);
  for (std::size_t i = 1; i < kRecordings.size(); ++i) EXPECT_EQ(records_per_kernel(kRecordings[i]), first) << kRecordings[i];
}

TEST(H100Retrace, ExactCountersDoNotDependOnTheRecording) {
  const ValidationSummary first = summarize(report(0));
  EXPECT_GT(first.exact, 1000u);
  for (std::size_t i = 0; i < kRecordings.size(); ++i) {
    const ValidationSummary s = summarize(report(i));
    EXPECT_EQ(s.exact, first.exact) << kRecordings[i];
    EXPECT_EQ(s.exact_matched, s.exact) << kRecordings[i];
  }
}

// The committed recording passes; the later ones fail only L2 checks of two misaligned loads.
TEST(H100Retrace, OnlyMisalignedLoadsLeaveTheirToleranceOnOtherRecordings) {
  EXPECT_TRUE(summarize(report(0)).passed());
  std::set<std::string> failing;
  for (std::size_t i = 1; i < kRecordings.size(); ++i)
    for (const auto& k : report(i).kernels)
      for (const auto& c : k.counters)
        if (c.verdict == Verdict::Fail) {
          EXPECT_EQ(c.counter.rfind("lts__t_", 0), 0u) << k.name << " " << c.counter;
          failing.insert(k.name);
        }
  EXPECT_EQ(failing, (std::set<std::string>{"g_ld1_misalign1", "g_ld8_misalign_sweep0to120"}));
  // g_ld1_misalign1's L2 read hit rate: 6.3 points above the H100 on both later recordings.
  for (std::size_t i = 1; i < kRecordings.size(); ++i) {
    const auto& c = counter(report(i), "g_ld1_misalign1", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum");
    EXPECT_NEAR(c.error, 6.3, 0.05) << kRecordings[i];
  }
}

// How far the model's values move between recordings (VALIDATION.md quotes these): the L2 read
// requests of a misaligned load by up to 4.3% (g_ld4_misalign8: 3,331 / 3,473 / 3,465, the H100
// 3,344), which is why their tolerance is 5%, not 2%; L2 read hit rates by up to 5.7 points
// (g_ld2_misalign66, whose hardware rate itself moved 6.8 points between three runs).
TEST(H100Retrace, CacheCountersMoveWithTheRecordedOrder) {
  const std::string requests = "lts__t_requests_srcunit_tex_op_read.sum";
  const std::string hits = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum";
  std::vector<double> m8;
  for (std::size_t i = 0; i < kRecordings.size(); ++i) m8.push_back(counter(report(i), "g_ld4_misalign8", requests).model);
  EXPECT_EQ(m8, (std::vector<double>{3331, 3473, 3465}));
  EXPECT_EQ(counter(report(0), "g_ld4_misalign8", requests).hardware, 3344);

  double worst_requests = 0, worst_hits = 0;
  std::string worst_requests_at, worst_hits_at;
  for (const auto& k : report(0).kernels) {
    double lo = 1e300, hi = 0, rate_lo = 1e300, rate_hi = 0;
    for (std::size_t i = 0; i < kRecordings.size(); ++i) {
      const double v = counter(report(i), k.name, requests).model;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      const double rate = counter(report(i), k.name, hits).model_rate.value_or(0);
      rate_lo = std::min(rate_lo, rate);
      rate_hi = std::max(rate_hi, rate);
    }
    if (lo > 0 && (hi - lo) / lo * 100 > worst_requests) {
      worst_requests = (hi - lo) / lo * 100;
      worst_requests_at = k.name;
    }
    if (rate_hi - rate_lo > worst_hits) {
      worst_hits = rate_hi - rate_lo;
      worst_hits_at = k.name;
    }
  }
  EXPECT_EQ(worst_requests_at, "g_ld4_misalign8");
  EXPECT_NEAR(worst_requests, 4.26, 0.01);
  EXPECT_LT(worst_requests, 5.0);  // within the tolerance that this spread set
  EXPECT_EQ(worst_hits_at, "g_ld2_misalign66");
  EXPECT_NEAR(worst_hits, 5.7, 0.05);
}

// All fifteen applications (README): retrace.txt, what the recording runs printed, and
// model_by_recording.csv, every model value that differs between the recordings.
TEST(H100Retrace, AllApplicationsKeepTheirRecordsAndExactCounters) {
  std::ifstream log(kRetrace + "retrace.txt");
  ASSERT_TRUE(log) << kRetrace << "retrace.txt";
  int same = 0, exact_lines = 0;
  std::vector<std::string> results, targets;
  for (std::string line; std::getline(log, line);) {
    if (line.find(" rc=0 same-records") != std::string::npos) ++same;
    if (line.find("exact counters: 4372 of 4372 match") != std::string::npos) ++exact_lines;
    if (line.find("result: ") != std::string::npos) results.push_back(line.substr(line.find("result: ")));
    if (line.find("launches with every hit rate") != std::string::npos) targets.push_back(line.substr(line.rfind(": ") + 2));
  }
  EXPECT_EQ(same, 2 * 15);  // two recordings of fifteen applications, each launch as many records
  EXPECT_EQ(exact_lines, 2);
  EXPECT_EQ(results, (std::vector<std::string>{"result: FAIL, 5 counters outside tolerance:",
                                               "result: FAIL, 6 counters outside tolerance:"}));  // at the old 2%
  EXPECT_EQ(targets, (std::vector<std::string>{"179 of 210", "179 of 210"}));

  const CsvTable t = read_csv(kRetrace + "model_by_recording.csv");
  const ValidationReport& suite = report(0);
  std::set<std::string> launches, exact;
  for (const auto& k : suite.kernels)
    for (const auto& c : k.counters)
      if (c.verdict == Verdict::Exact) exact.insert(c.counter);
  std::map<std::string, std::pair<double, std::string>> worst;  // counter -> largest spread, % of the smallest
  for (const auto& row : t.rows) {
    const std::string& counter = row[static_cast<std::size_t>(t.column("counter"))];
    launches.insert(row[static_cast<std::size_t>(t.column("launch"))]);
    EXPECT_EQ(exact.count(counter), 0u) << counter << " is an exact counter";
    double lo = 1e300, hi = 0;
    for (const char* col : {"model_r1", "model_r2", "model_r3"}) {
      const double v = std::stod(row[static_cast<std::size_t>(t.column(col))]);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    EXPECT_LT(lo, hi) << "listed though equal: " << row[0] << " " << counter;
    const double spread = lo > 0 ? (hi - lo) / lo * 100 : 0;
    if (spread > worst[counter].first) worst[counter] = {spread, row[0]};
  }
  EXPECT_EQ(t.rows.size(), 145u);
  EXPECT_EQ(launches.size(), 48u);
  EXPECT_NEAR(worst["lts__t_requests_srcunit_tex_op_read.sum"].first, 4.94, 0.01);
  EXPECT_EQ(worst["lts__t_requests_srcunit_tex_op_read.sum"].second, "local_memory/local_array");
  EXPECT_NEAR(worst["lts__t_sectors_srcunit_tex_op_read.sum"].first, 3.35, 0.01);
  EXPECT_NEAR(worst["dram__bytes_write.sum"].first, 13.56, 0.01);
  EXPECT_EQ(worst["dram__bytes_write.sum"].second, "local_memory/local_array");
  // The global_rules rows are what the model gives on the three recordings today.
  for (const auto& row : t.rows) {
    const std::string& label = row[static_cast<std::size_t>(t.column("launch"))];
    if (label.rfind("global_rules/", 0) != 0) continue;
    const std::string name = label.substr(13);
    for (std::size_t i = 0; i < kRecordings.size(); ++i)
      EXPECT_EQ(counter(report(i), name, row[1]).model, std::stod(row[3 + i])) << label << " " << row[1] << " recording " << i + 1;
  }
}

}  // namespace
}  // namespace warpscope::test
