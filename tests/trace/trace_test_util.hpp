// Helpers for the trace tests: a scratch directory, hand-built records, and
// reading a whole trace back.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

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

}  // namespace warpscope::test
