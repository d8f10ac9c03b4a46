// Native trace throughput: writing and reading records (records/s, and MB/s
// of the compressed file), and how compact the file is, for coalesced,
// strided and random warps. BM_TraceRead reads by batches (next_batch),
// BM_TraceReadRecords record by record (next), each with threads:1 (decoding
// on the reading thread), 2 and 0 (one decoding thread per core); wall-clock time.
//   build/release/bench/warpscope_bench --benchmark_filter=BM_Trace
// BM_TraceRoundTrip100M writes and reads back 10^8 records and reports the
// file size and the process's peak RSS (bounded memory whatever the trace
// size). BM_TraceReadLarge/<shape> reads a 2^25-record trace of each shape by
// batches with the default threads: sustained reading, without the start-up
// and pipeline fill that weigh on BM_TraceRead's 2^20-record (6 MB) files.
// They take a minute or more and up to 1 GB of disk in /tmp, so they are
// registered only when a --benchmark_filter argument names them:
//   build/release/bench/warpscope_bench --benchmark_filter=BM_TraceRoundTrip100M
//   build/release/bench/warpscope_bench --benchmark_filter=BM_TraceReadLarge
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "trace/native_format.hpp"
#include "warpscope/trace.hpp"

namespace {

using namespace warpscope;

enum class Shape { Coalesced, Strided, Random, Transpose };

// A small GPU: 128 resident warps (16 CTAs of 8 warps) issue in random
// order; each runs a grid-stride loop of four memory instructions (three
// loads, one store) for eight iterations, then a warp of a new CTA takes its
// place. The shape decides the lane addresses of each instruction.
class WarpScheduler {
 public:
  explicit WarpScheduler(Shape shape) : shape_(shape) {
    for (std::uint32_t w = 0; w < kResident; ++w) warps_[w] = {w / 8, static_cast<std::uint16_t>(w % 8), 0};
  }

  void next(WarpAccess& r) {
    Warp& w = warps_[rng_() % kResident];
    const std::uint32_t inst = w.step % 4, iter = w.step / 4;
    r.kernel = 0;
    r.pc = 0x100 + 0x10 * inst;
    r.cta = w.cta;
    r.warp = w.warp;
    r.sm = static_cast<std::int16_t>(w.cta % 132);
    r.space = Space::Global;
    r.op = inst == 3 ? Op::Store : Op::Load;
    r.size = 4;
    r.active = LaneMask::full();
    const std::uint64_t array = 0x7f0000000000ull + (std::uint64_t{inst} << 36);
    const std::uint64_t first = (std::uint64_t{w.cta} * 8 + w.warp) * 32 + std::uint64_t{iter} * (1u << 22);
    for (int l = 0; l < kWarpSize; ++l) {
      const std::uint64_t idx = first + static_cast<std::uint64_t>(l);
      std::uint64_t a = 0;
      switch (shape_) {
        case Shape::Coalesced: a = array + 4 * idx; break;
        case Shape::Strided: a = array + 4 * 33 * idx; break;
        case Shape::Random: a = array + 4 * ((idx * 0x9e3779b97f4a7c15ull) >> 36); break;  // a gather
        case Shape::Transpose:  // rows of a 4096-wide matrix in, columns out
          a = inst != 3 ? array + 4 * idx : array + 4 * ((idx % 4096) * 4096 + (idx / 4096) % 4096);
          break;
      }
      r.addr[static_cast<unsigned>(l)] = a;
    }
    if (++w.step == 4 * 8) w = {next_cta_++, w.warp, 0};
  }

