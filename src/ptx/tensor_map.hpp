// A tensor map for the interpreter's tensor copies (cp.async.bulk.tensor, PTX ISA 9.7.9.25.5; CUDA's
// cuTensorMapEncodeTiled): the tensor's element type, rank, base, sizes and strides, the box a copy moves, its
// element strides, the shared-memory swizzle and the out-of-bounds fill. A CUtensorMap is opaque, so a run script
// describes one (`tmap(BUFFER, TYPE, (DIMS), (BOX), ...)`, docs/PTX.md "Tensor maps") and the interpreter
// writes it into the 128 bytes of the kernel's CUtensorMap parameter in a layout of its own (encode/decode
// below): a kernel may copy the map like any data and the copy still describes the tensor.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::ptx {

inline constexpr std::size_t kTensorMapBytes = 128;  // sizeof(CUtensorMap)
inline constexpr unsigned kMaxTensorRank = 5;

struct TensorMap {
  std::string type;             // "f32", "bf16", ... (the CU_TENSOR_MAP_DATA_TYPE_* names, lower case)
  unsigned elem = 0;            // bytes an element
  unsigned rank = 0;            // 1 to 5
  std::uint64_t base = 0;       // global address of element (0, ..., 0)
  std::array<std::uint64_t, kMaxTensorRank> dims{};     // elements in each dimension, innermost first
  std::array<std::uint64_t, kMaxTensorRank> strides{};  // bytes from one index to the next; strides[0] = elem
  std::array<std::uint32_t, kMaxTensorRank> box{};      // the box a copy moves, in elements of the traversal
  std::array<std::uint32_t, kMaxTensorRank> estride{};  // element strides: every estride-th index of the box
  unsigned swizzle = 0;         // 0, 32, 64 or 128 bytes
  bool oob_nan = false;         // out-of-bounds elements of a load read NaN, not 0 (floating-point types)
  unsigned l2_promotion = 0;    // bytes an L2 miss of a load fetches at least: 0 (none), 64, 128 or 256
  // Whether a load's L2 misses fill whole lines (128 bytes or more), and pairs of lines (256); 64 is the H100's
  // sector group anyway (validation/h100/tensor_promo).
  bool promotes_lines() const { return l2_promotion >= 128; }
  bool promotes_pairs() const { return l2_promotion >= 256; }

  // Elements of the box that a copy moves along dimension i, and its bytes in shared memory.
  std::uint32_t moved(unsigned i) const { return (box[i] + estride[i] - 1) / estride[i]; }
  std::uint64_t box_bytes() const;
};

// The run script's words: tmap(BUFFER[+BYTES], TYPE, (D0, D1, ...), (B0, B1, ...)[, strides=(S1, ...)]
// [, estrides=(E0, E1, ...)][, swizzle=none|32B|64B|128B][, oob=zero|nan][, l2promo=none|64B|128B|256B]).
// buffer_base gives a buffer's address (nullopt: no such buffer). Checks what cuTensorMapEncodeTiled checks
// that the interpreter depends on; throws InputError naming what is wrong.
TensorMap parse_tensor_map(std::string_view text, const std::function<std::optional<std::uint64_t>(std::string_view)>& buffer_base);

std::array<std::uint8_t, kTensorMapBytes> encode_tensor_map(const TensorMap& m);
// The map in 128 bytes written by encode_tensor_map; nullopt for anything else (an uninitialised or foreign
// CUtensorMap).
std::optional<TensorMap> decode_tensor_map(const std::uint8_t* bytes);

// Where the 16-byte chunk holding shared byte `offset` lies after the swizzle of a box: the chunk index within its
// swizzle span XORed with the address's 128-byte row within the pattern (bits 4.. with bits 7..; CUTLASS's
// Swizzle<1..3, 4, 3>), on the absolute shared address (validation/h100/tensor_probe: a tile 128 B past a
// 1024-byte block lands differently from one on it).
inline std::uint64_t swizzled(std::uint64_t offset, unsigned swizzle) {
  const unsigned bits = swizzle == 128 ? 7u : swizzle == 64 ? 3u : swizzle == 32 ? 1u : 0u;
  return offset ^ (((offset >> 7) & bits) << 4);
}

}  // namespace warpscope::ptx
