// The warp interleaver: CTAs of one wave replayed warp by warp, round robin.
#include <gtest/gtest.h>

#include "analyze/interleaver.hpp"

namespace warpscope::test {
namespace {

WarpAccess rec(std::uint32_t kernel, std::uint32_t cta, std::uint16_t warp, std::uint64_t pc) {
  WarpAccess a;
  a.kernel = kernel;
  a.cta = cta;
  a.warp = warp;
  a.pc = pc;
  return a;
}

std::vector<std::string> replay(std::uint64_t wave, const std::vector<WarpAccess>& in) {
  std::vector<std::string> out;
  WarpInterleaver w(wave, [&](const WarpAccess& a) {
    out.push_back(std::to_string(a.kernel) + ":" + std::to_string(a.cta) + "." + std::to_string(a.warp) + "@" +
                  std::to_string(a.pc));
  });
  for (const auto& r : in) w.push(r);
  w.flush();
  return out;
}

TEST(WarpInterleaver, RoundRobinOverTheWarpsOfAWave) {
  // CTA 0 (warps 0, 1) then CTA 1 (warp 0), two instructions each, in CTA order.
  const std::vector<WarpAccess> in = {rec(0, 0, 0, 0), rec(0, 0, 1, 0), rec(0, 0, 0, 16), rec(0, 0, 1, 16),
                                      rec(0, 1, 0, 0), rec(0, 1, 0, 16)};
  EXPECT_EQ(replay(2, in), (std::vector<std::string>{"0:0.0@0", "0:0.1@0", "0:1.0@0", "0:0.0@16", "0:0.1@16", "0:1.0@16"}));
  // a wave of one CTA keeps CTA order
  EXPECT_EQ(replay(1, in), (std::vector<std::string>{"0:0.0@0", "0:0.1@0", "0:0.0@16", "0:0.1@16", "0:1.0@0", "0:1.0@16"}));
}

TEST(WarpInterleaver, KernelsNeverMix) {
  const std::vector<WarpAccess> in = {rec(0, 0, 0, 0), rec(0, 0, 0, 16), rec(1, 0, 0, 0), rec(1, 1, 0, 0)};
  EXPECT_EQ(replay(8, in), (std::vector<std::string>{"0:0.0@0", "0:0.0@16", "1:0.0@0", "1:1.0@0"}));
}

}  // namespace
}  // namespace warpscope::test
