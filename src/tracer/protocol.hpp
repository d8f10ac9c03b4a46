// The GPU tracer's wire format: what the injection library inside the traced
// application sends to `warpscope trace` over a socket (docs/TRACER.md).
//
// The injection library stays small (no zstd, no trace writer): it forwards
// the cubins it sees, launch metadata and the warp records the GPU assembled.
// `warpscope trace` does everything else (SASS decoding, the trace file), so
// a crash of the application never leaves a broken trace behind, and all of
// that logic is tested in CI without a GPU.
//
// A message is a little-endian u32 type, a u32 payload length, then the
// payload. Strings and byte blobs are a u32 length then the bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace warpscope::tracer {

inline constexpr std::uint32_t kProtocolVersion = 1;
inline constexpr std::uint32_t kMaxMessageBytes = 256u << 20;  // a cubin can be large; records come in batches

enum class MessageType : std::uint32_t {
  Hello = 1,      // u32 version, u32 pid
  Device = 2,     // u32 ordinal, u32 cc major, u32 cc minor, u32 SM count, str name
  Module = 3,     // u64 module handle, blob cubin
  Launch = 4,     // see LaunchMessage
  Records = 5,    // u32 count, then `count` packed records (below)
  LaunchEnd = 6,  // u32 launch, u64 executed, u64 written, u32 complete
  Note = 7,       // str: a warning the injection library wants the user to see
  Bye = 8,        // u64 records sent: the application ended normally
};

// Which Sanitizer API callback saw the access (sanitizer_patching.h
// SANITIZER_INSTRUCTION_*): the address space is not among the access flags.
enum class RecordSpace : std::uint8_t { Global = 3, Shared = 4, Local = 5 };

// Access flags as the Sanitizer API reports them (SANITIZER_MEMORY_DEVICE_FLAG_*,
// CUDA 13.0 headers): loads 0x1, stores 0x2, atomics 0x3, system-scope atomics 0x7.
inline constexpr std::uint8_t kFlagRead = 0x1, kFlagWrite = 0x2, kFlagAtomSys = 0x4;
// A record's space: 3 global, 4 shared, 5 local, and the rows of an ldmatrix / stmatrix (shared offsets of
// the row lanes only; SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS).
inline constexpr std::uint8_t kSpaceMatrix = 19;
// The two sides of a cp.async (SANITIZER_INSTRUCTION_MEMCPY_ASYNC = 14): its global source (14), then its
// shared destination offset (a code of our own, 114), from one callback of every lane that executes it.
inline constexpr std::uint8_t kSpaceAsyncGlobal = 14, kSpaceAsyncShared = 114;
// A bulk copy, global -> shared (SANITIZER_INSTRUCTION_BULK_COPY_GLOBAL_TO_SHARED = 30) or shared -> global (= 35):
// one record of the warp's instruction, mask 0b111 holding its descriptor (types.hpp Op::BulkLoad), size 16.
inline constexpr std::uint8_t kSpaceBulkToShared = 30, kSpaceBulkToGlobal = 35;

// Lane addresses of a record: either base + rank * stride for the active lanes
// in lane order (rank = index among active lanes), or one u64 per active lane.
enum class AddressForm : std::uint8_t { Strided = 0, PerLane = 1 };

// A packed record as it travels on the socket (fixed part; then the addresses).
struct PackedRecordHead {
  std::uint32_t launch;  // launch id assigned by the injection library
  std::uint32_t cta;     // linear CTA id
  std::uint64_t pc;      // absolute PC of the SASS instruction
  std::uint32_t mask;    // lanes that executed it
  std::uint16_t warp;    // warp within the CTA (linear thread id / 32)
  std::uint16_t sm;      // %smid
  std::uint8_t space;    // RecordSpace
  std::uint8_t flags;    // access flags
  std::uint8_t size;     // bytes per lane
  std::uint8_t form;     // AddressForm
};
static_assert(sizeof(PackedRecordHead) == 32);

// Launch message payload (fixed part), then str mangled function name.
struct LaunchHead {
  std::uint32_t launch;
  std::uint32_t device;       // ordinal
  std::uint64_t module;       // handle, as in the Module message
  std::uint64_t function_pc;  // sanitizerGetFunctionPcAndSize: PCs are absolute
  std::uint64_t function_size;
  std::uint32_t grid[3];
  std::uint32_t block[3];
  std::uint32_t dynamic_shared;  // bytes; 0 when the launch API did not say
  std::uint32_t traced;          // 0: selected out (--kernel, --launches); no records follow
  std::uint32_t cta_stride;      // records only for CTAs whose id % cta_stride == 0
  std::uint32_t graph;           // launched as a CUDA graph node
};
static_assert(sizeof(LaunchHead) == 72);

struct LaunchEndBody {
  std::uint32_t launch;
  std::uint32_t complete;  // 1: the kernel finished and every record was drained
  std::uint64_t executed;  // warp-level memory instructions the GPU counted (traced CTAs)
  std::uint64_t written;   // of those, records sent (the rest were beyond --max-records)
};
static_assert(sizeof(LaunchEndBody) == 24);

// Appends to a message payload.
class MessageWriter {
 public:
  explicit MessageWriter(MessageType type) { put_u32(static_cast<std::uint32_t>(type)); put_u32(0); }
  void put_u32(std::uint32_t v) { put_raw(&v, 4); }
  void put_u64(std::uint64_t v) { put_raw(&v, 8); }
  void put_raw(const void* p, std::size_t n) { bytes_.append(static_cast<const char*>(p), n); }
  void put_blob(std::string_view s) {
    put_u32(static_cast<std::uint32_t>(s.size()));
    bytes_.append(s);
  }
  // The whole message, length patched in.
  const std::string& finish() {
    const auto len = static_cast<std::uint32_t>(bytes_.size() - 8);
    std::memcpy(bytes_.data() + 4, &len, 4);
    return bytes_;
  }

 private:
  std::string bytes_;
};

}  // namespace warpscope::tracer
