// Byte masks of one line, and the names of the cache policies.
#include <bit>

#include "warpscope/cache.hpp"

namespace warpscope {

void LineBytes::mark(unsigned offset, unsigned size) {
  // Callers pass aligned accesses of 1..16 bytes, or whole sectors/lines.
  while (size > 0) {
    const unsigned word = offset >> 6, bit = offset & 63;
    const unsigned n = size < 64 - bit ? size : 64 - bit;
    const std::uint64_t run = n == 64 ? ~0ull : ((1ull << n) - 1) << bit;
    w[word] |= run;
    offset += n;
    size -= n;
  }
}

namespace {
// The bits of sector s (sector_bytes <= 64) within the 128-bit mask.
inline std::uint64_t sector_bits(const LineBytes& b, unsigned s, unsigned sector_bytes) {
  const unsigned first = s * sector_bytes;
  const std::uint64_t word = b.w[first >> 6];
  const std::uint64_t mask = sector_bytes >= 64 ? ~0ull : (1ull << sector_bytes) - 1;
  return (word >> (first & 63)) & mask;
}
}  // namespace

SectorMask LineBytes::touched(unsigned sector_bytes) const {
  if (sector_bytes == 32) {
    unsigned m = 0;
    m |= (w[0] & 0xffffffffull) ? 1u : 0u;
    m |= (w[0] >> 32) ? 2u : 0u;
    m |= (w[1] & 0xffffffffull) ? 4u : 0u;
    m |= (w[1] >> 32) ? 8u : 0u;
    return SectorMask(static_cast<std::uint8_t>(m));
  }
  unsigned m = 0;
  const unsigned sectors = sector_bytes > 128 ? 1 : 128 / sector_bytes;
  for (unsigned s = 0; s < sectors && s < 8; ++s)
    if (sector_bytes > 64 ? (w[0] | w[1]) != 0 : sector_bits(*this, s, sector_bytes) != 0) m |= 1u << s;
  return SectorMask(static_cast<std::uint8_t>(m));
}

SectorMask LineBytes::full(unsigned sector_bytes) const {
  if (sector_bytes == 32) {
    unsigned m = 0;
    m |= (w[0] & 0xffffffffull) == 0xffffffffull ? 1u : 0u;
    m |= (w[0] >> 32) == 0xffffffffull ? 2u : 0u;
    m |= (w[1] & 0xffffffffull) == 0xffffffffull ? 4u : 0u;
    m |= (w[1] >> 32) == 0xffffffffull ? 8u : 0u;
    return SectorMask(static_cast<std::uint8_t>(m));
  }
  unsigned m = 0;
  const unsigned sectors = sector_bytes > 128 ? 1 : 128 / sector_bytes;
  for (unsigned s = 0; s < sectors && s < 8; ++s) {
    const bool all = sector_bytes > 64 ? (w[0] & w[1]) == ~0ull
                                       : sector_bits(*this, s, sector_bytes) ==
                                             (sector_bytes >= 64 ? ~0ull : (1ull << sector_bytes) - 1);
    if (all) m |= 1u << s;
  }
  return SectorMask(static_cast<std::uint8_t>(m));
}

LineBytes LineBytes::all(unsigned line_bytes) {
  LineBytes b;
  b.mark(0, line_bytes > 128 ? 128 : line_bytes);
  return b;
}

std::string_view to_string(Replacement r) {
  switch (r) {
    case Replacement::Lru: return "lru";
    case Replacement::Fifo: return "fifo";
    case Replacement::Random: return "random";
    case Replacement::RandomOldest: return "randm";
  }
  return "?";
}

std::string_view to_string(SetHash h) {
  switch (h) {
    case SetHash::Modulo: return "modulo";
    case SetHash::XorFold: return "xor";
  }
  return "?";
}

bool parse_replacement(std::string_view text, Replacement& out, int& candidates) {
  for (auto r : {Replacement::Lru, Replacement::Fifo, Replacement::Random})
    if (text == to_string(r)) {
      out = r;
      return true;
    }
  // randm<M>: M decimal digits, 1..65535.
  const std::string_view prefix = to_string(Replacement::RandomOldest);
  if (text.size() <= prefix.size() || text.size() > prefix.size() + 5 || text.substr(0, prefix.size()) != prefix)
    return false;
  int m = 0;
  for (char ch : text.substr(prefix.size())) {
    if (ch < '0' || ch > '9') return false;
    m = m * 10 + (ch - '0');
  }
  if (m < 1 || m > 65535) return false;
  out = Replacement::RandomOldest;
  candidates = m;
  return true;
}

bool parse_replacement(std::string_view text, Replacement& out) {
  int candidates = 0;
  return parse_replacement(text, out, candidates);
}

bool parse_set_hash(std::string_view text, SetHash& out) {
  for (auto h : {SetHash::Modulo, SetHash::XorFold})
    if (text == to_string(h)) {
      out = h;
      return true;
    }
  return false;
}

}  // namespace warpscope
