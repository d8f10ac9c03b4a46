// Reads the native format one block at a time: a kernel block is decoded
// whole, a chunk is checked (checksum, sizes), decompressed into one reused
// buffer and its records decoded on demand. Memory stays bounded by the
// largest chunk, whatever the trace size.
#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <vector>

#include "trace/native_format.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {
namespace {

struct DCtxFree {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

const char* block_name(std::uint8_t type) {
  switch (static_cast<BlockType>(type)) {
    case BlockType::Kernel: return "kernel block";
    case BlockType::Chunk: return "chunk";
    case BlockType::Footer: return "footer";
  }
  return "optional block";
}

std::string hex_bytes(const std::uint8_t* p, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += fmt::format("{}{:02x}", i ? " " : "", p[i]);
  return s;
}

class NativeReader final : public TraceSource {
 public:
  NativeReader(std::unique_ptr<ByteInput> in, const TraceReadOptions& options)
      : in_(std::move(in)), recover_(options.recover), dctx_(ZSTD_createDCtx()) {
    if (!dctx_) throw Error("cannot create a zstd decompression context");
    read_file_header();
  }

  bool next(WarpAccess& rec) override {
    while (left_ == 0) {
      if (!read_block()) return false;
    }
    if (!decoder_.decode(rec))
      fail(chunk_at_, fmt::format("bad record {} of {} in chunk at byte {}: {}", chunk_count_ - left_ + 1,
                                  chunk_count_, chunk_at_, decoder_.error()));
    ++summary_.records;
    if (--left_ == 0 && !decoder_.at_end())
      fail(chunk_at_, fmt::format("chunk at byte {}: {} bytes left after its {} records", chunk_at_,
                                  chunk_size_ - decoder_.consumed(), chunk_count_));
    return true;
  }

  const std::vector<KernelInfo>& kernels() const override { return kernels_; }
  std::uint64_t bytes_read() const override { return in_->offset(); }
  std::uint64_t file_size() const override { return in_->size(); }
  TraceSummary summary() const override { return summary_; }

 private:
  [[noreturn]] void fail(std::uint64_t at, const std::string& what) const {
    throw TraceError(fmt::format("{}: {}", in_->name(), what), at);
  }

  void read_file_header() {
    std::uint8_t h[kFileHeaderBytes];
    const std::size_t n = in_->read(h, sizeof h);
    const std::size_t m = std::min(n, kMagic.size());
    if (!std::equal(h, h + m, kMagic.begin()) || n == 0)
      fail(0, fmt::format("not a warpscope native trace: bad magic at byte 0 (expected {}, found {})",
                          hex_bytes(kMagic.data(), kMagic.size()), n == 0 ? "the end of the file" : hex_bytes(h, m)));
    if (n < sizeof h)
      fail(0, fmt::format("truncated file header at byte 0: expected {} bytes, found {}", sizeof h, n));
    const std::uint16_t version = load_u16(h + 4), flags = load_u16(h + 6);
    if (version != kTraceFormatVersion)
      fail(4, fmt::format("unsupported trace version {} at byte 4 (this warpscope reads version {})", version,
                          kTraceFormatVersion));
    if (flags != 0)
      fail(6, fmt::format("unsupported header flags {:#06x} at byte 6 (version {} defines none)", flags,
                          kTraceFormatVersion));
  }

  // The file ends at `at` inside (or instead of) a block: an error, or in
  // recovery mode the end of what can be read.
  bool truncated(std::uint64_t at, const std::string& what) {
    if (!recover_) fail(at, what);
    done_ = true;
    summary_.recovered = true;
    summary_.ignored_bytes = in_->offset() - at;
    summary_.note = fmt::format("no footer: recovered {} records of {} kernels in {} complete chunks", chunks_records_,
                                kernels_.size(), chunks_);
    if (summary_.ignored_bytes > 0)
      summary_.note += fmt::format("; ignored {} bytes at byte {} ({})", summary_.ignored_bytes, at, what);
    return false;
  }

