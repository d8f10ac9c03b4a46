// Tensor maps (src/ptx/tensor_map.hpp): the run script's tmap(...) words, the checks cuTensorMapEncodeTiled makes
// that the interpreter depends on, the 128 bytes a map is kept in (encode / decode), and where a 16-byte chunk of
// a box lands under each shared-memory swizzle. The copies through a map: tests/ptx/tensor_copy_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "ptx/tensor_map.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

// Two buffers, at addresses a cudaMalloc could give; "odd" starts 4 bytes past a multiple of 16.
constexpr std::uint64_t kA = 0x7f0000000000ull, kB = 0x7f0000200000ull, kOdd = 0x7f0000400004ull;

std::optional<std::uint64_t> base_of(std::string_view name) {
  if (name == "a") return kA;
  if (name == "b") return kB;
  if (name == "odd") return kOdd;
  return std::nullopt;
}

ptx::TensorMap parse(std::string_view text) { return ptx::parse_tensor_map(text, base_of); }

// The message parse_tensor_map throws for `text` ("no error" when it takes it).
std::string refusal(std::string_view text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// --- what parse_tensor_map takes

// A dense tensor: each stride is the one below times that dimension's size (4 B; 1024 x 4 = 4096 B; 4096 x 512 =
// 2 MiB); the box moves every element (element strides 1); no swizzle, zero fill, no L2 promotion.
TEST(TensorMap, DenseStridesComeFromTheDimensions) {
  const ptx::TensorMap m = parse("tmap(a, f32, (1024, 512, 4), (32, 16, 2))");
  EXPECT_EQ(m.type, "f32");
  EXPECT_EQ(m.elem, 4u);
  EXPECT_EQ(m.rank, 3u);
  EXPECT_EQ(m.base, kA);
  EXPECT_EQ(m.dims, (std::array<std::uint64_t, 5>{1024, 512, 4, 0, 0}));
  EXPECT_EQ(m.strides, (std::array<std::uint64_t, 5>{4, 4096, 2097152, 0, 0}));
  EXPECT_EQ(m.box, (std::array<std::uint32_t, 5>{32, 16, 2, 0, 0}));
  EXPECT_EQ(m.estride[0], 1u);
  EXPECT_EQ(m.estride[1], 1u);
  EXPECT_EQ(m.estride[2], 1u);
  EXPECT_EQ(m.swizzle, 0u);
  EXPECT_FALSE(m.oob_nan);
  EXPECT_EQ(m.l2_promotion, 0u);
  EXPECT_EQ(m.box_bytes(), 4u * 32 * 16 * 2);  // 4096
}

// strides=(..) gives dimensions 1.. in bytes: rows of 1000 floats (4000 B) laid 4096 B apart, planes 1 MiB apart.
TEST(TensorMap, ExplicitStridesReplaceTheDenseOnes) {
  const ptx::TensorMap m = parse("tmap(a, f32, (1000, 200, 3), (32, 8, 1), strides=(4096, 1048576))");
  EXPECT_EQ(m.strides, (std::array<std::uint64_t, 5>{4, 4096, 1048576, 0, 0}));
  EXPECT_EQ(m.dims, (std::array<std::uint64_t, 5>{1000, 200, 3, 0, 0}));
}

// Element strides: the box moves every estride-th index, ceil(box / estride) of them: ceil(7 / 3) = 3 rows,
// ceil(5 / 8) = 1 plane, so 8 x 3 x 1 floats = 96 bytes in shared memory.
TEST(TensorMap, ElementStridesShrinkTheBoxInSharedMemory) {
  const ptx::TensorMap m = parse("tmap(a, f32, (64, 64, 64), (8, 7, 5), estrides=(1, 3, 8))");
  EXPECT_EQ(m.estride[0], 1u);
  EXPECT_EQ(m.estride[1], 3u);
  EXPECT_EQ(m.estride[2], 8u);
  EXPECT_EQ(m.moved(0), 8u);
  EXPECT_EQ(m.moved(1), 3u);
  EXPECT_EQ(m.moved(2), 1u);
  EXPECT_EQ(m.box_bytes(), 96u);
  // tensor_probe's "estride" launch: a 32 x 32 box every second row, 32 x 16 floats.
  EXPECT_EQ(parse("tmap(a, f32, (1024, 512), (32, 32), estrides=(1, 2))").box_bytes(), 2048u);
}

// Each swizzle, with box rows as wide as it (8, 16 and 32 floats) or narrower; none is the default.
TEST(TensorMap, EachSwizzleIsTaken) {
  EXPECT_EQ(parse("tmap(a, f32, (1024, 512), (8, 32), swizzle=none)").swizzle, 0u);
  EXPECT_EQ(parse("tmap(a, f32, (1024, 512), (8, 32), swizzle=32B)").swizzle, 32u);
  EXPECT_EQ(parse("tmap(a, f32, (1024, 512), (16, 32), swizzle=64B)").swizzle, 64u);
  EXPECT_EQ(parse("tmap(a, f32, (1024, 512), (32, 32), swizzle=128B)").swizzle, 128u);
  EXPECT_EQ(parse("tmap(a, bf16, (1024, 512), (64, 32), swizzle=128B)").swizzle, 128u);  // 64 x 2 B = 128 B
  EXPECT_EQ(parse("tmap(a, f32, (1024, 512), (16, 32), swizzle=128B)").swizzle, 128u);   // 64 B rows
}

// NaN fill on each floating-point width; zero fill said outright; an L2 promotion; interleave=none.
TEST(TensorMap, FillPromotionAndInterleaveKeys) {
  for (const char* type : {"f16", "bf16", "f32", "f64", "f32ftz", "tf32", "tf32ftz"})
    EXPECT_TRUE(parse(std::string("tmap(a, ") + type + ", (256, 4), (16, 4), oob=nan)").oob_nan) << type;
  EXPECT_FALSE(parse("tmap(a, f32, (256, 4), (16, 4), oob=zero)").oob_nan);
  EXPECT_EQ(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=128B)").l2_promotion, 128u);
  EXPECT_EQ(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=64B)").l2_promotion, 64u);
  EXPECT_EQ(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=256B)").l2_promotion, 256u);
  EXPECT_EQ(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=none)").l2_promotion, 0u);
  EXPECT_TRUE(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=128B)").promotes_lines());
  EXPECT_FALSE(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=64B)").promotes_lines());
  EXPECT_FALSE(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=128B)").promotes_pairs());
  EXPECT_TRUE(parse("tmap(a, f32, (256, 4), (16, 4), l2promo=256B)").promotes_pairs());
  EXPECT_EQ(parse("tmap(a, f32, (256, 4), (16, 4), interleave=none)").rank, 2u);
}

// CUtensorMapDataType's element sizes: a box row of 16 elements is 16, 32 or 64 bytes, all multiples of 16.
TEST(TensorMap, EveryElementTypeHasItsSize) {
  const std::pair<const char*, unsigned> types[] = {{"u8", 1},   {"u16", 2},    {"u32", 4},  {"s32", 4},     {"u64", 8},
                                                    {"s64", 8},  {"f16", 2},    {"f32", 4},  {"f64", 8},     {"bf16", 2},
                                                    {"f32ftz", 4}, {"tf32", 4}, {"tf32ftz", 4}};
  for (const auto& [name, bytes] : types) {
    const ptx::TensorMap m = parse(std::string("tmap(b, ") + name + ", (256), (16))");
    EXPECT_EQ(m.type, name);
    EXPECT_EQ(m.elem, bytes) << name;
    EXPECT_EQ(m.strides[0], bytes) << name;
  }
}

// BUFFER+BYTES moves the tensor's start (4K = 4096; spaces around '+' are fine); a rank-1 tuple may be a bare number.
TEST(TensorMap, BufferOffsetsAndBareNumbers) {
  EXPECT_EQ(parse("tmap(a+4096, u8, (64), (16))").base, kA + 4096);
  EXPECT_EQ(parse("tmap(b + 0x30, u8, 64, 16)").base, kB + 0x30);
  EXPECT_EQ(parse("tmap(a+4K, u8, 64, 16)").base, kA + 4096);
  // 4 bytes past kOdd's 4 is a multiple of 16 again.
  EXPECT_EQ(parse("tmap(odd+12, u8, 64, 16)").base, kOdd + 12);
  const ptx::TensorMap m = parse("tmap(a, u8, 64, 16)");
  EXPECT_EQ(m.rank, 1u);
  EXPECT_EQ(m.dims[0], 64u);
  EXPECT_EQ(m.box[0], 16u);
}

// --- what it refuses, each with a message naming the problem

TEST(TensorMap, BadMapsAreRefusedNamingTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"tmap(a, f48, (64), (16))", "unknown element type 'f48' (one of u8, u16, u32, s32, u64, s64, f16, f32, f64, bf16"},
      // An empty tuple is no dimension at all: rank 0.
      {"tmap(a, f32, (), ())", "a tensor of rank 0 (1 to 5)"},
      {"tmap(a, f32, (64, 2, 2, 2, 2, 2), (16, 1, 1, 1, 1, 1))", "a tensor of rank 6 (1 to 5)"},
      {"tmap(a, f32, (64, 64), (16))", "2 dimensions but a box of 1"},
      {"tmap(a, f32, (64, 64), (16, 0))", "the box's dimension 1 is 0 (1 to 256)"},
      {"tmap(a, f32, (64, 512), (16, 257))", "the box's dimension 1 is 257 (1 to 256)"},
      {"tmap(a, f32, (0, 64), (16, 4))", "dimension 0 has 0 elements (1 to 2^32)"},
      {"tmap(a, u8, (4294967297), (16))", "dimension 0 has 4294967297 elements (1 to 2^32)"},
      // 6 floats = 24 bytes; 8 x 1 byte = 8 bytes.
      {"tmap(a, f32, (64, 64), (6, 4))", "the box's rows are 24 bytes, not a multiple of 16"},
      {"tmap(a, u8, (64, 64), (8, 4))", "the box's rows are 8 bytes, not a multiple of 16"},
      {"tmap(a, f32, (1000, 64), (16, 4), strides=(4008))",
       "the stride of dimension 1 is 4008 bytes (a multiple of 16 below 2^40)"},
      {"tmap(a, f32, (1000, 64), (16, 4), strides=(0))", "the stride of dimension 1 is 0 bytes"},
      {"tmap(a, u8, (64, 64), (16, 4), strides=(1T))", "strides '(1T)': '1T' is not a number"},
      {"tmap(a, f32, (64, 64), (16, 4), strides=(1099511627776))", "the stride of dimension 1 is 1099511627776 bytes"},
      {"tmap(a, f32, (64, 64, 4), (16, 4, 1), strides=(256))", "a tensor of rank 3 takes 2 strides"},
      // Dense rows of 1002 floats are 4008 bytes apart.
      {"tmap(a, f32, (1002, 64), (16, 4))",
       "dense rows of dimension 1 are 4008 bytes apart, not a multiple of 16: give strides=(..)"},
      // 32 floats = 128 B rows under a 64 B swizzle; 16 floats = 64 B under 32 B.
      {"tmap(a, f32, (1024, 64), (32, 8), swizzle=64B)", "the box's rows are 128 bytes, more than the 64-byte swizzle"},
      {"tmap(a, f32, (1024, 64), (16, 8), swizzle=32B)", "the box's rows are 64 bytes, more than the 32-byte swizzle"},
      {"tmap(a, f32, (1024, 64), (16, 8), swizzle=256B)", "swizzle '256B' (none, 32B, 64B or 128B)"},
      {"tmap(a, u32, (64), (16), oob=nan)", "oob=nan needs a floating-point type, not u32"},
      {"tmap(a, s64, (64), (16), oob=nan)", "oob=nan needs a floating-point type, not s64"},
      {"tmap(a, f32, (64), (16), oob=inf)", "oob 'inf' (zero or nan)"},
      {"tmap(a, f32, (64, 64), (16, 4), estrides=(1, 0))", "element stride 1 is 0 (1 to 8)"},
      {"tmap(a, f32, (64, 64), (16, 4), estrides=(1, 9))", "element stride 1 is 9 (1 to 8)"},
      {"tmap(a, f32, (64, 64), (16, 4), estrides=(2, 1))", "element strides in dimension 0 are not run (give 1)"},
      {"tmap(a, f32, (64, 64), (16, 4), estrides=(1))", "a tensor of rank 2 takes 2 element strides"},
      {"tmap(a, f32, (64, 64), (16, 4), l2promo=512B)", "l2promo '512B' (none, 64B, 128B or 256B)"},
      {"tmap(a, f32, (64, 64), (16, 4), interleave=32B)", "interleaved layouts are not run (interleave=none)"},
      {"tmap(a, f32, (64, 64), (16, 4), colour=blue)", "unknown key 'colour'"},
      {"tmap(a, f32, (64, 64), (16, 4), swizzle)", "'swizzle': expected KEY=VALUE"},
      {"tmap(nowhere, f32, (64), (16))", "no buffer named 'nowhere'"},
      {"tmap(a+x, f32, (64), (16))", "'a+x': expected BUFFER+BYTES"},
      // kA + 8 = 0x7f0000000008; kOdd = 0x7f0000400004.
      {"tmap(a+8, f32, (64), (16))", "the tensor's address 0x7f0000000008 is not a multiple of 16"},
      {"tmap(odd, f32, (64), (16))", "the tensor's address 0x7f0000400004 is not a multiple of 16"},
      {"tmap(a, f32, (64))", "give a buffer, a type, the dimensions and the box"},
      {"tmap(a, f32, 64x64, (16))", "dimensions '64x64': expected (N, ...)"},
      {"map(a, f32, (64), (16))", "not a tmap(...)"},
  };
  for (const auto& [text, why] : cases) {
    const std::string got = refusal(text);
    EXPECT_NE(got.find(why), std::string::npos) << text << "\n  " << got;
    // Every message quotes the map and says what a map looks like.
    EXPECT_NE(got.find(std::string("tensor map '") + text + "'"), std::string::npos) << got;
    EXPECT_NE(got.find("(expected tmap(BUFFER, TYPE, (DIMS), (BOX)[, strides=(..)]"), std::string::npos) << got;
  }
}

