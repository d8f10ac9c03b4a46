// Decoding native chunks, on the reader's thread or on worker threads
// (docs/TRACE_FORMAT.md "Reading in parallel"). A chunk is self-contained --
// every chunk starts from a fresh codec state -- so its checksum, zstd frame
// and records can be decoded while the records of earlier chunks are
// consumed. The reader keeps a fixed number of chunks in flight and hands
// their records out in file order; errors are kept with their chunk and
// thrown when the reader reaches it, so what a reader returns, and where it
// fails, do not depend on the number of threads.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "trace/job_workers.hpp"
#include "warpscope/packed_access.hpp"

namespace warpscope::trace {

// One chunk block, read by the reader, decoded by decode_chunk().
struct ChunkJob {
  // Input: the block as read (header bytes 0..15 and body).
  std::uint64_t at = 0;                // file offset of the block
  std::uint8_t header[16] = {};
  std::vector<std::uint8_t> body;      // `size` bytes are the body
  std::uint32_t size = 0;
  std::uint32_t kernel_count = 0;      // kernels declared before the chunk
  const std::string* file = nullptr;   // for messages

  // Output.
  std::exception_ptr error;            // checksum / framing / zstd: thrown before any record
  std::uint32_t count = 0;             // records the chunk declares
  std::vector<PackedAccess> records;   // decoded records (the first `good` are valid)
  // The lanes of records stored as deltas: room for 32 per record, so it is
  // never reallocated while records point into it.
  std::unique_ptr<std::uint64_t[]> lanes;
  std::size_t lanes_capacity = 0;
  std::uint32_t good = 0;
  std::string record_error;            // why record `good` (0-based) is bad, or "" (all good)
  std::vector<std::uint8_t> data;      // scratch: the decompressed chunk
  bool done = false;
};

// The messages of a bad record (index 0-based) and of bytes after the last one.
std::string bad_record_message(std::uint32_t index, std::uint32_t count, std::uint64_t at, const char* why);
std::string trailing_bytes_message(std::uint64_t at, std::size_t left, std::uint32_t count);

// Checks, decompresses and decodes job (never throws; errors go into job).
void decode_chunk(ChunkJob& job);

// Worker threads running decode_chunk(); the reader waits for the chunks in
// submission order.
using ChunkWorkers = JobWorkers<ChunkJob, decode_chunk>;

// Worker threads a reader uses when TraceReadOptions::threads is 0 (auto).
unsigned default_decode_threads();

}  // namespace warpscope::trace