 private:
  struct Warp {
    std::uint32_t cta;
    std::uint16_t warp;
    std::uint32_t step;
  };
  static constexpr std::uint32_t kResident = 128;
  Shape shape_;
  Warp warps_[kResident];
  std::uint32_t next_cta_ = kResident / 8;
  std::mt19937_64 rng_{42};
};

constexpr std::size_t kDistinct = 1 << 16;

const std::vector<WarpAccess>& records(Shape shape) {
  static std::vector<WarpAccess> cache[4];
  auto& v = cache[static_cast<int>(shape)];
  if (v.empty()) {
    WarpScheduler gpu(shape);
    v.resize(kDistinct);
    for (auto& r : v) gpu.next(r);
  }
  return v;
}

std::filesystem::path temp_path(const char* name) {
  return std::filesystem::temp_directory_path() / (std::string("warpscope_bench_") + std::to_string(::getpid()) +
                                                   "_" + name + ".wst");
}

void write_trace(const std::filesystem::path& path, Shape shape, std::uint64_t n) {
  auto sink = create_trace(path, TraceFormat::Native);
  sink->begin_kernel(KernelInfo{});
  const auto& recs = records(shape);
  WarpAccess r;
  for (std::uint64_t i = 0; i < n; ++i) {
    r = recs[i % kDistinct];
    r.cta += static_cast<std::uint32_t>(i / kDistinct) * 8192;  // keep cycles distinct
    sink->write(r);
  }
  sink->close();
}

// Sum of the chunks' uncompressed sizes: the record encoding before zstd.
std::uint64_t encoded_bytes(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::string b(std::istreambuf_iterator<char>(f), {});
  std::uint64_t total = 0;
  for (std::size_t at = trace::kFileHeaderBytes; at + trace::kBlockHeaderBytes <= b.size();) {
    std::uint32_t size = 0, usize = 0;
    std::memcpy(&size, b.data() + at + 4, 4);
    if (b[at] == static_cast<char>(trace::BlockType::Chunk)) {
      std::memcpy(&usize, b.data() + at + 20, 4);
      total += usize;
    }
    at += trace::kBlockHeaderBytes + size;
  }
  return total;
}

constexpr std::uint64_t kRecords = 1 << 20;

void BM_TraceWrite(benchmark::State& state, Shape shape) {
  const auto path = temp_path("write");
  records(shape);
  for (auto _ : state) write_trace(path, shape, kRecords);
  const auto file = std::filesystem::file_size(path);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRecords));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(file));
  state.counters["file_B/rec"] = static_cast<double>(file) / kRecords;
  std::filesystem::remove(path);
}

enum class ReadApi { Batch, Record };

// Reads the trace whole, by batches (next_batch: compact records, lane 31
// computed from base + stride or looked up) or record by record (next: all
// 32 lanes expanded into a WarpAccess). state.range(0) is
// TraceReadOptions::threads (0: one decoding thread per core, at most 16).
void read_trace(benchmark::State& state, Shape shape, ReadApi api) {
  const auto path = temp_path("read");
  write_trace(path, shape, kRecords);
  const auto file = std::filesystem::file_size(path);
  TraceReadOptions options;
  options.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    auto src = open_trace(path, options);
    std::uint64_t sum = 0, count = 0;
    if (api == ReadApi::Batch) {
      for (auto batch = src->next_batch(); !batch.empty(); batch = src->next_batch()) {
        for (const PackedAccess& r : batch) sum += r.address(31);
        count += batch.size();
      }
    } else {
      WarpAccess r;
      while (src->next(r)) {
        sum += r.addr[31];
        ++count;
      }
    }
    if (count != kRecords) state.SkipWithError("record count mismatch");
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRecords));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(file));  // compressed input
  const double encoded = static_cast<double>(encoded_bytes(path));
  state.counters["file_B/rec"] = static_cast<double>(file) / kRecords;
  state.counters["encoded_B/rec"] = encoded / kRecords;     // before zstd
  state.counters["ratio_vs_record"] = sizeof(WarpAccess) * double(kRecords) / static_cast<double>(file);
  state.counters["zstd_ratio"] = encoded / static_cast<double>(file);
  std::filesystem::remove(path);
}

BENCHMARK_CAPTURE(BM_TraceWrite, coalesced, Shape::Coalesced)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TraceWrite, strided, Shape::Strided)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TraceWrite, random, Shape::Random)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TraceWrite, transpose, Shape::Transpose)->Unit(benchmark::kMillisecond);
void BM_TraceRead(benchmark::State& state, Shape shape) { read_trace(state, shape, ReadApi::Batch); }
void BM_TraceReadRecords(benchmark::State& state, Shape shape) { read_trace(state, shape, ReadApi::Record); }