  bool read_block() {
    if (done_) return false;
    for (;;) {
      const std::uint64_t at = in_->offset();
      std::uint8_t h[kBlockHeaderBytes];
      const std::size_t n = in_->read(h, sizeof h);
      if (n == 0)
        return truncated(at, fmt::format("missing footer at byte {}: the file ends after {} records in {} chunks "
                                         "(truncated, or an unfinished .partial trace: recovery mode reads it)",
                                         at, chunks_records_, chunks_));
      if (n < sizeof h)
        return truncated(at, fmt::format("truncated block header at byte {}: expected {} bytes, found {}", at,
                                         sizeof h, n));
      const std::uint8_t type = h[0];
      const std::uint32_t size = load_u32(h + 4);
      if (h[1] != 0 || h[2] != 0 || h[3] != 0)
        fail(at, fmt::format("bad block header at byte {}: reserved bytes {} (expected 00 00 00)", at,
                             hex_bytes(h + 1, 3)));
      std::uint32_t limit = kMaxOptionalBlockBytes;
      if (type == static_cast<std::uint8_t>(BlockType::Kernel)) limit = kMaxKernelBlockBytes;
      else if (type == static_cast<std::uint8_t>(BlockType::Chunk)) limit = max_chunk_body_bytes();
      else if (type == static_cast<std::uint8_t>(BlockType::Footer)) limit = kFooterBytes;
      else if (type < kOptionalBlockTypes)
        fail(at, fmt::format("unknown block type {:#04x} at byte {} (expected 1 kernel, 2 chunk, 3 footer, or an "
                             "optional type >= 0x80)", type, at));
      if (size > limit)
        fail(at, fmt::format("{} at byte {} declares {} bytes (the limit is {})", block_name(type), at, size, limit));
      if (type == static_cast<std::uint8_t>(BlockType::Footer) && size != kFooterBytes)
        fail(at, fmt::format("footer at byte {} declares {} bytes (a footer is {})", at, size, kFooterBytes));
      if (!read_body(at, type, size)) return false;
      const std::uint64_t sum = fnv1a(block_.data(), size, fnv1a(h, 8));
      if (sum != load_u64(h + 8))
        fail(at, fmt::format("checksum mismatch in {} at byte {}: stored {:#018x}, computed {:#018x} (the file is "
                             "corrupted)", block_name(type), at, load_u64(h + 8), sum));
      switch (static_cast<BlockType>(type)) {
        case BlockType::Kernel: add_kernel(at, size); break;
        case BlockType::Chunk: start_chunk(at, size); return true;
        case BlockType::Footer: finish(at); return false;
      }
    }
  }

  // Reads a block body into block_, growing it only as data arrives, so a
  // corrupted size cannot make it allocate more than the file holds.
  bool read_body(std::uint64_t at, std::uint8_t type, std::uint32_t size) {
    std::size_t got = 0;
    while (got < size) {
      const std::size_t step = std::min<std::size_t>(size - got, std::size_t{1} << 20);
      if (block_.size() < got + step) block_.resize(got + step);
      const std::size_t n = in_->read(block_.data() + got, step);
      got += n;
      if (n < step) break;
    }
    if (got == size) return true;
    if (type != static_cast<std::uint8_t>(BlockType::Chunk))
      return truncated(at, fmt::format("truncated {} at byte {}: expected {} bytes, found {}", block_name(type), at,
                                       size, got));
    if (got < kChunkCountsBytes || size < kChunkCountsBytes)
      return truncated(at, fmt::format("truncated chunk at byte {}: expected {} bytes of chunk counts, found {}", at,
                                       kChunkCountsBytes, got));
    return truncated(at, fmt::format("truncated chunk at byte {}: expected {} bytes of compressed data, found {}", at,
                                     size - kChunkCountsBytes, got - kChunkCountsBytes));
  }

