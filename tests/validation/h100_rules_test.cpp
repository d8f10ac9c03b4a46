// The rules engine against Nsight Compute on this workplace's H100 (sm_90):
// 614 single-warp launches recorded by validation/run_h100_probes.sh
// (validation/h100/rules/). Every deterministic per-instruction counter must
// match exactly: requests, sectors, lines (set accesses), bytes, shared
// wavefronts and bank conflicts.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "validation/csv_table.hpp"

namespace warpscope::test {
namespace {

const std::string kDir = WARPSCOPE_SOURCE_DIR "/validation/h100/rules/";

struct Probe {
  std::string name;
  WarpAccess access;
  std::map<std::string, double> hw;  // metric -> value
};

std::vector<Probe> load_probes() {
  const CsvTable patterns = read_csv(kDir + "patterns.csv");
  const CsvTable results = read_csv(kDir + "results.csv");
  EXPECT_EQ(patterns.rows.size(), results.rows.size());
  std::vector<Probe> probes;
  const int off0 = patterns.column("off0");
  for (std::size_t r = 0; r < patterns.rows.size(); ++r) {
    const auto& p = patterns.rows[r];
    const auto& m = results.rows[r];
    EXPECT_EQ(p[0], m[0]) << "row " << r << ": ids differ";
    Probe probe;
    probe.name = p[0] + " " + p[2] + " " + p[3] + " " + p[4] + "B " + p[1] + " (" + p[5] + ")";
    WarpAccess& a = probe.access;
    a.space = *parse_space(p[2]);
    a.op = *parse_op(p[3]);
    a.size = static_cast<std::uint8_t>(std::stoi(p[4]));
    const std::string cache = p[5];
    a.cache = cache == "default" ? CacheOp::Default : cache == "ldg" ? CacheOp::Nc : *parse_cache_op(cache);
    std::uint32_t mask = 0;
    for (int l = 0; l < kWarpSize; ++l) {
      const long long off = std::stoll(p[static_cast<std::size_t>(off0 + l)]);
      if (off < 0) continue;
      mask |= 1u << l;
      a.addr[static_cast<unsigned>(l)] = static_cast<std::uint64_t>(off) + (a.space == Space::Global ? 0x100000u : 0u);
    }
    a.active = LaneMask(mask);
    EXPECT_EQ(mask, static_cast<std::uint32_t>(std::stoul(p[6], nullptr, 16))) << probe.name;
    for (std::size_t c = 8; c < results.header.size(); ++c)
      probe.hw[results.header[c]] = m[c].empty() ? NAN : std::stod(m[c]);
    probes.push_back(std::move(probe));
  }
  return probes;
}

const std::vector<Probe>& probes() {
  static const std::vector<Probe> p = load_probes();
  return p;
}

// Compares one model value with one recorded metric over every probe of a kind;
// returns the number that matched and lists the first mismatches.
struct Tally {
  int compared = 0, matched = 0;
  std::string first_mismatches;
  void check(const Probe& p, const std::string& metric, double model) {
    const double hw = p.hw.at(metric);
    ++compared;
    if (hw == model) {
      ++matched;
    } else if (compared - matched <= 12) {
      first_mismatches += "  " + p.name + ": " + metric + " hw " + std::to_string(hw) + " model " +
                          std::to_string(model) + "\n";
    }
  }
};

TEST(H100Rules, RecordsAreComplete) {
  ASSERT_EQ(probes().size(), 614u);
  for (const auto& p : probes()) {
    const std::string op = p.access.op == Op::Load ? "ld" : "st";
    const std::string space = p.access.space == Space::Global ? "global" : "shared";
    EXPECT_EQ(p.hw.at("smsp__inst_executed_op_" + space + "_" + op + ".sum"), 1.0) << p.name;
  }
}

TEST(H100Rules, GlobalRequestsSectorsLinesAndBytesMatchExactly) {
  const ArchSpec& h100 = arch("sm_90");
  Tally requests, sectors, lines, bytes, per_sector, l2;
  for (const auto& p : probes()) {
    if (p.access.space != Space::Global) continue;
    const std::string op = p.access.op == Op::Load ? "ld" : "st";
    const InstructionCounts c = analyze(p.access, h100);
    requests.check(p, "l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum", c.requests);
    sectors.check(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum", c.sectors);
    lines.check(p, "l1tex__t_set_accesses_pipe_lsu_mem_global_op_" + op + ".sum", c.transactions);
    bytes.check(p, "l1tex__t_bytes_pipe_lsu_mem_global_op_" + op + ".sum", c.bytes_moved);
    // ncu's coalescing efficiency: bytes the threads use per sector moved
    const double model_ratio = c.sectors ? static_cast<double>(c.bytes_needed) / c.sectors : 0.0;
    const double hw_ratio = p.hw.at("smsp__sass_average_data_bytes_per_sector_mem_global_op_" + op + ".ratio");
    ++per_sector.compared;
    if (std::abs(hw_ratio - model_ratio) <= 0.005 + 1e-9) ++per_sector.matched;  // ncu prints 2 decimals
    else if (per_sector.compared - per_sector.matched <= 12)
      per_sector.first_mismatches += "  " + p.name + ": bytes/sector hw " + std::to_string(hw_ratio) + " model " + std::to_string(model_ratio) + "\n";
    // L1 misses on cold caches: every sector goes to L2 (ncu flushes caches before each pass)
    l2.check(p, std::string("lts__t_sectors_srcunit_tex_op_") + (op == "ld" ? "read" : "write") + ".sum", c.sectors);
  }
  EXPECT_EQ(requests.matched, requests.compared) << requests.first_mismatches;
  EXPECT_EQ(sectors.matched, sectors.compared) << sectors.first_mismatches;
  EXPECT_EQ(lines.matched, lines.compared) << lines.first_mismatches;
  EXPECT_EQ(bytes.matched, bytes.compared) << bytes.first_mismatches;
  EXPECT_EQ(per_sector.matched, per_sector.compared) << per_sector.first_mismatches;
  EXPECT_EQ(l2.matched, l2.compared) << l2.first_mismatches;
  EXPECT_EQ(requests.compared, 356);  // docs/VALIDATION.md: 356 global launches
}

TEST(H100Rules, SharedWavefrontsAndBankConflictsMatchExactly) {
  const ArchSpec& h100 = arch("sm_90");
  Tally wavefronts, conflicts;
  for (const auto& p : probes()) {
    if (p.access.space != Space::Shared) continue;
    const std::string op = p.access.op == Op::Load ? "ld" : "st";
    const InstructionCounts c = analyze(p.access, h100);
    wavefronts.check(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum", c.wavefronts);
    conflicts.check(p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum", c.bank_conflicts);
  }
  EXPECT_EQ(wavefronts.compared, 258);  // docs/VALIDATION.md: 258 shared launches
  EXPECT_EQ(wavefronts.matched, wavefronts.compared) << wavefronts.first_mismatches;
  EXPECT_EQ(conflicts.matched, conflicts.compared) << conflicts.first_mismatches;
}

}  // namespace
}  // namespace warpscope::test
