#include "trace/compress_workers.hpp"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <thread>

#include "trace/encoding.hpp"
#include "trace/native_format.hpp"
#include "warpscope/error.hpp"

namespace warpscope::trace {
namespace {

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

// One compression context per thread, made on first use.
ZSTD_CCtx* thread_context() {
  thread_local std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx(ZSTD_createCCtx());
  if (!cctx) throw Error("cannot create a zstd compression context");
  return cctx.get();
}

}  // namespace

void append_block(std::string& out, std::uint8_t type, std::string_view body) {
  std::string h;
  h.push_back(static_cast<char>(type));
  h.append(3, '\0');
  put_u32(h, static_cast<std::uint32_t>(body.size()));
  put_u64(h, fnv1a(body.data(), body.size(), fnv1a(h.data(), 8)));
  out += h;
  out += body;
}

void compress_chunk(CompressJob& job) {
  try {
    if (!job.pending.empty()) {
      job.raw.resize(job.pending.size() * kMaxRecordBytes);
      RecordEncoder encoder;
      std::uint8_t* out = job.raw.data();
      for (const WarpAccess& rec : job.pending) out = encoder.encode(rec, out);
      job.used = static_cast<std::size_t>(out - job.raw.data());
      job.records = static_cast<std::uint32_t>(job.pending.size());
      job.pending.clear();
    }
    const std::size_t bound = ZSTD_compressBound(job.used);
    std::string body(kChunkCountsBytes + bound, '\0');
    const std::size_t n = ZSTD_compressCCtx(thread_context(), body.data() + kChunkCountsBytes, bound, job.raw.data(),
                                            job.used, job.level);
    if (ZSTD_isError(n)) throw Error(fmt::format("zstd compression failed: {}", ZSTD_getErrorName(n)));
    std::string counts;
    put_u32(counts, job.records);
    put_u32(counts, static_cast<std::uint32_t>(job.used));
    std::copy(counts.begin(), counts.end(), body.begin());
    body.resize(kChunkCountsBytes + n);
    job.block.clear();
    append_block(job.block, static_cast<std::uint8_t>(BlockType::Chunk), body);
  } catch (...) {
    job.error = std::current_exception();
  }
}

unsigned default_compress_threads() {
  const unsigned cores = std::thread::hardware_concurrency();
  return std::clamp(cores, 1u, 8u);
}

}  // namespace warpscope::trace
