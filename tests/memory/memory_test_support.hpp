// Helpers for the memory-system tests: warp records and a MemorySystem per arch.
#pragma once

#include <memory>
#include <string_view>

#include "test_support.hpp"
#include "warpscope/memory_system.hpp"
#include "warpscope/metric_names.hpp"

namespace warpscope::test {

// 32 lanes x 4 B from `base` (one aligned 128 B line when base is aligned).
inline WarpAccess line_access(std::uint64_t base, Op op = Op::Load, CacheOp cache = CacheOp::Default,
                              Space space = Space::Global) {
  return make({space, op, 4, cache}, [base](int l) { return base + 4u * static_cast<std::uint64_t>(l); });
}

// One lane (lane 0) accessing 4 B at `addr`.
inline WarpAccess one_lane(std::uint64_t addr, Op op = Op::Load, CacheOp cache = CacheOp::Default,
                           Space space = Space::Global) {
  return make({space, op, 4, cache, 0x1u}, [addr](int) { return addr; });
}

// Every lane in its own 128 B line, 4 KB apart: 32 lines.
inline WarpAccess scattered(std::uint64_t base, CacheOp cache = CacheOp::Default) {
  return make({Space::Global, Op::Load, 4, cache}, [base](int l) { return base + 4096u * static_cast<std::uint64_t>(l); });
}

inline std::unique_ptr<MemorySystem> memory(const char* arch_name, MemoryConfig cfg = {}) {
  auto m = std::make_unique<MemorySystem>(arch(arch_name), cfg);
  m->begin_kernel();
  return m;
}

// The value of the metric row `key` (metric_names.hpp) for the kernel so far on `arch_name`.
inline double metric(const MemorySystem& m, const char* arch_name, std::string_view key) {
  for (const Metric& x : metrics(m.kernel_counters(), arch(arch_name)))
    if (x.our_key == key) return x.value;
  ADD_FAILURE() << "no metric " << key << " on " << arch_name;
  return -1;
}

}  // namespace warpscope::test
