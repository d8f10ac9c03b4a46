// Texture objects: the run script's tex(...) argument, and the texels a fetch reads (ptx/texture_object.hpp).
#include "ptx/texture_object.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "core/parse_number.hpp"
#include "ptx/arg_syntax.hpp"
#include "ptx/device_memory.hpp"
#include "warpscope/error.hpp"

namespace warpscope::ptx {
namespace {

struct ChannelName {
  const char* name;
  TexChannel channel;
};
constexpr ChannelName kChannels[] = {{"u8", TexChannel::U8},   {"s8", TexChannel::S8},   {"u16", TexChannel::U16},
                                     {"s16", TexChannel::S16}, {"u32", TexChannel::U32}, {"s32", TexChannel::S32},
                                     {"f16", TexChannel::F16}, {"f32", TexChannel::F32}};

// A texel index through the address mode; nullopt where border mode leaves the texture.
std::optional<std::int64_t> address(std::int64_t i, std::uint64_t n, TexAddress mode) {
  const auto size = static_cast<std::int64_t>(n);
  switch (mode) {
    case TexAddress::Clamp: return i < 0 ? 0 : i >= size ? size - 1 : i;
    case TexAddress::Border: return i < 0 || i >= size ? std::nullopt : std::optional<std::int64_t>(i);
    case TexAddress::Wrap: return ((i % size) + size) % size;
    case TexAddress::Mirror: {
      const std::int64_t m = ((i % (2 * size)) + 2 * size) % (2 * size);
      return m < size ? m : 2 * size - 1 - m;
    }
  }
  return i;
}

// Texel coordinate of a float coordinate (normalized ones scaled by the size); NaN reads texel 0.
double scaled(const TextureObject& t, float u, std::uint64_t n) {
  if (std::isnan(u)) return 0;
  return t.normalized_coords ? static_cast<double>(u) * static_cast<double>(n) : static_cast<double>(u);
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  float v = 0;
  if (exp == 0) v = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31) v = mant != 0 ? std::nanf("") : INFINITY;
  else v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
  return sign != 0 ? -v : v;
}

}  // namespace

std::uint64_t TextureObject::block_linear_offset(std::uint64_t xb, std::uint64_t y) const {
  const std::uint64_t gobs_wide = (width * texel_bytes() + 63) / 64, tall = dims == 1 ? 1 : block_height;
  const std::uint64_t gob_x = xb / 64, gob_y = y / 8, block_y = gob_y / tall, in_block = gob_y % tall;
  const std::uint64_t gob = (block_y * gobs_wide + gob_x) * tall + in_block;
  const std::uint64_t inside = (xb % 64) / 32 * 256 + (y % 8) / 2 * 64 + (xb % 32) / 16 * 32 + (y % 2) * 16 + xb % 16;
  return gob * 512 + inside;
}

std::uint64_t TextureObject::array_bytes() const {
  if (dims == 1) return (width * texel_bytes() + 63) / 64 * 512;
  const std::uint64_t gobs_wide = (width * texel_bytes() + 63) / 64, rows_of_blocks = (height + 8 * block_height - 1) / (8 * block_height);
  return rows_of_blocks * gobs_wide * block_height * 512;
}

unsigned TextureObject::channel_bytes() const {
  switch (channel) {
    case TexChannel::U8: case TexChannel::S8: return 1;
    case TexChannel::U16: case TexChannel::S16: case TexChannel::F16: return 2;
    case TexChannel::U32: case TexChannel::S32: case TexChannel::F32: return 4;
  }
  return 4;
}

bool TextureObject::float_result() const {
  return channel == TexChannel::F32 || channel == TexChannel::F16 || normalized_read;
}

