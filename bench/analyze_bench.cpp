// End to end, as `warpscope analyze TRACE --arch sm_90 --threads 1` runs it on
// one core: a native trace read (chunks decoded on the reading thread), the
// records replayed through the H100 model (rules, L1, L2, counters per kernel
// and per instruction). Issue 3 states its throughput target this way.
//
// The trace is one kernel of 4-byte loads in the order a tracer records them:
// a grid of 1,056 CTAs (8 per SM) of 8 warps, every warp's k-th load before
// any warp's (k+1)-th, SM ids as recorded; coalesced (lane i at base + 4 i,
// every warp on its own lines, streaming) or scattered (every lane at a
// random word of 1 GB). 2^20 coalesced or 2^18 scattered records (36 MB),
// written to /tmp and removed afterwards.
// The sm_70 and sm_35 rows replay the same traces on those models.
// BM_AnalyzeLaunches: 20,000 launches of a one-warp kernel, 4 records each
// (an application's many small launches): the cost of a kernel boundary; and
// 64 launches of 16,384 coalesced records each (BM_AnalyzeLaunches/large_sm90), with
// range(0) threads as `--threads N` (the launches on copies of the model).
// BM_ModelOnly: BM_Analyze's records, made in memory, straight through the
// model (no file, no decoding, no analyzer): the model's share of BM_Analyze.
//   build/release/bench/warpscope_bench --benchmark_filter=BM_Analyze
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "analyze/analyzer.hpp"
#include "warpscope/arch.hpp"
#include "warpscope/memory_system.hpp"
#include "warpscope/occupancy.hpp"
#include "warpscope/trace.hpp"

namespace {

using namespace warpscope;

enum class Pattern { Coalesced, Scattered };

constexpr std::uint32_t kCtas = 1056, kWarpsPerCta = 8;

KernelInfo bench_kernel(Pattern p) {
  KernelInfo k;
  k.name = p == Pattern::Coalesced ? "stream" : "gather";
  k.grid = {kCtas, 1, 1};
  k.block = {32 * kWarpsPerCta, 1, 1};
  k.registers = 32;
  k.arch = "sm_90";
  k.source = "bench";
  return k;
}

std::uint32_t bench_records(Pattern p) { return p == Pattern::Coalesced ? 1u << 20 : 1u << 18; }

// Record i of the trace (r.kernel left as it is): the warps of the grid in
// turn, each at its k-th load.
void bench_record(Pattern p, std::uint32_t i, bool sm_ids, std::mt19937_64& rng, WarpAccess& r) {
  constexpr std::uint32_t warps = kCtas * kWarpsPerCta;
  r.space = Space::Global;
  r.op = Op::Load;
  r.size = 4;
  const std::uint32_t step = i / warps, w = i % warps;
  r.cta = w / kWarpsPerCta;
  r.warp = static_cast<std::uint16_t>(w % kWarpsPerCta);
  r.sm = sm_ids ? static_cast<std::int16_t>(r.cta % 132) : std::int16_t{-1};
  r.pc = 0x100 + 0x10 * (step % 4);
  const std::uint64_t base = 0x7f0000000000ull + (std::uint64_t{step} * warps + w) * 128;
  for (unsigned l = 0; l < kWarpSize; ++l)
    r.addr[l] = p == Pattern::Coalesced ? base + 4ull * l : 0x7f0000000000ull + ((rng() & ((1ull << 30) - 1)) & ~3ull);
}

// sm_ids false: records without SM ids, as emulated or other tools' traces
// come, which analyze replays through its warp interleaver (one wave here).
std::filesystem::path write_trace(Pattern p, bool sm_ids) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("warpscope_bench_analyze_" + std::to_string(::getpid()) +
                     (p == Pattern::Coalesced ? "_coalesced" : "_scattered") + (sm_ids ? ".wst" : "_nosm.wst"));
  auto sink = create_trace(path, TraceFormat::Native);
  const std::uint32_t id = sink->begin_kernel(bench_kernel(p));
  std::mt19937_64 rng(1);
  WarpAccess r;
  r.kernel = id;
  for (std::uint32_t i = 0; i < bench_records(p); ++i) {
    bench_record(p, i, sm_ids, rng, r);
    sink->write(r);
  }
  sink->close();
  return path;
}

std::filesystem::path write_launches(std::uint32_t launches, std::uint32_t records_per_launch, bool sm_ids) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("warpscope_bench_analyze_" + std::to_string(::getpid()) + "_launches.wst");
  auto sink = create_trace(path, TraceFormat::Native);
  KernelInfo k;
  k.name = "small";
  k.grid = {1, 1, 1};
  k.block = {32, 1, 1};
  k.registers = 32;
  WarpAccess r;
  r.space = Space::Global;
  r.op = Op::Load;
  r.size = 4;
  for (std::uint32_t launch = 0; launch < launches; ++launch) {
    r.kernel = sink->begin_kernel(k);
    for (std::uint32_t i = 0; i < records_per_launch; ++i) {
      r.pc = 0x100 + 0x10 * (i % 4);
      // The small launches on SM 0, the large ones over every SM (as measured in docs/PERFORMANCE.md).
      r.sm = static_cast<std::int16_t>(!sm_ids ? -1 : records_per_launch > 4 ? i % 132 : 0);
      const std::uint64_t line = std::uint64_t{launch} * records_per_launch + i;
      for (unsigned l = 0; l < kWarpSize; ++l) r.addr[l] = 0x7f0000000000ull + line * 128 + 4ull * l;
      sink->write(r);
    }
  }
  sink->close();
  return path;
}

