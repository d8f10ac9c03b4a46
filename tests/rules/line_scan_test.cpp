// scan_lines() against a brute-force reference (std::set of lines, sectors and
// bytes) on random warps: scattered, clustered, strided, partial masks, every
// access size and every sub-request width. Covers the fast paths (coalesced,
// all-lines-distinct) and the table-based scan alike.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "rules/line_scan.hpp"

namespace warpscope::rules {
namespace {

LineScan reference(const WarpAccess& a, int lanes_per_sub) {
  LineScan r;
  std::set<std::uint64_t> lines, sectors, bytes;
  for (int first = 0; first < kWarpSize; first += lanes_per_sub) {
    std::set<std::uint64_t> sub_lines, sub_sectors;
    for (int l = first; l < first + lanes_per_sub; ++l) {
      if (!a.active.test(l)) continue;
      const std::uint64_t addr = a.addr[static_cast<unsigned>(l)] & ~std::uint64_t{a.size - 1u};
      lines.insert(addr >> 7);
      sectors.insert(addr >> 5);
      sub_lines.insert(addr >> 7);
      sub_sectors.insert(addr >> 5);
      for (unsigned b = 0; b < a.size; ++b) bytes.insert(addr + b);
    }
    if (!sub_lines.empty()) ++r.sub_requests;
    r.sub_lines += static_cast<std::uint32_t>(sub_lines.size());
    r.sub_sectors += static_cast<std::uint32_t>(sub_sectors.size());
  }
  r.lines = static_cast<std::uint32_t>(lines.size());
  r.sectors = static_cast<std::uint32_t>(sectors.size());
  r.bytes_needed = static_cast<std::uint32_t>(bytes.size());
  return r;
}

TEST(LineScan, MatchesBruteForceOnRandomWarps) {
  std::mt19937_64 rng(20261122);
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  int checked = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    WarpAccess a;
    a.size = static_cast<std::uint8_t>(sizes[rng() % 5]);
    const int shape = static_cast<int>(rng() % 5);
    const std::uint32_t masks[] = {0xffffffffu, static_cast<std::uint32_t>(rng()), 0x0000ffffu, 0x80000001u, 0u};
    a.active = LaneMask(masks[rng() % 5]);
    const std::uint64_t base = (rng() % (1ull << 40)) & ~std::uint64_t{127};
    const std::uint64_t stride = a.size * (1 + rng() % 64);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      std::uint64_t addr = 0;
      switch (shape) {
        case 0: addr = base + a.size * l; break;                      // coalesced
        case 1: addr = rng() % (1ull << 34); break;                   // scattered
        case 2: addr = base + (rng() % 512); break;                   // clustered: shared lines and sectors
        case 3: addr = base + stride * l; break;                      // strided
        default: addr = base + 4096 * (rng() % 4) + a.size * l; break;  // a few lines reused
      }
      a.addr[l] = addr & ~std::uint64_t{a.size - 1u};
    }
    for (int lanes : {32, 16, 8, 4, 2}) {
      const LineScan got = scan_lines(a, lanes, 7, 5);
      const LineScan want = reference(a, lanes);
      ASSERT_EQ(got.lines, want.lines) << "trial " << trial << " lanes " << lanes;
      ASSERT_EQ(got.sectors, want.sectors) << "trial " << trial << " lanes " << lanes;
      ASSERT_EQ(got.bytes_needed, want.bytes_needed) << "trial " << trial << " lanes " << lanes;
      ASSERT_EQ(got.sub_lines, want.sub_lines) << "trial " << trial << " lanes " << lanes;
      ASSERT_EQ(got.sub_sectors, want.sub_sectors) << "trial " << trial << " lanes " << lanes;
      ASSERT_EQ(got.sub_requests, want.sub_requests) << "trial " << trial << " lanes " << lanes;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 100000);
}

}  // namespace
}  // namespace warpscope::rules
