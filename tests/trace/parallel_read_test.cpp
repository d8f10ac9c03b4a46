// Decoding chunks on worker threads (TraceReadOptions::threads) returns the
// same records, kernels and summary as decoding on the reading thread, and
// fails at the same record with the same message: on many small chunks, on a
// chunk too large to decode whole, on a corrupted chunk and on a truncated file.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "trace/native_format.hpp"
#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

std::vector<WarpAccess> mixed_records(std::size_t n) {
  std::vector<WarpAccess> out;
  std::mt19937_64 rng(7);
  for (std::size_t i = 0; i < n; ++i) {
    const auto kernel = static_cast<std::uint32_t>(i * 3 / n);  // kernels 0, 1, 2 in turn
    const std::uint32_t mask = i % 5 == 0 ? static_cast<std::uint32_t>(rng()) : 0xffffffffu;
    const bool scattered = i % 3 == 0;
    WarpAccess r = record(kernel, 0x10 * (i % 9), mask, [&](int l) {
      return scattered ? rng() & ~3ull : 0x7f0000000000ull + 128 * i + 4u * unsigned(l);
    });
    r.cta = static_cast<std::uint32_t>(i / 64);
    r.warp = static_cast<std::uint16_t>(i % 8);
    r.op = i % 4 == 3 ? Op::Store : Op::Load;
    out.push_back(r);
  }
  return out;
}

std::vector<KernelInfo> kernels3() {
  std::vector<KernelInfo> k(3);
  // Not "k" + std::to_string(i): GCC 12's -Wrestrict misfires on that (a known false positive).
  for (int i = 0; i < 3; ++i) k[static_cast<std::size_t>(i)].name = std::string(1, 'k').append(std::to_string(i));
  return k;
}

// Reads `bytes` with `threads`; returns the records read and the error message ("" if none).
std::pair<TraceContent, std::string> read_with(const std::string& bytes, int threads) {
  TraceReadOptions o;
  o.threads = threads;
  TraceContent c;
  std::string error;
  try {
    auto src = open_trace_buffer(bytes, "t.wst", o);
    WarpAccess r;
    while (src->next(r)) c.records.push_back(r);
    c.kernels = src->kernels();
    c.summary = src->summary();
  } catch (const TraceError& e) {
    error = e.what();
  }
  return {c, error};
}

std::string write_trace_bytes(const char* name, const std::vector<WarpAccess>& records, std::uint32_t per_chunk) {
  TraceWriteOptions o;
  o.records_per_chunk = per_chunk;
  const auto path = scratch_dir() / name;
  write_all(path, TraceFormat::Native, kernels3(), records, o);
  return read_bytes(path);
}

// The offset of the body of the n-th chunk block.
std::size_t chunk_body(const std::string& b, int n) {
  for (std::size_t at = trace::kFileHeaderBytes; at + trace::kBlockHeaderBytes <= b.size();) {
    std::uint32_t size = 0;
    std::memcpy(&size, b.data() + at + 4, 4);
    if (b[at] == static_cast<char>(trace::BlockType::Chunk) && n-- == 0) return at + trace::kBlockHeaderBytes;
    at += trace::kBlockHeaderBytes + size;
  }
  return std::string::npos;
}

TEST(ParallelRead, ManyChunksSameRecordsWhateverTheThreads) {
  const auto records = mixed_records(5000);
  const std::string b = write_trace_bytes("many_chunks.wst", records, 37);
  for (int threads : {1, 2, 3, 8}) {
    SCOPED_TRACE(threads);
    const auto [c, error] = read_with(b, threads);
    EXPECT_EQ(error, "");
    expect_same_records(c.records, records);
    EXPECT_EQ(c.kernels.size(), 3u);
    EXPECT_EQ(c.summary.records, records.size());
  }
}

TEST(ParallelRead, ChunkTooLargeToDecodeWholeIsStreamed) {
  const auto records = mixed_records(trace::kMaxDecodedChunkRecords + 100);
  const std::string b = write_trace_bytes("large_chunk.wst", records, trace::kMaxDecodedChunkRecords + 50);
  for (int threads : {1, 4}) {
    SCOPED_TRACE(threads);
    const auto [c, error] = read_with(b, threads);
    EXPECT_EQ(error, "");
    expect_same_records(c.records, records);
  }
}

TEST(ParallelRead, CorruptedChunkFailsAfterTheSameRecords) {
  const auto records = mixed_records(2000);
  std::string b = write_trace_bytes("corrupt_chunk.wst", records, 50);
  const std::size_t at = chunk_body(b, 17);  // records 850..899
  ASSERT_NE(at, std::string::npos);
  b[at + 12] = static_cast<char>(b[at + 12] ^ 0x40);  // inside the zstd frame: checksum mismatch
  const auto [one, error_one] = read_with(b, 1);
  EXPECT_NE(error_one.find("checksum mismatch in chunk"), std::string::npos) << error_one;
  EXPECT_EQ(one.records.size(), 850u);
  for (int threads : {2, 8}) {
    const auto [many, error_many] = read_with(b, threads);
    EXPECT_EQ(error_many, error_one);
    expect_same_records(many.records, one.records);
  }
}

TEST(ParallelRead, TruncatedTraceFailsAfterTheSameRecords) {
  const auto records = mixed_records(600);
  const std::string b = write_trace_bytes("truncated.wst", records, 40);
  const std::string cut = b.substr(0, chunk_body(b, 9) + 20);  // inside the tenth chunk
  const auto [one, e1] = read_with(cut, 1);
  EXPECT_NE(e1.find("truncated chunk"), std::string::npos) << e1;
  EXPECT_EQ(one.records.size(), 360u);
  const auto [many, e4] = read_with(cut, 4);
  EXPECT_EQ(e4, e1);
  expect_same_records(many.records, one.records);
}

}  // namespace
}  // namespace warpscope::test