// --- the 128 bytes of a map

void expect_same_map(const ptx::TensorMap& got, const ptx::TensorMap& want) {
  EXPECT_EQ(got.type, want.type);
  EXPECT_EQ(got.elem, want.elem);
  EXPECT_EQ(got.rank, want.rank);
  EXPECT_EQ(got.base, want.base);
  EXPECT_EQ(got.dims, want.dims);
  EXPECT_EQ(got.strides, want.strides);
  EXPECT_EQ(got.box, want.box);
  for (unsigned i = 0; i < want.rank; ++i) EXPECT_EQ(got.estride[i], want.estride[i]) << i;
  EXPECT_EQ(got.swizzle, want.swizzle);
  EXPECT_EQ(got.oob_nan, want.oob_nan);
  EXPECT_EQ(got.l2_promotion, want.l2_promotion);
}

// Every field at a value of its own, at the edges of what the bytes hold: a dimension of 2^32 (kept as 2^32 - 1),
// a stride just below 2^40, a box of 256, element strides of 8, a base with every byte set.
TEST(TensorMap, EncodeThenDecodeGivesBackEveryField) {
  ptx::TensorMap m;
  m.type = "bf16";
  m.elem = 2;
  m.rank = 5;
  m.base = 0xfedcba9876543210ull;
  m.dims = {std::uint64_t{1} << 32, 3, 5, 7, 9};
  m.strides = {2, (std::uint64_t{1} << 40) - 16, 48, 96, 160};
  m.box = {64, 256, 1, 2, 3};
  m.estride = {1, 8, 2, 3, 4};
  m.swizzle = 128;
  m.oob_nan = true;
  m.l2_promotion = 256;
  const auto bytes = ptx::encode_tensor_map(m);
  const auto back = ptx::decode_tensor_map(bytes.data());
  ASSERT_TRUE(back.has_value());
  expect_same_map(*back, m);

  // Parsed maps of each rank, type, swizzle and flag come back as they were parsed.
  for (const char* text : {"tmap(a, u8, (64), (16))", "tmap(b+64, u16, (4G, 3), (8, 2), strides=(4G))",
                           "tmap(a, f32, (1024, 512), (32, 32), swizzle=128B, oob=nan)",
                           "tmap(a, f16, (1024, 512), (16, 32), swizzle=32B, l2promo=256B)",
                           "tmap(a, f64, (1024, 512), (8, 32), swizzle=64B)",
                           "tmap(a, s32, (64, 64, 64, 4), (8, 7, 5, 1), estrides=(1, 3, 8, 2))",
                           "tmap(b, tf32ftz, (16, 2, 2, 2, 2), (4, 2, 2, 2, 2), strides=(64, 128, 256, 512))"}) {
    const ptx::TensorMap p = parse(text);
    const auto b = ptx::encode_tensor_map(p);
    const auto q = ptx::decode_tensor_map(b.data());
    ASSERT_TRUE(q.has_value()) << text;
    expect_same_map(*q, p);
  }
  // The dimension of 2^32 and a stride of 2^32 from the run script's words.
  const auto big = ptx::decode_tensor_map(ptx::encode_tensor_map(parse("tmap(a, u8, (4G, 2), (16, 1))")).data());
  ASSERT_TRUE(big.has_value());
  EXPECT_EQ(big->dims[0], std::uint64_t{1} << 32);
  EXPECT_EQ(big->strides[1], std::uint64_t{1} << 32);
}

