// Library code through the interpreter, checked against what it must compute: CUB's BlockReduce, BlockScan and
// BlockRadixSort and cooperative groups' reduce (tests/ptx/data/cub_kernels.cu, its PTX from nvcc 13.0 for
// sm_90). They need bmsk and bfind, which the interpreter lacked before session 29.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "ptx/ptx_test_support.hpp"
#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

std::string cub_ptx() { return read_bytes(WARPSCOPE_SOURCE_DIR "/tests/ptx/data/cub_kernels.ptx"); }

TEST(PtxLibraryKernels, CubBlockReduceAndScanAddUp) {
  PtxRun run(cub_ptx());
  const std::uint64_t in = run.buffer("in", 8 * 256 * 4), out = run.buffer("out", 8 * 256 * 4);
  for (std::uint32_t i = 0; i < 8 * 256; ++i) run.write<std::int32_t>("in", i, static_cast<std::int32_t>(i % 97) - 40);
  run.launch("_Z12block_reducePKiPi", {8, 1, 1}, {256, 1, 1}, {in, out});
  for (std::uint32_t b = 0; b < 8; ++b) {
    std::int32_t want = 0;
    for (std::uint32_t t = 0; t < 256; ++t) want += static_cast<std::int32_t>((b * 256 + t) % 97) - 40;
    EXPECT_EQ(run.read<std::int32_t>("out", b), want) << b;
  }
  run.launch("_Z10block_scanPKiPi", {8, 1, 1}, {256, 1, 1}, {in, out});
  for (std::uint32_t b = 0; b < 8; ++b) {
    std::int32_t sum = 0;
    for (std::uint32_t t = 0; t < 256; ++t) {
      EXPECT_EQ(run.read<std::int32_t>("out", b * 256 + t), sum) << b << " " << t;
      sum += static_cast<std::int32_t>((b * 256 + t) % 97) - 40;
    }
  }
}

TEST(PtxLibraryKernels, CubBlockRadixSortSorts) {
  PtxRun run(cub_ptx());
  const std::uint64_t in = run.buffer("in", 8 * 512 * 4), out = run.buffer("out", 8 * 512 * 4);
  std::vector<std::uint32_t> keys(8 * 512);
  std::uint32_t x = 12345;
  for (auto& k : keys) k = x = x * 1664525u + 1013904223u;
  for (std::size_t i = 0; i < keys.size(); ++i) run.write<std::uint32_t>("in", i, keys[i]);
  run.launch("_Z5radixPKjPj", {8, 1, 1}, {128, 1, 1}, {in, out});
  for (std::size_t b = 0; b < 8; ++b) {
    std::vector<std::uint32_t> want(keys.begin() + static_cast<std::ptrdiff_t>(b * 512), keys.begin() + static_cast<std::ptrdiff_t>((b + 1) * 512));
    std::sort(want.begin(), want.end());
    for (std::size_t i = 0; i < 512; ++i) EXPECT_EQ(run.read<std::uint32_t>("out", b * 512 + i), want[i]) << b << " " << i;
  }
}

TEST(PtxLibraryKernels, CooperativeGroupsReduceAddsEveryTile) {
  PtxRun run(cub_ptx());
  const std::uint64_t in = run.buffer("in", 8 * 256 * 4), out = run.buffer("out", 4);
  for (std::uint32_t i = 0; i < 8 * 256; ++i) run.write<float>("in", i, static_cast<float>(i % 7));
  run.launch("_Z5cgredPKfPf", {8, 1, 1}, {256, 1, 1}, {in, out});
  float want = 0;
  for (std::uint32_t i = 0; i < 8 * 256; ++i) want += static_cast<float>(i % 7);
  EXPECT_EQ(run.read<float>("out", 0), want);  // small integers: every order of additions is exact
}

}  // namespace
}  // namespace warpscope::test
