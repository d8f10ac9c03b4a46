// Texture objects (ptx/texture_object.hpp): the run script's tex(...) with cudaCreateTextureObject's checks, and the
// texels a fetch reads, worked by hand from the CUDA C++ Programming Guide's "Texture Fetching" (point sampling at
// floor(x), linear filtering around x - 0.5 with 8 fraction bits, the address modes).
#include <gtest/gtest.h>

#include <string>

#include "ptx/texture_object.hpp"
#include "warpscope/error.hpp"

namespace warpscope::ptx {
namespace {

constexpr std::uint64_t kBuf = 0x7f0000000000;

TextureObject parse(const std::string& text) {
  return parse_texture_object(text, [](std::string_view name) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
    if (name == "a") return std::pair{kBuf, std::uint64_t{1} << 22};
    return std::nullopt;
  });
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TextureObject, ParsesWhatCudaCreateTextureObjectTakes) {
  const TextureObject t = parse("tex(a+4096, f32x4, (256, 1000), pitch=4096, address=border, filter=linear, coords=normalized)");
  EXPECT_EQ(t.base, kBuf + 4096);
  EXPECT_EQ(t.texel_bytes(), 16u);
  EXPECT_EQ(t.dims, 2u);
  EXPECT_EQ(t.pitch, 4096u);
  EXPECT_EQ(t.texel_address(3, 2), kBuf + 4096 + 2 * 4096 + 3 * 16);
  EXPECT_TRUE(t.linear_filter && t.normalized_coords && t.address == TexAddress::Border);
}

TEST(TextureObject, RefusesWhatCudaRefuses) {
  EXPECT_NE(error_of("tex(a+16, f32, (64))").find("multiple of 512"), std::string::npos);
  EXPECT_NE(error_of("tex(a, f32, (64, 64), pitch=100)").find("multiple of 32"), std::string::npos);
  EXPECT_NE(error_of("tex(a, f32, (64, 64), address=wrap)").find("coords=normalized"), std::string::npos);
  EXPECT_NE(error_of("tex(a, u32, (64), filter=linear)").find("float result"), std::string::npos);
  EXPECT_NE(error_of("tex(a, f32, (64), read=normalized)").find("8- and 16-bit"), std::string::npos);
  EXPECT_NE(error_of("tex(a, f64, (64))").find("unknown format"), std::string::npos);
  EXPECT_NE(error_of("tex(b, f32, (64))").find("no buffer named 'b'"), std::string::npos);
  EXPECT_NE(error_of("tex(a, f32, (2000000))").find("into buffer 'a'"), std::string::npos);
  EXPECT_NE(error_of("tex(a, f32, (8, 8, 8))").find("1 or 2 dimensions"), std::string::npos);
}

TEST(TextureObject, PointSamplingAndAddressModes) {
  TextureObject t = parse("tex(a, f32, (10, 4), pitch=64)");
  TexFootprint f = sample_footprint(t, 3.99f, 0.5f);  // floor(3.99) = 3
  EXPECT_EQ(f.count, 1u);
  EXPECT_EQ(f.x[0], 3);
  f = sample_footprint(t, -7.0f, 9.0f);  // clamp: (0, 3)
  EXPECT_EQ(f.x[0], 0);
  EXPECT_EQ(f.y[0], 3);
  EXPECT_TRUE(f.inside[0]);
  t.address = TexAddress::Border;
  EXPECT_FALSE(sample_footprint(t, -0.5f, 0.5f).inside[0]);
  t.normalized_coords = true;
  t.address = TexAddress::Wrap;
  EXPECT_EQ(sample_footprint(t, 1.25f, 0.0f).x[0], 2);  // 1.25 x 10 = 12.5: texel 12 wraps to 2
  t.address = TexAddress::Mirror;
  EXPECT_EQ(sample_footprint(t, 1.25f, 0.0f).x[0], 7);  // 12 mirrors to 19 - 12 = 7
  EXPECT_EQ(sample_footprint(t, -0.05f, 0.0f).x[0], 0);  // -0.5: texel -1 mirrors to 0
}

TEST(TextureObject, LinearFilteringWeighsTheTwoByTwoTexelsInEighthsOfAByte) {
  TextureObject t = parse("tex(a, f32, (10, 4), pitch=64, filter=linear)");
  const TexFootprint f = sample_footprint(t, 2.0f, 1.0f);  // x - .5 = 1.5, y - .5 = .5: texels 1-2 of rows 0-1
  ASSERT_EQ(f.count, 4u);
  EXPECT_EQ(f.x[0], 1);
  EXPECT_EQ(f.x[1], 2);
  EXPECT_EQ(f.y[2], 1);
  for (unsigned k = 0; k < 4; ++k) EXPECT_FLOAT_EQ(f.weight[k], 0.25f);
  // A fraction of .3 is kept as 77 / 256.
  const TexFootprint g = sample_footprint(t, 0.8f + 2.0f, 0.5f);
  EXPECT_FLOAT_EQ(g.weight[1], (77.0f / 256.0f) * 1.0f);
  // At the right edge clamp repeats the last texel.
  const TexFootprint e = sample_footprint(t, 10.0f, 0.5f);
  EXPECT_EQ(e.x[0], 9);
  EXPECT_EQ(e.x[1], 9);
}

TEST(TextureObject, IntegerFetchesReadTheTexelOrNothing) {
  const TextureObject t = parse("tex(a, u8x4, (100))");
  EXPECT_TRUE(fetch_footprint(t, 99, 0).inside[0]);
  EXPECT_FALSE(fetch_footprint(t, 100, 0).inside[0]);
  EXPECT_FALSE(fetch_footprint(t, -1, 0).inside[0]);
  const std::uint8_t texel[4] = {1, 2, 3, 255};
  EXPECT_EQ(texel_bits(t, texel, 3), 255u);
  TextureObject n = parse("tex(a, u8x2, (100), read=normalized)");
  EXPECT_FLOAT_EQ(texel_float(n, texel, 1), 2.0f / 255.0f);
  EXPECT_EQ(texel_float(n, texel, 3), 0.0f);  // a missing channel (validation/h100/texture_probe2)
}


// A CUDA array's block-linear layout (texture_object.hpp), worked by hand for a 1024 x 1024 float array: GOBs of 64
// bytes x 8 rows (512 bytes), 16 GOBs a block; inside a GOB a 32-byte sector holds 16 bytes of rows y and y + 1.
TEST(TextureObject, CudaArraysAreBlockLinear) {
  TextureObject t = parse("tex(a, f32, (1024, 1024), layout=array)");
  t.base = 0;
  EXPECT_EQ(t.texel_address(0, 0), 0u);
  EXPECT_EQ(t.texel_address(1, 0), 4u);
  EXPECT_EQ(t.texel_address(0, 1), 16u);   // row 1: the same sector
  EXPECT_EQ(t.texel_address(4, 0), 32u);   // the next 16 bytes of row 0: the next sector
  EXPECT_EQ(t.texel_address(0, 2), 64u);   // rows 2-3
  EXPECT_EQ(t.texel_address(8, 0), 256u);  // bytes 32-63 of the row
  EXPECT_EQ(t.texel_address(0, 8), 512u);  // the GOB below
  EXPECT_EQ(t.texel_address(16, 0), 16u * 512u);  // the GOB to the right: after the 16 GOBs of the first block
  EXPECT_EQ(t.array_bytes(), 4u << 20);
  // A 1D array is a row of GOBs: each 16-byte piece in a sector of its own.
  TextureObject l = parse("tex(a, f32, (4096), layout=array)");
  l.base = 0;
  EXPECT_EQ(l.texel_address(4, 0), 32u);
  EXPECT_EQ(l.texel_address(16, 0), 512u);
  EXPECT_EQ(l.array_bytes(), 4096u * 4u * 8u);
}

}  // namespace
}  // namespace warpscope::ptx
