// bank_passes (rules/bank_passes.hpp) against the rule written plainly: per
// bank, the set of distinct (row, bank) keys the group's words touch; the
// group takes the largest set (seed000 G.3.3 / G.4.3 / G.5.3: a bank serves one
// row per pass, any number of lanes reading words of that row share it).
// Random warps over a few rows (so conflicts and broadcasts are common), every
// access size, sparse masks, 32-bit and Kepler's 64-bit bank geometry and a
// non-power-of-two geometry (the division path).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "rules/bank_passes.hpp"

namespace warpscope::rules {
namespace {

std::uint32_t plain_passes(const WarpAccess& a, int first, int lanes, unsigned width, unsigned row_bytes,
                           unsigned banks) {
  std::map<std::uint64_t, std::set<std::uint64_t>> rows_of_bank;
  const unsigned words = std::max(1u, a.size / width);
  for (int lane = first; lane < first + lanes; ++lane) {
    if (!a.active.test(lane)) continue;
    const std::uint64_t addr = a.addr[static_cast<unsigned>(lane)] & ~static_cast<std::uint64_t>(a.size - 1);
    for (unsigned i = 0; i < words; ++i) {
      const std::uint64_t word = addr / width + i;
      const std::uint64_t bank = word % banks;
      rows_of_bank[bank].insert(word * width / row_bytes * banks + bank);
    }
  }
  std::uint32_t worst = 0;
  for (const auto& [bank, rows] : rows_of_bank) worst = std::max<std::uint32_t>(worst, static_cast<std::uint32_t>(rows.size()));
  return worst;
}

TEST(BankPasses, HandWorkedGroups) {
  const BankGeometry g(4, 128, 32);
  WarpAccess a;
  a.space = Space::Shared;
  a.size = 4;
  for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = 4ull * l;  // consecutive words: one pass
  EXPECT_EQ(bank_passes(a, 0, 32, g), 1u);
  for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = 128ull * l;  // a column: 32 rows of bank 0
  EXPECT_EQ(bank_passes(a, 0, 32, g), 32u);
  for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = 8ull * l;  // stride 2 words: 2 rows in 16 banks
  EXPECT_EQ(bank_passes(a, 0, 32, g), 2u);
  for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = 64;  // broadcast
  EXPECT_EQ(bank_passes(a, 0, 32, g), 1u);
  a.active = LaneMask(0);
  EXPECT_EQ(bank_passes(a, 0, 32, g), 0u);
}

TEST(BankPasses, AgreesWithThePlainRuleOnRandomWarps) {
  struct Shape {
    unsigned width, row_bytes, banks;
  };
  const Shape shapes[] = {{4, 128, 32}, {4, 256, 32}, {8, 256, 32}, {4, 64, 16}, {4, 96, 24}, {8, 240, 30}};
  std::mt19937_64 rng(7);
  for (const Shape& s : shapes) {
    const BankGeometry g(s.width, s.row_bytes, s.banks);
    for (int trial = 0; trial < 4000; ++trial) {
      WarpAccess a;
      a.space = Space::Shared;
      a.size = static_cast<std::uint8_t>(1u << (rng() % 5));
      a.active = LaneMask(rng() % 4 == 0 ? static_cast<std::uint32_t>(rng()) : 0xffffffffu);
      const unsigned span = 64u << (rng() % 7);  // 64 B .. 4 KB: many repeats in the small spans
      const std::uint64_t base = (rng() % 4) * 4096;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        const std::uint64_t addr = rng() % 3 == 0 ? base + l * a.size : base + rng() % span;
        a.addr[l] = a.active.test(static_cast<int>(l)) ? addr & ~static_cast<std::uint64_t>(a.size - 1) : 0;
      }
      for (int lanes : {8, 16, 32})
        for (int first = 0; first < kWarpSize; first += lanes)
          ASSERT_EQ(bank_passes(a, first, lanes, g), plain_passes(a, first, lanes, s.width, s.row_bytes, s.banks))
              << "width " << s.width << " banks " << s.banks << " size " << int{a.size} << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace warpscope::rules