// threads:1, 2 and 0 (the default); wall-clock time, as with threads != 1 the
// decoding runs on worker threads.
void thread_counts(benchmark::internal::Benchmark* b) {
  b->ArgName("threads")->Arg(1)->Arg(2)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
}
BENCHMARK_CAPTURE(BM_TraceRead, coalesced, Shape::Coalesced)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_TraceRead, strided, Shape::Strided)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_TraceRead, random, Shape::Random)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_TraceRead, transpose, Shape::Transpose)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_TraceReadRecords, coalesced, Shape::Coalesced)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_TraceReadRecords, strided, Shape::Strided)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_TraceReadRecords, random, Shape::Random)->Apply(thread_counts);
BENCHMARK_CAPTURE(BM_TraceReadRecords, transpose, Shape::Transpose)->Apply(thread_counts);

double peak_rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  return 0;
}

// 10^8 transpose-shaped records (WarpScheduler) written and read back.
void BM_TraceRoundTrip100M(benchmark::State& state) {
  constexpr std::uint64_t n = 100'000'000;
  const auto path = temp_path("100M");
  records(Shape::Transpose);
  double write_s = 0, read_s = 0;
  std::uint64_t file = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    write_trace(path, Shape::Transpose, n);
    const auto t1 = std::chrono::steady_clock::now();
    auto src = open_trace(path);
    std::uint64_t count = 0;
    for (auto batch = src->next_batch(); !batch.empty(); batch = src->next_batch()) count += batch.size();
    const auto t2 = std::chrono::steady_clock::now();
    if (count != n) state.SkipWithError("record count mismatch");
    file = src->file_size();
    write_s += std::chrono::duration<double>(t1 - t0).count();
    read_s += std::chrono::duration<double>(t2 - t1).count();
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["file_MB"] = static_cast<double>(file) / 1e6;
  state.counters["file_B/rec"] = static_cast<double>(file) / n;
  state.counters["write_Mrec/s"] = n * iters / write_s / 1e6;
  state.counters["read_Mrec/s"] = n * iters / read_s / 1e6;
  state.counters["write_MB/s"] = static_cast<double>(file) * iters / write_s / 1e6;
  state.counters["read_MB/s"] = static_cast<double>(file) * iters / read_s / 1e6;
  state.counters["peak_RSS_MB"] = peak_rss_mb();
  std::filesystem::remove(path);
}

// 2^25 records of one shape, read by batches with one decoding thread per core.
void BM_TraceReadLarge(benchmark::State& state, Shape shape) {
  constexpr std::uint64_t n = 1ull << 25;
  const auto path = temp_path("large");
  records(shape);
  write_trace(path, shape, n);
  const auto file = std::filesystem::file_size(path);
  for (auto _ : state) {
    auto src = open_trace(path);
    std::uint64_t sum = 0, count = 0;
    for (auto batch = src->next_batch(); !batch.empty(); batch = src->next_batch()) {
      for (const PackedAccess& r : batch) sum += r.address(31);
      count += batch.size();
    }
    if (count != n) state.SkipWithError("record count mismatch");
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(file));  // compressed input
  state.counters["file_B/rec"] = static_cast<double>(file) / n;
  state.counters["peak_RSS_MB"] = peak_rss_mb();
  std::filesystem::remove(path);
}

// Registered only when asked for by name (see the top of this file).
const bool kLargeRegistered = [] {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::string arg;
  bool any = false;
  while (std::getline(f, arg, '\0')) {
    if (arg.rfind("--benchmark_filter=", 0) != 0) continue;
    if (arg.find("RoundTrip100M") != std::string::npos) {
      benchmark::RegisterBenchmark("BM_TraceRoundTrip100M", BM_TraceRoundTrip100M)
          ->Unit(benchmark::kSecond)
          ->Iterations(1);
      any = true;
    }
    if (arg.find("ReadLarge") != std::string::npos) {
      const std::pair<const char*, Shape> shapes[] = {{"coalesced", Shape::Coalesced},
                                                      {"strided", Shape::Strided},
                                                      {"random", Shape::Random},
                                                      {"transpose", Shape::Transpose}};
      for (const auto& [name, shape] : shapes)
        benchmark::RegisterBenchmark(std::string("BM_TraceReadLarge/").append(name).c_str(),
                                     [shape = shape](benchmark::State& st) { BM_TraceReadLarge(st, shape); })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->MinTime(1.0);
      any = true;
    }
  }
  return any;
}();

}  // namespace
