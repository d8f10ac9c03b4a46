// Vocabulary types shared by every warpscope component: address spaces, memory
// operations, PTX cache operators and the warp's active-lane mask.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

namespace warpscope {

inline constexpr int kWarpSize = 32;

// DShared: distributed shared memory (9.0+ clusters), another CTA's shared memory, addresses its offsets. The H100
// counts such an access as a dshared request of the L1's t-stage with the 32-byte sectors its lanes touch, as a
// global access, and sends it over the crossbar (validation/h100/cluster_probe). A CTA's own shared memory, however
// addressed, is Shared.
// TexturePitch: texture fetches from a texture of pitch-linear 2D memory (cudaResourceTypePitch2D); Texture: every
// other texture (linear memory, CUDA arrays). The texture unit sends the first's L1 misses to L2 a request a 32-byte
// sector, the others' a request a 128-byte line for the instruction (validation/h100/texture_probe2, texture_probe3).
enum class Space : std::uint8_t { Global, Local, Shared, Const, Texture, DShared, TexturePitch };
inline constexpr Space kLastSpace = Space::TexturePitch;
inline constexpr bool is_texture(Space s) { return s == Space::Texture || s == Space::TexturePitch; }
// LoadMatrix / StoreMatrix: ldmatrix / stmatrix (SASS LDSM / STSM, 7.5+ / 9.0+), shared memory only,
// 16 bytes per lane: lanes 8m..8m+7 give the row addresses of 8x8 matrix m, so the active lanes are the
// first 8, 16 or 32 (.x1, .x2, .x4) whatever the warp's mask (docs/PTX.md; validation/h100/matrix_probe).
// AsyncCopy: cp.async (SASS LDGSTS, 8.0+), a copy from global to shared memory with no register between,
// recorded as two records of one PC: its global read (the lanes that read, at their sources), then its
// shared write (every lane that executed it, at its destination offset), each with the copy's cache
// operator (ca: through L1; cg: LDGSTS.BYPASS) and its 4, 8 or 16 bytes a lane (docs/TRACE_FORMAT.md;
// validation/h100/async_probe).
// BulkLoad / BulkStore: cp.async.bulk (SASS UBLKCP, 9.0+), one thread's copy of a contiguous block between
// global and shared memory by the SM's TMA unit, global -> shared or shared -> global. One record per
// instruction, a descriptor rather than lanes: lane 0 holds the global address, lane 1 the shared address,
// lane 2 the byte count (mask 0b111, size 16, space global, the default cache operator; every value a
// multiple of 16, the count 16 to kMaxBulkBytes; a tensor copy's rows below). The TMA reads or writes the block in pieces that end where its
// shared side crosses 128 bytes (rules/bulk_copy.hpp; docs/TRACE_FORMAT.md; validation/h100/barrier_probe,
// bulk_pipeline, bulk_offsets).
// GmmaRead: wgmma.mma_async (SASS HGMMA / IGMMA / QGMMA, 9.0+) reading its shared-memory operands through the
// tensor cores, one record per warp of the warpgroup: lane 0 the shared address of the operand it starts with, lane
// 1 the bytes charged to this warp (its 16 rows of A from shared memory, and on the group's first warp all of B);
// mask 0b11, size 16, space shared, the default cache operator. The H100 reads them in 128-byte wavefronts without
// bank conflicts (validation/h100/wgmma_probe).
// Texture fetches (space texture; docs/TRACE_FORMAT.md "Textures"): Load is a texel fetch (SASS TLD: tex with integer
// coordinates, one texel a lane); TexSample a sampled fetch (SASS TEX: float coordinates, served by quads of lanes), each
// lane at the first texel of its footprint; TexTexels the further texels of the preceding TexSample of the same warp and
// PC (linear filtering reads 2 or 4 a lane), only those whose 32-byte sector the lane's quad has not yet named, and no
// instruction or request of its own. A lane whose texel lies outside the texture in border mode has kNoTexel
// (validation/h100/texture_probe).
// StoreAsync: st.async (SASS STAS, 9.0+), a store into another CTA of the cluster that completes an mbarrier there;
// space dshared only. The H100 counts its instruction as op_dshared_stas and its tag-stage traffic with the dshared
// stores' (validation/h100/async_store_probe).
enum class Op : std::uint8_t {
  Load, Store, Atomic, Reduction, LoadMatrix, StoreMatrix, AsyncCopy, BulkLoad, BulkStore, GmmaRead, TexSample, TexTexels,
  StoreAsync
};
inline constexpr Op kLastOp = Op::StoreAsync;
inline constexpr bool is_texture_sample(Op o) { return o == Op::TexSample || o == Op::TexTexels; }
inline constexpr std::uint64_t kNoTexel = ~std::uint64_t{15};
inline constexpr bool is_matrix(Op o) { return o == Op::LoadMatrix || o == Op::StoreMatrix; }

// PTX cache operators (PTX ISA "Cache Operators"; seed 001 "PTX Cache Operators").
// Default means "whatever the generation does for this space without a modifier".
// Nc is ld.global.nc / __ldg (the read-only data path on 3.5+).
enum class CacheOp : std::uint8_t { Default, Ca, Cg, Cs, Lu, Cv, Nc, Wb, Wt };

// What a sample's record (tex, texels) must be: space texture with the default cache operator.
inline constexpr bool sample_record_ok(Space space, Op op, CacheOp cache) {
  return !is_texture_sample(op) || (is_texture(space) && cache == CacheOp::Default);
}
// What an st.async record must be: space dshared with the default cache operator.
inline constexpr bool async_store_record_ok(Space space, Op op, CacheOp cache) {
  return op != Op::StoreAsync || (space == Space::DShared && cache == CacheOp::Default);
}
// What an ldmatrix / stmatrix record must be: 16-byte shared rows with the default cache operator
// (the writers, the text reader and the fuzz harness check it; the native decoder by its type bytes).
inline constexpr bool matrix_record_ok(Space space, unsigned size, CacheOp cache) {
  return space == Space::Shared && size == 16 && cache == CacheOp::Default;
}
// What a cp.async record must be: global or shared, 4, 8 or 16 bytes a lane, ca or cg (cg only of 16).
inline constexpr bool async_copy_record_ok(Space space, unsigned size, CacheOp cache) {
  return (space == Space::Global || space == Space::Shared) && (size == 4 || size == 8 || size == 16) &&
         (cache == CacheOp::Ca || (cache == CacheOp::Cg && size == 16));
}
inline constexpr bool is_bulk(Op o) { return o == Op::BulkLoad || o == Op::BulkStore; }
// The largest bulk copy a record may describe (more than any GPU's shared memory per CTA).
inline constexpr std::uint64_t kMaxBulkBytes = std::uint64_t{1} << 20;
// A tensor copy (cp.async.bulk.tensor, SASS UTMALDG / UTMASTG, 9.0+) is a run of the same records, one per row
// of its box (the elements contiguous in global memory), with mask 0b1111: lanes 0-2 as above for the row, the
// shared address before any swizzle, and lane 3 flags: kTensorRowLater on every record but the copy's first
// (which is the instruction), kTensorRowOutside on a load's row whose index in a dimension above 0 is out of
// bounds (the TMA counts its sectors and sends nothing to L2), kTensorRowPromoted on a load's row whose tensor
// map asks an L2 promotion of 128 bytes or more (an L2 miss fills the whole line), with kTensorRowPromotedPair too
// for 256 bytes (the miss fills the 256-byte pair of lines). A load's row spans the whole box row, out of
// bounds in dimension 0 or not (the TMA reads it all); a store's row only the bytes in bounds, and a store row
// wholly out of bounds has no record (a store with none in bounds: one record of 0 bytes). A row's addresses
// are multiples of 16, its count at most kMaxBulkBytes (docs/TRACE_FORMAT.md "Tensor copies";
// validation/h100/tensor_probe).
// kTensorRowDelivery (with kTensorRowLater): the same row delivered to one more CTA of a .multicast::cluster copy
// (a bulk copy's block too): the TMA counts its sectors once per destination CTA, and L2 sees the row once
// (validation/h100/multicast_probe).
inline constexpr std::uint64_t kTensorRowLater = 1, kTensorRowOutside = 2, kTensorRowPromoted = 4, kTensorRowPromotedPair = 8,
                               kTensorRowDelivery = 16;
inline constexpr std::uint32_t kBulkMask = 0x7u, kTensorRowMask = 0xfu, kGmmaMask = 0x3u;
// The most a warp's share of one wgmma reads: 16 rows of A and all of B for N = 256, with K 32 bytes.
inline constexpr std::uint64_t kMaxGmmaBytes = (16 + 256) * 32;
inline constexpr bool gmma_fields_ok(Space space, unsigned size, CacheOp cache, std::uint32_t mask) {
  return space == Space::Shared && size == 16 && cache == CacheOp::Default && mask == kGmmaMask;
}
inline constexpr bool gmma_lanes_ok(std::uint64_t shared, std::uint64_t bytes) {
  return shared % 16 == 0 && bytes % 128 == 0 && bytes <= kMaxGmmaBytes;
}
// What a bulk-copy record's fixed fields must be; its lanes are checked by bulk_record_ok (trace readers).
inline constexpr bool bulk_fields_ok(Space space, unsigned size, CacheOp cache, std::uint32_t mask) {
  return space == Space::Global && size == 16 && cache == CacheOp::Default && (mask == kBulkMask || mask == kTensorRowMask);
}
inline constexpr bool bulk_lanes_ok(std::uint64_t global, std::uint64_t shared, std::uint64_t bytes) {
  return global % 16 == 0 && shared % 16 == 0 && bytes % 16 == 0 && bytes >= 16 && bytes <= kMaxBulkBytes;
}
inline constexpr bool tensor_row_lanes_ok(std::uint64_t global, std::uint64_t shared, std::uint64_t bytes, std::uint64_t flags) {
  constexpr std::uint64_t kAll = kTensorRowLater | kTensorRowOutside | kTensorRowPromoted | kTensorRowPromotedPair | kTensorRowDelivery;
  const bool pair_alone = (flags & kTensorRowPromotedPair) != 0 && (flags & kTensorRowPromoted) == 0;
  const bool delivery_first = (flags & kTensorRowDelivery) != 0 && (flags & kTensorRowLater) == 0;
  return global % 16 == 0 && shared % 16 == 0 && bytes <= kMaxBulkBytes && (flags & ~kAll) == 0 && !pair_alone && !delivery_first;
}
// The lanes whose row addresses an ldmatrix / stmatrix of 1, 2 or 4 matrices reads: 8m..8m+7 for matrix m.
inline constexpr std::uint32_t matrix_row_lanes(unsigned matrices) {
  return matrices >= 4 ? 0xffffffffu : (1u << (8 * matrices)) - 1u;
}
// Which instructions through a generic address Nsight Compute counts as op_generic (LD / ST); generic
// atomics and reductions keep their own counters (KernelInfo::generic_pcs).
inline constexpr bool counted_as_generic(Op op) { return op == Op::Load || op == Op::Store; }

// The operation of an atomic or reduction instruction, as its SASS opcode
// names it (ATOMG.E.CAS, ATOMS.POPC.INC, REDG.E.ADD.F32 ...). A trace records it
// per PC (KernelInfo::atomics) where the tracer read the disassembly; Unknown
// otherwise. It matters where hardware treats operations differently
// (validation/h100/atomics_probe: a CAS splits a line by 64-byte halves;
// ATOMS.POPC.INC merges lanes on one address where ATOMS.ADD serializes them).
enum class AtomicOp : std::uint8_t { Unknown, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas, PopcInc, Other };
inline constexpr int kAtomicOpCount = 13;

// Bit i set <=> lane i executes the access.
class LaneMask {
 public:
  constexpr LaneMask() = default;
  constexpr explicit LaneMask(std::uint32_t bits) : bits_(bits) {}
  static constexpr LaneMask full() { return LaneMask(0xffffffffu); }

  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool test(int lane) const { return ((bits_ >> lane) & 1u) != 0; }
  constexpr int count() const { return std::popcount(bits_); }
  constexpr bool none() const { return bits_ == 0; }
  // Lanes [first, first + n) only.
  constexpr LaneMask slice(int first, int n) const {
    const std::uint32_t window = n >= 32 ? 0xffffffffu : ((1u << n) - 1u) << first;
    return LaneMask(bits_ & window);
  }
  friend constexpr bool operator==(LaneMask, LaneMask) = default;

 private:
  std::uint32_t bits_ = 0;
};

std::string_view to_string(Space s);
std::string_view to_string(Op o);
std::string_view to_string(CacheOp c);
std::optional<Space> parse_space(std::string_view text);
std::optional<Op> parse_op(std::string_view text);
std::optional<CacheOp> parse_cache_op(std::string_view text);
std::string_view to_string(AtomicOp a);  // "unknown", "add", ..., "cas", "popc.inc", "other"
std::optional<AtomicOp> parse_atomic_op(std::string_view text);

}  // namespace warpscope
