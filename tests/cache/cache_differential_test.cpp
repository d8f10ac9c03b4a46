// Cache against the plain ReferenceCache (reference_cache.hpp): long random
// sequences of reads, writes, invalidations and flushes with every option, on
// narrow (scanned) and wide (fingerprinted, up to 512 ways) sets, compared
// result by result. Lines come mostly from a hot range a little larger than
// the cache (hits, evictions) and partly from a wide range (cold misses, and
// wide-set fingerprint collisions between different lines).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cache/reference_cache.hpp"
#include "warpscope/cache.hpp"

namespace warpscope::test {
namespace {

struct Shape {
  std::int64_t size;
  int ways, line_bytes, sector_bytes;
  int fill_sectors = 1;
};

std::string label(const CacheConfig& c) { return Cache(c).describe(); }

CacheConfig config_of(const Shape& s, Replacement r, SetHash h, bool byte_masks) {
  CacheConfig c;
  c.size_bytes = s.size;
  c.ways = s.ways;
  c.line_bytes = s.line_bytes;
  c.sector_bytes = s.sector_bytes;
  c.fill_sectors = s.fill_sectors;
  c.replacement = r;
  c.set_hash = h;
  c.byte_masks = byte_masks;
  return c;
}

void expect_same(const Eviction& a, const Eviction& b, const std::string& where) {
  EXPECT_EQ(a.line, b.line) << where;
  EXPECT_EQ(a.dirty, b.dirty) << where;
  EXPECT_EQ(a.dirty_partial, b.dirty_partial) << where;
  EXPECT_EQ(a.bytes, b.bytes) << where;
}

// Runs `steps` random operations on both caches; stops at the first mismatch.
// hot_lines: the hot range (0: a little more than the cache holds).
void run_against_reference(const CacheConfig& cfg, int steps, std::uint32_t seed, std::uint64_t hot_lines = 0) {
  Cache cache(cfg);
  ReferenceCache ref(cfg);
  std::mt19937_64 rng(seed);
  const std::uint64_t capacity_lines = static_cast<std::uint64_t>(cfg.size_bytes / cfg.line_bytes);
  const std::uint64_t hot = hot_lines > 0 ? hot_lines : capacity_lines + capacity_lines / 2 + 3;
  const auto sectors = static_cast<unsigned>(cfg.line_bytes / cfg.sector_bytes);
  auto pick_line = [&] {
    return rng() % 8 == 0 ? (rng() & ((1ull << 40) - 1)) : 0x40000 + rng() % hot;
  };
  auto chance = [&](unsigned percent) { return rng() % 100 < percent; };
  const std::string name = label(cfg);

  for (int step = 0; step < steps && !testing::Test::HasFailure(); ++step) {
    const std::uint64_t line = pick_line();
    const std::string where = name + ", step " + std::to_string(step);
    const unsigned op = static_cast<unsigned>(rng() % 100);
    if (op < 50) {
      ReadOptions o;
      o.allocate = !chance(10);
      o.evict_first = chance(15);
      o.fill_line = chance(20);
      o.group_fill = chance(70);
      const auto req = SectorMask(static_cast<std::uint8_t>(rng() % (1u << sectors)));
      const ReadResult a = cache.read(LineAddr{line}, req, o);
      const ReadResult b = ref.read(line, req, o);
      EXPECT_EQ(a.hit, b.hit) << where;
      EXPECT_EQ(a.miss, b.miss) << where;
      EXPECT_EQ(a.fetch, b.fetch) << where;
      EXPECT_EQ(a.promoted, b.promoted) << where;
      expect_same(a.evicted, b.evicted, where);
    } else if (op < 90) {
      WriteOptions o;
      o.allocate = !chance(15);
      o.evict_first = chance(15);
      o.write_back = !chance(30);
      LineBytes bytes;
      const int pieces = 1 + static_cast<int>(rng() % 3);
      for (int p = 0; p < pieces; ++p) {
        const auto offset = static_cast<unsigned>(rng() % static_cast<unsigned>(cfg.line_bytes));
        const unsigned max = static_cast<unsigned>(cfg.line_bytes) - offset;
        const unsigned size = chance(30) ? max : 1 + static_cast<unsigned>(rng() % std::min(max, 16u));
        bytes.mark(offset, size);
      }
      const WriteResult a = cache.write(LineAddr{line}, bytes, o);
      const WriteResult b = ref.write(line, bytes, o);
      EXPECT_EQ(a.line_present, b.line_present) << where;
      EXPECT_EQ(a.hit, b.hit) << where;
      EXPECT_EQ(a.miss, b.miss) << where;
      expect_same(a.evicted, b.evicted, where);
    } else if (op < 96) {
      expect_same(cache.invalidate(LineAddr{line}), ref.invalidate(line), where);
    } else if (op < 99) {
      EXPECT_EQ(cache.contains(LineAddr{line}), ref.contains(line)) << where;
      EXPECT_EQ(cache.valid_sectors(LineAddr{line}), ref.valid_sectors(line)) << where;
      EXPECT_EQ(cache.dirty_sectors(LineAddr{line}), ref.dirty_sectors(line)) << where;
    } else if (rng() % 8 == 0) {
      std::vector<Eviction> flushed;
      const std::uint64_t n = cache.flush_dirty([&](const Eviction& e) { flushed.push_back(e); });
      const std::vector<Eviction> expected = ref.flush_dirty();
      std::uint64_t expected_sectors = 0;
      for (const Eviction& e : expected) expected_sectors += static_cast<std::uint64_t>(e.dirty.count());
      EXPECT_EQ(n, expected_sectors) << where;
      ASSERT_EQ(flushed.size(), expected.size()) << where;
      for (std::size_t i = 0; i < flushed.size(); ++i) expect_same(flushed[i], expected[i], where);
    } else if (rng() % 4 == 0) {
      cache.invalidate_all();
      ref.invalidate_all();
    }
  }
  // The final contents, line by line over the hot range.
  for (std::uint64_t l = 0x40000; l < 0x40000 + hot && !testing::Test::HasFailure(); ++l) {
    EXPECT_EQ(cache.valid_sectors(LineAddr{l}), ref.valid_sectors(l)) << name << ", line " << l;
    EXPECT_EQ(cache.dirty_sectors(LineAddr{l}), ref.dirty_sectors(l)) << name << ", line " << l;
  }
}

TEST(CacheDifferential, EveryPolicyAndShapeMatchesTheReference) {
  const Shape shapes[] = {
      {1024, 1, 128, 32},            // direct mapped
      {4096, 4, 128, 32},            // 8 sets x 4 ways
      {3 * 20 * 128, 20, 128, 32},   // 3 sets (not a power of two) x 20 ways, like the L2
      {4 * 20 * 128, 20, 128, 32, 2},  // the 9.0 L2: 20 ways, 64 B fills with promotion
      {32 * 56 * 128, 56, 128, 32},  // the 9.0 L1: 32 sets x 56 ways (fingerprinted)
      {64 * 32 * 128, 32, 128, 32},  // 64 x 32: the widest scanned set
      {2 * 33 * 128, 33, 128, 32},   // the narrowest fingerprinted set (a partial 32-way block)
      {4 * 200 * 64, 200, 64, 16},   // 64 B lines of 4 x 16 B
      {256 * 1024, 512, 128, 32},    // the 7.0+ L1: 4 sets x 512 ways
  };
  std::uint32_t seed = 1;
  for (const Shape& s : shapes)
    for (Replacement r : {Replacement::Lru, Replacement::Fifo, Replacement::Random, Replacement::RandomOldest})
      for (SetHash h : {SetHash::Modulo, SetHash::XorFold})
        for (bool masks : {false, true}) {
          CacheConfig c = config_of(s, r, h, masks);
          c.seed = 0x1234 + seed;
          c.victim_candidates = 1 + static_cast<int>(seed % 9);  // randm1 (LRU) .. randm9
          run_against_reference(c, s.ways >= 200 ? 60000 : 20000, seed++);
          if (HasFailure()) return;
        }
}

// Many lines sharing one wide set: lookups must check the full line address
// behind every fingerprint match (colliding fingerprints are frequent when
// thousands of lines pass through 512 ways).
TEST(CacheDifferential, OneWideSetWithManyLines) {
  for (Replacement r : {Replacement::Lru, Replacement::Fifo, Replacement::Random, Replacement::RandomOldest}) {
    CacheConfig c;
    c.size_bytes = 512 * 128;
    c.ways = 512;
    c.replacement = r;
    c.byte_masks = true;
    run_against_reference(c, 200000, 77);
    if (HasFailure()) return;
  }
}

// Kernels that touch few sets of a large cache: invalidate_all then resets
// only the sets that allocated since the last one, and flushes visit only
// those (cache.cpp); the reference resets everything.
TEST(CacheDifferential, FewSetsTouchedBetweenInvalidations) {
  const Shape shapes[] = {
      {4096 * 4 * 128, 4, 128, 32},
      {10240 * 20 * 128, 20, 128, 32, 2},  // one 9.0 L2 partition
      {512 * 56 * 128, 56, 128, 32},       // wide, fingerprinted sets
  };
  std::uint32_t seed = 500;
  for (const Shape& s : shapes)
    for (Replacement r : {Replacement::Lru, Replacement::RandomOldest}) {
      CacheConfig c = config_of(s, r, SetHash::XorFold, true);
      c.victim_candidates = 8;
      run_against_reference(c, 40000, seed++, 300);
      if (HasFailure()) return;
    }
}

}  // namespace
}  // namespace warpscope::test
