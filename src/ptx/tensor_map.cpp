// Tensor maps: the run script's tmap(...) argument, and the 128 bytes the interpreter keeps it in.
#include "ptx/tensor_map.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstring>
#include <vector>

#include "core/parse_number.hpp"
#include "ptx/arg_syntax.hpp"
#include "warpscope/error.hpp"

namespace warpscope::ptx {
namespace {

struct TypeInfo {
  const char* name;
  unsigned bytes;
  bool floating;
};
// CUtensorMapDataType's types (cuda.h), in its order.
constexpr TypeInfo kTypes[] = {{"u8", 1, false},  {"u16", 2, false}, {"u32", 4, false},   {"s32", 4, false},  {"u64", 8, false},
                               {"s64", 8, false}, {"f16", 2, true},  {"f32", 4, true},    {"f64", 8, true},   {"bf16", 2, true},
                               {"f32ftz", 4, true}, {"tf32", 4, true}, {"tf32ftz", 4, true}};

constexpr char kMagic[8] = {'W', 'S', 'T', 'M', 'A', 'P', 0, 1};

}  // namespace

std::uint64_t TensorMap::box_bytes() const {
  std::uint64_t n = elem;
  for (unsigned i = 0; i < rank; ++i) n *= moved(i);
  return n;
}

TensorMap parse_tensor_map(std::string_view text, const std::function<std::optional<std::uint64_t>(std::string_view)>& buffer_base) {
  const auto fail = [&](const std::string& why) -> TensorMap {
    throw InputError(fmt::format("tensor map '{}': {} (expected tmap(BUFFER, TYPE, (DIMS), (BOX)[, strides=(..)][, "
                                 "estrides=(..)][, swizzle=none|32B|64B|128B][, oob=zero|nan][, l2promo=..]))",
                                 text, why));
  };
  std::string_view body = trim(text);
  if (!body.starts_with("tmap(") || !body.ends_with(")")) return fail("not a tmap(...)");
  body = body.substr(5, body.size() - 6);
  const auto parts = split_top(body);
  if (parts.size() < 4) return fail("give a buffer, a type, the dimensions and the box");
  const auto tuple = [&](std::string_view t, const char* what) {
    if (t.size() < 2 || t.front() != '(' || t.back() != ')') {
      // A single number for a rank-1 tuple.
      if (auto n = parse_u64(t)) return std::vector<std::uint64_t>{*n};
      fail(fmt::format("{} '{}': expected (N, ...)", what, t));
    }
    std::vector<std::uint64_t> v;
    if (trim(t.substr(1, t.size() - 2)).empty()) return v;  // (): no dimension
    for (auto x : split_top(t.substr(1, t.size() - 2))) {
      const auto n = parse_u64(x);
      if (!n) fail(fmt::format("{} '{}': '{}' is not a number", what, t, x));
      v.push_back(*n);
    }
    return v;
  };

  TensorMap m;
  // The buffer, with an optional byte offset.
  const auto where = buffer_and_offset(parts[0]);
  if (!where) return fail(fmt::format("'{}': expected BUFFER+BYTES", parts[0]));
  const auto [buf, offset] = *where;
  const auto base = buffer_base(buf);
  if (!base) return fail(fmt::format("no buffer named '{}'", buf));
  m.base = *base + offset;
  if (m.base % 16 != 0) return fail(fmt::format("the tensor's address 0x{:x} is not a multiple of 16", m.base));

  const TypeInfo* type = nullptr;
  for (const auto& t : kTypes)
    if (parts[1] == t.name) type = &t;
  if (!type) {
    std::vector<std::string> names;
    for (const auto& t : kTypes) names.emplace_back(t.name);
    return fail(fmt::format("unknown element type '{}' (one of {})", parts[1], fmt::join(names, ", ")));
  }
  m.type = type->name;
  m.elem = type->bytes;

  const auto dims = tuple(parts[2], "dimensions");
  const auto box = tuple(parts[3], "box");
  if (dims.empty() || dims.size() > kMaxTensorRank) return fail(fmt::format("a tensor of rank {} (1 to 5)", dims.size()));
  if (box.size() != dims.size()) return fail(fmt::format("{} dimensions but a box of {}", dims.size(), box.size()));
  m.rank = static_cast<unsigned>(dims.size());
  for (unsigned i = 0; i < m.rank; ++i) {
    if (dims[i] == 0 || dims[i] > (std::uint64_t{1} << 32)) return fail(fmt::format("dimension {} has {} elements (1 to 2^32)", i, dims[i]));
    if (box[i] == 0 || box[i] > 256) return fail(fmt::format("the box's dimension {} is {} (1 to 256)", i, box[i]));
    m.dims[i] = dims[i];
    m.box[i] = static_cast<std::uint32_t>(box[i]);
    m.estride[i] = 1;
  }
  if (m.box[0] * m.elem % 16 != 0)
    return fail(fmt::format("the box's rows are {} bytes, not a multiple of 16", m.box[0] * m.elem));
  m.strides[0] = m.elem;

  bool strides_given = false;
  for (std::size_t k = 4; k < parts.size(); ++k) {
    const auto eq = parts[k].find('=');
    if (eq == std::string_view::npos) return fail(fmt::format("'{}': expected KEY=VALUE", parts[k]));
    const std::string_view key = trim(parts[k].substr(0, eq)), value = trim(parts[k].substr(eq + 1));
    if (key == "strides") {
      const auto s = tuple(value, "strides");
      if (s.size() + 1 != m.rank) return fail(fmt::format("a tensor of rank {} takes {} strides (bytes, dimension 1 on)", m.rank, m.rank - 1));
      for (unsigned i = 1; i < m.rank; ++i) {
        if (s[i - 1] % 16 != 0 || s[i - 1] == 0 || s[i - 1] >= (std::uint64_t{1} << 40))
          return fail(fmt::format("the stride of dimension {} is {} bytes (a multiple of 16 below 2^40)", i, s[i - 1]));
        m.strides[i] = s[i - 1];
      }
      strides_given = true;
    } else if (key == "estrides") {
      const auto e = tuple(value, "estrides");
      if (e.size() != m.rank) return fail(fmt::format("a tensor of rank {} takes {} element strides", m.rank, m.rank));
      for (unsigned i = 0; i < m.rank; ++i) {
        if (e[i] == 0 || e[i] > 8) return fail(fmt::format("element stride {} is {} (1 to 8)", i, e[i]));
        m.estride[i] = static_cast<std::uint32_t>(e[i]);
      }
      if (m.estride[0] != 1) return fail("element strides in dimension 0 are not run (give 1)");
    } else if (key == "swizzle") {
      if (value == "none") m.swizzle = 0;
      else if (value == "32B") m.swizzle = 32;
      else if (value == "64B") m.swizzle = 64;
      else if (value == "128B") m.swizzle = 128;
      else return fail(fmt::format("swizzle '{}' (none, 32B, 64B or 128B)", value));
    } else if (key == "oob") {
      if (value == "zero") m.oob_nan = false;
      else if (value == "nan") m.oob_nan = true;
      else return fail(fmt::format("oob '{}' (zero or nan)", value));
      if (m.oob_nan && !type->floating) return fail(fmt::format("oob=nan needs a floating-point type, not {}", m.type));
    } else if (key == "l2promo") {
      if (value != "none" && value != "64B" && value != "128B" && value != "256B")
        return fail(fmt::format("l2promo '{}' (none, 64B, 128B or 256B)", value));
      m.l2_promotion = value == "none" ? 0 : value == "64B" ? 64 : value == "128B" ? 128 : 256;
    } else if (key == "interleave") {
      if (value != "none") return fail("interleaved layouts are not run (interleave=none)");
    } else {
      return fail(fmt::format("unknown key '{}'", key));
    }
  }
  if (!strides_given)
    for (unsigned i = 1; i < m.rank; ++i) {
      m.strides[i] = m.strides[i - 1] * m.dims[i - 1];
      if (m.strides[i] % 16 != 0)
        return fail(fmt::format("dense rows of dimension {} are {} bytes apart, not a multiple of 16: give strides=(..)", i, m.strides[i]));
    }
  if (m.swizzle != 0 && m.box[0] * m.elem > m.swizzle)
    return fail(fmt::format("the box's rows are {} bytes, more than the {}-byte swizzle", m.box[0] * m.elem, m.swizzle));
  return m;
}

std::array<std::uint8_t, kTensorMapBytes> encode_tensor_map(const TensorMap& m) {
  std::array<std::uint8_t, kTensorMapBytes> b{};
  std::memcpy(b.data(), kMagic, 8);
  unsigned type = 0;
  for (unsigned i = 0; i < std::size(kTypes); ++i)
    if (m.type == kTypes[i].name) type = i;
  b[8] = static_cast<std::uint8_t>(m.rank);
  b[9] = static_cast<std::uint8_t>(type);
  b[10] = static_cast<std::uint8_t>(m.swizzle / 16);
  b[11] = static_cast<std::uint8_t>((m.oob_nan ? 1 : 0) | (m.l2_promotion / 64) << 1);  // 0, 1, 2 or 4 in bits 1-3
  std::memcpy(b.data() + 16, &m.base, 8);
  for (unsigned i = 0; i < kMaxTensorRank; ++i) {
    const auto dim = static_cast<std::uint32_t>(m.dims[i] - (i < m.rank ? 1 : 0));  // 2^32 fits as 2^32 - 1
    std::memcpy(b.data() + 24 + 4 * i, &dim, 4);
    const std::uint64_t stride = m.strides[i];
    std::memcpy(b.data() + 44 + 6 * i, &stride, 6);  // below 2^40
    const auto box = static_cast<std::uint16_t>(m.box[i]);
    std::memcpy(b.data() + 74 + 2 * i, &box, 2);
    b[84 + i] = static_cast<std::uint8_t>(m.estride[i]);
  }
  return b;
}

std::optional<TensorMap> decode_tensor_map(const std::uint8_t* p) {
  if (std::memcmp(p, kMagic, 8) != 0) return std::nullopt;
  TensorMap m;
  m.rank = p[8];
  if (m.rank == 0 || m.rank > kMaxTensorRank || p[9] >= std::size(kTypes)) return std::nullopt;
  m.type = kTypes[p[9]].name;
  m.elem = kTypes[p[9]].bytes;
  m.swizzle = 16u * p[10];
  m.oob_nan = (p[11] & 1) != 0;
  m.l2_promotion = 64u * ((p[11] >> 1) & 7u);
  if (m.l2_promotion != 0 && m.l2_promotion != 64 && m.l2_promotion != 128 && m.l2_promotion != 256) return std::nullopt;
  if (m.swizzle != 0 && m.swizzle != 32 && m.swizzle != 64 && m.swizzle != 128) return std::nullopt;
  std::memcpy(&m.base, p + 16, 8);
  for (unsigned i = 0; i < kMaxTensorRank; ++i) {
    std::uint32_t dim = 0;
    std::memcpy(&dim, p + 24 + 4 * i, 4);
    m.dims[i] = i < m.rank ? std::uint64_t{dim} + 1 : 0;
    std::memcpy(&m.strides[i], p + 44 + 6 * i, 6);
    std::uint16_t box = 0;
    std::memcpy(&box, p + 74 + 2 * i, 2);
    m.box[i] = box;
    m.estride[i] = p[84 + i];
    if (i < m.rank && (m.box[i] == 0 || m.box[i] > 256 || m.estride[i] == 0 || m.estride[i] > 8 || m.strides[i] == 0))
      return std::nullopt;
  }
  if (m.strides[0] != m.elem || m.estride[0] != 1 || m.box[0] * m.elem % 16 != 0) return std::nullopt;
  return m;
}

}  // namespace warpscope::ptx
