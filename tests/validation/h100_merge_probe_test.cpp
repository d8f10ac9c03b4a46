// Where the H100 merges L2 read requests (validation/h100/merge_probe: the
// suite once more under Nsight Compute with the L2 request coalescer's
// metrics). The figures docs/VALIDATION.md and the known-mismatch reasons cite:
// L1TEX does not merge misses (it sends, and gets back, every sector it
// missed), the LRC does, and the L2 lookups are what the LRC did not merge;
// and it merges only requests of SMs in one GPC.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "validate/kernel_name.hpp"
#include "validation/csv_table.hpp"
#include "validate/ncu_csv.hpp"

namespace warpscope::test {
namespace {

const std::string kDir = WARPSCOPE_SOURCE_DIR "/validation/h100/merge_probe/";
constexpr const char* kMissGlobal = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum";
constexpr const char* kMissLocal = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum";
constexpr const char* kToL1 = "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum";
constexpr const char* kOffered = "lrc__request_sectors_op_read_coalescable.sum";
constexpr const char* kMerged = "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum";
constexpr const char* kLts = "lts__t_sectors_srcunit_tex_op_read.sum";

double value(const validate::NcuLaunch& l, const char* column) {
  const auto v = l.number(column);
  EXPECT_TRUE(v.has_value()) << l.kernel << ": no " << column;
  return v.value_or(0);
}

const validate::NcuLaunch& launch(const validate::NcuReport& r, const std::string& name) {
  for (const auto& l : r.launches)
    if (validate::kernel_identifier(l.kernel) == name) return l;
  throw std::runtime_error("no launch of " + name + " in " + r.file);
}

TEST(H100MergeProbe, TheCoalescerNotL1MergesTheCgLoadsOfOneLine) {
  const auto r = validate::read_ncu_csv(kDir + "cache_ops.ncu.csv");
  const auto& reuse = launch(r, "c_ldcg4_reuse4");
  EXPECT_EQ(value(reuse, kMissGlobal), 32768);
  EXPECT_EQ(value(reuse, kToL1), 32768);  // every missed sector comes back to L1TEX
  EXPECT_EQ(value(reuse, kOffered), 32768);
  EXPECT_EQ(value(reuse, kMerged), 24576);
  EXPECT_EQ(value(reuse, kLts), 8192);
  // Plain loads of the same shape: L1 serves the repeats, nothing is left to merge.
  const auto& plain = launch(r, "c_ld4_reuse4_plain");
  EXPECT_EQ(value(plain, kLts), 8192);
  EXPECT_EQ(value(plain, kMerged), 0);
}

TEST(H100MergeProbe, SgemmTilesAreMergedAcrossCtas) {
  const auto r = validate::read_ncu_csv(kDir + "realistic.ncu.csv");
  const auto& naive = launch(r, "r_sgemm_naive");
  const auto& tiled = launch(r, "r_sgemm_tiled16");
  EXPECT_NEAR(value(naive, kMerged) / value(naive, kOffered), 0.53, 0.005);
  EXPECT_NEAR(value(tiled, kMerged) / value(tiled, kOffered), 0.35, 0.005);
}

TEST(H100MergeProbe, L2LookupsAreTheSectorsTheCoalescerDidNotMerge) {
  int launches = 0;
  for (const char* app : {"cache_ops", "global_rules", "const_local", "realistic", "ldg_readonly", "local_memory",
                          "transpose", "strided_access", "coalesced_copy"}) {
    const auto r = validate::read_ncu_csv(kDir + app + std::string(".ncu.csv"));
    for (const auto& l : r.launches) {
      const double lts = value(l, kLts), offered = value(l, kOffered), merged = value(l, kMerged);
      if (lts == 0 && offered == 0) continue;
      ++launches;
      // The metrics come from different replay passes: within 200 sectors.
      EXPECT_LE(std::abs(lts - (offered - merged)), 200) << app << "/" << l.kernel;
      // L1TEX receives what it missed (global and local loads), merged or not.
      const double missed = value(l, kMissGlobal) + value(l, kMissLocal);
      EXPECT_LE(std::abs(value(l, kToL1) - missed), std::max(0.01 * missed, 1000.0)) << app << "/" << l.kernel;
    }
  }
  EXPECT_GE(launches, 90);
}

// validation/h100/lrc_probe: one tile read by C CTAs at once, on one GPC (a
// cluster) or on SMs of different GPCs.
TEST(H100LrcProbe, TheCoalescerMergesOnlyWithinAGpc) {
  const CsvTable t = read_csv(WARPSCOPE_SOURCE_DIR "/validation/h100/lrc_probe/summary.csv");
  std::map<std::string, std::pair<double, double>> offered_merged;
  for (const auto& row : t.rows)
    offered_merged[row[static_cast<std::size_t>(t.column("config"))]] = {
        std::stod(row[static_cast<std::size_t>(t.column(kOffered))]),
        std::stod(row[static_cast<std::size_t>(t.column(kMerged))])};
  for (const char* c : {"cluster:2:64:256", "cluster:2:128:256", "cluster:2:64:1024"})
    EXPECT_EQ(offered_merged.at(c).second, offered_merged.at(c).first / 2) << c;
  EXPECT_EQ(offered_merged.at("cluster:4:64:256").second, 49152);
  for (const char* c : {"far:2:64:256", "far:4:64:256", "far:2:128:256", "far:2:64:1024", "alone:64:256"})
    EXPECT_EQ(offered_merged.at(c).second, 0) << c;
}

// g_ld4_misalign32 (docs/VALIDATION.md, "Misaligned loads' L2 hits"): fewer
// requests than the model's one per line and warp (4,096) for the same 8,192
// sectors, already so where requests reach the LRC, which merges no sector.
TEST(H100MergeProbe, MisalignedLoadsCombineSectorsOfALineBeforeTheCoalescer) {
  constexpr const char* kRequests = "lts__t_requests_srcunit_tex_op_read.sum";
  constexpr const char* kHits = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum";
  const auto probe = validate::read_ncu_csv(kDir + "global_rules.ncu.csv");
  const auto& p = launch(probe, "g_ld4_misalign32");
  EXPECT_EQ(value(p, "lrc__xbar2lrc_requests_op_read.sum"), 3808);
  EXPECT_EQ(value(p, kMerged), 0);
  EXPECT_EQ(value(p, kLts), 8192);
  EXPECT_EQ(value(p, kHits), 1792);
  const std::string runs[] = {WARPSCOPE_SOURCE_DIR "/validation/h100/suite/global_rules.ncu.csv",
                              WARPSCOPE_SOURCE_DIR "/validation/h100/suite_repeats/rep2/global_rules.ncu.csv",
                              WARPSCOPE_SOURCE_DIR "/validation/h100/suite_repeats/rep3/global_rules.ncu.csv"};
  const double requests[] = {3805, 3785, 3759}, hits[] = {1564, 1757, 1777};
  for (int i = 0; i < 3; ++i) {
    const auto r = validate::read_ncu_csv(runs[i]);
    const auto& l = launch(r, "g_ld4_misalign32");
    EXPECT_EQ(value(l, kLts), 8192) << runs[i];
    EXPECT_EQ(value(l, kRequests), requests[i]) << runs[i];
    EXPECT_EQ(value(l, kHits), hits[i]) << runs[i];
  }
}

}  // namespace
}  // namespace warpscope::test
