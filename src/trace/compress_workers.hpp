// Encoding and compressing native chunks on worker threads
// (docs/TRACE_FORMAT.md "Writing in parallel"). A chunk is self-contained --
// its records are encoded from a fresh codec state -- so its records can be
// encoded, and its zstd frame and block header made, while the writer collects
// the next chunks; the writer puts the finished blocks into the file in order.
// The bytes written do not depend on the number of threads.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "trace/job_workers.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::trace {

struct CompressJob {
  // Input: the chunk's records, to encode (from a fresh codec state) ...
  std::vector<WarpAccess> pending;
  // ... or already encoded.
  std::vector<std::uint8_t> raw;
  std::size_t used = 0;
  std::uint32_t records = 0;
  int level = 3;
  // Output: the whole chunk block (header, record counts, zstd frame).
  std::string block;
  std::exception_ptr error;
  bool done = false;
};

// Encodes job.pending, if any, into job.raw; then makes job.block (never
// throws; errors go into job.error).
void compress_chunk(CompressJob& job);

// A block of `type` around `body`: type, 3 zero bytes, u32 size, u64 checksum.
void append_block(std::string& out, std::uint8_t type, std::string_view body);

// Worker threads running compress_chunk(); the writer waits for the chunks in
// submission order.
using CompressWorkers = JobWorkers<CompressJob, compress_chunk>;

// Worker threads a writer uses when TraceWriteOptions::threads is 0 (auto).
unsigned default_compress_threads();

}  // namespace warpscope::trace
