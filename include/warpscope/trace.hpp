// Trace files: a stream of kernels and warp records (DESIGN.md "The record").
// Two encodings of the same content: the native binary format (chunked,
// zstd-compressed, versioned; docs/TRACE_FORMAT.md) and a readable text form
// for tests and hand-written cases. Reading and writing use bounded memory
// whatever the trace size.
#pragma once

#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/error.hpp"
#include "warpscope/packed_access.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

// One kernel launch. Records refer to it through WarpAccess::kernel == id.
struct KernelInfo {
  std::uint32_t id = 0;
  std::string name;               // as recorded (mangled or demangled)
  Dim3 grid, block;
  std::uint32_t dynamic_shared = 0;  // bytes
  std::uint32_t static_shared = 0;   // bytes
  std::uint32_t registers = 0;       // per thread, 0 if unknown
  std::string arch;                  // architecture recorded on, e.g. "sm_90" ("" if none)
  std::string gpu;                   // e.g. "NVIDIA H100 80GB HBM3" ("" if none)
  std::string source;                // producer: "warpscope trace", "synthetic", "text", ...
  std::map<std::uint64_t, SourceLocation> lines;  // PC -> file:line, optional
  std::map<std::uint64_t, AtomicOp> atomics;      // PC -> operation of an atomic/reduction, optional
  // PCs of loads and stores through generic addresses (SASS LD / ST), optional: their accesses count in
  // the space each address falls in, their instructions as Nsight Compute's op_generic_ld / _st.
  std::set<std::uint64_t> generic_pcs;
  std::uint64_t code_bytes = 0;  // size of the kernel's machine code (SASS), 0 if unknown
  friend bool operator==(const KernelInfo&, const KernelInfo&) = default;
};

// A malformed, truncated or wrong-version trace. what() names the file, the
// byte offset (or line, for text) and what was expected.
class TraceError : public InputError {
 public:
  TraceError(const std::string& message, std::uint64_t offset) : InputError(message), offset_(offset) {}
  std::uint64_t offset() const { return offset_; }

 private:
  std::uint64_t offset_;
};

enum class TraceFormat { Native, Text };

// The native format version this build reads and writes (docs/TRACE_FORMAT.md).
inline constexpr std::uint16_t kTraceFormatVersion = 1;

std::string_view to_string(TraceFormat f);                    // "native", "text"
std::optional<TraceFormat> parse_trace_format(std::string_view text);
// The format a file name asks for: .txt and .wstxt are text, "-" (standard
// output) text, anything else native.
TraceFormat trace_format_for_path(const std::filesystem::path& path);

// How a read ended; complete once next() has returned false.
struct TraceSummary {
  std::uint64_t records = 0;        // records returned by next() so far (0 from sources that do not count)
  bool recovered = false;           // the native footer was missing: read in recovery mode
  std::uint64_t ignored_bytes = 0;  // recovery: bytes of the incomplete last block, ignored
  // One line for the user: what recovery kept and dropped, or what a reader of
  // another tool's trace (Accel-Sim) read but did not turn into records.
  std::string note;
};

// Reads records in file order. Kernel headers may appear between records; a
// kernel is in kernels() before its first record is returned.
class TraceSource {
 public:
  virtual ~TraceSource() = default;
  // Fills rec and returns true, or returns false at the end. Throws TraceError.
  virtual bool next(WarpAccess& rec) = 0;
  // The next records in file order, at least one, or an empty span at the end;
  // the fast way to read (a native reader returns the rest of a decoded chunk
  // without copying). The records, and the lanes they point to, stay valid
  // until the next call of next() or next_batch(). Mixes with next(): each
  // returns the records after those the other returned. Throws TraceError,
  // after the same records as next() would have returned.
  virtual std::span<const PackedAccess> next_batch();
  virtual const std::vector<KernelInfo>& kernels() const = 0;
  // Kernel `id` once declared, else null: both readers require the ids to
  // count up from 0, so a kernel's id is its index in kernels().
  const KernelInfo* kernel(std::uint32_t id) const {
    const auto& k = kernels();
    return id < k.size() ? &k[id] : nullptr;
  }
  virtual std::uint64_t bytes_read() const = 0;  // for progress
  virtual std::uint64_t file_size() const = 0;   // 0 when unknown (a pipe)
  virtual TraceSummary summary() const { return {}; }

 private:
  // next_batch() of sources without their own: records read by next(), packed,
  // and the error that ended the last batch, thrown at the next call.
  std::vector<PackedAccess> batch_records_;
  std::vector<std::uint64_t> batch_lanes_;
  std::exception_ptr batch_error_;
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // Starts a kernel; info.id is assigned and returned. Records written next
  // must carry that id in WarpAccess::kernel.
  virtual std::uint32_t begin_kernel(KernelInfo info) = 0;
  virtual void write(const WarpAccess& rec) = 0;
  // Flushes and finalises. Until close() succeeds the output is "path.partial";
  // close() renames it to path.
  virtual void close() = 0;
};

struct TraceWriteOptions {
  int zstd_level = 3;
  std::uint32_t records_per_chunk = 16384;
  // true: an unclosed writer (error, exception) removes its partial file.
  // false (the GPU tracer): every completed chunk stays readable at path.partial
  // even if the process dies.
  bool remove_partial_on_failure = true;
  // Native traces: threads that compress full chunks while the caller writes
  // the next ones (2 x threads chunks in flight); 1 compresses on the calling
  // thread; 0 picks the number of cores (at most 8). The file does not depend on it.
  int threads = 0;
};

struct TraceReadOptions {
  // Read a native trace that has no footer (the ".partial" file of a crashed
  // tracer) up to its last complete block instead of failing; summary() says
  // what was recovered. Always on for paths ending in ".partial".
  bool recover = false;
  // Native traces: threads that decode chunks (checksum, zstd, records) ahead
  // of the records returned, 2 x threads chunks in flight; 1 decodes on the
  // calling thread; 0 picks the number of cores (at most 16). Results and
  // errors do not depend on it.
  int threads = 0;
  // Accel-Sim traces: have each kernel's atomic operations and line numbers in
  // kernels() before its first record, as a writer needs them (convert), by a
  // first pass over the kernel's file (none from standard input). Without it
  // they fill in as the kernel is read, and every record carries its atomic's
  // operation (all analyze needs), in one pass.
  bool kernel_tables_first = false;
};

// Opens a trace of either format (detected from the first bytes). Throws TraceError / InputError.
std::unique_ptr<TraceSource> open_trace(const std::filesystem::path& path, const TraceReadOptions& options = {});
// The same from bytes in memory (tests, fuzzing); `bytes` must outlive the
// source and `name` stands for the file name in messages.
std::unique_ptr<TraceSource> open_trace_buffer(std::string_view bytes, const std::string& name,
                                               const TraceReadOptions& options = {});
std::unique_ptr<TraceSink> create_trace(const std::filesystem::path& path, TraceFormat format,
                                        const TraceWriteOptions& options = {});

}  // namespace warpscope
