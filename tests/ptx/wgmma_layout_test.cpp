// wgmma's matrix descriptors (src/ptx/wgmma_layout.hpp): the 64-bit descriptor's fields and where an operand's
// element lies in shared memory under each canonical layout, with addresses worked out by hand from the PTX ISA's
// "Matrix Descriptor Format" and CUTLASS's canonical GMMA layouts. The H100 agrees on every layout:
// tests/validation/h100_wgmma_probe_test.cpp.
#include <gtest/gtest.h>

#include "ptx/wgmma_layout.hpp"

namespace warpscope::test {
namespace {

using ptx::decode_gmma_descriptor;
using ptx::gmma_element_address;
using ptx::GmmaDescriptor;

std::uint64_t descriptor(std::uint64_t start, std::uint64_t lbo, std::uint64_t sbo, std::uint64_t swizzle_code) {
  return (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | swizzle_code << 62;
}

TEST(GmmaDescriptor, FieldsAreSixteenByteUnitsAndTheSwizzleCode) {
  const GmmaDescriptor g = decode_gmma_descriptor(descriptor(0x1230, 256, 1024, 1) | 5ull << 49);
  EXPECT_EQ(g.start, 0x1230u);
  EXPECT_EQ(g.lbo, 256u);
  EXPECT_EQ(g.sbo, 1024u);
  EXPECT_EQ(g.base_offset, 5u);
  EXPECT_EQ(g.swizzle, 128u);  // code 1
  EXPECT_EQ(decode_gmma_descriptor(descriptor(0, 0, 0, 2)).swizzle, 64u);
  EXPECT_EQ(decode_gmma_descriptor(descriptor(0, 0, 0, 3)).swizzle, 32u);
  EXPECT_EQ(decode_gmma_descriptor(descriptor(0, 0, 0, 0)).swizzle, 0u);
  // 14 bits each: an address of 256 KB wraps.
  EXPECT_EQ(decode_gmma_descriptor(std::uint64_t{0x4001}).start, 16u);
}

TEST(GmmaLayout, KMajorWithoutSwizzleIsCoreMatricesAtLboAndSbo) {
  const GmmaDescriptor g = decode_gmma_descriptor(descriptor(0x400, 128, 512, 0));
  // f16 (2 bytes): element (row 9, k 12): row group 1 (+SBO 512), row 1 of its core matrix (+16), k byte 24 =
  // chunk 1 (+LBO 128) byte 8.
  EXPECT_EQ(gmma_element_address(g, 9, 12, 2, true), 0x400u + 512 + 16 + 128 + 8);
  EXPECT_EQ(gmma_element_address(g, 0, 0, 2, true), 0x400u);
  EXPECT_EQ(gmma_element_address(g, 7, 7, 2, true), 0x400u + 7 * 16 + 14);
  // tf32 (4 bytes): k 5 is byte 20: chunk 1, byte 4.
  EXPECT_EQ(gmma_element_address(g, 0, 5, 4, true), 0x400u + 128 + 4);
}

TEST(GmmaLayout, KMajorSwizzlesMoveChunksByTheRowOfTheAbsoluteAddress) {
  // 128 B: rows 128 bytes apart, 8-row groups at SBO 1024; chunk c of the row at address A lands at chunk
  // c ^ ((A >> 7) & 7). Element (9, 12): 1024 + 128 (row 1) + 16 (chunk 1) + 8 = 1176; its row bits are 1, so
  // chunk 1 becomes 0: 1160.
  const GmmaDescriptor g128 = decode_gmma_descriptor(descriptor(0, 16, 1024, 1));
  EXPECT_EQ(gmma_element_address(g128, 9, 12, 2, true), 1160u);
  EXPECT_EQ(gmma_element_address(g128, 3, 0, 2, true), 3 * 128u + (3u << 4));  // row 3: chunk 0 -> 3
  // The start 32 bytes on (the next k16 step): chunk 2 of row 5 -> 2 ^ 5 = 7.
  const GmmaDescriptor step = decode_gmma_descriptor(descriptor(32, 16, 1024, 1));
  EXPECT_EQ(gmma_element_address(step, 5, 0, 2, true), 5 * 128u + 7 * 16);
  // 64 B: rows 64 bytes apart; row 3 of a group sits at 192, in 128-byte row 1: chunk 1 -> 0.
  const GmmaDescriptor g64 = decode_gmma_descriptor(descriptor(0, 16, 512, 2));
  EXPECT_EQ(gmma_element_address(g64, 3, 8, 2, true), 192u);
  // 32 B: rows 32 bytes apart; row 4 at 128 is 128-byte row 1: chunk 0 -> 1.
  const GmmaDescriptor g32 = decode_gmma_descriptor(descriptor(0, 16, 256, 3));
  EXPECT_EQ(gmma_element_address(g32, 4, 0, 2, true), 128u + 16);
  EXPECT_EQ(gmma_element_address(g32, 3, 0, 2, true), 96u);  // row 3: 128-byte row 0, unmoved
}

TEST(GmmaLayout, MnMajorLaysMOrNContiguous) {
  // No swizzle: 8 elements of M (16 bytes) a core-matrix row, the next 8 at SBO; k % 8 at 16 B, k / 8 at LBO.
  const GmmaDescriptor g = decode_gmma_descriptor(descriptor(0, 1024, 128, 0));
  EXPECT_EQ(gmma_element_address(g, 10, 9, 2, false), 128u + 4 + 16 + 1024);  // m 10: group 1, byte 4; k 9: row 1, LBO
  // 128 B: a row holds 64 elements of M; k % 8 at 128 B, k / 8 at SBO; then the 128-byte swizzle.
  const GmmaDescriptor g128 = decode_gmma_descriptor(descriptor(0, 8192, 1024, 1));
  // m 10 (byte 20: chunk 1), k 3: 3 * 128 + 20 = 404; row bits 3: chunk 1 ^ 3 = 2: 384 + 32 + 4 = 420.
  EXPECT_EQ(gmma_element_address(g128, 10, 3, 2, false), 420u);
  // 64 B: 32 elements of M a row, the next 32 at LBO (512); m 40 is byte 16 of the second span: 528, in 128-byte
  // row 4, whose low two bits are 0: unmoved. k 2 puts it at 656, row 5: chunk 1 ^ 1 = 0: 640.
  const GmmaDescriptor g64 = decode_gmma_descriptor(descriptor(0, 512, 1024, 2));
  EXPECT_EQ(gmma_element_address(g64, 40, 0, 2, false), 528u);
  EXPECT_EQ(gmma_element_address(g64, 40, 2, 2, false), 640u);
}

}  // namespace
}  // namespace warpscope::test