TexFootprint fetch_footprint(const TextureObject& t, std::int64_t x, std::int64_t y) {
  TexFootprint f;
  f.count = 1;
  f.x[0] = x;
  f.y[0] = t.dims == 1 ? 0 : y;
  f.weight[0] = 1;
  f.inside[0] = x >= 0 && static_cast<std::uint64_t>(x) < t.width && f.y[0] >= 0 && static_cast<std::uint64_t>(f.y[0]) < t.height;
  return f;
}

TexFootprint sample_footprint(const TextureObject& t, float u, float v) {
  TexFootprint f;
  const double x = scaled(t, u, t.width), y = t.dims == 1 ? 0.5 : scaled(t, v, t.height);
  if (!t.linear_filter) {
    f.count = 1;
    const auto ax = address(static_cast<std::int64_t>(std::floor(x)), t.width, t.address);
    const auto ay = t.dims == 1 ? std::optional<std::int64_t>(0) : address(static_cast<std::int64_t>(std::floor(y)), t.height, t.address);
    f.inside[0] = ax && ay;
    f.x[0] = ax.value_or(-1);
    f.y[0] = ay.value_or(-1);
    f.weight[0] = 1;
    return f;
  }
  // Linear filtering: the fraction in 1.8 fixed point (CUDA C++ Programming Guide, "Linear Filtering").
  const auto frac = [](double c, std::int64_t& i) {
    const double b = c - 0.5, fl = std::floor(b);
    i = static_cast<std::int64_t>(fl);
    return static_cast<float>(std::nearbyint((b - fl) * 256.0) / 256.0);
  };
  std::int64_t i0 = 0, j0 = 0;
  const float a = frac(x, i0), b = t.dims == 1 ? 0.0f : frac(y, j0);
  const unsigned ny = t.dims == 1 ? 1 : 2;
  for (unsigned dy = 0; dy < ny; ++dy)
    for (unsigned dx = 0; dx < 2; ++dx) {
      const unsigned k = f.count++;
      const auto ax = address(i0 + dx, t.width, t.address);
      const auto ay = t.dims == 1 ? std::optional<std::int64_t>(0) : address(j0 + dy, t.height, t.address);
      f.inside[k] = ax && ay;
      f.x[k] = ax.value_or(-1);
      f.y[k] = ay.value_or(-1);
      f.weight[k] = (dx != 0 ? a : 1.0f - a) * (t.dims == 1 ? 1.0f : (dy != 0 ? b : 1.0f - b));
    }
  return f;
}

std::uint32_t texel_bits(const TextureObject& t, const std::uint8_t* bytes, unsigned k) {
  if (k >= t.channels) return 0;
  const std::uint8_t* p = bytes + k * t.channel_bytes();
  switch (t.channel) {
    case TexChannel::U8: return *p;
    case TexChannel::S8: return static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(*p)));
    case TexChannel::U16: case TexChannel::S16: case TexChannel::F16: {
      std::uint16_t h = 0;
      std::memcpy(&h, p, 2);
      return t.channel == TexChannel::S16 ? static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(h))) : h;
    }
    case TexChannel::U32: case TexChannel::S32: case TexChannel::F32: {
      std::uint32_t w = 0;
      std::memcpy(&w, p, 4);
      return w;
    }
  }
  return 0;
}

float texel_float(const TextureObject& t, const std::uint8_t* bytes, unsigned k) {
  if (k >= t.channels) return 0.0f;
  const std::uint32_t b = texel_bits(t, bytes, k);
  switch (t.channel) {
    case TexChannel::F32: return std::bit_cast<float>(b);
    case TexChannel::F16: return half_to_float(static_cast<std::uint16_t>(b));
    case TexChannel::U8: return static_cast<float>(b) / 255.0f;
    case TexChannel::U16: return static_cast<float>(b) / 65535.0f;
    case TexChannel::S8: return std::max(static_cast<float>(static_cast<std::int32_t>(b)) / 127.0f, -1.0f);
    case TexChannel::S16: return std::max(static_cast<float>(static_cast<std::int32_t>(b)) / 32767.0f, -1.0f);
    case TexChannel::U32: case TexChannel::S32: return static_cast<float>(b);  // refused at parse time
  }
  return 0;
}

