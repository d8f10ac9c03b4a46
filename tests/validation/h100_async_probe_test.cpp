// cp.async (PTX cp.async, SASS LDGSTS) against the H100 (validation/kernels/async_probe, recorded with
// validation/ptx_check.sh async_probe; docs/VALIDATION.md "cp.async"):
//  - the counters, from the PTX run: instructions, the reads' requests, sectors and L1 hits, the writes'
//    wavefronts and bank conflicts, and the reads in Nsight Compute's global-load tag counters, in 107
//    launches of copies of every size, cache operator, source and destination shape, zero fill, and
//    three kernels that use it (a double-buffered SGEMM, __pipeline_memcpy_async, cooperative_groups);
//  - the values: every checksum of what the copies put in shared memory, equal to the H100's.
#include <gtest/gtest.h>

#include <string>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";

TEST(H100AsyncProbe, CountersFromPtxMatchNsightCompute) {
  ValidateOptions o;
  o.ptx_dir = kRoot + "async_probe";
  const ValidationReport r = validate_directory(kRoot + "h100/async_probe", db(), o);
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 107u);
  EXPECT_EQ(s.exact_matched, s.exact);
  EXPECT_GE(s.exact, 4900u);
  std::size_t ldgsts = 0, known_ldgsts = 0;
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters) {
      // The 11 exact ldgsts counters of tolerances.toml (L1 hits and the data stage's own conflict count
      // are toleranced).
      const bool exact = c.counter.find("ldgsts") != std::string::npos && c.counter.find("lookup") == std::string::npos &&
                         c.counter.rfind("l1tex__data_bank_conflicts", 0) != 0;
      if (!exact) continue;
      // Every exact ldgsts counter of the .ca copies matches, and of .cg all but the known shapes.
      const bool cg = k.name.find("cg") != std::string::npos;
      if (c.verdict == Verdict::Known || c.verdict == Verdict::KnownPasses) {
        ++known_ldgsts;
        EXPECT_TRUE(cg) << k.label << " " << c.counter;
        continue;
      }
      EXPECT_EQ(c.verdict, Verdict::Exact) << k.label << " " << c.counter;
      ++ldgsts;
    }
  // 11 exact ldgsts counters a launch; the known ones are .cg reads split by their destinations.
  EXPECT_EQ(ldgsts + known_ldgsts, 107u * 11u);
  EXPECT_LE(known_ldgsts, 80u);
  // Measured points the rules rest on (rules/async_copy.hpp), per launch of 128 instructions
  // (16 CTAs x 4 warps x 2 waited repeats) or 64 (one copy a warp).
  auto value = [&](const std::string& label, const std::string& counter) { return hardware_and_model(r, label, counter); };
  const std::string wf = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
  EXPECT_EQ(value("cp_ca4#4", wf), std::make_pair(4096.0, 4096.0));         // one address: 32 each
  EXPECT_EQ(value("shape_ca4#3", wf), std::make_pair(192.0, 192.0));        // shared words, strided writes: 3
  EXPECT_EQ(value("cp_cg16#6", wf), std::make_pair(1536.0, 1536.0));        // 16 B past the line: 12
  EXPECT_EQ(value("cp_ca4#1", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum"),
            std::make_pair(256.0, 256.0));  // the repeat hits in L1
  EXPECT_EQ(value("cp_cg16#1", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum"),
            std::make_pair(2048.0, 2048.0));
  EXPECT_EQ(value("zfill_srcsize#1", "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum"),
            std::make_pair(0.0, 0.0));  // src-size 0 everywhere: no read
}

// The probe's launches, in its order (validation/async_probe/async_probe.run), each followed by the
// checksum the H100 printed after it (validation/h100/async_probe/run.txt). The SGEMM and the copy kernel
// read random bit patterns as floats: their checksums hold only with NaN results made canonical.
TEST(H100AsyncProbe, InterpreterCopiesWhatTheH100Copied) {
  ProbeReplay p(kRoot + "async_probe", "async_probe");
  std::size_t checksums = 0;
  p.replay(kRoot + "h100/async_probe/run.txt", [&](const std::string& kind, const std::string& label,
                                                   std::istringstream& rest, const std::string& kernel,
                                                   const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    // Which buffer the launch wrote, and how much of it (async_probe.cu's main()).
    std::string buffer = "out";
    std::size_t n = 16 * 128 * 4;
    if (kernel.rfind("banks_", 0) == 0) n = 16 * 32 * 4;
    if (kernel.rfind("sgemm", 0) == 0) buffer = "gc", n = 256 * 256 * 4;
    if (kernel == "pipeline_copy") buffer = "gy", n = 4 << 20;
    if (kernel == "cg_memcpy") buffer = "gy", n = 256 * 4096;
    EXPECT_EQ(fnv1a(p.bytes(buffer).data(), n), std::stoull(hex, nullptr, 16)) << label;
    ++checksums;
  });
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 103u);
}

}  // namespace
}  // namespace warpscope::test

