// Rules-engine throughput: warp instructions analysed per second on one core,
// for coalesced, strided and scattered patterns on several generations.
// Run: make bench   (or build/release/bench/warpscope_bench)
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/rules.hpp"

namespace {

using namespace warpscope;

const ArchSpec& spec(const char* name) {
  static const ArchDatabase db = ArchDatabase::load({WARPSCOPE_ARCH_SOURCE_DIR_FOR_BENCH});
  return db.get(name).spec;
}

enum class Shape { Coalesced, Strided, Scattered, EightWords };  // EightWords: lane l at word l % 8

// 1024 distinct warp records, cycled, so the loop sees varying addresses.
std::vector<WarpAccess> make_records(Shape shape, Space space, unsigned size, Op op,
                                     AtomicOp atomic_op = AtomicOp::Unknown) {
  std::mt19937_64 rng(42);
  std::vector<WarpAccess> out(1024);
  std::uint64_t base = 0x100000;
  for (auto& a : out) {
    a.space = space;
    a.op = op;
    a.size = static_cast<std::uint8_t>(size);
    a.atomic_op = atomic_op;
    for (int l = 0; l < kWarpSize; ++l) {
      const auto lane = static_cast<std::uint64_t>(l);
      std::uint64_t addr = 0;
      switch (shape) {
        case Shape::Coalesced: addr = base + size * lane; break;
        case Shape::Strided: addr = base + size * 7 * lane; break;
        case Shape::Scattered: addr = (rng() % (1ull << 30)) & ~static_cast<std::uint64_t>(size - 1); break;
        case Shape::EightWords: addr = base + size * (lane % 8); break;
      }
      if (space == Space::Shared) addr %= 48 * 1024;
      a.addr[lane] = addr;
    }
    base += 32 * size;
  }
  return out;
}

void run(benchmark::State& state, const char* arch, Shape shape, Space space, unsigned size, Op op = Op::Load,
         AtomicOp atomic_op = AtomicOp::Unknown) {
  const auto records = make_records(shape, space, size, op, atomic_op);
  const ArchSpec& a = spec(arch);
  std::size_t i = 0;
  for (auto _ : state) {
    InstructionCounts c = analyze(records[i], a);
    benchmark::DoNotOptimize(c);
    i = (i + 1) & 1023;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

#define WARPSCOPE_BENCH(name, arch, shape, space, size) \
  BENCHMARK_CAPTURE(run, name, arch, Shape::shape, Space::space, size)

WARPSCOPE_BENCH(sm90_global_coalesced_4B, "sm_90", Coalesced, Global, 4);
WARPSCOPE_BENCH(sm90_global_strided7_4B, "sm_90", Strided, Global, 4);
WARPSCOPE_BENCH(sm90_global_scattered_4B, "sm_90", Scattered, Global, 4);
WARPSCOPE_BENCH(sm90_global_coalesced_16B, "sm_90", Coalesced, Global, 16);
WARPSCOPE_BENCH(sm20_global_coalesced_4B, "sm_20", Coalesced, Global, 4);
WARPSCOPE_BENCH(sm20_global_scattered_4B, "sm_20", Scattered, Global, 4);
WARPSCOPE_BENCH(sm35_global_coalesced_8B, "sm_35", Coalesced, Global, 8);
WARPSCOPE_BENCH(sm61_global_coalesced_4B, "sm_61", Coalesced, Global, 4);
WARPSCOPE_BENCH(sm13_global_coalesced_4B, "sm_13", Coalesced, Global, 4);
WARPSCOPE_BENCH(sm13_global_scattered_4B, "sm_13", Scattered, Global, 4);
WARPSCOPE_BENCH(sm90_shared_coalesced_4B, "sm_90", Coalesced, Shared, 4);
WARPSCOPE_BENCH(sm90_shared_strided7_4B, "sm_90", Strided, Shared, 4);
WARPSCOPE_BENCH(sm90_shared_scattered_4B, "sm_90", Scattered, Shared, 4);
WARPSCOPE_BENCH(sm35_shared_coalesced_8B, "sm_35", Coalesced, Shared, 8);
// Atomics on sm_90: lanes on one address are served pass by pass (rules/atomic_passes.hpp).
BENCHMARK_CAPTURE(run, sm90_global_atomic_coalesced_4B, "sm_90", Shape::Coalesced, Space::Global, 4, Op::Atomic);
BENCHMARK_CAPTURE(run, sm90_global_atomic_scattered_4B, "sm_90", Shape::Scattered, Space::Global, 4, Op::Atomic);
BENCHMARK_CAPTURE(run, sm90_global_atomic_8words_4B, "sm_90", Shape::EightWords, Space::Global, 4, Op::Atomic);
// A compare-and-swap, served per 64-byte half of a line; shared ATOMS.ADD, pass by pass.
BENCHMARK_CAPTURE(run, sm90_global_cas_coalesced_4B, "sm_90", Shape::Coalesced, Space::Global, 4, Op::Atomic, AtomicOp::Cas);
BENCHMARK_CAPTURE(run, sm90_global_cas_scattered_4B, "sm_90", Shape::Scattered, Space::Global, 4, Op::Atomic, AtomicOp::Cas);
BENCHMARK_CAPTURE(run, sm90_shared_atomic_add_8words_4B, "sm_90", Shape::EightWords, Space::Shared, 4, Op::Atomic, AtomicOp::Add);
BENCHMARK_CAPTURE(run, sm90_shared_atomic_popc_8words_4B, "sm_90", Shape::EightWords, Space::Shared, 4, Op::Atomic, AtomicOp::PopcInc);
// ldmatrix .x4: four matrices of 8 rows, each served alone.
BENCHMARK_CAPTURE(run, sm90_ldmatrix_x4_coalesced_16B, "sm_90", Shape::Coalesced, Space::Shared, 16, Op::LoadMatrix);
BENCHMARK_CAPTURE(run, sm90_ldmatrix_x4_scattered_16B, "sm_90", Shape::Scattered, Space::Shared, 16, Op::LoadMatrix);

}  // namespace
