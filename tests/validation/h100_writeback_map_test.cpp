// The numbers validation/h100/writeback_map/README.md states: read-back
// latencies of partially and wholly written L2 lines by home partition, and
// the pair run's baselines; and partition_probe/README.md's `whomes` table
// (partition_probe/writes/summary.csv).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "validation/csv_table.hpp"

namespace warpscope::test {
namespace {

const std::string kDir = WARPSCOPE_SOURCE_DIR "/validation/h100/writeback_map/";

int home(long long offset) { return static_cast<int>(((offset >> 12) ^ (offset >> 13) ^ (offset >> 16) ^ (offset >> 17) ^ (offset >> 19)) & 1); }

struct Side {
  std::vector<long long> cycles;
  long long median() {
    std::sort(cycles.begin(), cycles.end());
    return cycles[cycles.size() / 2];
  }
  long long fast() const { return std::count_if(cycles.begin(), cycles.end(), [](long long c) { return c < 450; }); }
};

std::vector<Side> by_home(const std::string& file) {
  const CsvTable t = read_csv(kDir + file);
  const int off = t.column("offset"), cyc = t.column("cycles");
  std::vector<Side> s(2);
  for (const auto& r : t.rows)
    s[static_cast<std::size_t>(home(std::stoll(r[static_cast<std::size_t>(off)])))].cycles.push_back(
        std::stoll(r[static_cast<std::size_t>(cyc)]));
  return s;
}

TEST(H100WritebackMap, NearWholeSectorsHitPartialOnesAreFetched) {
  auto whole = by_home("map_32_0_16384.csv");
  EXPECT_EQ(whole[0].median(), 308);
  EXPECT_EQ(whole[0].fast(), 8192);
  EXPECT_EQ(whole[1].median(), 769);
  EXPECT_EQ(whole[1].fast(), 1706);
  auto partial = by_home("map_4_0_16384.csv");
  EXPECT_EQ(partial[0].median(), 594);
  EXPECT_EQ(partial[0].fast() + partial[1].fast(), 0);
  EXPECT_EQ(partial[1].median(), 784);
  auto many = by_home("map_4_0_49152.csv");
  EXPECT_EQ(many[0].fast(), 4432);
  EXPECT_EQ(many[1].fast(), 0);
  EXPECT_EQ(by_home("map_4_0_65536.csv")[0].fast(), 8949);
}

TEST(H100WritebackMap, EarlyLinesAreTheOnesMadeWhole) {
  const CsvTable t = read_csv(kDir + "map_4_0_49152.csv");
  const int off = t.column("offset"), cyc = t.column("cycles"), line = t.column("line");
  std::vector<long long> chunks(12, 0);
  for (const auto& r : t.rows)
    if (home(std::stoll(r[static_cast<std::size_t>(off)])) == 0 && std::stoll(r[static_cast<std::size_t>(cyc)]) < 450)
      ++chunks[static_cast<std::size_t>(std::stoll(r[static_cast<std::size_t>(line)]) / 4096)];
  EXPECT_EQ(chunks, (std::vector<long long>{702, 465, 659, 281, 0, 80, 896, 807, 530, 12, 0, 0}));
}

TEST(H100WritebackMap, PairBaselinesReadFastLinesTheStoreKernelDidNotWriteBack) {
  // One row per run, in run order: is it a baseline (B = -1), and how many near A lines read fast.
  std::vector<std::pair<bool, long long>> runs;
  std::ifstream f(kDir + "pairs.txt");
  ASSERT_TRUE(f);
  for (std::string row; std::getline(f, row);) {
    if (row.empty() || row[0] == '#') continue;
    const std::size_t colon = row.find(':');
    std::istringstream in(row.substr(colon + 1, row.find('|') - colon - 1));
    long long fast = 0;
    for (std::string w; in >> w;) ++fast;
    runs.emplace_back(row.rfind("-1:", 0) == 0, fast);
  }
  ASSERT_EQ(runs.size(), 253u);
  long long baselines = 0, lo = 1 << 30, hi = 0;
  for (const auto& [baseline, fast] : runs)
    if (baseline) {
      ++baselines;
      lo = std::min(lo, fast);
      hi = std::max(hi, fast);
    }
  EXPECT_EQ(baselines, 13);
  EXPECT_EQ(lo, 324);
  EXPECT_EQ(hi, 445);
  // Nsight Compute on the store kernel (runs in the order of pairs.txt): at most
  // 1,024 B written back in every baseline and in 245 of the 253 runs.
  std::ifstream n(kDir + "pairs_ncu.csv");
  ASSERT_TRUE(n);
  std::vector<double> written;
  for (std::string l; std::getline(n, l);) {
    if (l.find("store_a") == std::string::npos || l.find("dram__bytes_write.sum") == std::string::npos) continue;
    std::string value = l.substr(l.rfind(",\"") + 2);
    value.erase(std::remove_if(value.begin(), value.end(), [](char c) { return c == '"' || c == ','; }), value.end());
    written.push_back(std::stod(value));
  }
  ASSERT_EQ(written.size(), runs.size());
  std::size_t small = 0;
  for (std::size_t run = 0; run < runs.size(); ++run) {
    if (runs[run].first) {
      EXPECT_LE(written[run], 1024) << "baseline run " << run;
    }
    small += written[run] <= 1024 ? 1 : 0;
  }
  EXPECT_EQ(small, 245u);
  EXPECT_EQ(*std::max_element(written.begin(), written.end()), 18432);
}

// partition_probe whomes: (run, home) -> lines under 450 cycles, of `lines`.
TEST(H100PartitionWrites, TheWritersGroupKeepsACopy) {
  const CsvTable t = read_csv(WARPSCOPE_SOURCE_DIR "/validation/h100/partition_probe/writes/summary.csv");
  const int run = t.column("run"), config = t.column("config"), parity = t.column("home_parity"),
            lines = t.column("lines"), fast = t.column("under_450");
  std::map<std::pair<int, int>, std::pair<long long, long long>> at;  // (run, home) -> (fast, lines)
  std::map<int, std::string> configs;
  for (const auto& r : t.rows) {
    const auto cell = [&](int c) { return r[static_cast<std::size_t>(c)]; };
    at[{std::stoi(cell(run)), std::stoi(cell(parity))}] = {std::stoll(cell(fast)), std::stoll(cell(lines))};
    configs[std::stoi(cell(run))] = cell(config);
  }
  const auto fast_of = [&at](int r, int home) { return at.at(std::make_pair(r, home)).first; };
  const auto lines_of = [&at](int r, int home) { return at.at(std::make_pair(r, home)).second; };
  ASSERT_EQ(configs.size(), 8u);
  EXPECT_EQ(configs[1], "homes:0:1:8192");
  EXPECT_EQ(fast_of(1, 0), 4096);
  EXPECT_EQ(lines_of(1, 0), 4096);
  EXPECT_EQ(fast_of(1, 1), 4096);
  EXPECT_EQ(lines_of(1, 1), 4096);
  // Written whole from SM 0, read from SM 1 (one group): near hits wherever the home is.
  EXPECT_EQ(configs[2], "whomes:0:1:8192:32");
  EXPECT_EQ(configs[8], "whomes:0:1:8192:32");
  EXPECT_EQ(fast_of(2, 0) + fast_of(2, 1), 8088);
  EXPECT_EQ(fast_of(8, 0) + fast_of(8, 1), 8176);
  EXPECT_EQ(configs[7], "whomes:1:0:8192:32");
  EXPECT_EQ(fast_of(7, 1), 4084);
  EXPECT_EQ(configs[6], "whomes:0:1:65536:32");
  EXPECT_EQ(fast_of(6, 1), 32136);
  EXPECT_EQ(lines_of(6, 1), 32768);
  // Read from SM 2 (the other group): only the lines homed there.
  EXPECT_EQ(configs[4], "whomes:0:2:8192:32");
  EXPECT_EQ(fast_of(4, 0), 0);
  EXPECT_EQ(fast_of(4, 1), 4096);
  // Partial sectors: fetched (none of the far ones fast; 550 near ones).
  EXPECT_EQ(configs[3], "whomes:0:1:8192:4");
  EXPECT_EQ(fast_of(3, 0), 550);
  EXPECT_EQ(fast_of(3, 1), 0);
}

}  // namespace
}  // namespace warpscope::test
