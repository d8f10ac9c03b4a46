#include "trace/chunk_decoder.hpp"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <thread>

#include "trace/native_format.hpp"

namespace warpscope::trace {
namespace {

struct DCtxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

// One decompression context per thread, reused for every chunk it decodes.
ZSTD_DCtx* thread_dctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxFree> ctx(ZSTD_createDCtx());
  if (!ctx) throw Error("cannot create a zstd decompression context");
  return ctx.get();
}

[[noreturn]] void fail(const ChunkJob& job, const std::string& what) {
  throw TraceError(fmt::format("{}: {}", *job.file, what), job.at);
}

// The checks of a chunk block before its records, in the order of
// docs/TRACE_FORMAT.md; then the records, decoded into job.records.
void check_and_decompress(ChunkJob& job) {
  const std::uint64_t at = job.at;
  const std::uint64_t sum = fnv1a(job.body.data(), job.size, fnv1a(job.header, 8));
  if (sum != load_u64(job.header + 8))
    fail(job, fmt::format("checksum mismatch in chunk at byte {}: stored {:#018x}, computed {:#018x} (the file is "
                          "corrupted)", at, load_u64(job.header + 8), sum));
  if (job.size < kChunkCountsBytes)
    fail(job, fmt::format("chunk at byte {} is {} bytes, shorter than its {}-byte counts", at, job.size,
                          kChunkCountsBytes));
  const std::uint32_t count = load_u32(job.body.data()), usize = load_u32(job.body.data() + 4);
  const std::uint8_t* packed = job.body.data() + kChunkCountsBytes;
  const std::size_t psize = job.size - kChunkCountsBytes;
  if (count == 0) fail(job, fmt::format("chunk at byte {} holds no records", at));
  if (usize > kMaxChunkBytes)
    fail(job, fmt::format("chunk at byte {} declares {} uncompressed bytes (the limit is {})", at, usize,
                          kMaxChunkBytes));
  if (usize / 2 < count) fail(job, fmt::format("chunk at byte {}: {} records cannot fit in {} bytes", at, count, usize));
  const unsigned long long content = ZSTD_getFrameContentSize(packed, psize);
  if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN)
    fail(job, fmt::format("corrupt chunk at byte {}: its compressed data is not a zstd frame with a content size", at));
  if (content != usize)
    fail(job, fmt::format("corrupt chunk at byte {}: the zstd frame holds {} bytes, the chunk says {}", at, content,
                          usize));
  if (ZSTD_findFrameCompressedSize(packed, psize) != psize)
    fail(job, fmt::format("corrupt chunk at byte {}: the zstd frame does not fill the chunk's {} compressed bytes", at,
                          psize));
  if (job.data.size() < usize) job.data.resize(usize);
  const std::size_t n = ZSTD_decompressDCtx(thread_dctx(), job.data.data(), usize, packed, psize);
  if (ZSTD_isError(n) || n != usize)
    fail(job, fmt::format("corrupt chunk at byte {}: zstd: {}", at, ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short output"));
  job.count = count;
  job.data.resize(usize);
}

}  // namespace

std::string bad_record_message(std::uint32_t index, std::uint32_t count, std::uint64_t at, const char* why) {
  return fmt::format("bad record {} of {} in chunk at byte {}: {}", index + 1, count, at, why);
}

std::string trailing_bytes_message(std::uint64_t at, std::size_t left, std::uint32_t count) {
  return fmt::format("chunk at byte {}: {} bytes left after its {} records", at, left, count);
}

void decode_chunk(ChunkJob& job) {
  job.error = nullptr;
  job.count = job.good = 0;
  job.record_error.clear();
  try {
    check_and_decompress(job);
  } catch (...) {
    job.error = std::current_exception();
    return;
  }
  if (job.count > kMaxDecodedChunkRecords) return;  // the reader decodes it as it goes
  if (job.records.size() < job.count) job.records.resize(job.count);
  const std::size_t lanes_needed = std::size_t{job.count} * kWarpSize;
  if (job.lanes_capacity < lanes_needed) {
    job.lanes = std::make_unique_for_overwrite<std::uint64_t[]>(lanes_needed);  // pages touched only when used
    job.lanes_capacity = lanes_needed;
  }
  std::uint64_t* lanes = job.lanes.get();
  RecordDecoder decoder;
  decoder.start(job.data.data(), job.data.size(), job.kernel_count);
  for (; job.good < job.count; ++job.good) {
    PackedAccess& r = job.records[job.good];
    if (!decoder.decode(r, lanes)) {
      job.record_error = bad_record_message(job.good, job.count, job.at, decoder.error());
      return;
    }
    if (r.lanes != nullptr) lanes += std::popcount(r.mask);
  }
  if (!decoder.at_end()) {
    --job.good;  // the last record is not returned: the chunk is bad
    job.record_error = trailing_bytes_message(job.at, job.data.size() - decoder.consumed(), job.count);
  }
}

unsigned default_decode_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  // One per core: reading by batches costs the reading thread ~4 ns per
  // record and a worker 40-250 ns, so workers set the pace up to 16 cores.
  return std::clamp(n == 0 ? 1u : n, 1u, 16u);
}

}  // namespace warpscope::trace
