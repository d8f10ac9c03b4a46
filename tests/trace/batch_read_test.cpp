// TraceSource::next_batch() returns the same records as next(), in the same
// order, whatever the thread count, on recorded and random traces, on chunks
// decoded whole and on chunks too large for that; mixed with next(); and it
// fails after the same records with the same message and offset. Also the
// compact record itself: pack() and expand() / address() are inverse.
#include <gtest/gtest.h>
#include <zstd.h>

#include <random>
#include <utility>

#include "trace/native_format.hpp"
#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

bool same_record(const WarpAccess& a, const WarpAccess& b) {
  return a.pc == b.pc && a.kernel == b.kernel && a.cta == b.cta && a.warp == b.warp && a.sm == b.sm &&
         a.space == b.space && a.op == b.op && a.size == b.size && a.cache == b.cache && a.active == b.active &&
         a.addr == b.addr;
}

// A record with every field drawn at random; a third strided, a third
// scattered, a third with few lanes (one lane, none, or a broadcast). Lane
// addresses are multiples of the size, as the formats require.
WarpAccess random_record(std::mt19937_64& rng, std::uint32_t kernels) {
  const int shape = static_cast<int>(rng() % 3);
  const auto size = static_cast<std::uint8_t>(1u << (rng() % 5));
  const std::uint64_t align = ~std::uint64_t{size - 1u};
  std::uint32_t mask = static_cast<std::uint32_t>(rng());
  if (rng() % 2 == 0) mask = 0xffffffffu;
  if (shape == 2) mask = rng() % 3 == 0 ? 0u : mask & (rng() % 2 == 0 ? 1u << (rng() % 32) : mask);
  const std::uint64_t base = rng() & align, stride = shape == 2 ? 0 : (rng() % 512 - 256) * size;
  WarpAccess r = record(static_cast<std::uint32_t>(rng() % kernels), rng() % 64 * 16, mask, [&](int l) {
    return shape == 1 ? rng() & align : base + stride * static_cast<std::uint64_t>(l);
  });
  r.size = size;
  r.cta = static_cast<std::uint32_t>(rng() % 1000);
  r.warp = static_cast<std::uint16_t>(rng() % 32);
  r.sm = static_cast<std::int16_t>(static_cast<int>(rng() % 140) - 1);
  r.space = static_cast<Space>(rng() % 5);
  r.op = static_cast<Op>(rng() % 4);
  r.cache = static_cast<CacheOp>(rng() % 9);
  return r;
}

std::vector<WarpAccess> random_records(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<WarpAccess> out(n);
  for (auto& r : out) r = random_record(rng, 3);
  return out;
}

std::string random_trace(const char* name, const std::vector<WarpAccess>& records, std::uint32_t per_chunk) {
  TraceWriteOptions o;
  o.records_per_chunk = per_chunk;
  const auto path = scratch_dir() / name;
  write_all(path, TraceFormat::Native, std::vector<KernelInfo>(3), records, o);
  return read_bytes(path);
}

struct ReadResult {
  std::vector<WarpAccess> records;
  std::size_t batches = 0;
  std::string error;  // "" if none
  std::uint64_t error_offset = 0;
  std::uint64_t summary_records = 0;
};

// Reads with next_batch(), expanding each record; checks on the way that
// kernels() names every record's kernel.
ReadResult read_batches(TraceSource& src) {
  ReadResult out;
  try {
    for (auto batch = src.next_batch(); !batch.empty(); batch = src.next_batch()) {
      ++out.batches;
      for (const PackedAccess& p : batch) {
        EXPECT_LT(p.kernel, src.kernels().size());
        p.expand(out.records.emplace_back());
      }
    }
    EXPECT_TRUE(src.next_batch().empty());  // the end stays the end
  } catch (const TraceError& e) {
    out.error = e.what();
    out.error_offset = e.offset();
  }
  out.summary_records = src.summary().records;
  return out;
}