  void add_kernel(std::uint64_t at, std::uint32_t size) {
    KernelInfo k = decode_kernel(block_.data(), size, in_->name(), at);
    if (k.id != kernels_.size())
      fail(at, fmt::format("bad kernel block at byte {}: kernel id {}, expected {} (ids count up from 0)", at, k.id,
                           kernels_.size()));
    kernels_.push_back(std::move(k));
  }

  void start_chunk(std::uint64_t at, std::uint32_t size) {
    if (size < kChunkCountsBytes)
      fail(at, fmt::format("chunk at byte {} is {} bytes, shorter than its {}-byte counts", at, size,
                           kChunkCountsBytes));
    const std::uint32_t count = load_u32(block_.data()), usize = load_u32(block_.data() + 4);
    const std::uint8_t* packed = block_.data() + kChunkCountsBytes;
    const std::size_t psize = size - kChunkCountsBytes;
    if (count == 0) fail(at, fmt::format("chunk at byte {} holds no records", at));
    if (usize > kMaxChunkBytes)
      fail(at, fmt::format("chunk at byte {} declares {} uncompressed bytes (the limit is {})", at, usize,
                           kMaxChunkBytes));
    if (usize / 2 < count)
      fail(at, fmt::format("chunk at byte {}: {} records cannot fit in {} bytes", at, count, usize));
    const unsigned long long content = ZSTD_getFrameContentSize(packed, psize);
    if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN)
      fail(at, fmt::format("corrupt chunk at byte {}: its compressed data is not a zstd frame with a content size",
                           at));
    if (content != usize)
      fail(at, fmt::format("corrupt chunk at byte {}: the zstd frame holds {} bytes, the chunk says {}", at, content,
                           usize));
    if (ZSTD_findFrameCompressedSize(packed, psize) != psize)
      fail(at, fmt::format("corrupt chunk at byte {}: the zstd frame does not fill the chunk's {} compressed bytes",
                           at, psize));
    if (chunk_.size() < usize) chunk_.resize(usize);
    const std::size_t n = ZSTD_decompressDCtx(dctx_.get(), chunk_.data(), usize, packed, psize);
    if (ZSTD_isError(n) || n != usize)
      fail(at, fmt::format("corrupt chunk at byte {}: zstd: {}", at,
                           ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short output"));
    decoder_.start(chunk_.data(), usize, static_cast<std::uint32_t>(kernels_.size()));
    chunk_at_ = at;
    chunk_count_ = left_ = count;
    chunk_size_ = usize;
    chunks_records_ += count;
    ++chunks_;
  }

  void finish(std::uint64_t at) {
    const std::uint64_t records = load_u64(block_.data()), kernels = load_u64(block_.data() + 8),
                        chunks = load_u64(block_.data() + 16);
    if (records != chunks_records_ || kernels != kernels_.size() || chunks != chunks_)
      fail(at, fmt::format("footer at byte {} says {} records, {} kernels, {} chunks; the file holds {}, {}, {}", at,
                           records, kernels, chunks, chunks_records_, kernels_.size(), chunks_));
    if (!in_->peek(1).empty())
      fail(in_->offset(), fmt::format("unexpected data after the footer at byte {}", in_->offset()));
    done_ = true;
  }

  std::unique_ptr<ByteInput> in_;
  bool recover_;
  std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx_;
  std::vector<KernelInfo> kernels_;
  std::vector<std::uint8_t> block_;  // the current block body
  std::vector<std::uint8_t> chunk_;  // the current chunk, decompressed
  RecordDecoder decoder_;
  std::uint64_t chunk_at_ = 0;
  std::uint32_t chunk_count_ = 0, left_ = 0;
  std::size_t chunk_size_ = 0;
  std::uint64_t chunks_records_ = 0, chunks_ = 0;
  bool done_ = false;
  TraceSummary summary_;
};

}  // namespace

std::unique_ptr<TraceSource> make_native_reader(std::unique_ptr<ByteInput> in, const TraceReadOptions& options) {
  return std::make_unique<NativeReader>(std::move(in), options);
}

}  // namespace warpscope::trace
