// The warp interleaver: CTAs of one wave replayed warp by warp, round robin.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>

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

// A wave whose warps are scattered (32 addresses kept per record) starts a
// new wave once max_bytes are buffered, so memory stays bounded; evenly spaced
// warps (a base and a stride each) fill the same wave without reaching it.
TEST(WarpInterleaver, ScatteredWarpsStartANewWaveAtTheBytesBound) {
  auto run = [](bool scattered) {
    std::vector<std::string> out;
    WarpInterleaver w(
        4, [&](const WarpAccess& a) { out.push_back(std::to_string(a.cta) + "@" + std::to_string(a.pc)); },
        std::size_t{1} << 22, 1000);
    for (std::uint32_t cta = 0; cta < 4; ++cta)
      for (std::uint64_t pc : {0u, 16u}) {
        WarpAccess a = rec(0, cta, 0, pc);
        for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = scattered ? 0x1000 * (l * 7 % 32) : 4 * l;
        w.push(a);
      }
    w.flush();
    return out;
  };
  // Two scattered records of a CTA hold over 512 bytes: CTA 2 arrives past the
  // 1,000-byte bound and starts the second wave.
  EXPECT_EQ(run(true), (std::vector<std::string>{"0@0", "1@0", "0@16", "1@16", "2@0", "3@0", "2@16", "3@16"}));
  EXPECT_EQ(run(false), (std::vector<std::string>{"0@0", "1@0", "2@0", "3@0", "0@16", "1@16", "2@16", "3@16"}));
}

// The interleaver as first written (one deque of whole records per warp), kept
// here as the reference the compact one must reproduce record for record.
class ReferenceInterleaver {
 public:
  ReferenceInterleaver(std::uint64_t wave, std::size_t max_buffered) : wave_(wave), max_(max_buffered) {}
  void push(const WarpAccess& rec, std::vector<WarpAccess>& out) {
    if (rec.kernel != kernel_) {
      flush(out);
      kernel_ = rec.kernel;
    }
    if (!ctas_.count(rec.cta)) {
      if (ctas_.size() >= wave_ || buffered_ >= max_) flush(out);
      ctas_[rec.cta] = 0;
    }
    auto [it, fresh] = warp_.try_emplace((std::uint64_t{rec.cta} << 16) | rec.warp, queues_.size());
    if (fresh) queues_.emplace_back();
    queues_[it->second].push_back(rec);
    ++buffered_;
  }
  void flush(std::vector<WarpAccess>& out) {
    for (bool any = true; any;) {
      any = false;
      for (auto& q : queues_) {
        if (q.empty()) continue;
        out.push_back(q.front());
        q.pop_front();
        any = true;
      }
    }
    queues_.clear();
    warp_.clear();
    ctas_.clear();
    buffered_ = 0;
  }

 private:
  std::uint64_t wave_;
  std::size_t max_, buffered_ = 0;
  std::uint32_t kernel_ = ~0u;
  std::map<std::uint32_t, int> ctas_;
  std::map<std::uint64_t, std::size_t> warp_;
  std::vector<std::deque<WarpAccess>> queues_;
};

// Random streams -- CTAs and warps in runs and jumbled, kernels changing,
// every mask shape, lanes evenly spaced (any stride, wrapping), broken by one
// lane, or random -- through both, with waves and buffer caps small enough to
// flush often: the same records, every field and lane, in the same order.
TEST(WarpInterleaver, CompactBufferReplaysExactlyAsTheReference) {
  std::mt19937_64 rng(2026);
  const std::uint32_t masks[] = {0xffffffffu, 0x0u, 0x1u, 0x80000000u, 0x0000ff00u, 0xaaaaaaaau, 0x7ffffffeu,
                                 0x80000001u};
  for (int trial = 0; trial < 60; ++trial) {
    const std::uint64_t wave = trial == 0 ? 100 : 1 + rng() % 6;
    const std::size_t cap = trial % 3 == 0 && trial > 0 ? 5 + rng() % 20 : std::size_t{1} << 22;
    std::vector<WarpAccess> in;
    std::uint32_t kernel = 0, cta = 0;
    std::uint16_t warp = 0;
    // Trial 0 buffers 50,000 records in one wave: several chunks of records
    // and of lanes (a scattered record's lanes never straddle two chunks).
    const int records = trial == 0 ? 50000 : 400;
    for (int i = 0; i < records; ++i) {
      if (trial > 0 && rng() % 50 == 0) kernel += 1 + static_cast<std::uint32_t>(rng() % 2);
      if (rng() % 4 == 0) {
        cta = static_cast<std::uint32_t>(rng() % 12);
        warp = static_cast<std::uint16_t>(rng() % 4);
      }
      WarpAccess a;
      a.kernel = kernel;
      a.cta = cta;
      a.warp = warp;
      a.pc = rng() % 64 * 16;
      a.sm = static_cast<std::int16_t>(static_cast<int>(rng() % 5) - 1);
      a.space = static_cast<Space>(rng() % 5);
      a.op = static_cast<Op>(rng() % 4);
      a.size = static_cast<std::uint8_t>(1u << (rng() % 5));
      a.cache = static_cast<CacheOp>(rng() % 9);
      const std::uint32_t m = rng() % 3 == 0 ? static_cast<std::uint32_t>(rng()) : masks[rng() % std::size(masks)];
      a.active = LaneMask(m);
      const std::uint64_t base = rng() % 2 ? rng() : 0x1000;
      const std::uint64_t stride = rng() % 4 == 0 ? rng() : (rng() % 9) * 4 - 16;
      const int shape = static_cast<int>(rng() % 3);
      for (int l = 0; l < kWarpSize; ++l) {
        std::uint64_t v = shape == 2 ? rng() : base + stride * static_cast<std::uint64_t>(l);
        if (shape == 1 && l == 7) v ^= 0x40;
        a.addr[static_cast<unsigned>(l)] = ((m >> l) & 1u) ? v : 0;
      }
      in.push_back(a);
    }
    std::vector<WarpAccess> want, got;
    ReferenceInterleaver ref(wave, cap);
    WarpInterleaver w(wave, [&](const WarpAccess& a) { got.push_back(a); }, cap);
    for (const auto& r : in) {
      ref.push(r, want);
      w.push(r);
    }
    ref.flush(want);
    w.flush();
    ASSERT_EQ(got.size(), want.size()) << "trial " << trial;
    for (std::size_t i = 0; i < want.size(); ++i) {
      const WarpAccess &g = got[i], &e = want[i];
      ASSERT_TRUE(g.kernel == e.kernel && g.cta == e.cta && g.warp == e.warp && g.pc == e.pc && g.sm == e.sm &&
                  g.space == e.space && g.op == e.op && g.size == e.size && g.cache == e.cache &&
                  g.active == e.active && g.addr == e.addr)
          << "trial " << trial << " record " << i;
    }
  }
}

}  // namespace
}  // namespace warpscope::test
