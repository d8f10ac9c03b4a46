// Reads the native format one block at a time: a kernel block is decoded
// whole; a chunk is handed to decode_chunk() (checksum, sizes, zstd, records;
// chunk_decoder.hpp), on worker threads a few chunks ahead of the records
// returned, or on this thread when threads == 1. Memory stays bounded by a
// fixed number of chunks in flight, whatever the trace size.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <deque>
#include <span>
#include <vector>

#include "trace/chunk_decoder.hpp"
#include "trace/native_format.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {
namespace {

const char* block_name(std::uint8_t type) {
  switch (static_cast<BlockType>(type)) {
    case BlockType::Kernel: return "kernel block";
    case BlockType::Chunk: return "chunk";
    case BlockType::Footer: return "footer";
    case BlockType::Atomics: return "atomic operations block";
    case BlockType::CodeSize: return "code size block";
    case BlockType::GenericPcs: return "generic-address PCs block";
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
      : in_(std::move(in)), recover_(options.recover),
        threads_(options.threads > 0 ? static_cast<unsigned>(options.threads) : default_decode_threads()) {
    read_file_header();
  }
  ~NativeReader() override { workers_.reset(); }  // before the jobs they may be decoding
  NativeReader(const NativeReader&) = delete;
  NativeReader& operator=(const NativeReader&) = delete;

  bool next(WarpAccess& rec) override {
    if (!make_records_current()) return false;
    if (streaming_) {
      decode_streamed(rec);
    } else {
      cur_->records[pos_++].expand(rec);
      ++summary_.records;
    }
    return true;
  }

  // The rest of the current chunk's decoded records, as they are (no copy).
  std::span<const PackedAccess> next_batch() override {
    if (!make_records_current()) return {};
    if (streaming_) return decode_streamed_batch();
    const std::uint32_t from = pos_;
    pos_ = cur_->good;
    summary_.records += pos_ - from;
    return {cur_->records.data() + from, pos_ - from};
  }

  const std::vector<KernelInfo>& kernels() const override { return visible_; }
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
      if (type == static_cast<std::uint8_t>(BlockType::Chunk)) {
        kernel_open_ = false;
        std::unique_ptr<ChunkJob> job = take_job();
        if (!read_body(job->body, at, type, size)) return false;
        job->at = at;
        std::copy(h, h + sizeof h, job->header);
        job->size = size;
        job->kernel_count = static_cast<std::uint32_t>(kernels_.size());
        job->file = &in_->name();
        // Counted as declared (the footer check); a bad chunk fails before the footer is reached.
        if (size >= kChunkCountsBytes) chunks_records_ += load_u32(job->body.data());
        ++chunks_;
        if (workers_ != nullptr) {
          workers_->submit(job.get());
        } else {
          decode_chunk(*job);
          job->done = true;
        }
        ahead_.push_back(Ahead{std::move(job), nullptr});
        return true;
      }
      if (!read_body(block_, at, type, size)) return false;
      const std::uint64_t sum = fnv1a(block_.data(), size, fnv1a(h, 8));
      if (sum != load_u64(h + 8))
        fail(at, fmt::format("checksum mismatch in {} at byte {}: stored {:#018x}, computed {:#018x} (the file is "
                             "corrupted)", block_name(type), at, load_u64(h + 8), sum));
      switch (static_cast<BlockType>(type)) {
        case BlockType::Kernel: add_kernel(at, size); break;
        case BlockType::Chunk: break;  // handled above
        case BlockType::Footer: finish(at); return false;
        case BlockType::Atomics: add_atomics(at, size); break;
        case BlockType::CodeSize: add_code_size(at, size); break;
        case BlockType::GenericPcs: add_generic_pcs(at, size); break;
      }
    }
  }

