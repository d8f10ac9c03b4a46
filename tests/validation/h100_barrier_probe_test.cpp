// mbarrier and the bulk copies (cp.async.bulk, SASS UBLKCP) against the H100 (validation/kernels/barrier_probe,
// recorded with validation/barrier_probe.sh; docs/VALIDATION.md "mbarrier and bulk copies"):
//  - the counters, from the PTX run: every exact counter of 74 launches (instructions of each kind, shared
//    wavefronts, L1 and L2 requests and sectors, and the TMA's own: smsp__inst_executed_op_tma_ld/_st and the
//    sectors of its 128-byte pieces), with the known entries of tolerances.toml; the bulk copies' L2 requests
//    and sectors (toleranced counters, shown only in a PTX run) equal too where the L2 merged nothing;
//  - the same from the GPU tracer's trace of the probe (barrier_probe.wst: its bulk-copy patches), where the
//    L2 and DRAM counters are checked too;
//  - the values: every checksum of what the kernels computed, replayed through the PTX interpreter, equal
//    to the H100's: arrivals with counts, drops, two phases, waits by state and by parity, cuda::barrier,
//    cp.async completing on an mbarrier, and cuda::memcpy_async with a barrier.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";

TEST(H100BarrierProbe, CountersFromPtxMatchNsightCompute) {
  ValidateOptions o;
  o.ptx_dir = kRoot + "barrier_probe";
  const ValidationReport r = validate_directory(kRoot + "h100/barrier_probe", db(), o);
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 74u);  // fill and the 73 launches of main() it checksums
  EXPECT_EQ(s.exact_matched, s.exact);
  EXPECT_GE(s.exact, 4000u);
  std::size_t tma = 0, l2 = 0;
  for (const auto& k : r.kernels) {
    const bool bulk = k.name == "bulk_g2s" || k.name == "bulk_s2g" || k.label.rfind("memcpy_barrier#1", 0) == 0 ||
                      k.label == "memcpy_barrier#3";
    for (const auto& c : k.counters) {
      if (c.counter.find("tma") != std::string::npos) {
        EXPECT_EQ(c.verdict, Verdict::Exact) << k.label << " " << c.counter;
        tma += c.hardware > 0 ? 1 : 0;
      }
      // The L2's view of the bulk copies: requests and sectors of the pieces (rules/bulk_copy.hpp), except
      // reads 16 B past a line in pieces of 144 B and more, where the L2 merged a sector two pieces share.
      const bool l2_counter = c.counter == "lts__t_requests_srcunit_tex_op_read.sum" ||
                              c.counter == "lts__t_sectors_srcunit_tex_op_read.sum" ||
                              c.counter == "lts__t_requests_srcunit_tex_op_write.sum" ||
                              c.counter == "lts__t_sectors_srcunit_tex_op_write.sum";
      if (!bulk || !l2_counter) continue;
      const bool merged = k.name == "bulk_g2s" && c.hardware != c.model;
      if (merged) {
        EXPECT_LT(c.hardware, c.model) << k.label << " " << c.counter;
        EXPECT_GE(c.hardware, 0.75 * c.model) << k.label << " " << c.counter;  // at most one a piece boundary
        continue;
      }
      EXPECT_EQ(c.hardware, c.model) << k.label << " " << c.counter;
      ++l2;
    }
  }
  EXPECT_EQ(tma, 3u * (42 + 15 + 2));  // instructions, sectors and bytes of every bulk launch
  EXPECT_GE(l2, 4u * (42 + 15 + 2) - 12);
  auto value = [&](const std::string& label, const std::string& counter) { return hardware_and_model(r, label, counter); };
  const std::string sectors = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum";
  // 32 copies (16 CTAs x 2 repeats): 144 B at 16 B past a line is pieces 16-144 and 144-160, 5 + 1 sectors each;
  // 4 KB from a line start 32 whole lines.
  EXPECT_EQ(value("bulk_g2s#26", sectors), std::make_pair(192.0, 192.0));
  EXPECT_EQ(value("bulk_g2s#39", sectors), std::make_pair(4096.0, 4096.0));
  // Writes: one request per line a piece touches: 128 B at 16 B past a line is two.
  EXPECT_EQ(value("bulk_s2g#8", "lts__t_requests_srcunit_tex_op_write.sum"), std::make_pair(32.0, 32.0));
  EXPECT_EQ(value("bulk_s2g#8", "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum"), std::make_pair(80.0, 80.0));
}

