// Writes the native format: header, then kernel blocks and zstd-compressed
// record chunks as they fill, then the footer. Holds at most one chunk.
#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <vector>

#include "trace/native_format.hpp"
#include "trace/output_file.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {
namespace {

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

class NativeWriter final : public TraceSink {
 public:
  NativeWriter(const std::filesystem::path& path, const TraceWriteOptions& options)
      : options_(options), file_(path, options.remove_partial_on_failure), cctx_(ZSTD_createCCtx()) {
    if (!cctx_) throw Error("cannot create a zstd compression context");
    std::string header(kMagic.begin(), kMagic.end());
    put_u16(header, kTraceFormatVersion);
    put_u16(header, 0);
    file_.write(header.data(), header.size());
    file_.flush();
  }

  ~NativeWriter() override {
    // An unfinished trace the caller wants kept (a tracer dying): leave every
    // record written so far readable in recovery mode.
    if (!closed_ && !options_.remove_partial_on_failure) {
      try {
        flush_chunk();
      } catch (const std::exception&) {  // nothing more can be saved
      }
    }
  }

  std::uint32_t begin_kernel(KernelInfo info) override {
    require_open();
    flush_chunk();  // records before this kernel stay before its block
    info.id = kernels_;
    write_block(BlockType::Kernel, encode_kernel(info));
    file_.flush();
    return kernels_++;
  }

  void write(const WarpAccess& rec) override {
    require_open();
    check_record(rec, kernels_);
    if (buffer_.size() - used_ < kMaxRecordBytes)
      buffer_.resize(std::min<std::size_t>(kMaxChunkBytes, std::max<std::size_t>(buffer_.size() * 2, 1 << 16)));
    used_ = static_cast<std::size_t>(encoder_.encode(rec, buffer_.data() + used_) - buffer_.data());
    if (++chunk_records_ == options_.records_per_chunk || used_ > kMaxChunkBytes - kMaxRecordBytes) flush_chunk();
  }

  void close() override {
    if (closed_) return;
    flush_chunk();
    std::string footer;
    put_u64(footer, records_);
    put_u64(footer, kernels_);
    put_u64(footer, chunks_);
    write_block(BlockType::Footer, footer);
    file_.commit();
    closed_ = true;
  }

 private:
  void require_open() const {
    if (closed_) throw Error(fmt::format("trace {} is already closed", file_.path().string()));
  }

  void write_block(BlockType type, std::string_view body) {
    std::string h;
    h.push_back(static_cast<char>(type));
    h.append(3, '\0');
    put_u32(h, static_cast<std::uint32_t>(body.size()));
    put_u64(h, fnv1a(body.data(), body.size(), fnv1a(h.data(), 8)));
    file_.write(h.data(), h.size());
    file_.write(body.data(), body.size());
  }

  void flush_chunk() {
    if (chunk_records_ == 0) return;
    const std::size_t bound = ZSTD_compressBound(used_);
    packed_.resize(kChunkCountsBytes + bound);
    const std::size_t n = ZSTD_compressCCtx(cctx_.get(), packed_.data() + kChunkCountsBytes, bound, buffer_.data(),
                                            used_, options_.zstd_level);
    if (ZSTD_isError(n)) throw Error(fmt::format("zstd compression failed: {}", ZSTD_getErrorName(n)));
    std::string counts;
    put_u32(counts, chunk_records_);
    put_u32(counts, static_cast<std::uint32_t>(used_));
    std::copy(counts.begin(), counts.end(), packed_.begin());
    write_block(BlockType::Chunk, std::string_view(packed_.data(), kChunkCountsBytes + n));
    file_.flush();
    records_ += chunk_records_;
    ++chunks_;
    chunk_records_ = 0;
    used_ = 0;
    encoder_.reset();
  }

  TraceWriteOptions options_;
  PartialFile file_;
  std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx_;
  RecordEncoder encoder_;
  std::vector<std::uint8_t> buffer_;  // the chunk being filled, uncompressed
  std::string packed_;                // its counts and compressed bytes
  std::size_t used_ = 0;
  std::uint32_t chunk_records_ = 0;
  std::uint32_t kernels_ = 0;
  std::uint64_t records_ = 0, chunks_ = 0;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<TraceSink> make_native_writer(const std::filesystem::path& path, const TraceWriteOptions& options) {
  if (options.records_per_chunk == 0) throw InputError("records per chunk must be at least 1");
  if (options.zstd_level < ZSTD_minCLevel() || options.zstd_level > ZSTD_maxCLevel())
    throw InputError(fmt::format("zstd level {} is out of range ({} to {})", options.zstd_level, ZSTD_minCLevel(),
                                 ZSTD_maxCLevel()));
  return std::make_unique<NativeWriter>(path, options);
}

}  // namespace warpscope::trace
