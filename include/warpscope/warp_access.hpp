// The one record every front end produces and every model consumes: one
// executed warp-level memory instruction (DESIGN.md "The record").
#pragma once

#include <array>
#include <cstdint>

#include "warpscope/types.hpp"

namespace warpscope {

struct WarpAccess {
  std::uint64_t pc = 0;          // instruction offset within the kernel
  std::uint32_t kernel = 0;      // kernel id within the trace
  std::uint32_t cta = 0;         // linear CTA id
  std::uint16_t warp = 0;        // warp index within the CTA
  std::int16_t sm = -1;          // SM id, -1 when unknown
  Space space = Space::Global;
  Op op = Op::Load;
  std::uint8_t size = 4;         // bytes per lane: 1, 2, 4, 8 or 16
  CacheOp cache = CacheOp::Default;
  AtomicOp atomic_op = AtomicOp::Unknown;  // atomics and reductions: the SASS operation, when known
  LaneMask active = LaneMask::full();
  // Byte address per lane (shared/local: offset within the window).
  // Only lanes in `active` are meaningful.
  std::array<std::uint64_t, kWarpSize> addr{};
};

}  // namespace warpscope
