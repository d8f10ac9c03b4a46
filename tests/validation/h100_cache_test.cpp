// The memory system against Nsight Compute on the H100 for six realistic
// kernels (validation/h100/cache/): the kernels' warp-level access streams,
// emulated on the host and stored as native traces, replayed through the sm_90
// model with the H100's 132 SMs. Deterministic counters must match exactly;
// cache-dependent ones (hits, DRAM bytes) may differ by at most the error
// recorded in validation/h100/cache/tolerances.csv (docs/VALIDATION.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "analyze/analyzer.hpp"
#include "test_support.hpp"
#include "validation/csv_table.hpp"
#include "warpscope/metric_names.hpp"

namespace warpscope::test {
namespace {

const std::string kDir = WARPSCOPE_SOURCE_DIR "/validation/h100/cache/";

struct Compared {
  std::string kernel, counter;
  double hw = 0, model = 0;
  double error_pct() const { return hw == 0 ? (model == 0 ? 0.0 : 100.0) : 100.0 * std::abs(model - hw) / hw; }
};

// counter name in summary.csv -> our metric key
const std::vector<std::pair<std::string, std::string>> kExact = {
    {"smsp__inst_executed_op_global_ld.sum", "global_ld.instructions"},
    {"smsp__inst_executed_op_global_st.sum", "global_st.instructions"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global_ld.requests"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global_ld.sectors"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global_st.sectors"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_ld.wavefronts"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_st.wavefronts"},
};
const std::vector<std::pair<std::string, std::string>> kCacheDependent = {
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "global_ld.sector_hits"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum", "global_st.sector_hits"},
    {"lts__t_sectors_srcunit_tex_op_read.sum", "l2.read_sectors"},
    {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "l2.read_sector_hits"},
    {"dram__bytes_read.sum", "dram.read_bytes"},
    {"dram__bytes_write.sum", "dram.write_bytes"},
};

double metric_value(const Counters& c, const ArchSpec& a, const std::string& key) {
  for (const auto& m : metrics(c, a))
    if (m.our_key == key) return m.value;
  return 0;  // a counter the model does not report for this arch is zero
}

std::vector<Compared> compare_all() {
  const CsvTable summary = read_csv(kDir + "summary.csv");
  const ArchSpec& h100 = arch("sm_90");
  std::vector<Compared> out;
  for (const auto& row : summary.rows) {
    const std::string kernel = row[static_cast<std::size_t>(summary.column("kernel"))];
    auto trace = open_trace(kDir + kernel + ".wstrace");
    AnalyzeOptions options;  // the H100 SXM5 default GPU: 132 SMs, 50 MB L2, cold caches
    const AnalyzeResult r = analyze_trace(*trace, {&h100}, options);
    const Counters& c = r.archs.at(0).kernels.at(0).counters;
    for (const auto* list : {&kExact, &kCacheDependent})
      for (const auto& [ncu, key] : *list)
        out.push_back({kernel, ncu, std::stod(row[static_cast<std::size_t>(summary.column(ncu))]), metric_value(c, h100, key)});
  }
  return out;
}

const std::vector<Compared>& results() {
  static const std::vector<Compared> r = compare_all();
  return r;
}

bool is_exact(const std::string& counter) {
  for (const auto& [ncu, key] : kExact)
    if (ncu == counter) return true;
  return false;
}

TEST(H100Cache, DeterministicCountersMatchExactly) {
  int compared = 0;
  for (const auto& c : results()) {
    if (!is_exact(c.counter)) continue;
    ++compared;
    EXPECT_EQ(c.model, c.hw) << c.kernel << " " << c.counter;
  }
  EXPECT_EQ(compared, 6 * static_cast<int>(kExact.size()));
}

TEST(H100Cache, CacheCountersWithinTheRecordedError) {
  const CsvTable tol = read_csv(kDir + "tolerances.csv");
  int checked = 0;
  std::string table = "\nkernel,counter,hardware,model,error_pct\n";
  for (const auto& c : results()) {
    if (is_exact(c.counter)) continue;
    table += c.kernel + "," + c.counter + "," + std::to_string(static_cast<long long>(c.hw)) + "," +
             std::to_string(static_cast<long long>(c.model)) + "," + std::to_string(c.error_pct()) + "\n";
    for (const auto& t : tol.rows) {
      if (t[0] != c.kernel || t[1] != c.counter) continue;
      ++checked;
      EXPECT_LE(c.error_pct(), std::stod(t[2]) + 1e-9) << c.kernel << " " << c.counter << " hw " << c.hw << " model " << c.model;
    }
  }
  EXPECT_EQ(checked, 6 * static_cast<int>(kCacheDependent.size())) << "every pair needs a row in tolerances.csv";
  std::printf("%s", table.c_str());  // the numbers behind docs/VALIDATION.md
}

}  // namespace
}  // namespace warpscope::test
