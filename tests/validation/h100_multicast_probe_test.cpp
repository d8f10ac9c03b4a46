// The TMA's multicast (cp.async.bulk{.tensor} .multicast::cluster) against the H100 (validation/kernels/
// multicast_probe, predicted before the run: validation/multicast_probe/predicted.txt; docs/VALIDATION.md "TMA
// multicast"). One copy lands in both CTAs of a cluster: the interpreter writes every CTA of the ctaMask and
// completes each one's mbarrier; the H100 counts the copy's TMA sectors once per destination CTA (the model's
// delivery records, types.hpp kTensorRowDelivery) and reads L2 once.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";


TEST(H100MulticastProbe, CountersFromPtxMatchNsightCompute) {
  const ValidationReport r = passing_ptx_report("multicast_probe", 275);
  ASSERT_EQ(r.kernels.size(), 5u);
  const std::string sectors = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum";
  // 32 clusters, a 4 KB box each: 128 sectors a CTA that receives it, whoever issued it.
  for (const char* label : {"box#1", "box#2", "box#3", "bulk"}) EXPECT_EQ(hardware_and_model(r, label, sectors), std::make_pair(8192.0, 8192.0)) << label;
  EXPECT_EQ(hardware_and_model(r, "box#2", "smsp__inst_executed_op_tma_ld.sum"), std::make_pair(32.0, 32.0));  // rank 0's alone
  EXPECT_EQ(hardware_and_model(r, "box#3", "smsp__inst_executed_op_tma_ld.sum"), std::make_pair(64.0, 64.0));  // a half each
  // L2 reads the box once for both CTAs.
  EXPECT_EQ(hardware_and_model(r, "box#2", "lts__t_sectors_srcunit_tex_op_read.sum"), std::make_pair(4096.0, 4096.0));
  // Without multicast the two CTAs' loads of one box merge in the L2 request coalescer (one GPC): 4,096 sectors where
  // the model reads 8,192 (the known LRC class, docs/VALIDATION.md).
  EXPECT_EQ(hardware_and_model(r, "box#1", "lts__t_sectors_srcunit_tex_op_read.sum"), std::make_pair(4096.0, 8192.0));
  // Predicted before the run with the multicast counted once: 19 of 24 held.
  EXPECT_EQ(predictions_held(r, kRoot + "multicast_probe/predicted.txt"), std::make_pair(std::size_t{19}, std::size_t{24}));
}

TEST(H100MulticastProbe, InterpreterDeliversWhatTheH100Delivered) {
  ProbeReplay p(kRoot + "multicast_probe", "multicast_probe");
  for (int m = 0; m < 3; ++m) p.aliases[fmt::format("box{}", m)] = fmt::format("box<{}>", m);
  p.label_first_word = true;
  const std::size_t checksums = replay_checksums(p, kRoot + "h100/multicast_probe/run.txt");
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 4u);
}

}  // namespace
}  // namespace warpscope::test
