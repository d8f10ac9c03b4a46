// Writes the native format: header, then kernel blocks and zstd-compressed
// record chunks as they fill, then the footer. With worker threads
// (trace/compress_workers.hpp) the calling thread only collects each chunk's
// records; workers encode and compress whole chunks, which are written in
// order, at most 2 x threads chunks in flight. Chunks of more than
// kMaxPendingRecords records are encoded as they come, on the calling thread
// (they may be cut by size: kMaxChunkBytes). The file is the same whatever the
// thread count.
#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "trace/compress_workers.hpp"
#include "trace/native_format.hpp"
#include "trace/output_file.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {
namespace {

// Up to this many records per chunk, chunks travel to the workers as records
// (288 B each): 65,536 x kMaxRecordBytes stays below kMaxChunkBytes, so such a
// chunk is never cut by size and the file is as if encoded record by record.
constexpr std::uint32_t kMaxPendingRecords = 65536;
static_assert(std::uint64_t{kMaxPendingRecords} * kMaxRecordBytes < kMaxChunkBytes);

class NativeWriter final : public TraceSink {
 public:
  NativeWriter(const std::filesystem::path& path, const TraceWriteOptions& options)
      : options_(options), file_(path, options.remove_partial_on_failure) {
    threads_ = options.threads > 0 ? static_cast<unsigned>(options.threads) : default_compress_threads();
    max_in_flight_ = 2 * std::size_t{threads_};
    encode_in_workers_ = threads_ > 1 && options.records_per_chunk <= kMaxPendingRecords;
    std::string header(kMagic.begin(), kMagic.end());
    put_u16(header, kTraceFormatVersion);
    put_u16(header, 0);
    file_.write(header.data(), header.size());
    file_.flush();
    current_ = take_job();
  }

  ~NativeWriter() override {
    // An unfinished trace the caller wants kept (a tracer dying): leave every
    // record written so far readable in recovery mode.
    if (!closed_ && !options_.remove_partial_on_failure) {
      try {
        flush_chunk();
        write_in_flight(0);
      } catch (const std::exception&) {  // nothing more can be saved
      }
    }
    // Workers must not outlive the jobs they point to.
    while (!in_flight_.empty()) {
      if (workers_) workers_->wait(in_flight_.front().get());
      in_flight_.pop_front();
    }
  }

  std::uint32_t begin_kernel(KernelInfo info) override {
    require_open();
    check_kernel(info, kernels_);
    flush_chunk();  // records before this kernel stay before its block
    write_in_flight(0);
    info.id = kernels_;
    std::string block;
    append_block(block, static_cast<std::uint8_t>(BlockType::Kernel), encode_kernel(info));
    if (std::any_of(info.atomics.begin(), info.atomics.end(), [](const auto& e) { return e.second != AtomicOp::Unknown; }))
      append_block(block, static_cast<std::uint8_t>(BlockType::Atomics), encode_atomics(info));
    if (info.code_bytes != 0)
      append_block(block, static_cast<std::uint8_t>(BlockType::CodeSize), encode_code_size(info));
    if (!info.generic_pcs.empty())
      append_block(block, static_cast<std::uint8_t>(BlockType::GenericPcs), encode_generic_pcs(info));
    file_.write(block.data(), block.size());
    file_.flush();
    return kernels_++;
  }

  void write(const WarpAccess& rec) override {
    require_open();
    check_record(rec, kernels_);
    if (encode_in_workers_) {
      current_->pending.push_back(rec);
      if (current_->pending.size() == options_.records_per_chunk) flush_chunk();
      return;
    }
    std::vector<std::uint8_t>& buffer = current_->raw;
    if (buffer.size() - current_->used < kMaxRecordBytes)
      buffer.resize(std::min<std::size_t>(kMaxChunkBytes, std::max<std::size_t>(buffer.size() * 2, 1 << 16)));
    current_->used = static_cast<std::size_t>(encoder_.encode(rec, buffer.data() + current_->used) - buffer.data());
    if (++current_->records == options_.records_per_chunk || current_->used > kMaxChunkBytes - kMaxRecordBytes)
      flush_chunk();
  }

  void close() override {
    if (closed_) return;
    flush_chunk();
    write_in_flight(0);
    std::string footer;
    put_u64(footer, records_);
    put_u64(footer, kernels_);
    put_u64(footer, chunks_);
    std::string block;
    append_block(block, static_cast<std::uint8_t>(BlockType::Footer), footer);
    file_.write(block.data(), block.size());
    file_.commit();
    closed_ = true;
  }

 private:
  void require_open() const {
    if (closed_) throw Error(fmt::format("trace {} is already closed", file_.path().string()));
  }

  std::unique_ptr<CompressJob> take_job() {
    if (spare_.empty()) return std::make_unique<CompressJob>();
    auto job = std::move(spare_.back());
    spare_.pop_back();
    return job;
  }

  // Hands the chunk being filled to the compressors (or compresses it here).
  void flush_chunk() {
    if (current_->records == 0 && current_->pending.empty()) return;
    current_->level = options_.zstd_level;
    records_ += current_->records + current_->pending.size();
    ++chunks_;
    encoder_.reset();
    // The workers start with the first chunk, not with the writer: `warpscope
    // trace` forks the application after creating its writer, and a process
    // forked while other threads run may deadlock in the child (malloc locks).
    if (threads_ > 1 && !workers_) workers_.emplace(threads_);
    if (workers_) workers_->submit(current_.get());
    else compress_chunk(*current_);
    in_flight_.push_back(std::move(current_));
    current_ = take_job();
    write_in_flight(max_in_flight_);
  }

  // Writes finished chunks, in order, until at most `keep` are in flight.
  void write_in_flight(std::size_t keep) {
    while (in_flight_.size() > keep) {
      CompressJob& job = *in_flight_.front();
      if (workers_) workers_->wait(&job);
      if (job.error) std::rethrow_exception(job.error);
      file_.write(job.block.data(), job.block.size());
      file_.flush();
      job.records = 0;
      job.used = 0;
      spare_.push_back(std::move(in_flight_.front()));
      in_flight_.pop_front();
    }
  }

  TraceWriteOptions options_;
  PartialFile file_;
  unsigned threads_ = 1;
  std::optional<CompressWorkers> workers_;  // none (yet): compress on the calling thread
  std::size_t max_in_flight_ = 2;
  bool encode_in_workers_ = false;  // else records are encoded here, chunks only compressed there
  RecordEncoder encoder_;
  std::unique_ptr<CompressJob> current_;                // the chunk being filled
  std::deque<std::unique_ptr<CompressJob>> in_flight_;  // submitted, in file order
  std::vector<std::unique_ptr<CompressJob>> spare_;     // written: buffers to reuse
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
  if (options.threads < 0) throw InputError(fmt::format("{} compression threads: must be 0 (auto) or more", options.threads));
  return std::make_unique<NativeWriter>(path, options);
}

}  // namespace warpscope::trace
