// Memory-system throughput: warp records per second through MemorySystem
// (rules engine + L1 + L2 + counters) on one core, on the default GPUs of
// sm_90 (H100: 132 SMs, 50 MB L2) and sm_35 (K40: 15 SMs, 1.5 MB L2).
//   coalesced: 32 lanes x 4 B, consecutive lines streaming through memory;
//   scattered: every lane at a random 4 B word of a 1 GB buffer (32 lines per record).
// Records go to the SMs round robin. The gen_only rows time the record
// generator alone, to subtract. peak_rss_MB is VmHWM of the process.
// The small_state rows run the same sm_90 model on 2 SMs with a 256 KB L2:
// every tag store then fits in the host's caches, so the difference to the
// full-size rows is what host-cache misses cost and the rest is computation.
// Run: build/release/bench/warpscope_bench --benchmark_filter=through_memory
// (every record carries CTA 0, warp 0: the issue clock looks up one entry;
// bench/analyze_bench.cpp runs a grid in tracer order end to end)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>

#include "warpscope/arch.hpp"
#include "warpscope/memory_system.hpp"

namespace {

using namespace warpscope;

const ArchSpec& mem_spec(const char* name) {
  static const ArchDatabase db = ArchDatabase::load({WARPSCOPE_ARCH_SOURCE_DIR_FOR_BENCH});
  return db.get(name).spec;
}

double peak_rss_mb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  double kb = 0;
  while (std::fgets(line, sizeof line, f) != nullptr)
    if (std::strncmp(line, "VmHWM:", 6) == 0) kb = static_cast<double>(std::strtoull(line + 6, nullptr, 10));
  std::fclose(f);
  return kb / 1024.0;
}

enum class Pattern { Coalesced, Scattered };

struct Generator {
  std::uint64_t next_line = 0x100000 / 128;
  std::uint64_t rng = 0x9E3779B97F4A7C15ull;

  std::uint64_t random() {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  }
  void fill(WarpAccess& a, Pattern p) {
    if (p == Pattern::Coalesced) {
      const std::uint64_t base = (next_line++ & ((1ull << 25) - 1)) << 7;  // wraps at 4 GB
      for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = base + 4ull * l;
    } else {
      for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = (random() & ((1ull << 30) - 1)) & ~3ull;
    }
  }
};

MemoryConfig small_state() {
  MemoryConfig c;
  c.num_sms = 2;
  c.l2_size = 256 * 1024;
  return c;
}

