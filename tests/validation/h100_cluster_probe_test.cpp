// Thread block clusters and distributed shared memory against the H100 (validation/kernels/cluster_probe, its
// dshared counters guessed before the run: validation/cluster_probe/predicted.txt; docs/VALIDATION.md "Distributed
// shared memory"). The interpreter runs clusters and records another CTA's shared memory as Space::DShared:
//  - the values: 11 checksums (loads of 7 patterns, a mapped own-CTA load, stores of 2, atomics) equal the H100's;
//  - the counters: every exact counter, the dshared ones included (a request a warp instruction with the 32-byte
//    sectors and 128-byte lines its lanes touch, as for global memory); a CTA's own shared memory reached through a
//    mapped address counts as shared memory; known: ptxas's expansion of a generic float atomicAdd.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "validate/ncu_csv.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";

TEST(H100ClusterProbe, CountersFromPtxMatchNsightCompute) {
  const ValidationReport r = ptx_validation_report("cluster_probe");
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 11u);
  EXPECT_EQ(s.exact, 694u);  // the atomics' expansion aside (known entries)
  EXPECT_EQ(s.exact_matched, s.exact);
  // A distributed load counts as a generic load and as a dshared one.
  for (const char* label : {"remote_ld#1", "remote_ld#4", "remote_ld#7"}) {
    EXPECT_EQ(hardware_and_model(r, label, "smsp__inst_executed_op_generic_ld.sum"), std::make_pair(512.0, 512.0)) << label;
    EXPECT_EQ(hardware_and_model(r, label, "smsp__sass_inst_executed_op_dshared_ld.sum"), std::make_pair(512.0, 512.0)) << label;
  }
  // A word every 128 bytes: 32 sectors and 32 lines an instruction, loads and stores alike.
  EXPECT_EQ(hardware_and_model(r, "remote_ld#3", "l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum"), std::make_pair(16384.0, 16384.0));
  EXPECT_EQ(hardware_and_model(r, "remote_ld#3", "l1tex__t_set_accesses_pipe_lsu_mem_dshared_op_ld.sum"), std::make_pair(16384.0, 16384.0));
  EXPECT_EQ(hardware_and_model(r, "remote_st#2", "l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum"), std::make_pair(16384.0, 16384.0));
  // Words 4 bytes off: 5 sectors over 2 lines.
  EXPECT_EQ(hardware_and_model(r, "remote_ld#6", "l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum"), std::make_pair(2560.0, 2560.0));
  EXPECT_EQ(hardware_and_model(r, "remote_ld#6", "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum"), std::make_pair(2560.0, 2560.0));
  // The mapped own-CTA load is the CTA's shared memory: 512 shared wavefronts, recorded and matched.
  EXPECT_EQ(hardware_and_model(r, "own_ld", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), std::make_pair(512.0, 512.0));
  EXPECT_EQ(hardware_and_model(r, "own_ld", "smsp__inst_executed_op_generic_ld.sum"), std::make_pair(512.0, 512.0));
}

// The guessed rule held for every load and store pattern (24 of 24); it was wrong for the own-CTA load (shared, not
// dshared: 3) and the atomics (ptxas's ATOM + CAS loop, not a reduction: 3).
TEST(H100ClusterProbe, DistributedSharedMemoryCountsSectorsAsGlobalMemoryDoes) {
  const validate::NcuReport ncu = validate::read_ncu_csv(kRoot + "h100/cluster_probe/cluster_probe.ncu.csv");
  ASSERT_EQ(ncu.launches.size(), 11u);
  // The guesses were of counters the model did not have: compared with Nsight Compute's CSV itself.
  EXPECT_EQ(predictions_held(kRoot + "cluster_probe/predicted.txt", ncu.launches.size(),
                             [&](std::size_t index, const std::string& counter) { return ncu.launches[index].number(counter); }),
            std::make_pair(std::size_t{27}, std::size_t{33}));
  // Sectors of 512 warp loads: coalesced words 4, every second word 8, a word every 128 B 32, one word 1, coalesced
  // 16 bytes 16, words 4 B off 5, 8 lanes 1 (each a request); the crossbar moves the same sectors.
  const double sectors[] = {4, 8, 32, 1, 16, 5, 1};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(ncu.launches[i].number("l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum"), 512.0) << i;
    EXPECT_EQ(ncu.launches[i].number("l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum"), 512.0 * sectors[i]) << i;
    EXPECT_EQ(ncu.launches[i].number("l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld.sum"), 512.0 * sectors[i]) << i;
  }
  EXPECT_EQ(ncu.launches[9].number("l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum"), 16384.0);  // a word every 128 B
  EXPECT_EQ(ncu.launches[7].number("l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum"), 0.0);    // own_ld
}

TEST(H100ClusterProbe, InterpreterComputesWhatTheH100Computed) {
  ProbeReplay p(kRoot + "cluster_probe", "cluster_probe");
  for (int m = 0; m < 7; ++m) p.aliases[fmt::format("remote_ld{}", m)] = fmt::format("remote_ld<{}>", m);
  p.aliases["remote_st0"] = "remote_st<0>";
  p.aliases["remote_st2"] = "remote_st<2>";
  std::size_t checksums = 0;
  p.replay(kRoot + "h100/cluster_probe/run.txt", [&](const std::string& kind, const std::string& label, std::istringstream& rest,
                                                    const std::string&, const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    auto& bytes = p.run.state->memory.allocation("out")->bytes;
    // main() checksums 16 CTAs x 128 floats read, or 16 x 4,096 of the arrays the other CTAs wrote.
    const std::size_t n = label.rfind("remote_st", 0) == 0 || label == "remote_atom" ? bytes.size() : 16 * 128 * 4;
    EXPECT_EQ(fmt::format("{:016x}", fnv1a(bytes.data(), n)), hex) << label;
    std::fill(bytes.begin(), bytes.end(), 0);
    ++checksums;
  });
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 11u);
}

}  // namespace
}  // namespace warpscope::test
