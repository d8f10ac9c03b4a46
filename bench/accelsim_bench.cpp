// Reading Accel-Sim traces (src/trace/accelsim_reader.cpp): records/s and MB/s
// of trace text, plain (.traceg) and xz-compressed (.traceg.xz, MB/s of the
// compressed input), on a synthetic kernel shaped like a real one: 256 thread
// blocks of 8 warps, each warp 64 instructions of which 40% access memory
// (coalesced LDG and STG as base + stride, LDS as base + deltas, a gather as
// listed addresses), the rest ALU lines the reader skips.
//   build/release/bench/warpscope_bench --benchmark_filter=BM_AccelSim
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <lzma.h>

#include <random>
#include <string>

#include "warpscope/trace.hpp"

namespace {

using namespace warpscope;

const std::string& kernel_text() {
  static const std::string text = [] {
    std::string t =
        "-kernel name = _Z5benchPfS_\n-kernel id = 1\n-grid dim = (256,1,1)\n-block dim = (256,1,1)\n-shmem = 4096\n"
        "-nregs = 32\n-binary version = 90\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
        "-local mem base_addr = 0x00007f0002000000\n-nvbit version = 1.7\n-accelsim tracer version = 5\n"
        "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
        "mem_width [adrrescompress?] [mem_addresses] immediate\n\n";
    std::mt19937_64 rng(7);
    for (int b = 0; b < 256; ++b) {
      t += fmt::format("\n#BEGIN_TB\n\nthread block = {},0,0\n\n", b);
      for (int w = 0; w < 8; ++w) {
        t += fmt::format("warp = {}\ninsts = 64\n", w);
        const std::uint64_t base = 0x7f1000000000ull + (static_cast<std::uint64_t>(b) * 8 + w) * 128;
        for (int i = 0; i < 64; ++i) {
          const unsigned pc = static_cast<unsigned>(i) * 16;
          switch (i % 10) {
            case 0: t += fmt::format("{:04x} ffffffff 1 R4 LDG.E 1 R2 4 1 0x{:x} 4 0 \n", pc, base + i * 65536ull); break;
            case 3: t += fmt::format("{:04x} ffffffff 0 STG.E 2 R2 R4 4 1 0x{:x} 4 0 \n", pc, base + i * 65536ull); break;
            case 5: {
              t += fmt::format("{:04x} ffffffff 1 R5 LDS 1 R3 4 2 0x7f0000000{:03x}", pc, (w * 128) % 4096);
              for (int l = 1; l < 32; ++l) t += " 4";
              t += " 0 \n";
              break;
            }
            case 7: {
              t += fmt::format("{:04x} ffffffff 1 R6 LDG.E 1 R2 4 0", pc);
              for (int l = 0; l < 32; ++l) t += fmt::format(" 0x{:016x}", 0x7f2000000000ull + (rng() % (1u << 28)) * 4);
              t += " 0 \n";
              break;
            }
            default: t += fmt::format("{:04x} ffffffff 1 R8 FFMA 3 R4 R6 R8 0 0 \n", pc);
          }
        }
      }
      t += "\n#END_TB\n";
    }
    return t;
  }();
  return text;
}

const std::string& compressed() {
  static const std::string xz = [] {
    const std::string& in = kernel_text();
    std::string out(lzma_stream_buffer_bound(in.size()), '\0');
    std::size_t pos = 0;
    if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(in.data()),
                                in.size(), reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size()) != LZMA_OK)
      throw std::runtime_error("xz encoding failed");
    out.resize(pos);
    return out;
  }();
  return xz;
}

void read_all(benchmark::State& state, const std::string& bytes) {
  std::uint64_t records = 0;
  for (auto _ : state) {
    auto src = open_trace_buffer(bytes, "bench.traceg");
    records = 0;
    for (auto batch = src->next_batch(); !batch.empty(); batch = src->next_batch()) records += batch.size();
    benchmark::DoNotOptimize(records);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(records));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes.size()));
  state.counters["trace_MB"] = static_cast<double>(bytes.size()) / 1e6;
  state.counters["text_MB"] = static_cast<double>(kernel_text().size()) / 1e6;
}

void BM_AccelSimRead(benchmark::State& state) { read_all(state, kernel_text()); }
void BM_AccelSimReadXz(benchmark::State& state) { read_all(state, compressed()); }

BENCHMARK(BM_AccelSimRead)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AccelSimReadXz)->Unit(benchmark::kMillisecond);

}  // namespace
