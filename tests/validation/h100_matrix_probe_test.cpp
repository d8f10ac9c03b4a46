// ldmatrix, stmatrix and mma.sync against the H100 (validation/kernels/matrix_probe, recorded with
// validation/ptx_check.sh matrix_probe and traced with warpscope trace; docs/VALIDATION.md "ldmatrix,
// stmatrix and mma"):
//  - the model's counters: every LDSM/STSM wavefront and bank conflict of 90 launches (5 ldmatrix and 4
//    stmatrix forms x 10 row patterns) and of a tiled tensor-core GEMM with and without padded rows;
//  - the interpreter's values: the checksum of every thread's registers after each ldmatrix launch, of
//    shared memory after each stmatrix launch, the mma kernels' D fragments word for word, and the GEMM's
//    C, all equal to what the H100 computed (validation/h100/matrix_probe/run.txt).
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ptx/ptx_test_support.hpp"
#include "test_support.hpp"
#include "trace/trace_test_util.hpp"
#include "tracer/demangle.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";

// The same checks on the records of the GPU tracer (validation/h100/matrix_probe/matrix_probe.wst: its
// Sanitizer patch of ldmatrix/stmatrix sends the row lanes only) and of the PTX interpreter.
void expect_matrix_counters_exact(const ValidationReport& r, const std::string& from) {
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << from << ": " << (s.failures.empty() ? "" : s.failures.front());
  ASSERT_EQ(r.kernels.size(), 109u) << from;
  EXPECT_EQ(s.exact, 3896u) << from;
  EXPECT_EQ(s.exact_matched, 3896u) << from;
  std::size_t matrix_counters = 0, gemm_shared = 0;
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters) {
      const bool matrix = c.counter.find("ldsm") != std::string::npos || c.counter.find("stsm") != std::string::npos;
      const bool shared = c.counter.find("mem_shared_op_") != std::string::npos;
      // Bank conflicts are toleranced in tolerances.toml (other traffic can add some); here every one is exact.
      if (matrix || (shared && (k.name.rfind("ldsm", 0) == 0 || k.name.rfind("stsm", 0) == 0))) {
        ++matrix_counters;
        EXPECT_EQ(c.model, c.hardware) << from << " " << k.label << " " << c.counter;
      }
      if (k.name == "hgemm_tiles" && shared) {
        ++gemm_shared;
        EXPECT_EQ(c.model, c.hardware) << from << " " << k.label << " " << c.counter;
      }
      // No stale known entry: each one is still a mismatch.
      if (c.unit == ErrorUnit::Count && c.verdict == Verdict::Known) {
        EXPECT_NE(c.model, c.hardware) << from << " " << k.label << " " << c.counter;
      }
    }
  // 90 launches x (wavefronts and conflicts of op_ld and op_st, the matrix op's instructions, own wavefronts
  // and conflicts) ...
  EXPECT_GE(matrix_counters, 90u * 6u) << from;
  EXPECT_GE(gemm_shared, 8u) << from;
  // ... among them the unpadded GEMM's 4-way conflicts (rows of 64 B) against none padded (80 B).
  for (const auto& k : r.kernels)
    for (const auto& c : k.counters)
      if (k.name == "hgemm_tiles" && c.counter == "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum") {
        EXPECT_EQ(c.hardware, k.label == "hgemm_tiles#1" ? 6144.0 : 0.0) << k.label;
      }
}

TEST(H100MatrixProbe, EveryMatrixCounterExactFromTheGpuTrace) {
  expect_matrix_counters_exact(validate_directory(kRoot + "h100/matrix_probe", db()), "trace");
}

TEST(H100MatrixProbe, EveryMatrixCounterExactFromPtx) {
  ValidateOptions o;
  o.ptx_dir = kRoot + "matrix_probe";
  expect_matrix_counters_exact(validate_directory(kRoot + "h100/matrix_probe", db(), o), "PTX");
}

// FNV-1a 64, as matrix_probe.cu's main() prints it.
std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

