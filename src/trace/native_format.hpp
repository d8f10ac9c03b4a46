// The native trace format, version 1 (docs/TRACE_FORMAT.md is the normative
// description; this header mirrors it): file header, block framing, limits,
// and the record codec used inside chunks.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/encoding.hpp"
#include "warpscope/packed_access.hpp"
#include "warpscope/trace.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::trace {

// File header: magic (4) | u16 version | u16 flags (0).
inline constexpr std::array<std::uint8_t, 4> kMagic{0x89, 'W', 'S', 'T'};
inline constexpr std::size_t kFileHeaderBytes = 8;

// Block header: u8 type | u8[3] reserved (0) | u32 body size | u64 FNV-1a of
// header bytes 0..7 followed by the body.
inline constexpr std::size_t kBlockHeaderBytes = 16;
enum class BlockType : std::uint8_t { Kernel = 1, Chunk = 2, Footer = 3, Atomics = 0x80, CodeSize = 0x81, GenericPcs = 0x82 };
inline constexpr std::uint8_t kOptionalBlockTypes = 0x80;  // types >= 0x80: skipped when unknown

// Limits a reader enforces before allocating (a corrupted length never makes
// it allocate more than these).
inline constexpr std::uint32_t kMaxChunkBytes = 64u << 20;       // uncompressed records of one chunk
inline constexpr std::uint32_t kMaxKernelBlockBytes = 64u << 20;  // one kernel block body
inline constexpr std::uint32_t kMaxOptionalBlockBytes = 64u << 20;
inline constexpr std::uint32_t kMaxStringBytes = 1u << 20;
inline constexpr std::uint32_t kChunkCountsBytes = 8;  // u32 record count | u32 uncompressed size
inline constexpr std::uint32_t kFooterBytes = 24;       // u64 records | u64 kernels | u64 chunks
// Chunks of at most this many records are decoded whole, off the reader's
// thread (chunk_decoder.hpp); larger ones record by record as they are read,
// so a reader's memory stays bounded by the 64 MiB chunk limit.
inline constexpr std::uint32_t kMaxDecodedChunkRecords = 1u << 16;
std::uint32_t max_chunk_body_bytes();                   // counts + ZSTD_compressBound(kMaxChunkBytes)

// Record tag bits (one byte starts every record).
enum : std::uint8_t {
  kTagKernel = 1u << 0,  // varint kernel follows
  kTagCta = 1u << 1,     // varint cta
  kTagWarp = 1u << 2,    // varint warp
  kTagSm = 1u << 3,      // zig-zag varint sm
  kTagType = 1u << 4,    // 2 bytes: space | op << 3 | log2(size) << 5, cache
  kTagMask = 1u << 5,    // u32 active mask
};
inline constexpr unsigned kAddrModeShift = 6;
// In the second type byte, over the cache operator: the record is ldmatrix (op ld) or stmatrix (op st),
// shared, 16 bytes, default cache operator. Readers before it reject such a byte as a bad cache operator.
inline constexpr std::uint8_t kTypeMatrix = 0x10;
// In the second type byte too: the record is one side of a cp.async (Op::AsyncCopy; op bits ld), its global
// read or its shared write, 4, 8 or 16 bytes, cache operator ca or cg. Readers before it reject the byte.
inline constexpr std::uint8_t kTypeAsyncCopy = 0x20;
// In the second type byte too: the record is a bulk copy (Op::BulkLoad with op bits ld, BulkStore with st), global,
// 16 bytes, default cache operator, mask 0b111 holding its descriptor (warp_access.hpp bulk_*), or mask 0b1111 for
// a row of a tensor copy (types.hpp kTensorRowMask). Readers before it reject the byte.
inline constexpr std::uint8_t kTypeBulk = 0x40;
// In the second type byte too: the record is a wgmma's shared-memory read (Op::GmmaRead, op bits ld), shared, 16
// bytes, default cache operator, mask 0b11 (types.hpp gmma_*). Readers before it reject the byte.
inline constexpr std::uint8_t kTypeGmma = 0x80;
// On a texture record (and only there) the matrix bit means a sample (Op::TexSample, op bits ld, default cache
// operator), and with the cp.async bit its further texels (Op::TexTexels). Readers before them reject both bytes.
inline constexpr std::uint8_t kTypeTexSample = kTypeMatrix, kTypeTexTexels = kTypeMatrix | kTypeAsyncCopy;
// On a dshared store (and only there) the cp.async bit means st.async (Op::StoreAsync). Readers before it reject it.
inline constexpr std::uint8_t kTypeStoreAsync = kTypeAsyncCopy;
enum class AddrMode : std::uint8_t { None = 0, Stride = 1, Deltas = 2 };
// Longest possible encoding of one record.
// tag, kernel, cta, warp, sm, type, mask, pc, base, then 31 deltas or 1 stride.
inline constexpr std::size_t kMaxRecordBytes = 1 + 5 + 5 + 3 + 3 + 2 + 4 + 10 + 10 + 31 * kMaxVarintBytes;

