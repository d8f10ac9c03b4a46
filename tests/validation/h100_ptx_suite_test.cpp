// The validation suite run by the PTX interpreter instead of the GPU tracer
// (validation/ptx, docs/VALIDATION.md "PTX runs"): the exact counters of the
// 210 H100 launches from PTX alone, and the same counters as the recorded
// traces give, but for the six that ptxas's rewrites change (validation/ptx/
// known.toml).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "test_support.hpp"
#include "trace/trace_test_util.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

// validate DIR --ptx PTXDIR, both under validation/.
ValidationReport ptx_validation(const std::string& dir, const std::string& ptx_dir) {
  ValidateOptions o;
  o.ptx_dir = std::string(WARPSCOPE_SOURCE_DIR "/validation/") + ptx_dir;
  return validate_directory(std::string(WARPSCOPE_SOURCE_DIR "/validation/") + dir, db(), o);
}

TEST(H100PtxSuite, EveryExactCounterFromPtxAloneButPtxasRewrites) {
  const ValidationReport r = ptx_validation("h100/suite", "ptx");
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  EXPECT_EQ(s.apps, 15u);  // every application of the suite has a PTX program and script
  EXPECT_EQ(r.kernels.size(), 210u);
  EXPECT_EQ(s.exact, 6256u);
  EXPECT_EQ(s.exact_matched, s.exact);
  // Known mismatches of exact counters that a PTX run adds to the traces': validation/ptx/known.toml's six.
  const ValidationReport traced = validate_directory(WARPSCOPE_SOURCE_DIR "/validation/h100/suite", db());
  ASSERT_EQ(traced.kernels.size(), r.kernels.size());
  std::set<std::string> added;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    std::map<std::string, Verdict> before;
    for (const auto& c : traced.kernels[i].counters) before[c.counter] = c.verdict;
    for (const auto& c : r.kernels[i].counters)
      if (c.unit == ErrorUnit::Count && c.verdict == Verdict::Known && before.at(c.counter) != Verdict::Known)
        added.insert(r.kernels[i].name + " " + c.counter);
  }
  EXPECT_EQ(added.size(), 6u);
  for (const auto& k : added) EXPECT_TRUE(k.rfind("r_sgemm_tiled16 ", 0) == 0 || k.rfind("r_spmv_csr_scalar ", 0) == 0) << k;
  // Cache counters: shown, not enforced; at least as many launches within 5 points / 10% as when
  // written (docs/VALIDATION.md "PTX runs"): 166 of 210, against 175 from the traces.
  EXPECT_EQ(s.kernels_toleranced, 210u);
  EXPECT_GE(s.kernels_within, 166u);
  // A PTX run records the constant loads a trace cannot: every k_const_* launch's DRAM reads within
  // 256 B of the H100's (the traces' miss up to 3,840 B), five exact.
  std::size_t constant = 0, exact = 0;
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters)
      if (k.name.rfind("k_const_", 0) == 0 && c.counter == "dram__bytes_read.sum") {
        ++constant;
        EXPECT_LE(std::abs(c.model - c.hardware), 256.0) << k.name;
        exact += c.model == c.hardware;
      }
  EXPECT_EQ(constant, 7u);
  EXPECT_EQ(exact, 5u);

  // Every counter that the traced run matched exactly: the PTX run's model gives the same value, but
  // for the six above (one run of each costs ~10 s: one test).
  const ValidationReport& ptx = r;
  std::size_t compared = 0, differ = 0;
  for (std::size_t i = 0; i < ptx.kernels.size(); ++i) {
    const auto& a = ptx.kernels[i];
    const auto& b = traced.kernels[i];
    ASSERT_EQ(a.label, b.label);
    std::map<std::string, double> model;
    for (const auto& c : b.counters)
      if (c.verdict == Verdict::Exact) model[c.counter] = c.model;  // the traced run matched the H100 exactly
    for (const auto& c : a.counters) {
      const auto it = model.find(c.counter);
      if (it == model.end()) continue;
      ++compared;
      if (it->second != c.model) {
        ++differ;
        EXPECT_EQ(c.verdict, Verdict::Known) << a.label << " " << c.counter << ": PTX " << c.model << ", trace " << it->second;
      }
    }
  }
  EXPECT_EQ(compared, 6262u);
  EXPECT_EQ(differ, 6u);
}