ReadResult read_records(TraceSource& src) {
  ReadResult out;
  try {
    WarpAccess r;
    while (src.next(r)) out.records.push_back(r);
  } catch (const TraceError& e) {
    out.error = e.what();
    out.error_offset = e.offset();
  }
  out.summary_records = src.summary().records;
  return out;
}

ReadResult read_bytes_with(const std::string& bytes, int threads, bool batches) {
  TraceReadOptions o;
  o.threads = threads;
  auto src = open_trace_buffer(bytes, "t.wst", o);
  return batches ? read_batches(*src) : read_records(*src);
}

void expect_same(const ReadResult& got, const ReadResult& want) {
  EXPECT_EQ(got.error, want.error);
  EXPECT_EQ(got.error_offset, want.error_offset);
  EXPECT_EQ(got.summary_records, want.summary_records);
  ASSERT_EQ(got.records.size(), want.records.size());
  for (std::size_t i = 0; i < want.records.size(); ++i) ASSERT_TRUE(same_record(got.records[i], want.records[i])) << i;
}

TEST(PackedAccess, PackThenExpandIsTheRecord) {
  std::mt19937_64 rng(11);
  std::uint64_t lanes[kWarpSize];
  int strided = 0;
  for (int i = 0; i < 3000; ++i) {
    const WarpAccess r = random_record(rng, 1);
    PackedAccess p;
    const int used = pack(r, p, lanes);
    EXPECT_EQ(used, p.strided() ? 0 : r.active.count());
    strided += p.strided();
    WarpAccess back;
    p.expand(back);
    ASSERT_TRUE(same_record(back, r)) << i;
    for (int l = 0; l < kWarpSize; ++l) ASSERT_EQ(p.address(l), r.addr[static_cast<unsigned>(l)]) << i << " " << l;
  }
  EXPECT_GT(strided, 1000);  // both forms were exercised
  EXPECT_LT(strided, 2900);
}

TEST(PackedAccess, StridedFormHoldsBaseAndStride) {
  const WarpAccess r = record(0, 0x10, 0xfffffff0u, [](int l) { return 0x1000 - 8 * static_cast<std::uint64_t>(l); });
  std::uint64_t lanes[kWarpSize];
  PackedAccess p;
  EXPECT_EQ(pack(r, p, lanes), 0);
  EXPECT_TRUE(p.strided());
  EXPECT_EQ(p.base, 0x1000u - 8 * 4);
  EXPECT_EQ(p.stride, -8);
  EXPECT_EQ(p.address(3), 0u);  // inactive
  EXPECT_EQ(p.address(31), 0x1000u - 8 * 31);
}

TEST(BatchRead, RandomTraceSameAsRecordByRecordWhateverTheThreads) {
  const auto records = random_records(6000, 5);
  const std::string b = random_trace("batch_random.wst", records, 97);
  const ReadResult want = read_bytes_with(b, 1, false);
  ASSERT_EQ(want.error, "");
  ASSERT_EQ(want.records.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) ASSERT_TRUE(same_record(want.records[i], records[i])) << i;
  for (int threads : {1, 2, 3, 8}) {
    SCOPED_TRACE(threads);
    const ReadResult got = read_bytes_with(b, threads, true);
    expect_same(got, want);
    EXPECT_EQ(got.batches, (records.size() + 96) / 97);  // one batch per chunk
  }
}

TEST(BatchRead, ChunkTooLargeToDecodeWholeComesInBatchesToo) {
  const auto records = random_records(trace::kMaxDecodedChunkRecords + 5000, 6);
  const std::string b = random_trace("batch_large_chunk.wst", records, trace::kMaxDecodedChunkRecords + 4000);
  const ReadResult want = read_bytes_with(b, 1, false);
  ASSERT_EQ(want.records.size(), records.size());
  for (int threads : {1, 4}) {
    SCOPED_TRACE(threads);
    const ReadResult got = read_bytes_with(b, threads, true);
    expect_same(got, want);
    EXPECT_GT(got.batches, 2u);
  }
}