// decode_tensor_map takes only what encode_tensor_map wrote: not zeros (an uninitialised CUtensorMap), not a map
// whose first byte (its magic) is changed, nor one whose fields were spoilt after encoding.
TEST(TensorMap, DecodeRefusesWhatEncodeDidNotWrite) {
  const std::array<std::uint8_t, ptx::kTensorMapBytes> zeros{};
  EXPECT_FALSE(ptx::decode_tensor_map(zeros.data()).has_value());
  std::array<std::uint8_t, ptx::kTensorMapBytes> ramp{};
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<std::uint8_t>(i * 37 + 11);
  EXPECT_FALSE(ptx::decode_tensor_map(ramp.data()).has_value());

  const auto good = ptx::encode_tensor_map(parse("tmap(a, f32, (1024, 512), (32, 32), swizzle=128B)"));
  ASSERT_TRUE(ptx::decode_tensor_map(good.data()).has_value());
  for (std::size_t i : {0u, 3u, 7u}) {  // the magic's first, a middle and its last byte
    auto bad = good;
    bad[i] ^= 0x01;
    EXPECT_FALSE(ptx::decode_tensor_map(bad.data()).has_value()) << "magic byte " << i;
  }
  // The fields past the magic (tensor_map.cpp's layout: rank at 8, type at 9, swizzle / 16 at 10, boxes from 74,
  // element strides from 84): rank 0 and 6, type 13 (one past tf32ftz), swizzle 48 B, box 0, element stride 9.
  const std::pair<std::size_t, std::uint8_t> spoilt[] = {{8, 0}, {8, 6}, {9, 13}, {10, 3}, {74, 0}, {76, 0}, {85, 9}};
  for (const auto& [at, value] : spoilt) {
    auto bad = good;
    bad[at] = value;
    EXPECT_FALSE(ptx::decode_tensor_map(bad.data()).has_value()) << "byte " << at << " = " << int{value};
  }
}