// Per-chunk state shared by encoder and decoder: every chunk starts from
// these defaults, so chunks decode independently.
struct CodecState {
  std::uint32_t kernel = 0, cta = 0;
  std::uint16_t warp = 0;
  std::int16_t sm = -1;
  std::uint8_t type_a = 0x40, type_b = 0;  // global, ld, 4 bytes, default
  std::uint32_t mask = 0xffffffffu;
  std::array<std::uint64_t, 256> last_base{};  // per PC slot
  // Last PC per kernel in this chunk, valid where stamp == generation.
  std::vector<std::uint64_t> last_pc;
  std::vector<std::uint32_t> pc_stamp;
  std::uint32_t generation = 1;

  void reset();  // start of a chunk
  std::uint64_t& pc_slot(std::uint32_t k) {
    if (k < pc_stamp.size() && pc_stamp[k] == generation) return last_pc[k];
    return new_pc_slot(k);
  }
  std::uint64_t& new_pc_slot(std::uint32_t k);
};

// Appends records to an uncompressed chunk buffer.
class RecordEncoder {
 public:
  // Writes one record at `out`, which has kMaxRecordBytes of room; returns
  // the end. The record has passed check_record().
  std::uint8_t* encode(const WarpAccess& rec, std::uint8_t* out);
  void reset() { state_.reset(); }

 private:
  CodecState state_;
};

// Whether the active lanes of r sit at base + stride x (lane - lowest lane)
// (true with stride 0 for one active lane or none); sets stride.
bool lane_stride(const WarpAccess& r, std::int64_t& stride);

// Decodes records from an uncompressed chunk. On malformed input decode()
// returns false and error() says why.
class RecordDecoder {
 public:
  void start(const std::uint8_t* data, std::size_t size, std::uint32_t kernel_count);
  bool decode(WarpAccess& rec);
  // The compact form; a record stored as lane deltas gets its active lanes'
  // addresses written to `lanes` (room for 32) and pointing there.
  bool decode(PackedAccess& rec, std::uint64_t* lanes);
  const char* error() const { return error_; }
  std::size_t consumed() const { return static_cast<std::size_t>(p_ - begin_); }
  bool at_end() const { return p_ == end_; }

 private:
  bool fail(const char* why) {
    error_ = why;
    return false;
  }
  // false (and the error) if an active lane's address is not a multiple of the size.
  bool check_each_lane(const PackedAccess& r);
  // The address part of a record whose tag is `tag` and mask `m` (decode's last step).
  bool decode_addresses(PackedAccess& r, std::uint64_t* lanes, unsigned tag, std::uint32_t m);
  CodecState state_;
  std::array<std::uint64_t, kWarpSize> lanes_{};  // decode(WarpAccess&)'s scratch
  const std::uint8_t* begin_ = nullptr;
  const std::uint8_t* p_ = nullptr;
  const std::uint8_t* end_ = nullptr;
  std::uint32_t kernel_count_ = 0;
  const char* error_ = "";
  std::string detail_;  // an error naming the lane and address
};

// Kernel block bodies.
std::string encode_kernel(const KernelInfo& k);
// Throws TraceError naming the file and the block offset on malformed input.
KernelInfo decode_kernel(const std::uint8_t* data, std::size_t size, const std::string& file, std::uint64_t offset);
// Optional block 0x80: a kernel's PC -> atomic operation table
// (KernelInfo::atomics), written right after its kernel block when not empty.
std::string encode_atomics(const KernelInfo& k);
// Fills `into`; returns the kernel id the block names.
std::uint32_t decode_atomics(const std::uint8_t* data, std::size_t size, const std::string& file,
                             std::uint64_t offset, std::map<std::uint64_t, AtomicOp>& into);
// Optional block 0x81: the size of a kernel's machine code (KernelInfo::code_bytes),
// written right after its kernel block (and its atomics) when known; the
// kernel has passed check_kernel() (the size fits 32 bits).
std::string encode_code_size(const KernelInfo& k);
// Returns the kernel id the block names; `code_bytes` gets the size (>= 1).
std::uint32_t decode_code_size(const std::uint8_t* data, std::size_t size, const std::string& file,
                               std::uint64_t offset, std::uint64_t& code_bytes);
// Optional block 0x82: the PCs of a kernel's loads and stores through generic addresses
// (KernelInfo::generic_pcs), after its other blocks when not empty: varint kernel id, varint count,
// then the PCs as increasing varint deltas from 0. Readers before it skip it (an optional type).
std::string encode_generic_pcs(const KernelInfo& k);
// Fills `into`; returns the kernel id the block names.
std::uint32_t decode_generic_pcs(const std::uint8_t* data, std::size_t size, const std::string& file, std::uint64_t offset,
                                 std::set<std::uint64_t>& into);

// Fuzzing aid: rewrites every block checksum of a native trace in place so
// that mutated bodies reach the decoders. Stops at the first block it cannot
// frame.
void fix_checksums(std::string& bytes);

}  // namespace warpscope::trace
