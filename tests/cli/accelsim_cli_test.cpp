// An Accel-Sim run (kernelslist.g and its kernel files) through `analyze` and
// `convert`: the counters of the hand-written trace in tests/trace/data/accelsim
// worked out by hand, and the note on what was skipped.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace warpscope::test {
namespace {

const std::string kList = WARPSCOPE_SOURCE_DIR "/tests/trace/data/accelsim/kernelslist.g";

TEST(CliAccelSim, AnalyzeCountsTheHandWrittenRun) {
  auto r = run_cli("analyze " + kList + " --arch sm_90 --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("skipped"), std::string::npos) << r.err;  // every memory instruction is modelled
  const auto j = nlohmann::json::parse(r.out);
  const auto& k0 = j["archs"][0]["kernels"][0];
  EXPECT_EQ(k0["name"], "stencil(float*, float*, int)");
  const auto& m = k0["metrics"];
  // Three coalesced 4-byte loads (a line, 4 sectors each) and one 16-byte cp.async of 512 B
  // (4 lines, 16 sectors): 4 requests, 28 sectors, 7 lines.
  EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 4);
  EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 28);
  EXPECT_EQ(m["l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum"], 7);
  // 16 lanes storing consecutive words, then 32 loading them: one wavefront each, no conflict; op_ld
  // also holds the LDSM's 4 (as Nsight Compute counts it).
  EXPECT_EQ(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 1);
  EXPECT_EQ(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 5);
  EXPECT_EQ(m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 0);
  // The generic LD.E.64 at 0x90 (two lanes, both in the local window): its sectors are local ones, its
  // instruction Nsight Compute's op_generic_ld, not op_local_ld.
  EXPECT_GT(m["l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"], 0);
  EXPECT_EQ(m["smsp__inst_executed_op_generic_ld.sum"], 1);
  EXPECT_EQ(m["smsp__inst_executed_op_local_ld.sum"], 0);
  // The ldmatrix of four matrices of contiguous 16-byte rows: one wavefront each, no conflict.
  EXPECT_EQ(m["smsp__inst_executed_op_ldsm.sum"], 1);
  EXPECT_EQ(m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"], 4);
  EXPECT_EQ(m["smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"], 0);
  // The atomic's operation came from the trace: no note about atomics without one.
  EXPECT_EQ(j["atomics_without_operation"], 0);
  const auto& k1 = j["archs"][0]["kernels"][1]["metrics"];
  EXPECT_EQ(k1["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 16);  // 512 B, __ldg
}

// Converted once to the native form, the run analyses to the same document (but for
// the trace's name): what the converter writes is all analyze needs.
TEST(CliAccelSim, ConvertedRunAnalysesTheSame) {
  const auto native = std::filesystem::temp_directory_path() / ("warpscope_accelsim_" + std::to_string(::getpid()) +
                                                                ".wst");
  ASSERT_EQ(run_cli("convert " + kList + " " + native.string()).exit_code, 0);
  auto direct = nlohmann::json::parse(run_cli("analyze " + kList + " --arch sm_35,sm_90 --json -").out);
  auto converted = nlohmann::json::parse(run_cli("analyze " + native.string() + " --arch sm_35,sm_90 --json -").out);
  direct.erase("trace");
  converted.erase("trace");
  EXPECT_EQ(direct, converted);
  EXPECT_EQ(converted["archs"][1]["top"].size(), 10u);  // every instruction: 8 PCs in kernel 0, 2 in kernel 1
  std::filesystem::remove(native);
}

TEST(CliAccelSim, ConvertSaysWhatWasSkipped) {
  auto r = run_cli("convert " + kList + " -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("atomic k=0 pc=0xa0 op=add"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("skipped"), std::string::npos) << r.err;  // LDSM is a record now
  EXPECT_NE(r.err.find("12 records, 2 kernels"), std::string::npos) << r.err;
  auto bad = run_cli("analyze " WARPSCOPE_SOURCE_DIR "/tests/trace/data/accelsim/kernelslist.g.missing --arch sm_90");
  EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace
}  // namespace warpscope::test
