#pragma once
// Where wgmma.mma_async (sm_90a) finds the elements of an operand held in shared memory: the 64-bit matrix
// descriptor (PTX ISA 9.7.15.5.1, "Matrix Descriptor Format") and the canonical layouts it describes.
//
// The descriptor: bits 0-13 the start address, 16-29 the leading dimension byte offset (LBO), 32-45 the stride
// dimension byte offset (SBO), each in 16-byte units; 49-51 the base offset; 62-63 the swizzle (0 none, 1 128 B,
// 2 64 B, 3 32 B).
//
// An operand is made of "core matrices", 8 rows of 16 bytes. With T = 16 / element bytes elements to a row:
//  - K-major (A as M x K row-major, B as K x N column-major: K contiguous), K = 32 bytes = two 16-byte chunks:
//      no swizzle:  8-row groups along M/N at SBO, row r of a group at 16 r, chunk c at LBO c;
//      swizzle W:   8-row groups at SBO, row r at W r, chunk c at 16 c (LBO unused);
//  - M/N-major (the .f16/.bf16 imm-trans forms: M or N contiguous), k at:
//      no swizzle:  T elements of M/N in 16 bytes, the next T at SBO; k % 8 at 16 (k % 8), k / 8 at LBO;
//      swizzle W:   W bytes of M/N in a row (the next W at LBO); k % 8 at W (k % 8), k / 8 at SBO;
// and the swizzle of W bytes moves each 16-byte chunk within its W-byte span by the address's 128-byte row, on the
// absolute shared address, as the TMA writes a box (tensor_map.hpp swizzled()). These are CUTLASS's canonical GMMA
// layouts (cute/atom/mma_traits_sm90_gmma.hpp, make_gmma_desc), checked against the H100's results in
// validation/h100/wgmma_probe.
#include <cstdint>

#include "ptx/tensor_map.hpp"

namespace warpscope::ptx {

struct GmmaDescriptor {
  std::uint64_t start = 0;  // bytes
  std::uint64_t lbo = 0;    // bytes
  std::uint64_t sbo = 0;    // bytes
  unsigned base_offset = 0;
  unsigned swizzle = 0;  // 0, 32, 64 or 128 bytes
};

inline GmmaDescriptor decode_gmma_descriptor(std::uint64_t d) {
  GmmaDescriptor g;
  g.start = (d & 0x3fffu) << 4;
  g.lbo = ((d >> 16) & 0x3fffu) << 4;
  g.sbo = ((d >> 32) & 0x3fffu) << 4;
  g.base_offset = static_cast<unsigned>((d >> 49) & 7u);
  constexpr unsigned kSwizzle[4] = {0, 128, 64, 32};
  g.swizzle = kSwizzle[(d >> 62) & 3u];
  return g;
}

// The shared address of element (mn, k) of an operand: mn its row of A (M) or column of B (N), k its index along
// K; elements of `bytes` bytes (1, 2 or 4); k_major: K contiguous (the form without imm-trans).
inline std::uint64_t gmma_element_address(const GmmaDescriptor& g, unsigned mn, unsigned k, unsigned bytes, bool k_major) {
  const std::uint64_t w = g.swizzle;
  std::uint64_t a = g.start;
  if (k_major) {
    const std::uint64_t kb = std::uint64_t{k} * bytes;  // byte along K, 0 .. 31
    a += (mn / 8) * g.sbo + (kb % 16);
    a += w == 0 ? (mn % 8) * 16 + (kb / 16) * g.lbo : (mn % 8) * w + (kb / 16) * 16;
  } else {
    const std::uint64_t mb = std::uint64_t{mn} * bytes;  // byte along M or N
    if (w == 0) a += (mb / 16) * g.sbo + mb % 16 + (k % 8) * 16 + (k / 8) * g.lbo;
    else a += (mb / w) * g.lbo + mb % w + (k % 8) * w + (k / 8) * g.sbo;
  }
  return swizzled(a, g.swizzle);
}

}  // namespace warpscope::ptx