// --- the swizzle

// swizzled(offset, s): the 16-byte chunk index (bits 4-6) XORed with the 128-byte row (bits 7-9), as many bits as
// the pattern has: 3 for 128B (CUTLASS Swizzle<3,4,3>), 2 for 64B (Swizzle<2,4,3>), 1 for 32B (Swizzle<1,4,3>);
// the byte within the chunk stays. The H100 lays boxes so (validation/h100/tensor_probe checksums).
TEST(TensorMap, SwizzleMovesChunksWithinTheirRow) {
  // 128B: 0x90 is row 1 (0x90 >> 7), chunk 1 ((0x90 >> 4) & 7): chunk 1 ^ 1 = 0 -> 0x80.
  EXPECT_EQ(ptx::swizzled(0x90, 128), 0x80u);
  // 0x3a4 = row 7 (0x380), chunk 2, byte 4: chunk 2 ^ 7 = 5 -> 0x380 + 0x50 + 4 = 0x3d4.
  EXPECT_EQ(ptx::swizzled(0x3a4, 128), 0x3d4u);
  // 0x48c = row 9, whose pattern row is 9 & 7 = 1; chunk 0, byte 0xc: chunk 1 -> 0x480 + 0x10 + 0xc = 0x49c.
  EXPECT_EQ(ptx::swizzled(0x48c, 128), 0x49cu);
  // Row 8 starts the pattern again: 0x400 stays; row 0 never moves.
  EXPECT_EQ(ptx::swizzled(0x400, 128), 0x400u);
  EXPECT_EQ(ptx::swizzled(0x0f, 128), 0x0fu);
  // 0x7f4 = row 15 (pattern row 7), chunk 7, byte 4: chunk 0 -> 0x780 + 4 = 0x784.
  EXPECT_EQ(ptx::swizzled(0x7f4, 128), 0x784u);

  // 64B: two bits of row. 0x1b0 = row 3, chunk 3: 3 ^ 3 = 0 -> 0x180.
  EXPECT_EQ(ptx::swizzled(0x1b0, 64), 0x180u);
  // 0x2a8 = row 5 (5 & 3 = 1), chunk 2, byte 8: chunk 3 -> 0x280 + 0x30 + 8 = 0x2b8.
  EXPECT_EQ(ptx::swizzled(0x2a8, 64), 0x2b8u);
  // 0x3c4 = row 7 (7 & 3 = 3), chunk 4, byte 4: chunk 4 ^ 3 = 7 -> 0x380 + 0x70 + 4 = 0x3f4.
  EXPECT_EQ(ptx::swizzled(0x3c4, 64), 0x3f4u);
  // 0x250 = row 4 (4 & 3 = 0): stays.
  EXPECT_EQ(ptx::swizzled(0x250, 64), 0x250u);

  // 32B: one bit of row. 0x80 = row 1, chunk 0 -> chunk 1 = 0x90; 0x9c -> 0x8c; 0x1c0 = row 3, chunk 4 -> 5 = 0x1d0.
  EXPECT_EQ(ptx::swizzled(0x80, 32), 0x90u);
  EXPECT_EQ(ptx::swizzled(0x9c, 32), 0x8cu);
  EXPECT_EQ(ptx::swizzled(0x1c0, 32), 0x1d0u);
  // 0x100 = row 2 (2 & 1 = 0): stays.
  EXPECT_EQ(ptx::swizzled(0x100, 32), 0x100u);

  // No swizzle moves nothing.
  EXPECT_EQ(ptx::swizzled(0x90, 0), 0x90u);
  EXPECT_EQ(ptx::swizzled(0x3a4, 0), 0x3a4u);
}

// Each swizzle is a permutation of the chunks of every 1024-byte block, and keeps a chunk in its 128-byte row.
TEST(TensorMap, SwizzleIsAPermutationOfEachBlock) {
  for (unsigned s : {32u, 64u, 128u}) {
    std::set<std::uint64_t> seen;
    for (std::uint64_t chunk = 0; chunk < 64; ++chunk) {
      const std::uint64_t from = 1024 + 16 * chunk, to = ptx::swizzled(from, s);
      EXPECT_EQ(to / 128, from / 128) << s << " " << from;
      seen.insert(to);
    }
    EXPECT_EQ(seen.size(), 64u) << s;
    EXPECT_EQ(*seen.begin(), 1024u) << s;
    EXPECT_EQ(*seen.rbegin(), 1024u + 63 * 16) << s;
  }
}

}  // namespace
}  // namespace warpscope::test
