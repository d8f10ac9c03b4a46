// The L2 side on a thread of its own (MemorySystem::set_l2_thread,
// memory/l2_thread.hpp) must give exactly what one thread gives: the same
// kernel counters and per-instruction counters, kernel after kernel, for every
// kind of record (loads with every cache operator, stores, atomics, local,
// shared, constant; coalesced and scattered), on generations with different
// L1 and L2 rules, with and without the end-of-kernel write-back.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "memory/memory_test_support.hpp"

namespace warpscope::test {
namespace {

WarpAccess random_record(std::mt19937_64& rng) {
  static constexpr std::array kSpaces = {Space::Global, Space::Global, Space::Global, Space::Local, Space::Shared,
                                         Space::Const};
  static constexpr std::array kOps = {Op::Load, Op::Load, Op::Store, Op::Atomic, Op::Reduction};
  static constexpr std::array kCache = {CacheOp::Default, CacheOp::Ca, CacheOp::Cg, CacheOp::Cs, CacheOp::Lu,
                                        CacheOp::Cv, CacheOp::Nc};
  static constexpr std::array kSizes = {1u, 2u, 4u, 8u, 16u};
  const Space space = kSpaces[rng() % kSpaces.size()];
  Op op = kOps[rng() % kOps.size()];
  if (space == Space::Const || (space == Space::Local && (op == Op::Atomic || op == Op::Reduction))) op = Op::Load;
  const unsigned size = kSizes[rng() % kSizes.size()];
  const CacheOp cache = op == Op::Load && space == Space::Global ? kCache[rng() % kCache.size()] : CacheOp::Default;
  // A few hot lines (hits, conflicts) or a wide range (misses, evictions).
  const std::uint64_t span = rng() % 3 == 0 ? (64u << 20) : (256u << 10);
  const std::uint64_t base = 0x10000000 + (rng() % span) / 128 * 128;
  const bool coalesced = rng() % 2 == 0;
  const std::uint64_t step = size;
  WarpAccess a = make({space, op, size, cache, static_cast<std::uint32_t>(rng() | 1u)}, [&](int l) {
    const std::uint64_t at = coalesced ? base + step * static_cast<std::uint64_t>(l) : 0x10000000 + (rng() % span);
    return at / static_cast<std::uint64_t>(size) * static_cast<std::uint64_t>(size);
  });
  if (space == Space::Shared) {
    for (auto& x : a.addr) x %= 48 * 1024;
  }
  if (space == Space::Const) {
    for (auto& x : a.addr) x %= 64 * 1024;
  }
  a.cta = static_cast<std::uint32_t>(rng() % 64);
  a.warp = static_cast<std::uint16_t>(rng() % 8);
  return a;
}

struct Replay {
  std::vector<Counters> kernels;
  std::vector<Counters> pcs;
};

Replay replay(const char* arch_name, bool l2_thread, bool flush) {
  MemorySystem m(arch(arch_name), {});
  m.set_l2_thread(l2_thread);
  EXPECT_EQ(m.l2_thread(), l2_thread);
  std::mt19937_64 rng(7);
  Replay out;
  out.pcs.resize(16);
  for (int k = 0; k < 4; ++k) {
    OccupancyInput launch;
    launch.threads = 256;
    launch.regs = 32;
    m.begin_kernel(launch);
    for (int i = 0; i < 6000; ++i) {
      WarpAccess a = random_record(rng);
      a.kernel = static_cast<std::uint32_t>(k);
      const int sm = static_cast<int>(rng() % static_cast<std::uint64_t>(m.num_sms()));
      m.access(a, sm, &out.pcs[rng() % out.pcs.size()]);
    }
    m.end_kernel(flush);
    out.kernels.push_back(m.kernel_counters());
  }
  return out;
}

TEST(L2Thread, GivesExactlyWhatOneThreadGives) {
  for (const char* name : {"sm_90", "sm_80", "sm_70", "sm_61", "sm_35", "sm_20"}) {
    for (const bool flush : {false, true}) {
      SCOPED_TRACE(std::string(name) + (flush ? " flush" : ""));
      const Replay one = replay(name, false, flush), two = replay(name, true, flush);
      ASSERT_EQ(one.kernels.size(), two.kernels.size());
      for (std::size_t k = 0; k < one.kernels.size(); ++k) {
        EXPECT_EQ(one.kernels[k], two.kernels[k]) << "kernel " << k;
        // The replay reaches the L2 and DRAM (the test would pass vacuously otherwise).
        EXPECT_GT(one.kernels[k].l2_read_sectors + one.kernels[k].l2_write_sectors, 0u);
      }
      for (std::size_t p = 0; p < one.pcs.size(); ++p) EXPECT_EQ(one.pcs[p], two.pcs[p]) << "pc " << p;
    }
  }
}

TEST(L2Thread, CountersAndCachesAreCaughtUpWhenRead) {
  // kernel_counters() and l2_cache() wait for the L2 thread: a record's L2
  // traffic shows at once, as on one thread.
  auto m = memory("sm_90");
  m->set_l2_thread(true);
  Counters pc;
  m->access(line_access(0x40000), 0, &pc);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 4u);
  m->end_kernel(false);
  EXPECT_EQ(pc.l2_read_sectors, 4u);
  const Cache* near = m->l2_cache(0);
  const Cache* far = m->l2_cache(1);
  ASSERT_NE(near, nullptr);
  ASSERT_NE(far, nullptr);
  EXPECT_TRUE(near->contains(LineAddr{0x40000 >> 7}) || far->contains(LineAddr{0x40000 >> 7}));
  // Off again: the same object carries on, on one thread.
  m->set_l2_thread(false);
  EXPECT_FALSE(m->l2_thread());
  m->access(line_access(0x80000), 0, &pc);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 8u);
  EXPECT_EQ(pc.l2_read_sectors, 8u);
}

TEST(L2Thread, NotStartedWithoutAnL2) {
  MemorySystem m(arch("sm_13"), {});  // 1.x: no caches
  m.set_l2_thread(true);
  EXPECT_FALSE(m.l2_thread());
}

}  // namespace
}  // namespace warpscope::test
