// The WMMA API (wmma.load / wmma.store / wmma.mma) against the H100 (validation/kernels/wmma_probe, recorded
// with validation/ptx_check.sh wmma_probe; docs/VALIDATION.md "wmma"):
//  - the fragment layouts: every register of every lane after a wmma.load of 43 fragment kinds (each
//    shape, type, use and memory layout the probe has), equal to what the H100 loaded;
//  - the values: every checksum of registers, shared memory, stores and mma results (D = A B + C in
//    each shape and type, and a tiled GEMM), equal to the H100's;
//  - the counters, from the PTX run: what ptxas made of each wmma.load / store (LDSM, 32-bit LDG/LDS per
//    8 x 8 block, runs and elements of 32- and 64-bit fragments) gives Nsight Compute's instructions,
//    requests, sectors, shared wavefronts and LDSM counters exactly, the GEMM's bank conflicts among them,
//    and the generic LD.E / ST.E of the bf16, tf32 and f64 fragments as op_generic instructions.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <cstring>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";

TEST(H100WmmaProbe, CountersFromPtxMatchNsightCompute) {
  ValidateOptions o;
  o.ptx_dir = kRoot + "wmma_probe";
  const ValidationReport r = validate_directory(kRoot + "h100/wmma_probe", db(), o);
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 156u);
  EXPECT_EQ(s.exact_matched, s.exact);
  EXPECT_GE(s.exact, 5000u);
  std::size_t ldsm = 0, shared = 0, generic = 0;
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters) {
      // Every shared-memory and LDSM counter of the wmma kernels is exact, bank conflicts included
      // (tolerances.toml allows other traffic to add some; here there is none).
      const bool wmma = k.name.rfind("sh_", 0) == 0 || k.name == "wgemm";
      if (wmma && c.counter.find("ldsm") != std::string::npos) {
        ++ldsm;
        EXPECT_EQ(c.model, c.hardware) << k.label << " " << c.counter;
      }
      if (wmma && c.counter.find("mem_shared_op_") != std::string::npos && c.verdict != Verdict::Known) {
        ++shared;
        EXPECT_EQ(c.model, c.hardware) << k.label << " " << c.counter;
      }
      // The bf16, tf32 and f64 wmma loads and stores are generic LD.E / ST.E: counted as op_generic
      // (generic_instructions.hpp), exactly, and not in op_shared_ld / op_global_ld.
      if (c.counter.rfind("smsp__inst_executed_op_generic_", 0) == 0 && c.hardware > 0 && c.verdict != Verdict::Known) {
        ++generic;
        EXPECT_EQ(c.model, c.hardware) << k.label << " " << c.counter;
      }
      if (c.unit == ErrorUnit::Count && c.verdict == Verdict::Known) {
        EXPECT_NE(c.model, c.hardware) << "stale known entry: " << k.label << " " << c.counter;
      }
      // The GEMM's rows of 64 B put the 8 rows of a block on 4 banks' worth of 16 B: 10,240 conflicts;
      // rows padded to 80 B have none.
      if (k.name == "wgemm" && c.counter == "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum") {
        EXPECT_EQ(c.hardware, k.label == "wgemm#1" ? 10240.0 : 0.0) << k.label;
      }
    }
  EXPECT_GE(ldsm, 40u * 3u);
  EXPECT_GE(shared, 200u);
  EXPECT_GE(generic, 15u);
}

// The probe's launches, in its order (validation/wmma_probe/wmma_probe.run), each followed by the
// checksums and register dumps the H100 printed after it (validation/h100/wmma_probe/run.txt).
TEST(H100WmmaProbe, InterpreterComputesWhatTheH100Computed) {
  ProbeReplay p(kRoot + "wmma_probe", "wmma_probe");
  std::size_t checksums = 0, dumps = 0, words = 0;
  auto bytes_of = [&](const std::string& buffer, std::size_t offset, std::size_t n) {
    const auto& b = p.bytes(buffer);
    return std::vector<std::uint8_t>(b.begin() + static_cast<std::ptrdiff_t>(offset), b.begin() + static_cast<std::ptrdiff_t>(offset + n));
  };
  p.replay(kRoot + "h100/wmma_probe/run.txt", [&](const std::string& kind, const std::string& label,
                                                  std::istringstream& ls, const std::string& kernel,
                                                  const std::vector<std::uint64_t>& args) {
    if (kind == "checksum") {
      std::string hex;
      ls >> hex;
      // Which buffer the label's launch wrote, and how much of it (wmma_probe.cu's main()).
      std::string buffer = "out";
      std::size_t n = 16 * 128 * 4;
      if (kernel == "gl_c_f32_store") buffer = "gf", n = 64 * 16 * args[1] * 4;
      if (kernel.rfind("mma_", 0) == 0) buffer = "md", n = kernel == "mma_f16_f16_row_row" || kernel == "mma_f64_f64" ? 512 : 1024;
      if (kernel.rfind("wgemm", 0) == 0) buffer = "gc", n = 128 * 128 * 4;
      const auto b = bytes_of(buffer, 0, n);
      EXPECT_EQ(fnv1a(b.data(), b.size()), std::stoull(hex, nullptr, 16)) << label;
      ++checksums;
    } else if (kind == "words") {
      // A layout kernel's registers, lane after lane, after its 16-byte header.
      std::vector<std::uint32_t> want;
      for (std::string w; ls >> w;) want.push_back(static_cast<std::uint32_t>(std::stoul(w, nullptr, 16)));
      const auto b = bytes_of("lay", 16, want.size() * 4);
      for (std::size_t i = 0; i < want.size(); ++i) {
        std::uint32_t got = 0;
        std::memcpy(&got, b.data() + 4 * i, 4);
        EXPECT_EQ(got, want[i]) << label << " lane " << i / (want.size() / 32) << " word " << i % (want.size() / 32);
      }
      ++dumps;
      words += want.size();
    }
  });
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 81u);
  EXPECT_EQ(dumps, 53u);
  EXPECT_GT(words, 5000u);
}

}  // namespace
}  // namespace warpscope::test
