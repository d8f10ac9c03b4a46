// The PTX interpreter (src/ptx/interpreter.cpp) alone: kernels of the
// validation suite's realistic.cu (validation/ptx/realistic.ptx) and the
// WMMA GEMM of validation/wmma_probe and a wgmma kernel of validation/wgmma_probe interpreted to their memory records, no
// model. Counters: thread instructions, warp instructions and records per second.
//   build/release/bench/warpscope_bench --benchmark_filter=BM_PtxInterpret
#include <benchmark/benchmark.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "ptx/interpreter.hpp"
#include "ptx/parser.hpp"

namespace {

using namespace warpscope;

ptx::Module load(const char* path) {
  std::ifstream f(std::string(WARPSCOPE_SOURCE_DIR_FOR_BENCH "/validation/") + path);
  const std::string text(std::istreambuf_iterator<char>(f), {});
  return ptx::parse_module(text, path);
}
const ptx::Module& realistic() {
  static const ptx::Module m = load("ptx/realistic.ptx");
  return m;
}
const ptx::Module& wmma_probe() {
  static const ptx::Module m = load("wmma_probe/wmma_probe.ptx");
  return m;
}
const ptx::Module& wgmma_probe() {
  static const ptx::Module m = load("wgmma_probe/wgmma_probe.ptx");
  return m;
}

struct Case {
  const char* kernel;
  Dim3 grid, block;
  std::vector<std::uint64_t> buffer_bytes;  // one buffer per pointer parameter, in order
  std::vector<std::uint64_t> scalars;       // then these values for the remaining parameters
  const ptx::Module& (*module)() = realistic;
};

void interpret(benchmark::State& state, const Case& c) {
  const ptx::Module& m = c.module();
  std::uint32_t index = 0;
  for (std::uint32_t i = 0; i < m.functions.size(); ++i)
    if (m.functions[i].is_kernel && (m.functions[i].name == c.kernel ||
                                     m.functions[i].name.rfind("_Z" + std::to_string(std::strlen(c.kernel)) + c.kernel, 0) == 0))
      index = i;
  const auto& fn = m.functions[index];
  ptx::ModuleState ms(m);
  std::vector<std::uint64_t> args;
  for (std::size_t i = 0; i < c.buffer_bytes.size(); ++i) args.push_back(ms.memory.allocate("b" + std::to_string(i), c.buffer_bytes[i]));
  args.insert(args.end(), c.scalars.begin(), c.scalars.end());
  std::uint64_t threads = 0, warps = 0, records = 0;
  for (auto _ : state) {
    ptx::LaunchParams p;
    p.function = index;
    p.grid = c.grid;
    p.block = c.block;
    p.params.assign(fn.param_bytes, 0);
    for (std::size_t i = 0; i < fn.params.size() && i < args.size(); ++i) {
      const auto& v = m.symbols[static_cast<std::size_t>(fn.params[i])];
      std::memcpy(p.params.data() + v.offset, &args[i], std::min<std::size_t>(8, v.size));
    }
    ptx::Interpreter in(ms, std::move(p));
    std::vector<WarpAccess> out;
    bool more = true;
    while (more) {
      more = in.run(out, 4096);
      records += out.size();
      out.clear();
    }
    threads += in.thread_instructions();
    warps += in.warp_instructions();
  }
  state.counters["thread_inst/s"] = benchmark::Counter(static_cast<double>(threads), benchmark::Counter::kIsRate);
  state.counters["warp_inst/s"] = benchmark::Counter(static_cast<double>(warps), benchmark::Counter::kIsRate);
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
}

void BM_PtxInterpret_copy_float(benchmark::State& s) { interpret(s, {"r_copy_float", {4096, 1, 1}, {256, 1, 1}, {4 << 20, 4 << 20}, {}}); }
void BM_PtxInterpret_transpose_tiled(benchmark::State& s) {
  interpret(s, {"r_transpose_tiled", {16, 16, 1}, {32, 8, 1}, {1 << 20, 1 << 20}, {512}});
}
void BM_PtxInterpret_reduce_warp_shuffle(benchmark::State& s) {
  interpret(s, {"r_reduce_warp_shuffle", {1024, 1, 1}, {256, 1, 1}, {1 << 20, 8192}, {}});
}
void BM_PtxInterpret_sgemm_tiled16(benchmark::State& s) {
  interpret(s, {"r_sgemm_tiled16", {8, 8, 1}, {16, 16, 1}, {64 << 10, 64 << 10, 64 << 10}, {128}});
}
// wmma.load (LDSM from shared rows), wmma.mma and wmma.store: the tiled GEMM of 128^3 halves.
void BM_PtxInterpret_wgemm(benchmark::State& s) {
  interpret(s, {"_Z5wgemmILi0EEvPK6__halfS2_Pf", {2, 2, 1}, {128, 1, 1}, {32 << 10, 32 << 10, 64 << 10}, {}, wmma_probe});
}
// wgmma.mma_async m64n128k16 from 128-byte-swizzled descriptors, 4 a warpgroup (validation/wgmma_probe's
// form_f16_n128), 64 CTAs: 1,024 warp-level wgmma of 32,768 multiply-adds each.
void BM_PtxInterpret_wgmma_n128(benchmark::State& s) {
  interpret(s, {"_Z13form_f16_n128PK5uint4Pf", {64, 1, 1}, {128, 1, 1}, {32 << 10, 2 << 20}, {}, wgmma_probe});
}
BENCHMARK(BM_PtxInterpret_copy_float)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PtxInterpret_transpose_tiled)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PtxInterpret_reduce_warp_shuffle)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PtxInterpret_sgemm_tiled16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PtxInterpret_wgemm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PtxInterpret_wgmma_n128)->Unit(benchmark::kMillisecond);

}  // namespace