TEST(BatchRead, MixesWithNext) {
  const auto records = random_records(3000, 8);
  for (std::uint32_t per_chunk : {50u, trace::kMaxDecodedChunkRecords + 1}) {
    const std::string b = random_trace("batch_mixed.wst", records, per_chunk);
    for (int threads : {1, 2}) {
      TraceReadOptions o;
      o.threads = threads;
      auto src = open_trace_buffer(b, "t.wst", o);
      std::vector<WarpAccess> got;
      WarpAccess r;
      for (int turn = 0;; ++turn) {
        if (turn % 2 == 0) {
          for (int i = 0; i < 7 && src->next(r); ++i) got.push_back(r);
        } else {
          const auto batch = src->next_batch();
          if (batch.empty()) break;
          for (const PackedAccess& p : batch) p.expand(got.emplace_back());
        }
      }
      ASSERT_EQ(got.size(), records.size());
      for (std::size_t i = 0; i < records.size(); ++i) ASSERT_TRUE(same_record(got[i], records[i])) << i;
      EXPECT_EQ(src->summary().records, records.size());
    }
  }
}

TEST(BatchRead, RecordedTracesSameAsRecordByRecord) {
  const std::filesystem::path suite = std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "validation/h100/suite";
  int traces = 0;
  for (const auto& entry : std::filesystem::directory_iterator(suite)) {
    if (entry.path().extension() != ".wst") continue;
    SCOPED_TRACE(entry.path().string());
    ++traces;
    const std::string b = read_bytes(entry.path());
    const ReadResult want = read_bytes_with(b, 1, false);
    EXPECT_EQ(want.error, "");
    EXPECT_GT(want.records.size(), 0u);
    for (int threads : {1, 0}) expect_same(read_bytes_with(b, threads, true), want);
  }
  EXPECT_GE(traces, 10);
}

TEST(BatchRead, TextTracesComeInBatchesToo) {
  const auto records = random_records(700, 9);
  const auto path = scratch_dir() / "batch_text.txt";
  write_all(path, TraceFormat::Text, std::vector<KernelInfo>(3), records);
  auto want_src = open_trace(path);
  const ReadResult want = read_records(*want_src);
  auto src = open_trace(path);
  const ReadResult got = read_batches(*src);
  expect_same(got, want);
  EXPECT_EQ(got.records.size(), 700u);
  EXPECT_GE(got.batches, 3u);
}

TEST(BatchRead, TextErrorComesAfterTheRecordsBeforeIt) {
  const auto records = random_records(300, 10);
  const auto path = scratch_dir() / "batch_text_error.txt";
  write_all(path, TraceFormat::Text, std::vector<KernelInfo>(3), records);
  write_bytes(path, read_bytes(path) + "rec glob ld 4\n");
  auto want_src = open_trace(path);
  const ReadResult want = read_records(*want_src);
  EXPECT_EQ(want.records.size(), 300u);
  EXPECT_NE(want.error.find("expected an address space"), std::string::npos) << want.error;
  auto src = open_trace(path);
  expect_same(read_batches(*src), want);  // 256 records, then 44, then the error
}

// --- errors ------------------------------------------------------------------

// A native trace of one kernel and one chunk whose uncompressed bytes are
// `records` encoded, then `tail` (bytes that make the chunk bad); `declared`
// is the record count the chunk states. No footer: the error comes first.
std::string trace_with_chunk(const std::vector<WarpAccess>& records, const std::string& tail, std::uint32_t declared) {
  std::string data(records.size() * trace::kMaxRecordBytes, '\0');
  trace::RecordEncoder enc;
  enc.reset();
  auto* out = reinterpret_cast<std::uint8_t*>(data.data());
  for (const auto& r : records) out = enc.encode(r, out);
  data.resize(static_cast<std::size_t>(out - reinterpret_cast<std::uint8_t*>(data.data())));
  data += tail;
  std::string packed(ZSTD_compressBound(data.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), data.data(), data.size(), 1));

  std::string b(trace::kMagic.begin(), trace::kMagic.end());
  trace::put_u16(b, 1);
  trace::put_u16(b, 0);
  const auto block = [&b](std::uint8_t type, const std::string& body) {
    b.push_back(static_cast<char>(type));
    b.append(3, '\0');
    trace::put_u32(b, static_cast<std::uint32_t>(body.size()));
    trace::put_u64(b, 0);  // fix_checksums() below
    b += body;
  };
  block(1, trace::encode_kernel(KernelInfo{}));
  std::string chunk;
  trace::put_u32(chunk, declared);
  trace::put_u32(chunk, static_cast<std::uint32_t>(data.size()));
  block(2, chunk + packed);
  trace::fix_checksums(b);
  return b;
}

