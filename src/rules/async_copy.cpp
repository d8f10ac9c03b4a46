#include "rules/async_copy.hpp"

#include <array>

namespace warpscope::rules {
namespace {

constexpr unsigned kRowBytes = 128, kBanks = 32;

// The banks an access of `size` bytes at `addr` touches (4-byte banks), as a bit mask.
std::uint32_t banks_of(std::uint64_t addr, unsigned size) {
  const unsigned first = static_cast<unsigned>(addr / 4 % kBanks), n = size / 4;
  const std::uint64_t run = (std::uint64_t{1} << n) - 1;
  const std::uint64_t rotated = run << first;
  return static_cast<std::uint32_t>(rotated | rotated >> kBanks);
}

// .ca: the wavefronts of the lanes [first, first + lanes).
unsigned through_l1(const WarpAccess& dst, const WarpAccess* src, int first, int lanes) {
  std::array<std::uint32_t, kWarpSize> read{}, written{};  // per wavefront: banks read / written
  std::array<std::uint64_t, kWarpSize> seen_addr{};
  std::array<unsigned, kWarpSize> seen_wave{};
  unsigned waves = 0, n_seen = 0;
  for (int l = first; l < first + lanes; ++l) {
    if (!dst.active.test(l)) continue;
    const auto lane = static_cast<unsigned>(l);
    const std::uint32_t w = banks_of(dst.addr[lane], dst.size);
    const bool reads = src != nullptr && src->active.test(l);
    const std::uint32_t r = reads ? banks_of(src->addr[lane], dst.size) : 0u;
    unsigned start = 0, k = 0;
    if (reads)
      for (; k < n_seen; ++k)
        if (seen_addr[k] == src->addr[lane]) {
          start = seen_wave[k] + 1;
          break;
        }
    unsigned wave = start;
    while (wave < waves && ((read[wave] & r) != 0 || (written[wave] & w) != 0)) ++wave;
    if (wave == waves) ++waves;
    read[wave] |= r;
    written[wave] |= w;
    if (reads) {
      if (k == n_seen) seen_addr[n_seen++] = src->addr[lane];
      seen_wave[k] = wave;
    }
  }
  return waves;
}

struct CgLane {
  std::uint64_t src, dst;
};

// Lanes that share a source sector share a destination sector, and the other way round.
bool sectors_correspond(const CgLane* lanes, unsigned n, const CgLane& x) {
  for (unsigned i = 0; i < n; ++i)
    if ((lanes[i].src / 32 == x.src / 32) != (lanes[i].dst / 32 == x.dst / 32)) return false;
  return true;
}

std::uint64_t distance(const CgLane& x) { return (x.dst - x.src) % kRowBytes; }

// .cg: the wavefronts (one per request to L2) of the whole warp; without `src`, no lane reads.
unsigned bypassing_l1(const WarpAccess& dst, const WarpAccess* src) {
  const auto reads = [&](int l) { return src != nullptr && src->active.test(l); };
  std::array<CgLane, kWarpSize> lanes{};
  std::array<std::uint8_t, kWarpSize> done{};
  unsigned n = 0, waves = 0;
  for (int l = 0; l < kWarpSize; ++l)
    if (dst.active.test(l) && reads(l)) lanes[n++] = {src->addr[static_cast<unsigned>(l)], dst.addr[static_cast<unsigned>(l)]};
  for (unsigned i = 0; i < n; ++i) {
    if (done[i]) continue;
    // The group of lanes[i]: the same source line and destination row, in lane order.
    std::array<CgLane, kWarpSize> group{};
    unsigned g = 0;
    for (unsigned j = i; j < n; ++j)
      if (!done[j] && lanes[j].src / kRowBytes == lanes[i].src / kRowBytes &&
          lanes[j].dst / kRowBytes == lanes[i].dst / kRowBytes) {
        group[g++] = lanes[j];
        done[j] = 1;
      }
    bool repeated_chunk = false, whole = true;
    for (unsigned a = 0; a < g; ++a)
      for (unsigned b = a + 1; b < g; ++b) {
        repeated_chunk |= group[a].src / 16 == group[b].src / 16;
        whole &= (group[a].src / 32 == group[b].src / 32) == (group[a].dst / 32 == group[b].dst / 32);
      }
    if (repeated_chunk) {
      waves += g;
      continue;
    }
    if (whole) {
      ++waves;
      continue;
    }
    // Wavefronts of the group in lane order; sub[a]: the one lane a joined.
    std::array<std::uint8_t, kWarpSize> sub{};
    std::array<CgLane, kWarpSize> members{};
    unsigned m = 0;
    for (unsigned a = 0; a < g; ++a) {
      unsigned k = 0;
      for (; k < m; ++k) {
        unsigned c = 0;
        for (unsigned b = 0; b < a; ++b)
          if (sub[b] == k) members[c++] = group[b];
        if (distance(members[0]) == distance(group[a]) && sectors_correspond(members.data(), c, group[a])) break;
      }
      if (k == m) ++m;
      sub[a] = static_cast<std::uint8_t>(k);
    }
    waves += m;
  }
  // Lanes that read nothing (zero-filled) write with the reading lanes of their row (async_probe
  // zfill_ignore<1>: 4 wavefronts, as without them); a row with none of those takes one of its own.
  std::array<std::uint64_t, kWarpSize> rows{};
  unsigned r = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!dst.active.test(l) || reads(l)) continue;
    const std::uint64_t row = dst.addr[static_cast<unsigned>(l)] / kRowBytes;
    bool known = false;
    for (unsigned k = 0; k < r; ++k) known |= rows[k] == row;
    for (unsigned k = 0; k < n; ++k) known |= lanes[k].dst / kRowBytes == row;
    if (!known) rows[r++] = row;
  }
  return waves + r;
}

}  // namespace

AsyncCopyWavefronts async_copy_wavefronts(const WarpAccess& dst, const WarpAccess* src) {
  AsyncCopyWavefronts w;
  if (src != nullptr && src->size != dst.size) src = nullptr;
  if (dst.cache == CacheOp::Cg) {
    w.wavefronts = bypassing_l1(dst, src);
    w.ideal = w.wavefronts;
    return w;
  }
  const int lanes = static_cast<int>(kRowBytes / dst.size);
  for (int first = 0; first < kWarpSize; first += lanes) {
    if (dst.active.slice(first, lanes).none()) continue;
    w.wavefronts += through_l1(dst, src, first, lanes);
    w.ideal += 1;
  }
  w.conflicts = w.wavefronts - w.ideal;
  return w;
}

}  // namespace warpscope::rules
