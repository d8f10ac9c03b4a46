// cache::scan_tags (src/cache/tag_scan.hpp) against the plain loop it replaces,
// for every narrow set width (1-32 ways: whole 8/4-tag vector steps, masked
// tails and the scalar rest), with the line in no way, one way, or several.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cache/tag_scan.hpp"

namespace warpscope::test {
namespace {

std::uint32_t plain_scan(const std::uint64_t* tags, std::uint32_t ways, std::uint64_t line) {
  std::uint32_t match = 0;
  for (std::uint32_t w = 0; w < ways; ++w) match |= static_cast<std::uint32_t>(tags[w] == line) << w;
  return match;
}

TEST(TagScan, EveryWidthMatchesThePlainLoop) {
  std::mt19937_64 rng(7);
  // 40 tags: a scan of up to 32 ways never reads what follows it, whatever it holds.
  std::vector<std::uint64_t> tags(40);
  for (std::uint32_t ways = 1; ways <= 32; ++ways) {
    for (int trial = 0; trial < 200; ++trial) {
      const std::uint64_t line = rng() % 4;  // few values: no match, one, several
      for (auto& t : tags) t = rng() % 4 == 0 ? line : (trial % 2 ? ~0ull : rng() % 8);
      ASSERT_EQ(cache::scan_tags(tags.data(), ways, line), plain_scan(tags.data(), ways, line))
          << ways << " ways, trial " << trial;
    }
    // The line only just past the set: no match.
    std::fill(tags.begin(), tags.end(), 1);
    tags[ways] = 5;
    EXPECT_EQ(cache::scan_tags(tags.data(), ways, 5), 0u) << ways << " ways";
    tags[ways - 1] = 5;
    EXPECT_EQ(cache::scan_tags(tags.data(), ways, 5), 1u << (ways - 1)) << ways << " ways";
  }
}

}  // namespace
}  // namespace warpscope::test