// The tracer's trace of the same run (recorded on the H100 the same day): every exact counter, the TMA's
// included, and the toleranced ones within tolerance or known.
TEST(H100BarrierProbe, CountersFromTheTraceMatchNsightCompute) {
  const ValidationReport r = validate_directory(kRoot + "h100/barrier_probe", db(), ValidateOptions{});
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 74u);
  EXPECT_EQ(s.exact_matched, s.exact);
  EXPECT_GE(s.exact, 4000u);
  auto value = [&](const std::string& label, const std::string& counter) { return hardware_and_model(r, label, counter); };
  EXPECT_EQ(value("bulk_g2s#39", "smsp__inst_executed_op_tma_ld.sum"), std::make_pair(32.0, 32.0));
  EXPECT_EQ(value("bulk_s2g#15", "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum"), std::make_pair(2560.0, 2560.0));
  // A 16 KB copy from a line start misses in L2 once and hits on the repeat: half its sectors.
  EXPECT_EQ(value("bulk_g2s#41", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"), std::make_pair(8192.0, 8192.0));
}

// The probe's launches in its order (validation/barrier_probe/barrier_probe.run), each followed by the
// checksum the H100 printed after it (validation/h100/barrier_probe/run.txt).
TEST(H100BarrierProbe, InterpreterComputesWhatTheH100Computed) {
  ProbeReplay p(kRoot + "barrier_probe", "barrier_probe");
  p.aliases = {{"memcpy_barrier16", "memcpy_barrier<true>"}, {"memcpy_barrier4", "memcpy_barrier<false>"}};
  std::size_t checksums = 0;
  p.replay(kRoot + "h100/barrier_probe/run.txt", [&](const std::string& kind, const std::string& label,
                                                     std::istringstream& rest, const std::string& kernel,
                                                     const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    // bulk_s2g's launches write gw, which main() clears before each; the others write out.
    const bool store = kernel == "bulk_s2g";
    const std::string buffer = store ? "gw" : "out";
    const std::size_t n = store ? 16 * 65536 : 16 * 128 * 4;
    const auto& bytes = p.bytes(buffer);
    ASSERT_GE(bytes.size(), n);
    EXPECT_EQ(fmt::format("{:016x}", fnv1a(bytes.data(), n)), hex) << label;
    if (store) std::fill(p.run.state->memory.allocation("gw")->bytes.begin(), p.run.state->memory.allocation("gw")->bytes.end(), 0);
    ++checksums;
  });
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 73u);
}


// validation/kernels/bulk_pipeline: producer and consumer warps, mbarrier stages, rows copied by cp.async.bulk;
// its counters were predicted before the H100 ran it (validation/bulk_pipeline/predicted.txt). The prediction
// had the TMA-side sectors of the 128-byte rows wrong (8,192 against 9,216): the pieces end at the shared side's
// 128-byte boundaries, not 128 bytes from the start, which the probe, copying into aligned shared memory, could
// not tell apart. With that rule every exact counter of both runs matches.
TEST(H100BulkPipeline, CountersFromPtxAndTraceMatchNsightCompute) {
  for (const bool ptx : {true, false}) {
    ValidateOptions o;
    if (ptx) o.ptx_dir = kRoot + "bulk_pipeline";
    const ValidationReport r = validate_directory(kRoot + "h100/bulk_pipeline", db(), o);
    const ValidationSummary s = summarize(r);
    EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
    ASSERT_EQ(r.kernels.size(), 7u);
    EXPECT_EQ(s.exact_matched, s.exact) << "ptx " << ptx;
    const std::string sectors = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum";
    for (int launch = 1; launch <= 6; ++launch) {
      const std::string label = "row_sums#" + std::to_string(launch);
      // 2,048 rows: 4.5 sectors a 128 B row over the eight shared offsets, 5 a 144 B row.
      const double want = launch <= 3 ? 9216.0 : 10240.0;
      EXPECT_EQ(hardware_and_model(r, label, sectors), std::make_pair(want, want)) << label;
      EXPECT_EQ(hardware_and_model(r, label, "smsp__inst_executed_op_tma_ld.sum"), std::make_pair(2048.0, 2048.0)) << label;
      EXPECT_EQ(hardware_and_model(r, label, "smsp__inst_executed_op_tma_st.sum"), std::make_pair(64.0, 64.0)) << label;
    }
  }
}

