// What the host itself can fetch: random 64-byte lines from a buffer of a given
// size, 32 independent blocks per iteration (as many as a fully scattered warp
// record has lines), each block BLOCK consecutive host lines (1: a lone tag
// word; 5: a 20-way L2 set block of 320 B). The model's full-H100 rows
// (through_memory, BM_Analyze) touch several such blocks per warp line, so
// this is the ceiling their host-cache misses run into (docs/PERFORMANCE.md).
// Run: build/release/bench/warpscope_bench --benchmark_filter=host_random_lines
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

namespace {

void host_random_lines(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0)) << 20;
  const auto block = static_cast<std::size_t>(state.range(1));
  constexpr std::size_t kLine = 64;
  const std::size_t blocks = bytes / (block * kLine);
  std::vector<std::uint64_t> buf(bytes / sizeof(std::uint64_t));
  std::memset(buf.data(), 1, bytes);  // touch every page before timing
  std::mt19937_64 rng(7);
  constexpr std::size_t kIndices = 1 << 16;  // precomputed: no RNG in the timed loop
  std::vector<std::uint32_t> index(kIndices);
  for (auto& i : index) i = static_cast<std::uint32_t>(rng() % blocks);
  const std::size_t words_per_block = block * kLine / sizeof(std::uint64_t);
  std::size_t next = 0;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    for (int b = 0; b < 32; ++b) {
      const std::uint64_t* p = buf.data() + index[next] * words_per_block;
      next = (next + 1) & (kIndices - 1);
      for (std::size_t l = 0; l < block; ++l) sum += p[l * (kLine / sizeof(std::uint64_t))];
    }
  }
  benchmark::DoNotOptimize(sum);
  const auto lines = static_cast<double>(state.iterations()) * 32.0 * static_cast<double>(block);
  state.counters["host_lines_per_second"] = benchmark::Counter(lines, benchmark::Counter::kIsRate);
  state.counters["GB_per_second"] = benchmark::Counter(lines * kLine / 1e9, benchmark::Counter::kIsRate);
}

}  // namespace

// buffer MB x block lines: inside the host's 1 MB L2 share, its 32 MB L3, and beyond.
BENCHMARK(host_random_lines)->ArgsProduct({{1, 8, 16, 32, 256}, {1, 5}})->ArgNames({"MB", "block"});
