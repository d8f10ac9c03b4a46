// The counter -> profiler-name table and the derived metrics.
#include <gtest/gtest.h>

#include <set>

#include "memory_test_support.hpp"
#include "validate/tolerances.hpp"
#include "warpscope/metric_names.hpp"

namespace warpscope::test {
namespace {

const Metric* find(const std::vector<Metric>& ms, std::string_view name) {
  for (const Metric& m : ms)
    if (m.name == name) return &m;
  return nullptr;
}

TEST(MetricNames, TableIsWellFormed) {
  std::set<std::string_view> keys, ncu;
  for (const MetricName& m : metric_table()) {
    EXPECT_TRUE(keys.insert(m.our_key).second) << "duplicate key " << m.our_key;
    EXPECT_NE(m.value, nullptr) << m.our_key;
    if (m.ncu.empty()) continue;
    EXPECT_TRUE(ncu.insert(m.ncu).second) << "duplicate ncu name " << m.ncu;
    const bool suffix = m.ncu.ends_with(".sum") || m.ncu.ends_with(".pct") || m.ncu.ends_with(".ratio");
    EXPECT_TRUE(suffix) << m.ncu;
  }
  EXPECT_NE(find_metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), nullptr);
  EXPECT_NE(find_metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld"), nullptr);
  EXPECT_EQ(find_metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld")->our_key, "global_ld.sectors");
  EXPECT_EQ(find_metric("dram_read_bytes")->our_key, "dram.read_bytes");
  EXPECT_EQ(find_metric("no_such_metric"), nullptr);
  // Names checked against ncu's gh100 list vs. names from the documentation only.
  EXPECT_TRUE(find_metric("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum")->ncu_listed);
  EXPECT_TRUE(find_metric("lts__t_sectors_srcunit_tex_op_atom.sum")->ncu_listed);  // validation/h100/atomics_probe
  // ncu 2025.3 lists no smsp__inst_executed_op_global_atom for gh100 (validation/suite_metrics.txt)
  EXPECT_FALSE(find_metric("smsp__inst_executed_op_global_atom.sum")->ncu_listed);
}

// Named as each generation's profiler names them.
TEST(MetricNames, NamesPerGeneration) {
  auto m = memory("sm_90");
  m->access(line_access(kBase), 0);
  const auto h100 = metrics(m->kernel_counters(), arch("sm_90"));
  ASSERT_NE(find(h100, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), nullptr);
  EXPECT_EQ(find(h100, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")->value, 4);
  EXPECT_EQ(find(h100, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")->value, 1);
  EXPECT_EQ(find(h100, "smsp__inst_executed_op_global_ld.sum")->value, 1);
  EXPECT_EQ(find(h100, "lts__t_sectors_srcunit_tex_op_read.sum")->value, 4);
  EXPECT_EQ(find(h100, "dram__bytes_read.sum")->value, 128);
  EXPECT_EQ(find(h100, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio")->value, 4);
  EXPECT_EQ(find(h100, "gld_transactions"), nullptr);

  // 5.x/6.x nvprof: gld_transactions are 32 B sectors (Nsight Compute's nvprof comparison table).
  auto p = memory("sm_61");
  p->access(line_access(kBase), 0);
  const auto pascal = metrics(p->kernel_counters(), arch("sm_61"));
  EXPECT_EQ(find(pascal, "gld_transactions")->value, 4);
  EXPECT_EQ(find(pascal, "gld_transactions_per_request")->value, 4);
  EXPECT_EQ(find(pascal, "l2_tex_read_transactions")->value, 4);

  // 2.x/3.x: the generation's transactions (one 128 B line for a caching load).
  auto f = memory("sm_20");
  f->access(line_access(kBase), 0);
  const auto fermi = metrics(f->kernel_counters(), arch("sm_20"));
  EXPECT_EQ(find(fermi, "gld_transactions")->value, 1);
  EXPECT_EQ(find(fermi, "gld_transactions_per_request")->value, 1);
  EXPECT_EQ(find(fermi, "l2_l1_read_transactions")->value, 4);
  EXPECT_NE(find(fermi, "l1_cache_global_hit_rate"), nullptr);

  // 1.x: no L2 rows.
  const auto tesla = metrics(Counters{}, arch("sm_13"));
  EXPECT_EQ(find(tesla, "l2_tex_read_transactions"), nullptr);
  EXPECT_EQ(find(tesla, "l2_l1_read_transactions"), nullptr);
  EXPECT_NE(find(tesla, "gld_efficiency"), nullptr);
}

// seed001 bus utilization: all lanes read one 4-byte word. Caching load:
// 4 / 128 = 3.125 %; non-caching: 4 / 32 = 12.5 %. Wasted: 124 and 28 bytes.
TEST(MetricNames, BusUtilizationOfTheSeedScenarios) {
  for (auto [cache, pct, wasted] : {std::tuple{CacheOp::Ca, 3.125, 124.0}, std::tuple{CacheOp::Cg, 12.5, 28.0}}) {
    auto m = memory("sm_20");
    m->access(make({Space::Global, Op::Load, 4, cache}, [](int) { return kBase; }), 0);
    const auto ms = metrics(m->kernel_counters(), arch("sm_20"));
    EXPECT_DOUBLE_EQ(find(ms, "gld_efficiency")->value, pct);
    EXPECT_DOUBLE_EQ(find(ms, "global_ld.bytes_wasted")->value, wasted);
  }
}

TEST(MetricNames, HitRates) {
  auto m = memory("sm_90");
  m->access(line_access(kBase), 0);
  m->access(line_access(kBase), 0);  // 4 of 8 sectors hit in L1
  m->access(line_access(kBase), 1);  // SM 1: 4 L2 hits of 8 L2 sectors
  const auto ms = metrics(m->kernel_counters(), arch("sm_90"));
  EXPECT_DOUBLE_EQ(find(ms, "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct")->value, 100.0 * 4 / 12);
  EXPECT_DOUBLE_EQ(find(ms, "lts__t_sector_op_read_hit_rate.pct")->value, 50.0);
  EXPECT_EQ(find(ms, "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum")->value, 4);
}

}  // namespace
}  // namespace warpscope::test

namespace warpscope::test {
namespace {

// What `analyze` prints under "from" agrees with what the H100 measured
// (validation/h100/suite/tolerances.toml, checked by validate_h100_suite):
// every counter the hardware matches exactly rests on the access pattern
// ("rules"), except the L2 write counters, which the cache model decides in
// general (write-back L1s of 2.x/3.x local memory) and which the H100's
// write-through L1 makes exact; every toleranced hit rate and DRAM count
// rests on the modelled caches.
TEST(MetricNames, WhatAValueRestsOnAgreesWithTheH100) {
  const validate::Tolerances tol =
      validate::load_tolerances(WARPSCOPE_SOURCE_DIR "/validation/h100/suite/tolerances.toml");
  int exact = 0, rates = 0;
  for (const auto& [counter, check] : tol.counters) {
    const MetricName* m = find_metric(counter);
    if (!m) continue;  // an ncu column the model does not name (atom+red instructions)
    if (check.kind == validate::CheckKind::Exact) {
      ++exact;
      if (counter.starts_with("lts__t_") && counter.find("_op_write") != std::string::npos) {
        EXPECT_TRUE(m->depends_on_caches) << counter;
      } else {
        EXPECT_FALSE(m->depends_on_caches) << counter;
      }
    } else if (check.kind == validate::CheckKind::Rate || counter.starts_with("dram__")) {
      ++rates;
      EXPECT_TRUE(m->depends_on_caches) << counter;
    }
  }
  EXPECT_GT(exact, 20);
  EXPECT_GT(rates, 8);
  EXPECT_EQ(basis_name(false), "rules");
  EXPECT_EQ(basis_name(true), "caches");
}

}  // namespace
}  // namespace warpscope::test