// sm_ids false: each launch goes through a warp interleaver of its own.
void BM_AnalyzeLaunches(benchmark::State& state, const char* arch_name, std::uint32_t launches,
                        std::uint32_t records_per_launch, bool sm_ids = true) {
  const std::filesystem::path path = write_launches(launches, records_per_launch, sm_ids);
  const ArchSpec* arch = &ArchDatabase::builtin().get(arch_name).spec;
  AnalyzeOptions options;
  options.threads = static_cast<int>(state.range(0));
  TraceReadOptions read;
  read.threads = 1;
  for (auto _ : state) {
    auto trace = open_trace(path, read);
    const AnalyzeResult r = analyze_trace(*trace, {arch}, options);
    benchmark::DoNotOptimize(r.archs.front().kernels.back().counters);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * launches);  // launches / s
  std::filesystem::remove(path);
}

void BM_Analyze(benchmark::State& state, Pattern p, const char* arch_name, bool sm_ids = true) {
  const std::filesystem::path path = write_trace(p, sm_ids);
  const ArchSpec* arch = &ArchDatabase::builtin().get(arch_name).spec;
  // range(0): threads as `--threads N`; 2 puts the model's L2 side on a thread
  // of its own (MemorySystem::set_l2_thread). Chunks are decoded on the reading thread.
  AnalyzeOptions options;
  options.threads = static_cast<int>(state.range(0));
  TraceReadOptions read;
  read.threads = 1;
  std::uint64_t records = 0;
  for (auto _ : state) {
    auto trace = open_trace(path, read);
    const AnalyzeResult r = analyze_trace(*trace, {arch}, options);
    records += r.records_analyzed;
    benchmark::DoNotOptimize(r.archs.front().kernels.front().counters);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(records));
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  std::filesystem::remove(path);
}

// The model alone on the same records in the same order: MemorySystem::access
// with per-instruction counters, as analyze calls it, but no trace file, no
// decoding and none of the analyzer's bookkeeping (records made on the fly:
// ~1 ns each coalesced, ~0.1 us scattered). BM_Analyze minus this is what
// reading and the analyzer cost.
void BM_ModelOnly(benchmark::State& state, Pattern p, const char* arch_name) {
  const ArchSpec& arch = ArchDatabase::builtin().get(arch_name).spec;
  const KernelInfo k = bench_kernel(p);
  OccupancyInput launch;
  launch.threads = static_cast<int>(k.block.count());
  launch.regs = static_cast<int>(k.registers);
  MemorySystem m(arch, MemoryConfig{});
  std::vector<Counters> pcs(4);
  std::uint64_t records = 0;
  WarpAccess r;
  for (auto _ : state) {
    m.begin_kernel(launch);
    std::mt19937_64 rng(1);
    for (std::uint32_t i = 0; i < bench_records(p); ++i) {
      bench_record(p, i, true, rng, r);
      m.access(r, r.sm % m.num_sms(), &pcs[(r.pc - 0x100) / 0x10]);
    }
    records += bench_records(p);
    benchmark::DoNotOptimize(m.kernel_counters());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(records));
}

BENCHMARK_CAPTURE(BM_Analyze, coalesced, Pattern::Coalesced, "sm_90")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, scattered, Pattern::Scattered, "sm_90")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
// Two threads: the L2 side beside the rest (same results).
BENCHMARK_CAPTURE(BM_Analyze, coalesced_l2_thread, Pattern::Coalesced, "sm_90")->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, scattered_l2_thread, Pattern::Scattered, "sm_90")->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
// The same traces on other generations' models (the recorded SM ids taken modulo
// their SM counts): what the 9.0 model's extra state (132 SMs, two L2 partitions,
// the request coalescer and its issue clock) costs.
BENCHMARK_CAPTURE(BM_Analyze, coalesced_sm70, Pattern::Coalesced, "sm_70")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, scattered_sm70, Pattern::Scattered, "sm_70")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, coalesced_sm35, Pattern::Coalesced, "sm_35")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, scattered_sm35, Pattern::Scattered, "sm_35")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
// Fermi caches default global loads in L1 (128 B lines) and L2 (768 KB):
// loads through L1 + L2 with a small modelled state; the A100 (sm_80: 108 SMs,
// 40 MB L2) sits between the V100 and the H100.
BENCHMARK_CAPTURE(BM_Analyze, coalesced_sm20, Pattern::Coalesced, "sm_20")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, scattered_sm20, Pattern::Scattered, "sm_20")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, coalesced_sm80, Pattern::Coalesced, "sm_80")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, scattered_sm80, Pattern::Scattered, "sm_80")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, coalesced_no_sm, Pattern::Coalesced, "sm_90", false)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, scattered_no_sm, Pattern::Scattered, "sm_90", false)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_ModelOnly, coalesced, Pattern::Coalesced, "sm_90")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_ModelOnly, scattered, Pattern::Scattered, "sm_90")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_AnalyzeLaunches, sm90, "sm_90", 20000, 4)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_AnalyzeLaunches, sm90_no_sm, "sm_90", 20000, 4, false)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_AnalyzeLaunches, sm70, "sm_70", 20000, 4)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_AnalyzeLaunches, large_sm90, "sm_90", 64, 16384)
    ->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
