// Helpers shared by the unit tests: the source tree's architecture database
// and a compact way to build one warp access.
#pragma once

#include <functional>

#include "warpscope/arch.hpp"
#include "warpscope/rules.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::test {

inline const ArchDatabase& db() {
  static const ArchDatabase d = ArchDatabase::load({WARPSCOPE_SOURCE_DIR "/data/arch"});
  return d;
}
inline const ArchSpec& arch(const char* name) { return db().get(name).spec; }

struct Access {
  Space space = Space::Global;
  Op op = Op::Load;
  unsigned size = 4;
  CacheOp cache = CacheOp::Default;
  std::uint32_t mask = 0xffffffffu;
};

// Lane l accesses byte address addr(l).
inline WarpAccess make(const Access& spec, const std::function<std::uint64_t(int)>& addr) {
  WarpAccess a;
  a.space = spec.space;
  a.op = spec.op;
  a.size = static_cast<std::uint8_t>(spec.size);
  a.cache = spec.cache;
  a.active = LaneMask(spec.mask);
  for (int l = 0; l < kWarpSize; ++l) a.addr[static_cast<unsigned>(l)] = addr(l);
  return a;
}

inline InstructionCounts run(const char* arch_name, const Access& spec, const std::function<std::uint64_t(int)>& addr,
                             const RulesOptions& options = {}) {
  return analyze(make(spec, addr), arch(arch_name), options);
}

// A 128-byte-aligned base address, so lines and segments start where the seeds draw them.
inline constexpr std::uint64_t kBase = 0x10000;

}  // namespace warpscope::test
