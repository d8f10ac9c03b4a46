// Texture objects for the interpreter (cudaTextureObject_t): what cudaCreateTextureObject gets, a resource (linear
// memory, or pitched 2D memory) and a texture description (address mode, filter, read mode, normalized
// coordinates), from the run script's `tex(...)` argument (docs/PTX.md "Textures"). The kernel holds only the
// handle, a 64-bit integer; the interpreter keeps the objects in ModuleState::textures (handle = index + 1).
//
// Fetching follows the CUDA C++ Programming Guide ("Texture Fetching"): point sampling takes the texel at
// floor(x) (x = u * width with normalized coordinates); linear filtering blends texels floor(xB) and floor(xB) + 1
// at xB = x - 0.5 with the fraction kept in 9-bit fixed point (8 fraction bits); clamp, border (texels outside read
// as 0), wrap and mirror (normalized coordinates only) act on each texel index. Integer coordinates (tex with .s32
// coordinates, SASS TLD, tex1Dfetch) read the texel itself, 0 outside the texture.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::ptx {

enum class TexChannel : std::uint8_t { U8, S8, U16, S16, U32, S32, F16, F32 };
enum class TexAddress : std::uint8_t { Clamp, Border, Wrap, Mirror };

struct TextureObject {
  std::uint64_t base = 0;     // the texel (0, 0)'s address
  TexChannel channel = TexChannel::F32;
  unsigned channels = 1;      // 1, 2 or 4
  unsigned dims = 1;          // 1: linear memory; 2: pitched 2D memory
  std::uint64_t width = 0, height = 1, pitch = 0;  // texels; bytes between rows (2D)
  TexAddress address = TexAddress::Clamp;
  bool linear_filter = false, normalized_coords = false, normalized_read = false;
  std::string text;           // as the script wrote it, for messages

  unsigned channel_bytes() const;
  unsigned texel_bytes() const { return channel_bytes() * channels; }
  bool float_result() const;  // the fetch returns .f32 (float channels, or integers read as normalized floats)
  // A CUDA array (layout=array): the texels live in storage of their own in the block-linear layout (below), a copy
  // of the buffer's rows made when the texture is created, as cudaMemcpy2DToArray makes it.
  bool array = false;
  std::uint64_t block_height = 16;  // GOBs (8 rows each) a block of a 2D array is tall; a 1D array's are 1 GOB
  std::uint64_t texel_address(std::uint64_t x, std::uint64_t y) const {
    return array ? base + block_linear_offset(x * texel_bytes(), y) : base + y * pitch + x * texel_bytes();
  }
  // The byte offset of row y's byte xb in a 2D CUDA array: GOBs of 64 bytes x 8 rows (512 bytes), stacked
  // block_height high, blocks left to right; inside a GOB, 16-byte pieces of rows y and y + 1 make each 32-byte sector
  // (the layout Maxwell and later GPUs use for block-linear surfaces, as open-source drivers and emulators document
  // it; validation/h100/texture_probe3 measured what it implies). A 1D array is a row of such GOBs: its 16-byte pieces
  // are each in a sector of their own (texture_probe3 tex1d).
  std::uint64_t block_linear_offset(std::uint64_t xb, std::uint64_t y) const;
  std::uint64_t array_bytes() const;  // the block-linear storage of a 2D array (whole blocks)
};

// Up to 4 texels (2 x 2) and their weights; index -1 where a texel lies outside in border mode (it reads 0).
struct TexFootprint {
  unsigned count = 0;
  std::array<std::int64_t, 4> x{}, y{};
  std::array<float, 4> weight{};
  std::array<bool, 4> inside{};
};

// The texels a sample at coordinates (u, v) reads (v ignored in 1D).
TexFootprint sample_footprint(const TextureObject& t, float u, float v);
// The texel a fetch at integer coordinates reads (outside: !inside[0]).
TexFootprint fetch_footprint(const TextureObject& t, std::int64_t x, std::int64_t y);
// Channel k (0-3) of the texel at `bytes` as a float (float_result()) or as an integer's bits; missing channels give 0
// (validation/h100/texture_probe2 fetch_channels: a one-channel float texture returns (x, 0, 0, 0)).
float texel_float(const TextureObject& t, const std::uint8_t* bytes, unsigned k);
std::uint32_t texel_bits(const TextureObject& t, const std::uint8_t* bytes, unsigned k);

// tex(BUFFER[+BYTES], FORMAT, (WIDTH[, HEIGHT])[, pitch=BYTES][, address=clamp|border|wrap|mirror]
//     [, filter=point|linear][, coords=unnormalized|normalized][, read=element|normalized][, layout=linear|array])
// FORMAT: u8 s8 u16 s16 u32 s32 f16 f32, with x2 or x4 for 2 or 4 channels (f32x4 = float4). Checks what
// cudaCreateTextureObject checks (alignments of 512 bytes for linear memory and 32 for pitched rows, pitch and width,
// wrap/mirror with normalized coordinates only, linear filtering of float results only) and that the texels lie in the
// buffer. buffer gives a buffer's address and size (nullopt: no such buffer). layout=array: a CUDA array whose rows
// are the buffer's (dense, or `pitch` apart); the caller makes its storage (array_bytes()) and sets base.
TextureObject parse_texture_object(
    std::string_view text, const std::function<std::optional<std::pair<std::uint64_t, std::uint64_t>>(std::string_view)>& buffer);

// parse_texture_object over the buffers of `memory`; a CUDA array gets its storage there (an allocation named
// "BUFFER:array:N"), the texels copied into it from the buffer's rows.
class DeviceMemory;
TextureObject make_texture(std::string_view text, DeviceMemory& memory);

}  // namespace warpscope::ptx