TEST(H100MatrixProbe, InterpreterComputesWhatTheH100Computed) {
  // What the H100 printed: "checksum LABEL HEX" and "words LABEL W0 W1 ...".
  std::map<std::string, std::uint64_t> checksums;
  std::map<std::string, std::vector<std::uint32_t>> words;
  std::istringstream run(read_bytes(kRoot + "h100/matrix_probe/run.txt"));
  for (std::string line; std::getline(run, line);) {
    std::istringstream ls(line);
    std::string kind, label;
    ls >> kind >> label;
    if (kind == "checksum") {
      std::string hex;
      ls >> hex;
      checksums[label] = std::stoull(hex, nullptr, 16);
    } else if (kind == "words") {
      for (std::string w; ls >> w;) words[label].push_back(static_cast<std::uint32_t>(std::stoul(w, nullptr, 16)));
    }
  }
  ASSERT_EQ(checksums.size(), 92u);
  ASSERT_EQ(words.size(), 6u);

  PtxRun p(read_bytes(kRoot + "matrix_probe/matrix_probe.ptx"));
  auto kernel = [&](const std::string& name) {
    for (const auto& [mangled, index] : p.module.function_index) {
      const std::string d = tracer::demangle(mangled);
      if (d.rfind(name + "(", 0) == 0 || d.rfind("void " + name + "(", 0) == 0) return mangled;
    }
    ADD_FAILURE() << "no kernel " << name;
    return std::string();
  };
  const std::uint64_t out = p.buffer("out", 8192);
  auto sum_of = [&](const std::string& name, std::size_t bytes) {
    const auto& b = p.state->memory.allocation(name)->bytes;
    return fnv1a(b.data(), bytes);
  };
  std::size_t compared = 0;
  for (const char* k : {"ldsm_x1", "ldsm_x2", "ldsm_x4", "ldsm_x1_trans", "ldsm_x4_trans", "stsm_x1", "stsm_x2", "stsm_x4",
                        "stsm_x4_trans"})
    for (std::uint64_t pattern = 0; pattern < 10; ++pattern) {
      p.launch(kernel(k), Dim3{16, 1, 1}, Dim3{128, 1, 1}, {pattern, out});
      const std::string label = std::string(k) + "/" + std::to_string(pattern);
      EXPECT_EQ(sum_of("out", 8192), checksums.at(label)) << label;
      ++compared;
    }
  EXPECT_EQ(compared, 90u);

  const std::uint64_t a16 = p.buffer("a16", 512), b16 = p.buffer("b16", 256), cf = p.buffer("cf", 512),
                      outf = p.buffer("outf", 512), af = p.buffer("af", 512), bf = p.buffer("bf", 256),
                      a8 = p.buffer("a8", 512), b8 = p.buffer("b8", 256);
  const Dim3 one{1, 1, 1}, warp{32, 1, 1}, two_warps{64, 1, 1};
  auto expect_words = [&](const std::string& label) {
    const auto& want = words.at(label);
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(p.read<std::uint32_t>("outf", i), want[i]) << label << " word " << i;
  };
  p.launch(kernel("init_f16"), one, two_warps, {a16, 256, 1});
  p.launch(kernel("init_f16"), one, two_warps, {b16, 128, 2});
  p.launch(kernel("init_f32"), one, two_warps, {cf, 128, 3});
  p.launch(kernel("mma_f16_f32_m16n8k16"), one, warp, {a16, b16, cf, outf});
  expect_words("mma_f16_f32_m16n8k16");
  p.launch(kernel("mma_f16_f16_m16n8k16"), one, warp, {a16, b16, cf, outf});
  expect_words("mma_f16_f16_m16n8k16");
  p.launch(kernel("mma_f16_f32_m16n8k8"), one, warp, {a16, b16, outf});
  expect_words("mma_f16_f32_m16n8k8");
  p.launch(kernel("init_bf16"), one, two_warps, {a16, 256, 1});
  p.launch(kernel("init_bf16"), one, two_warps, {b16, 128, 2});
  p.launch(kernel("mma_bf16_f32_m16n8k16"), one, warp, {a16, b16, outf});
  expect_words("mma_bf16_f32_m16n8k16");
  p.launch(kernel("init_f32"), one, two_warps, {af, 128, 4});
  p.launch(kernel("init_f32"), one, two_warps, {bf, 64, 5});
  p.launch(kernel("mma_tf32_f32_m16n8k8"), one, warp, {af, bf, outf});
  expect_words("mma_tf32_f32_m16n8k8");
  p.launch(kernel("init_s8"), one, two_warps, {a8, 512, 6});
  p.launch(kernel("init_s8"), one, two_warps, {b8, 256, 7});
  p.launch(kernel("mma_s8_s32_m16n8k32"), one, warp, {a8, b8, outf});
  expect_words("mma_s8_s32_m16n8k32");

  const std::uint64_t ga = p.buffer("ga", 32768), gb = p.buffer("gb", 32768), gc = p.buffer("gc", 65536);
  p.launch(kernel("init_f16"), Dim3{16, 1, 1}, Dim3{256, 1, 1}, {ga, 16384, 8});
  p.launch(kernel("init_f16"), Dim3{16, 1, 1}, Dim3{256, 1, 1}, {gb, 16384, 9});
  for (const char* k : {"hgemm_tiles<0>", "hgemm_tiles<8>"}) {
    p.launch(kernel(k), Dim3{2, 2, 1}, Dim3{128, 1, 1}, {ga, gb, gc}, 1u << 24);
    EXPECT_EQ(sum_of("gc", 65536), checksums.at(k)) << k;
  }
}

}  // namespace
}  // namespace warpscope::test