void through_memory(benchmark::State& state, const char* arch, Pattern pattern, MemoryConfig config = {}) {
  auto m = std::make_unique<MemorySystem>(mem_spec(arch), config);
  m->begin_kernel();
  const int sms = m->num_sms();
  WarpAccess a;
  Generator gen;
  int sm = 0;
  for (auto _ : state) {
    gen.fill(a, pattern);
    InstructionCounts c = m->access(a, sm);
    benchmark::DoNotOptimize(c);
    if (++sm == sms) sm = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  const Counters& k = m->kernel_counters();
  state.counters["l1_hit_pct"] = k.global_ld.sectors ? 100.0 * static_cast<double>(k.global_ld.sector_hits) /
                                                           static_cast<double>(k.global_ld.sectors)
                                                     : 0.0;
  state.counters["l2_hit_pct"] = k.l2_read_sectors ? 100.0 * static_cast<double>(k.l2_read_sector_hits) /
                                                         static_cast<double>(k.l2_read_sectors)
                                                   : 0.0;
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

// cp.async of a GEMM tile: per iteration one LDGSTS of 16 B a lane (512 B of consecutive lines), its
// read and its shared write (two records, paired per warp; memory/access_path.cpp access_async_copy),
// warps in turn over 64 CTAs x 8 warps. Items are instructions.
void async_copy(benchmark::State& state, CacheOp cache) {
  auto m = std::make_unique<MemorySystem>(mem_spec("sm_90"), MemoryConfig{});
  m->begin_kernel();
  const int sms = m->num_sms();
  WarpAccess read, write;
  read.op = write.op = Op::AsyncCopy;
  read.size = write.size = 16;
  read.cache = write.cache = cache;
  write.space = Space::Shared;
  for (unsigned l = 0; l < kWarpSize; ++l) write.addr[l] = 16ull * l;
  std::uint64_t line = 0x100000 / 128, n = 0;
  for (auto _ : state) {
    const std::uint32_t warp = static_cast<std::uint32_t>(n++ % 512);
    read.cta = write.cta = warp / 8;
    read.warp = write.warp = static_cast<std::uint16_t>(warp % 8);
    const std::uint64_t base = (line & ((1ull << 25) - 1)) << 7;  // wraps at 4 GB
    line += 4;
    for (unsigned l = 0; l < kWarpSize; ++l) read.addr[l] = base + 16ull * l;
    const int sm = static_cast<int>(read.cta % static_cast<std::uint32_t>(sms));
    benchmark::DoNotOptimize(m->access(read, sm));
    benchmark::DoNotOptimize(m->access(write, sm));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// cp.async.bulk global -> shared of `bytes` a copy (memory/access_path.cpp access_bulk), `shared_offset` into a
// 128-byte block (0: one piece a line; 16: two pieces a line, split sectors), over consecutive lines; one copy
// per iteration from 64 CTAs in turn. Items are copies.
void bulk_copy(benchmark::State& state, std::uint64_t bytes, std::uint64_t shared_offset) {
  auto m = std::make_unique<MemorySystem>(mem_spec("sm_90"), MemoryConfig{});
  m->begin_kernel();
  const int sms = m->num_sms();
  WarpAccess a;
  a.op = Op::BulkLoad;
  a.size = 16;
  a.active = LaneMask(0x7u);
  a.addr[1] = shared_offset;
  a.addr[2] = bytes;
  std::uint64_t line = 0x100000 / 128, n = 0;
  for (auto _ : state) {
    a.cta = static_cast<std::uint32_t>(n++ % 64);
    a.addr[0] = (line & ((1ull << 25) - 1)) << 7;  // wraps at 4 GB
    line += bytes / 128;
    benchmark::DoNotOptimize(m->access(a, static_cast<int>(a.cta % static_cast<std::uint32_t>(sms))));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void gen_only(benchmark::State& state, Pattern pattern) {
  WarpAccess a;
  Generator gen;
  for (auto _ : state) {
    gen.fill(a, pattern);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

BENCHMARK_CAPTURE(through_memory, sm_90_coalesced, "sm_90", Pattern::Coalesced);
BENCHMARK_CAPTURE(through_memory, sm_90_scattered_1GB, "sm_90", Pattern::Scattered);
BENCHMARK_CAPTURE(through_memory, sm_90_small_state_coalesced, "sm_90", Pattern::Coalesced, small_state());
BENCHMARK_CAPTURE(through_memory, sm_90_small_state_scattered_1GB, "sm_90", Pattern::Scattered, small_state());
BENCHMARK_CAPTURE(through_memory, sm_35_coalesced, "sm_35", Pattern::Coalesced);
BENCHMARK_CAPTURE(through_memory, sm_35_scattered_1GB, "sm_35", Pattern::Scattered);
BENCHMARK_CAPTURE(async_copy, sm_90_ca16, CacheOp::Ca);
BENCHMARK_CAPTURE(async_copy, sm_90_cg16, CacheOp::Cg);
BENCHMARK_CAPTURE(bulk_copy, sm_90_4k_aligned, 4096, 0);
BENCHMARK_CAPTURE(bulk_copy, sm_90_4k_shared16, 4096, 16);
BENCHMARK_CAPTURE(gen_only, coalesced, Pattern::Coalesced);
BENCHMARK_CAPTURE(gen_only, scattered, Pattern::Scattered);

}  // namespace