// What the rows summed to, through the interpreter's pipeline of warps and barriers: the H100's checksums.
TEST(H100BulkPipeline, InterpreterSumsWhatTheH100Summed) {
  ProbeReplay p(kRoot + "bulk_pipeline", "bulk_pipeline");
  std::size_t checksums = 0;
  p.replay(kRoot + "h100/bulk_pipeline/run.txt", [&](const std::string& kind, const std::string& label,
                                                         std::istringstream& rest, const std::string&,
                                                         const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    const auto& bytes = p.bytes("out");
    EXPECT_EQ(fmt::format("{:016x}", fnv1a(bytes.data(), 2048 * 4)), hex) << label;
    ++checksums;
  });
  EXPECT_EQ(checksums, 6u);
}


// validation/kernels/bulk_offsets: 256-byte copies at every pair of global and shared offsets, both ways, predicted
// before the H100 ran them (validation/bulk_offsets/predicted.txt). The shared-boundary rule held on all 32: the
// TMA's sectors and the L2 write requests exactly, the L2 read requests on 31 (one launch had 2 merged away).
TEST(H100BulkOffsets, PiecesEndAtTheSharedSidesBoundariesBothWays) {
  for (const bool ptx : {true, false}) {
    ValidateOptions o;
    if (ptx) o.ptx_dir = kRoot + "bulk_offsets";
    const ValidationReport r = validate_directory(kRoot + "h100/bulk_offsets", db(), o);
    const ValidationSummary s = summarize(r);
    EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
    ASSERT_EQ(r.kernels.size(), 33u);
    EXPECT_EQ(s.exact_matched, s.exact) << "ptx " << ptx;
    // Launch 2k-1 is g2s<GO, SO>, 2k is s2g<GO, SO>, GO and SO each 0, 16, 48, 112 (GO outer).
    const int offsets[] = {0, 16, 48, 112};
    for (int k = 0; k < 16; ++k) {
      const int go = offsets[k / 4], so = offsets[k % 4];
      // By hand: pieces end where the shared side crosses 128 B; each reads the sectors it covers (x 32 copies).
      std::uint64_t sectors = 0;
      for (std::uint64_t a = 0, next = 0; a < 256; a = next) {
        next = std::min<std::uint64_t>(256, a + 128 - (so + a) % 128);
        sectors += (go + next - 1) / 32 - (go + a) / 32 + 1;
      }
      const std::string g2s = "g2s#" + std::to_string(k + 1), s2g = "s2g#" + std::to_string(k + 1);
      const double read = 32.0 * static_cast<double>(sectors), write = 16.0 * static_cast<double>(sectors);
      EXPECT_EQ(hardware_and_model(r, g2s, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum"),
                std::make_pair(read, read)) << go << " " << so;
      EXPECT_EQ(hardware_and_model(r, s2g, "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum"),
                std::make_pair(write, write)) << go << " " << so;
    }
  }
}


// What bulk_offsets' copies moved, through the interpreter: the H100's 32 checksums.
TEST(H100BulkOffsets, InterpreterCopiesWhatTheH100Copied) {
  ProbeReplay p(kRoot + "bulk_offsets", "bulk_offsets");
  std::size_t checksums = 0;
  p.replay(kRoot + "h100/bulk_offsets/run.txt", [&](const std::string& kind, const std::string& label,
                                                   std::istringstream& rest, const std::string& kernel,
                                                   const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    const bool store = kernel.rfind("s2g", 0) == 0;  // main() clears w before each store launch
    const auto& bytes = p.bytes(store ? "w" : "out");
    EXPECT_EQ(fmt::format("{:016x}", fnv1a(bytes.data(), store ? 16 * 4096 : 16 * 64 * 4)), hex) << label;
    if (store) std::fill(p.run.state->memory.allocation("w")->bytes.begin(), p.run.state->memory.allocation("w")->bytes.end(), 0);
    ++checksums;
  });
  EXPECT_EQ(checksums, 32u);
}

}  // namespace
}  // namespace warpscope::test