  // Reads a block body into block_, growing it only as data arrives, so a
  // corrupted size cannot make it allocate more than the file holds.
  bool read_body(std::vector<std::uint8_t>& body, std::uint64_t at, std::uint8_t type, std::uint32_t size) {
    std::size_t got = 0;
    while (got < size) {
      const std::size_t step = std::min<std::size_t>(size - got, std::size_t{1} << 20);
      if (body.size() < got + step) body.resize(got + step);
      const std::size_t n = in_->read(body.data() + got, step);
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
    kernel_open_ = true;
    kernel_blocks_seen_ = 0;
  }

  // An optional block describing the kernel declared last: it must come after
  // that kernel's block and before any chunk (a chunk read ahead must not see
  // its kernel change), at most once per kernel.
  void attach_to_kernel(std::uint64_t at, BlockType type, std::uint32_t id) {
    if (!kernel_open_ || std::uint64_t{id} + 1 != kernels_.size())
      fail(at, fmt::format("{} at byte {} names kernel {}; it must come after that kernel's block, before any chunk",
                           block_name(static_cast<std::uint8_t>(type)), at, id));
    const unsigned bit = 1u << (static_cast<unsigned>(type) - kOptionalBlockTypes);
    if (kernel_blocks_seen_ & bit)
      fail(at, fmt::format("{} at byte {}: kernel {} already has one", block_name(static_cast<std::uint8_t>(type)), at,
                           id));
    kernel_blocks_seen_ |= bit;
  }

  void add_atomics(std::uint64_t at, std::uint32_t size) {
    std::map<std::uint64_t, AtomicOp> ops;
    attach_to_kernel(at, BlockType::Atomics, decode_atomics(block_.data(), size, in_->name(), at, ops));
    kernels_.back().atomics = std::move(ops);
  }

  void add_generic_pcs(std::uint64_t at, std::uint32_t size) {
    std::set<std::uint64_t> pcs;
    attach_to_kernel(at, BlockType::GenericPcs, decode_generic_pcs(block_.data(), size, in_->name(), at, pcs));
    kernels_.back().generic_pcs = std::move(pcs);
  }

  void add_code_size(std::uint64_t at, std::uint32_t size) {
    std::uint64_t bytes = 0;
    attach_to_kernel(at, BlockType::CodeSize, decode_code_size(block_.data(), size, in_->name(), at, bytes));
    kernels_.back().code_bytes = bytes;
  }

  std::unique_ptr<ChunkJob> take_job() {
    if (free_.empty()) return std::make_unique<ChunkJob>();
    std::unique_ptr<ChunkJob> job = std::move(free_.back());
    free_.pop_back();
    return job;
  }

  // Reads blocks until `2 x threads` chunks are in flight (one without
  // workers), the file ends or an error occurs; an error is kept in line,
  // after the chunks before it.
  void read_ahead() {
    const std::size_t in_flight = workers_ != nullptr ? 2 * std::size_t{threads_} : 1;
    while (!ahead_done_ && ahead_.size() < in_flight) {
      try {
        if (!read_block()) {
          ahead_done_ = true;
          done_ = true;
        }
      } catch (...) {
        ahead_.push_back(Ahead{nullptr, std::current_exception()});
        ahead_done_ = true;
      }
    }
  }

  // Makes current a chunk with records left to return; false at the end.
  // Throws a chunk's record error once the records before it are returned.
  // Recycles the previous chunk: what next_batch() returned is gone.
  bool make_records_current() {
    for (;;) {
      if (cur_ != nullptr) {
        if (streaming_ && !stream_error_.empty()) fail(cur_->at, stream_error_);
        if (pos_ < (streaming_ ? cur_->count : cur_->good)) return true;
        if (!cur_->record_error.empty()) fail(cur_->at, cur_->record_error);
        free_.push_back(std::move(cur_));
      }
      if (!next_chunk()) {
        show_kernels(kernels_.size());  // kernel blocks after the last chunk
        return false;
      }
    }
  }

  // Makes the next chunk in file order current; false at the end.
  bool next_chunk() {
    read_ahead();
    if (ahead_.empty()) return false;
    Ahead a = std::move(ahead_.front());
    ahead_.pop_front();
    if (a.error) std::rethrow_exception(a.error);
    // Workers start once a second chunk is in sight: small traces and
    // fuzz inputs never create threads.
    if (workers_ == nullptr && threads_ > 1 && !ahead_done_) workers_ = std::make_unique<ChunkWorkers>(threads_);
    if (workers_ != nullptr) {
      read_ahead();  // keep the workers busy while this chunk is consumed
      workers_->wait(a.job.get());  // reads `done` under the workers' lock (a job decoded here is done)
    }
    if (a.job->error) std::rethrow_exception(a.job->error);
    cur_ = std::move(a.job);
    show_kernels(cur_->kernel_count);
    pos_ = 0;
    streaming_ = cur_->count > kMaxDecodedChunkRecords;
    stream_error_.clear();
    if (streaming_) decoder_.start(cur_->data.data(), cur_->data.size(), cur_->kernel_count);
    return true;
  }

  // kernels() shows the kernels declared before the chunk being returned, as
  // if the file were read no further (blocks are read ahead).
  void show_kernels(std::size_t n) {
    while (visible_.size() < n) visible_.push_back(kernels_[visible_.size()]);
  }

  // A chunk too large to decode whole: one record at a time, here.
  void decode_streamed(WarpAccess& rec) {
    const ChunkJob& c = *cur_;
    if (!decoder_.decode(rec))
      fail(c.at, bad_record_message(pos_, c.count, c.at, decoder_.error()));
    if (++pos_ == c.count && !decoder_.at_end())  // the last record is not returned
      fail(c.at, trailing_bytes_message(c.at, c.data.size() - decoder_.consumed(), c.count));
    ++summary_.records;
  }

  // The same for next_batch(): up to kStreamBatch records; an error is thrown
  // at once if no record precedes it in the batch, else at the next call.
  std::span<const PackedAccess> decode_streamed_batch() {
    const ChunkJob& c = *cur_;
    if (stream_records_.empty()) {
      stream_records_.resize(kStreamBatch);
      stream_lanes_.resize(kStreamBatch * kWarpSize);
    }
    const std::uint32_t n = std::min<std::uint32_t>(kStreamBatch, c.count - pos_);
    std::uint32_t good = 0;
    std::uint64_t* lanes = stream_lanes_.data();
    for (; good < n; ++good) {
      PackedAccess& r = stream_records_[good];
      if (!decoder_.decode(r, lanes)) {
        stream_error_ = bad_record_message(pos_ + good, c.count, c.at, decoder_.error());
        break;
      }
      if (r.lanes != nullptr) lanes += std::popcount(r.mask);
    }
    if (good == n && pos_ + n == c.count && !decoder_.at_end()) {
      --good;  // the last record is not returned: the chunk is bad
      stream_error_ = trailing_bytes_message(c.at, c.data.size() - decoder_.consumed(), c.count);
    }
    if (good == 0) fail(c.at, stream_error_);
    pos_ += good;
    summary_.records += good;
    return {stream_records_.data(), good};
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

  struct Ahead {
    std::unique_ptr<ChunkJob> job;  // a chunk, decoded or being decoded
    std::exception_ptr error;       // or the error that ends the file here
  };

  std::unique_ptr<ByteInput> in_;
  bool recover_;
  unsigned threads_;
  std::unique_ptr<ChunkWorkers> workers_;  // when threads_ > 1, from the second chunk on
  std::vector<KernelInfo> kernels_;         // every kernel block read so far
  std::vector<KernelInfo> visible_;         // kernels(): those before the current chunk
  std::vector<std::uint8_t> block_;         // the current kernel/footer/optional block body
  std::deque<Ahead> ahead_;                 // chunks read ahead, in file order
  std::vector<std::unique_ptr<ChunkJob>> free_;  // finished jobs, their buffers reused
  std::unique_ptr<ChunkJob> cur_;           // the chunk whose records are being returned
  std::uint32_t pos_ = 0;                   // its next record
  bool streaming_ = false;                  // its records are decoded here, one by one
  RecordDecoder decoder_;                   // (streaming)
  static constexpr std::uint32_t kStreamBatch = 4096;
  std::vector<PackedAccess> stream_records_;  // (streaming) next_batch()'s records
  std::vector<std::uint64_t> stream_lanes_;   // and their lanes
  std::string stream_error_;                  // (streaming) the error after the last batch
  std::uint64_t chunks_records_ = 0, chunks_ = 0;
  bool ahead_done_ = false;
  bool done_ = false;
  // A kernel block was read and no chunk since: optional blocks may still describe it.
  bool kernel_open_ = false;
  unsigned kernel_blocks_seen_ = 0;  // its optional blocks read so far, bit (type - 0x80)
  TraceSummary summary_;
};

}  // namespace

std::unique_ptr<TraceSource> make_native_reader(std::unique_ptr<ByteInput> in, const TraceReadOptions& options) {
  return std::make_unique<NativeReader>(std::move(in), options);
}

}  // namespace warpscope::trace