namespace warpscope::test {
namespace {

// cp.async as tiled GEMMs use it (validation/kernels/async_gemm): 32 x 32 float tiles copied 16 B a lane
// into rows laid out plain, swizzled (chunk c of row r at c ^ (r % 8)) or padded to 144 B, with .ca, .cg
// and .cg.L2::128B. The model's wavefronts were printed before the H100 ran them (5,376 and 86,016 for
// the padded .cg copies); every exact counter matches but the known classes of async_probe.
TEST(H100AsyncGemm, CountersFromPtxMatchNsightCompute) {
  ValidateOptions o;
  o.ptx_dir = kRoot + "async_gemm";
  const ValidationReport r = validate_directory(kRoot + "h100/async_gemm", db(), o);
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 17u);
  EXPECT_EQ(s.exact_matched, s.exact);
  auto value = [&](const std::string& label, const std::string& counter) { return hardware_and_model(r, label, counter); };
  const std::string wf = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
  // 64 CTAs x 8 warps x one 16-byte copy: 4 wavefronts each, whatever the layout through L1 and
  // unpadded through L2; padded rows split .cg's line reads (21 a copy over 8 quarter rows: 5,376).
  EXPECT_EQ(value("tile_copy#1", wf), std::make_pair(2048.0, 2048.0));  // plain, .ca
  EXPECT_EQ(value("tile_copy#5", wf), std::make_pair(2048.0, 2048.0));  // swizzled, .cg
  EXPECT_EQ(value("tile_copy#7", wf), std::make_pair(2048.0, 2048.0));  // padded, .ca
  EXPECT_EQ(value("tile_copy#8", wf), std::make_pair(5376.0, 5376.0));  // padded, .cg
  EXPECT_EQ(value("sgemm#4", wf), std::make_pair(86016.0, 86016.0));   // padded, .cg
  // The column reads after the copy: plain rows conflict, the swizzle halves it, padding removes it.
  const std::string ld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
  EXPECT_EQ(value("tile_copy#1", ld), std::make_pair(14336.0, 14336.0));
  EXPECT_EQ(value("tile_copy#4", ld), std::make_pair(6144.0, 6144.0));
  EXPECT_EQ(value("tile_copy#7", ld), std::make_pair(0.0, 0.0));
}

TEST(H100AsyncGemm, InterpreterComputesWhatTheH100Computed) {
  ProbeReplay p(kRoot + "async_gemm", "async_gemm");
  std::size_t checksums = 0;
  p.replay(kRoot + "h100/async_gemm/run.txt", [&](const std::string& kind, const std::string& label,
                                                  std::istringstream& rest, const std::string& kernel,
                                                  const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    const std::string buffer = kernel.rfind("sgemm", 0) == 0 ? "C" : "out";
    EXPECT_EQ(fnv1a(p.bytes(buffer).data(), 256 * 256 * 4), std::stoull(hex, nullptr, 16)) << label;
    ++checksums;
  });
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 14u);
}

}  // namespace
}  // namespace warpscope::test