TextureObject parse_texture_object(
    std::string_view text, const std::function<std::optional<std::pair<std::uint64_t, std::uint64_t>>(std::string_view)>& buffer) {
  const auto fail = [&](const std::string& why) -> TextureObject {
    throw InputError(fmt::format("texture '{}': {} (expected tex(BUFFER[+BYTES], FORMAT, (WIDTH[, HEIGHT])[, pitch=BYTES][, "
                                 "address=clamp|border|wrap|mirror][, filter=point|linear][, coords=unnormalized|normalized][, "
                                 "read=element|normalized]), docs/PTX.md \"Textures\")",
                                 text, why));
  };
  std::string_view body = trim(text);
  if (!body.starts_with("tex(") || !body.ends_with(")")) return fail("not a tex(...)");
  const auto parts = split_top(body.substr(4, body.size() - 5));
  if (parts.size() < 3) return fail("give a buffer, a format and the size");
  TextureObject t;
  t.text = std::string(trim(text));

  const auto where = buffer_and_offset(parts[0]);
  if (!where) return fail(fmt::format("'{}': expected BUFFER+BYTES", parts[0]));
  const auto [buf, offset] = *where;
  const auto found = buffer(buf);
  if (!found) return fail(fmt::format("no buffer named '{}'", buf));
  t.base = found->first + offset;

  std::string_view format = parts[1];
  t.channels = 1;
  if (format.ends_with("x2") || format.ends_with("x4")) {
    t.channels = format.back() == '2' ? 2 : 4;
    format.remove_suffix(2);
  }
  bool known = false;
  for (const auto& c : kChannels)
    if (format == c.name) t.channel = c.channel, known = true;
  if (!known) return fail(fmt::format("unknown format '{}' (u8 s8 u16 s16 u32 s32 f16 f32, with x2 or x4 for 2 or 4 channels)", parts[1]));

  std::string_view size = parts[2];
  if (size.size() >= 2 && size.front() == '(' && size.back() == ')') size = size.substr(1, size.size() - 2);
  const auto dims = split_top(size);
  if (dims.size() > 2) return fail("a texture of linear memory has 1 or 2 dimensions (CUDA arrays are not run)");
  const auto w = parse_u64(dims[0]);
  const auto h = dims.size() == 2 ? parse_u64(dims[1]) : std::optional<std::uint64_t>(1);
  if (!w || !h || *w == 0 || *h == 0) return fail(fmt::format("size '{}': expected (WIDTH[, HEIGHT]) in texels, each at least 1", parts[2]));
  t.dims = static_cast<unsigned>(dims.size());
  t.width = *w;
  t.height = *h;
  t.pitch = t.width * t.texel_bytes();

  for (std::size_t k = 3; k < parts.size(); ++k) {
    const std::string_view p = parts[k];
    const auto eq = p.find('=');
    if (eq == std::string_view::npos) return fail(fmt::format("'{}': expected KEY=VALUE", p));
    const std::string_view key = trim(p.substr(0, eq)), value = trim(p.substr(eq + 1));
    if (key == "pitch") {
      const auto n = parse_u64(value);
      if (!n || *n == 0) return fail(fmt::format("pitch '{}': expected a number of bytes", value));
      t.pitch = *n;
    } else if (key == "address") {
      if (value == "clamp") t.address = TexAddress::Clamp;
      else if (value == "border") t.address = TexAddress::Border;
      else if (value == "wrap") t.address = TexAddress::Wrap;
      else if (value == "mirror") t.address = TexAddress::Mirror;
      else return fail(fmt::format("address '{}': clamp, border, wrap or mirror", value));
    } else if (key == "filter") {
      if (value != "point" && value != "linear") return fail(fmt::format("filter '{}': point or linear", value));
      t.linear_filter = value == "linear";
    } else if (key == "coords") {
      if (value != "unnormalized" && value != "normalized") return fail(fmt::format("coords '{}': unnormalized or normalized", value));
      t.normalized_coords = value == "normalized";
    } else if (key == "layout") {
      if (value != "linear" && value != "array") return fail(fmt::format("layout '{}': linear or array", value));
      t.array = value == "array";
    } else if (key == "read") {
      if (value != "element" && value != "normalized") return fail(fmt::format("read '{}': element or normalized", value));
      t.normalized_read = value == "normalized";
    } else {
      return fail(fmt::format("unknown key '{}' (pitch, address, filter, coords, read, layout)", key));
    }
  }

  // What cudaCreateTextureObject refuses (cudaErrorInvalidValue), with the H100's alignments
  // (validation/h100/texture_probe: device__attribute_texture_alignment 512, _texture_pitch_alignment 32).
  if (t.dims == 1 && t.pitch != t.width * t.texel_bytes()) return fail("pitch= is for 2D textures");
  if (!t.normalized_coords && (t.address == TexAddress::Wrap || t.address == TexAddress::Mirror))
    return fail("wrap and mirror addressing need coords=normalized");
  if (t.normalized_read && t.channel != TexChannel::U8 && t.channel != TexChannel::S8 && t.channel != TexChannel::U16 && t.channel != TexChannel::S16)
    return fail("read=normalized reads 8- and 16-bit integer formats");
  if (t.linear_filter && !t.float_result()) return fail("filter=linear needs a float result: a float format or read=normalized");
  if (!t.array) {  // a texture of the buffer itself; an array only copies its rows (cudaMemcpy2DToArray)
    if (t.dims == 1 && t.base % 512 != 0) return fail(fmt::format("linear memory at 0x{:x}: a texture of it starts on a multiple of 512 bytes", t.base));
    if (t.dims == 2 && t.base % 32 != 0) return fail(fmt::format("pitched memory at 0x{:x}: its rows start on a multiple of 32 bytes", t.base));
    if (t.dims == 2 && t.pitch % 32 != 0)
      return fail(fmt::format("pitch {} bytes: a multiple of 32, at least a row ({} bytes)", t.pitch, t.width * t.texel_bytes()));
  }
  if (t.pitch < t.width * t.texel_bytes())
    return fail(fmt::format("pitch {} bytes: {}at least a row ({} bytes)", t.pitch, t.array ? "" : "a multiple of 32, ", t.width * t.texel_bytes()));
  const std::uint64_t end = t.base + (t.height - 1) * t.pitch + t.width * t.texel_bytes();
  if (t.base < found->first || end > found->first + found->second)
    return fail(fmt::format("its texels end {} bytes into buffer '{}', which has {}", end - found->first, buf, found->second));
  return t;
}

TextureObject make_texture(std::string_view text, DeviceMemory& memory) {
  std::string source;
  TextureObject t = parse_texture_object(text, [&](std::string_view name) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
    const auto* a = memory.allocation(std::string(name));
    if (a == nullptr) return std::nullopt;
    source = a->name;
    return std::pair{a->base, a->size};
  });
  if (!t.array) return t;
  const std::string name = fmt::format("{}:array:{}", source, memory.allocations().size());
  const std::uint64_t base = memory.allocate(name, t.array_bytes());
  const DeviceMemory::Allocation& from = *memory.allocation(source);
  DeviceMemory::Allocation& to = *memory.allocation(name);
  const unsigned texel = t.texel_bytes();
  TextureObject at = t;
  at.base = base;
  for (std::uint64_t y = 0; y < t.height; ++y)
    for (std::uint64_t x = 0; x < t.width; ++x)
      std::memcpy(to.bytes.data() + (at.texel_address(x, y) - base), from.bytes.data() + (t.base - from.base) + y * t.pitch + x * texel, texel);
  at.pitch = t.width * texel;
  return at;
}

}  // namespace warpscope::ptx
