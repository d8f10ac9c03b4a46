// Helpers for the trace tests: a scratch directory, hand-built records, and
// reading a whole trace back.
#pragma once

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "trace/native_format.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::test {

inline std::filesystem::path scratch_dir() {
  static const auto dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("warpscope_trace_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

inline void write_bytes(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// One record; lane l at addr(l) for active lanes, inactive lanes 0 (what a
// reader returns for them).
inline WarpAccess record(std::uint32_t kernel, std::uint64_t pc, std::uint32_t mask,
                         const std::function<std::uint64_t(int)>& addr) {
  WarpAccess r;
  r.kernel = kernel;
  r.pc = pc;
  r.active = LaneMask(mask);
  for (int l = 0; l < kWarpSize; ++l) r.addr[static_cast<unsigned>(l)] = ((mask >> l) & 1u) ? addr(l) : 0;
  return r;
}

struct TraceContent {
  std::vector<KernelInfo> kernels;
  std::vector<WarpAccess> records;
  TraceSummary summary;
};

inline TraceContent read_all(TraceSource& src) {
  TraceContent c;
  WarpAccess r;
  while (src.next(r)) {
    // The contract: a record's kernel is known before the record arrives.
    if (r.kernel >= src.kernels().size()) throw std::logic_error("record before its kernel");
    c.records.push_back(r);
  }
  c.kernels = src.kernels();
  c.summary = src.summary();
  return c;
}

inline TraceContent read_all(const std::filesystem::path& p, const TraceReadOptions& options = {}) {
  auto src = open_trace(p, options);
  return read_all(*src);
}

inline void write_all(const std::filesystem::path& p, TraceFormat format, const std::vector<KernelInfo>& kernels,
                      const std::vector<WarpAccess>& records, const TraceWriteOptions& options = {}) {
  auto sink = create_trace(p, format, options);
  for (const auto& k : kernels) sink->begin_kernel(k);
  for (const auto& r : records) sink->write(r);
  sink->close();
}

// The error reading a whole trace from `bytes` gives ("no error" when none).
inline std::string read_error(const std::string& bytes, const char* name) {
  try {
    auto src = open_trace_buffer(bytes, name);
    read_all(*src);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "no error";
}

// A native block of `type` holding `body`, with its checksum.
inline std::string native_block(std::uint8_t type, const std::string& body) {
  std::string blk(1, static_cast<char>(type));
  blk.append(3, '\0');
  const auto n = static_cast<std::uint32_t>(body.size());
  blk.append(reinterpret_cast<const char*>(&n), 4);
  blk.append(8, '\0');
  blk += body;
  const std::uint64_t sum = trace::fnv1a(blk.data() + 16, body.size(), trace::fnv1a(blk.data(), 8));
  std::memcpy(blk.data() + 8, &sum, 8);
  return blk;
}

// Byte offset of the block that follows the one at `at` in native trace `bytes`.
inline std::size_t next_block(const std::string& bytes, std::size_t at) {
  std::uint32_t size = 0;
  std::memcpy(&size, bytes.data() + at + 4, 4);
  return at + 16 + size;
}

// Native trace `trace` (a kernel block, then a chunk) with `blocks` inserted
// after its kernel block, or after that chunk when `after_chunk`.
inline std::string with_blocks_after_kernel(std::string trace, const std::string& blocks, bool after_chunk) {
  const std::size_t chunk = next_block(trace, 8);
  trace.insert(after_chunk ? next_block(trace, chunk) : chunk, blocks);
  return trace;
}

// Every field of every record equal, in order.
inline void expect_same_records(const std::vector<WarpAccess>& got, const std::vector<WarpAccess>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].pc, want[i].pc) << i;
    EXPECT_EQ(got[i].kernel, want[i].kernel) << i;
    EXPECT_EQ(got[i].cta, want[i].cta) << i;
    EXPECT_EQ(got[i].warp, want[i].warp) << i;
    EXPECT_EQ(got[i].sm, want[i].sm) << i;
    EXPECT_EQ(got[i].space, want[i].space) << i;
    EXPECT_EQ(got[i].op, want[i].op) << i;
    EXPECT_EQ(got[i].size, want[i].size) << i;
    EXPECT_EQ(got[i].cache, want[i].cache) << i;
    EXPECT_EQ(got[i].active, want[i].active) << i;
    EXPECT_EQ(got[i].addr, want[i].addr) << i;
  }
}

}  // namespace warpscope::test