// The blind check (validation/kernels/ptx_blind, docs/VALIDATION.md "PTX runs, blind"): ten kernels
// written after the interpreter, predicted before the H100 ran them. 278 of 300 exact counters matched
// the prediction, 282 since red_probe corrected the reductions' rule; the 18 others are
// validation/ptx_blind/known.toml's, each still a mismatch (an entry that starts to pass fails here,
// so it is removed once its cause is fixed).
TEST(H100PtxSuite, BlindKernels) {
  const ValidationReport r = ptx_validation("h100/ptx_blind", "ptx_blind");
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  EXPECT_EQ(r.kernels.size(), 10u);
  EXPECT_EQ(s.exact, 282u);
  EXPECT_EQ(s.exact_matched, 282u);
  std::size_t known_exact = 0;
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters)
      if (c.unit == ErrorUnit::Count && (c.verdict == Verdict::Known || c.verdict == Verdict::KnownPasses)) {
        ++known_exact;
        EXPECT_EQ(c.verdict, Verdict::Known) << k.name << " " << c.counter << " matches now: remove its known.toml entry";
        EXPECT_NE(c.model, c.hardware) << k.name << " " << c.counter;
      }
  EXPECT_EQ(known_exact, 18u);
  EXPECT_GE(s.kernels_within, 9u);
}

// Global reductions whose lanes share addresses (validation/kernels/red_probe, recorded with
// validation/ptx_check.sh red_probe): one pass per rank of a lane on its address, one request per line
// of a pass, exactly on all 14 launches, the 64-random-bin ones included (the word-slot rule that the
// random ATOMG.MAX gather needs over-counts them by 22%: it stays for ATOMG).
TEST(H100PtxSuite, ReductionsOnSharedAddresses) {
  const ValidationReport r = ptx_validation("h100/red_probe", "red_probe");
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  EXPECT_EQ(r.kernels.size(), 14u);
  EXPECT_EQ(s.exact, 420u);
  EXPECT_EQ(s.exact_matched, 420u);
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters)
      if (c.counter == "lts__t_requests_srcunit_tex_op_red.sum" && k.name.rfind("r_bins64", 0) == 0) {
        EXPECT_EQ(c.hardware, 9755.0);
      }
}

// L2 write merging (validation/kernels/write_merge_probe; tolerances.toml's known class, met again by the
// blind check; not modelled): a warp's
// two stores into the same lines back to back merge (4,359 requests for 8,192 line-stores), with four
// other stores between them they do not (16,382); single-lane stores of a CTA's warps into one sector
// merge about in pairs (1,022 for 2,048). Everything else of the probe is exact.
TEST(H100PtxSuite, WriteMerging) {
  const ValidationReport r = ptx_validation("h100/write_merge_probe", "write_merge_probe");
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  EXPECT_EQ(r.kernels.size(), 9u);
  EXPECT_EQ(s.exact, 261u);
  EXPECT_EQ(s.exact_matched, 261u);
  std::map<std::string, double> requests;
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters)
      if (c.counter == "lts__t_requests_srcunit_tex_op_write.sum") {
        requests[k.name] = c.hardware;
        if (c.verdict == Verdict::Known) {
          EXPECT_NE(c.model, c.hardware) << k.name;  // no stale entry
        }
      }
  EXPECT_EQ(requests.at("m_even_then_odd"), 4359.0);
  EXPECT_EQ(requests.at("m_even_gap4_odd"), 16382.0);
  EXPECT_EQ(requests.at("m_two_lines"), 4096.0);
  EXPECT_EQ(requests.at("m_lane0_consecutive"), 1022.0);
  EXPECT_EQ(requests.at("m_lane0_own_sector"), 2048.0);
}

}  // namespace
}  // namespace warpscope::test
