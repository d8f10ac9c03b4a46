// st.async and red.async against the H100 (validation/kernels/async_store_probe, predicted before the run:
// validation/async_store_probe/predicted.txt; docs/VALIDATION.md "st.async and red.async"). A store or reduction
// into another CTA of the cluster completing an mbarrier there: the interpreter writes the peer's shared memory and
// completes its mbarrier; the H100 counts st.async's tag-stage traffic as a distributed-shared-memory store's and its
// instruction apart (op_dshared_stas), red.async as op_redas with lanes on one word a pass each.
#include <gtest/gtest.h>

#include <string>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";

TEST(H100AsyncStoreProbe, CountersFromPtxMatchNsightCompute) {
  const ValidationReport r = passing_ptx_report("async_store_probe", 414);
  ASSERT_EQ(r.kernels.size(), 6u);
  // 64 CTAs x 4 warps x 8 rounds: 2,048 STAS, none counted as op_dshared_st, their sectors in op_st's.
  EXPECT_EQ(hardware_and_model(r, "st_async#1", "smsp__sass_inst_executed_op_dshared_stas.sum"), std::make_pair(2048.0, 2048.0));
  EXPECT_EQ(hardware_and_model(r, "st_async#1", "smsp__sass_inst_executed_op_dshared_st.sum"), std::make_pair(0.0, 0.0));
  EXPECT_EQ(hardware_and_model(r, "st_async#2", "l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum"), std::make_pair(32768.0, 32768.0));
  // red.async of 32 lanes on one word: a request, 32 passes of a sector and a set access each.
  EXPECT_EQ(hardware_and_model(r, "red_async#2", "l1tex__t_requests_pipe_lsu_mem_dshared_op_redas.sum"), std::make_pair(2048.0, 2048.0));
  EXPECT_EQ(hardware_and_model(r, "red_async#2", "l1tex__t_sectors_pipe_lsu_mem_dshared_op_redas.sum"), std::make_pair(65536.0, 65536.0));
  // Predicted as plain dshared stores and atomics: st.async's 12 traffic counts held; its instructions (op_dshared_stas,
  // not _st) and all of red.async's (op_redas, not op_atom) did not.
  EXPECT_EQ(predictions_held(r, kRoot + "async_store_probe/predicted.txt"), std::make_pair(std::size_t{12}, std::size_t{24}));
}

TEST(H100AsyncStoreProbe, InterpreterWritesWhatTheH100Wrote) {
  ProbeReplay p(kRoot + "async_store_probe", "async_store_probe");
  for (int m = 0; m < 4; ++m) p.aliases[fmt::format("st_async{}", m)] = fmt::format("st_async<{}>", m);
  for (int m = 0; m < 2; ++m) p.aliases[fmt::format("red_async{}", m)] = fmt::format("red_async<{}>", m);
  const std::size_t checksums = replay_checksums(p, kRoot + "h100/async_store_probe/run.txt");
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 6u);
}

}  // namespace
}  // namespace warpscope::test
