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
// A row of a tensor copy (types.hpp kTensorRowMask), one that is not the copy's first, and a load's row out of
// bounds above dimension 0.
inline bool is_tensor_row(const WarpAccess& r) { return is_bulk(r.op) && r.active.bits() == kTensorRowMask; }
inline bool continues_tensor_copy(const WarpAccess& r) { return is_tensor_row(r) && (r.addr[3] & kTensorRowLater) != 0; }
inline bool tensor_row_outside(const WarpAccess& r) { return is_tensor_row(r) && (r.addr[3] & kTensorRowOutside) != 0; }
inline bool tensor_row_delivery(const WarpAccess& r) { return is_tensor_row(r) && (r.addr[3] & kTensorRowDelivery) != 0; }
inline bool tensor_row_promoted(const WarpAccess& r) { return is_tensor_row(r) && (r.addr[3] & kTensorRowPromoted) != 0; }
inline bool tensor_row_promoted_pair(const WarpAccess& r) {
  return is_tensor_row(r) && (r.addr[3] & kTensorRowPromotedPair) != 0;
}
inline bool bulk_record_ok(const WarpAccess& r) {
  if (!bulk_fields_ok(r.space, r.size, r.cache, r.active.bits())) return false;
  return r.active.bits() == kTensorRowMask ? tensor_row_lanes_ok(r.addr[0], r.addr[1], r.addr[2], r.addr[3])
                                           : bulk_lanes_ok(r.addr[0], r.addr[1], r.addr[2]);
}
inline bool gmma_record_ok(const WarpAccess& r) {
  return gmma_fields_ok(r.space, r.size, r.cache, r.active.bits()) && gmma_lanes_ok(r.addr[0], r.addr[1]);
}
inline constexpr const char* kSampleRecordRule =
    "tex and texels records (a texture sample and its further texels) are in space texture with the default cache "
    "operator (e.g. 'texture tex 4')";
inline constexpr const char* kAsyncStoreRecordRule =
    "stas records (st.async) are in space dshared with the default cache operator (e.g. 'dshared stas 4')";
inline constexpr const char* kGmmaRecordRule =
    "gmma records are 'shared gmma 16' with mask=3 (wgmma.mma_async: lane 0 the shared address, a multiple of 16, lane "
    "1 the bytes the warp's share reads, a multiple of 128 up to 8704)";
// What a reader says of a bulk record that is not one.
inline constexpr const char* kBulkRecordRule =
    "tma_ld / tma_st records are 'global tma_ld 16' with mask=7 (cp.async.bulk: lane 0 the global address, lane 1 "
    "the shared address, lane 2 the byte count, all multiples of 16, the count from 16 to 1 MiB) or mask=f (a row of a "
    "tensor copy: the same with any count up to 1 MiB, lane 3 flags 0 to 31: 1 on rows after the copy's first, 2 on a "
    "load's row out of bounds, 4 on a load's row promoted to whole lines in L2, 8 with 4 for pairs of lines, 16 with 1 on a "
    "multicast's delivery to one more CTA)";
// Whether the record is an execution of its instruction: a cp.async's shared half, a tensor copy's rows after
// the first and a sample's further texels are parts of one.
inline bool counts_execution(const WarpAccess& r) {
  return !(r.op == Op::AsyncCopy && r.space == Space::Shared) && !continues_tensor_copy(r) && r.op != Op::TexTexels;
}

}  // namespace warpscope
