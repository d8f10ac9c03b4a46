// Byte-level building blocks of the native trace format (docs/TRACE_FORMAT.md):
// little-endian integers, LEB128 varints, zig-zag signed values and the
// FNV-1a 64-bit checksum. Decoders never read past `end`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace warpscope::trace {

inline void put_u16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v & 0xff));
  out.push_back(static_cast<char>(v >> 8));
}
inline void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
inline void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

inline std::uint16_t load_u16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
inline std::uint32_t load_u32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}
inline std::uint64_t load_u64(const std::uint8_t* p) {
  return std::uint64_t{load_u32(p)} | std::uint64_t{load_u32(p + 4)} << 32;
}

inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// Unsigned LEB128: 7 bits per byte, low group first, high bit = more follows.
inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
inline constexpr std::size_t kMaxVarintBytes = 10;
// The same into a buffer with at least kMaxVarintBytes of room; returns the end.
inline std::uint8_t* put_varint(std::uint8_t* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

// Reads one varint at p (< end). Returns false when it runs past `end` or
// does not fit 64 bits; p is advanced past it on success.
inline bool get_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
  if (p < end && *p < 0x80) {  // one byte: the common case
    v = *p++;
    return true;
  }
  std::uint64_t result = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (p == end) return false;
    const std::uint8_t b = *p++;
    if (shift == 63 && b > 1) return false;
    result |= std::uint64_t{b & 0x7fu} << shift;
    if (b < 0x80) {
      v = result;
      return true;
    }
  }
  return false;
}

// FNV-1a, 64-bit (offset basis 14695981039346656037, prime 1099511628211).
inline constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ull;
inline std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = kFnvBasis) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace warpscope::trace
