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

// A bulk copy's descriptor (types.hpp Op::BulkLoad / BulkStore): its global address, shared address and bytes.
inline std::uint64_t bulk_global(const WarpAccess& r) { return r.addr[0]; }
inline std::uint64_t bulk_shared(const WarpAccess& r) { return r.addr[1]; }
inline std::uint64_t bulk_bytes(const WarpAccess& r) { return r.addr[2]; }
inline bool bulk_record_ok(const WarpAccess& r) {
  return bulk_fields_ok(r.space, r.size, r.cache, r.active.bits()) && bulk_lanes_ok(r.addr[0], r.addr[1], r.addr[2]);
}
// What a reader says of a bulk record that is not one.
inline constexpr const char* kBulkRecordRule =
    "tma_ld / tma_st (cp.async.bulk) records are 'global tma_ld 16' with mask=7: lane 0 the global address, lane 1 "
    "the shared address, lane 2 the byte count, all multiples of 16, the count from 16 to 1 MiB";

}  // namespace warpscope