// Where trace_with_chunk() puts its chunk: after the file header and a
// 16-byte kernel block (an unnamed kernel).
constexpr std::uint64_t kChunkAt = 8 + 16 + 16;

std::vector<WarpAccess> kernel0_records(std::size_t n) {
  auto r = random_records(n, 12);
  for (auto& x : r) x.kernel = 0;
  return r;
}

TEST(BatchRead, BadRecordFailsAfterTheSameRecords) {
  // Record 301: tag "kernel follows", kernel 5, which is not declared.
  for (std::size_t good : {std::size_t{300}, std::size_t{trace::kMaxDecodedChunkRecords} + 300}) {
    SCOPED_TRACE(good);
    const auto records = kernel0_records(good);
    const std::string b =
        trace_with_chunk(records, std::string("\x01\x05\x00", 3), static_cast<std::uint32_t>(good + 1));
    const ReadResult want = read_bytes_with(b, 1, false);
    EXPECT_EQ(want.records.size(), good);
    const std::string n = std::to_string(good + 1);
    EXPECT_EQ(want.error, std::string("t.wst: bad record ")
                              .append(n)
                              .append(" of ")
                              .append(n)
                              .append(" in chunk at byte 40: record of a kernel not declared before it"));
    EXPECT_EQ(want.error_offset, kChunkAt);
    for (int threads : {1, 2}) expect_same(read_bytes_with(b, threads, true), want);
  }
}

TEST(BatchRead, TrailingBytesFailBeforeTheLastRecord) {
  for (std::size_t n : {std::size_t{200}, std::size_t{trace::kMaxDecodedChunkRecords} + 200}) {
    SCOPED_TRACE(n);
    const auto records = kernel0_records(n);
    const std::string b = trace_with_chunk(records, "xyz", static_cast<std::uint32_t>(n));
    const ReadResult want = read_bytes_with(b, 1, false);
    EXPECT_EQ(want.records.size(), n - 1);  // the last record is not returned
    EXPECT_NE(want.error.find("3 bytes left after its"), std::string::npos) << want.error;
    EXPECT_EQ(want.error_offset, kChunkAt);
    for (int threads : {1, 2}) expect_same(read_bytes_with(b, threads, true), want);
  }
}

TEST(BatchRead, CorruptedAndTruncatedFilesFailAfterTheSameRecords) {
  const auto records = random_records(2000, 13);
  const std::string b = random_trace("batch_corrupt.wst", records, 50);
  std::string flipped = b;
  flipped[b.size() / 2] = static_cast<char>(flipped[b.size() / 2] ^ 0x10);
  const std::string cut = b.substr(0, b.size() * 2 / 3);
  for (const std::string* bytes : {&std::as_const(flipped), &cut}) {
    const ReadResult want = read_bytes_with(*bytes, 1, false);
    EXPECT_NE(want.error, "");
    EXPECT_GT(want.error_offset, 0u);
    EXPECT_GT(want.records.size(), 0u);
    EXPECT_LT(want.records.size(), records.size());
    for (int threads : {1, 2, 8}) expect_same(read_bytes_with(*bytes, threads, true), want);
  }
}

}  // namespace
}  // namespace warpscope::test
