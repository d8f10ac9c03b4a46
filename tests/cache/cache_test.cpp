// The sectored set-associative cache on hand-built sequences. Each expectation
// is worked out in the comment next to it.
#include <gtest/gtest.h>

#include <array>
#include <list>
#include <random>

#include "warpscope/cache.hpp"

namespace warpscope::test {
namespace {

constexpr SectorMask kAll = SectorMask(0xf);
constexpr SectorMask sec(int s) { return SectorMask(static_cast<std::uint8_t>(1u << s)); }

// size bytes, ways; 128 B lines of 4 x 32 B sectors.
CacheConfig config(std::int64_t size, int ways, Replacement r = Replacement::Lru, bool byte_masks = false) {
  CacheConfig c;
  c.size_bytes = size;
  c.ways = ways;
  c.replacement = r;
  c.byte_masks = byte_masks;
  return c;
}

LineBytes bytes(unsigned offset, unsigned size) {
  LineBytes b;
  b.mark(offset, size);
  return b;
}

bool hit_all(Cache& c, std::uint64_t line) { return c.read(LineAddr{line}, kAll).hit == kAll; }

TEST(Cache, Geometry) {
  // 1 KB of 128 B lines = 8 lines; 2 ways -> 4 sets.
  Cache c(config(1024, 2));
  EXPECT_EQ(c.sets(), 4u);
  EXPECT_EQ(c.ways(), 2);
  EXPECT_EQ(c.sectors_per_line(), 4);
  EXPECT_EQ(c.capacity(), 1024);
  // Modulo set index: line 6 -> set 6 % 4 = 2.
  EXPECT_EQ(c.set_of(LineAddr{6}), 2u);
  // 768 B, 2 ways -> 3 sets (not a power of two): line 7 -> set 1.
  Cache odd(config(768, 2));
  EXPECT_EQ(odd.sets(), 3u);
  EXPECT_EQ(odd.set_of(LineAddr{7}), 1u);
  EXPECT_NE(c.describe().find("4 sets x 2 ways"), std::string::npos) << c.describe();
}

TEST(Cache, HitsAndMisses) {
  Cache c(config(1024, 2));
  // Cold: every sector misses and must be fetched.
  ReadResult r = c.read(LineAddr{5}, kAll);
  EXPECT_EQ(r.hit, SectorMask{});
  EXPECT_EQ(r.miss, kAll);
  EXPECT_EQ(r.fetch, kAll);
  // Again: 4 hits, nothing to fetch.
  r = c.read(LineAddr{5}, kAll);
  EXPECT_EQ(r.hit, kAll);
  EXPECT_EQ(r.fetch, SectorMask{});
  // A non-allocating lookup of another line misses and leaves nothing behind.
  ReadOptions bypass;
  bypass.allocate = false;
  r = c.read(LineAddr{9}, sec(2), bypass);
  EXPECT_EQ(r.miss, sec(2));
  EXPECT_EQ(r.fetch, sec(2));
  EXPECT_FALSE(c.contains(LineAddr{9}));
}

TEST(Cache, ConflictMissesByAssociativity) {
  // 2-way, 4 sets: lines 0, 4, 8 all map to set 0 (line % 4 == 0).
  Cache two(config(1024, 2));
  EXPECT_FALSE(hit_all(two, 0));  // miss: {0}
  EXPECT_FALSE(hit_all(two, 4));  // miss: {4, 0}
  EXPECT_FALSE(hit_all(two, 8));  // miss, evicts LRU 0: {8, 4}
  EXPECT_FALSE(hit_all(two, 0));  // conflict miss, evicts 4: {0, 8}
  EXPECT_TRUE(hit_all(two, 8));   // hit
  EXPECT_FALSE(two.contains(LineAddr{4}));
  // Same capacity, 4 ways (2 sets): 0, 4, 8 all map to set 0 and all fit.
  Cache four(config(1024, 4));
  for (std::uint64_t l : {0, 4, 8}) EXPECT_FALSE(hit_all(four, l));
  for (std::uint64_t l : {0, 4, 8}) EXPECT_TRUE(hit_all(four, l));
}

TEST(Cache, LruVersusFifo) {
  // One 2-way set (256 B): A, B, A (hit), C.
  // LRU: the hit makes A recent, so C evicts B.   FIFO: C evicts A, the oldest insertion.
  Cache lru(config(256, 2, Replacement::Lru));
  Cache fifo(config(256, 2, Replacement::Fifo));
  for (Cache* c : {&lru, &fifo}) {
    hit_all(*c, 1);  // A
    hit_all(*c, 2);  // B
    EXPECT_TRUE(hit_all(*c, 1));
    hit_all(*c, 3);  // C
  }
  EXPECT_TRUE(lru.contains(LineAddr{1}));
  EXPECT_FALSE(lru.contains(LineAddr{2}));
  EXPECT_FALSE(fifo.contains(LineAddr{1}));
  EXPECT_TRUE(fifo.contains(LineAddr{2}));
}

TEST(Cache, RandomIsSeededAndFillsFreeWaysFirst) {
  auto run = [](std::uint64_t seed) {
    CacheConfig cfg = config(512, 4, Replacement::Random);  // one 4-way set
    cfg.seed = seed;
    Cache c(cfg);
    std::vector<bool> present;
    for (std::uint64_t l = 0; l < 4; ++l) hit_all(c, l);
    // The set has room for 4 lines: nothing was evicted yet.
    for (std::uint64_t l = 0; l < 4; ++l) EXPECT_TRUE(c.contains(LineAddr{l}));
    for (std::uint64_t l = 4; l < 40; ++l) hit_all(c, l);
    for (std::uint64_t l = 0; l < 40; ++l) present.push_back(c.contains(LineAddr{l}));
    return present;
  };
  EXPECT_EQ(run(7), run(7));  // reproducible
  const auto p = run(7);
  EXPECT_EQ(std::count(p.begin(), p.end(), true), 4);  // always full: 4 of the 40 lines
  EXPECT_TRUE(p[39]);                                 // the last line was just installed
}

// randm<M> (validation/h100/l1_geometry/README.md): LRU order, the victim
// drawn from the M least recently used lines.
TEST(Cache, RandomOldestEvictsOneOfTheMOldest) {
  std::array<int, 4> evicted{};
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    CacheConfig cfg = config(512, 4, Replacement::RandomOldest);  // one 4-way set
    cfg.victim_candidates = 2;
    cfg.seed = seed;
    Cache c(cfg);
    for (std::uint64_t l = 0; l < 4; ++l) hit_all(c, l);  // recency: 3 (newest) 2 1 0 (oldest)
    hit_all(c, 0);                                        // a hit makes 0 the newest: 0 3 2 1
    hit_all(c, 9);                                        // a miss evicts 1 or 2, never 0 or 3
    int gone = -1;
    for (std::uint64_t l = 0; l < 4; ++l)
      if (!c.contains(LineAddr{l})) gone = static_cast<int>(l);
    ASSERT_GE(gone, 0) << "seed " << seed;
    ++evicted[static_cast<std::size_t>(gone)];
  }
  EXPECT_EQ(evicted[0], 0);
  EXPECT_EQ(evicted[3], 0);
  EXPECT_GT(evicted[1], 60);  // about half each
  EXPECT_GT(evicted[2], 60);
}

TEST(Cache, RandomOldestOfOneIsLru) {
  CacheConfig a = config(2048, 4, Replacement::RandomOldest);
  a.victim_candidates = 1;
  Cache randm1(a), lru(config(2048, 4));
  std::mt19937 rng(3);
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t line = rng() % 40;
    ASSERT_EQ(randm1.read(LineAddr{line}, kAll).hit, lru.read(LineAddr{line}, kAll).hit) << "access " << i;
  }
}

// invalidate_all returns the cache to its constructed state, its random
// choices included: the same misses after it evict the same ways as in a new
// cache. (A kernel boundary invalidates every L1; without this, a kernel's
// counters depended on the kernels replayed before it.)
TEST(Cache, InvalidateAllRestartsTheRandomChoices) {
  for (const Replacement r : {Replacement::RandomOldest, Replacement::Random}) {
    CacheConfig cfg = config(2048, 4, r);  // 4 sets of 4 ways
    cfg.victim_candidates = 4;
    cfg.seed = 7;
    auto pass = [](Cache& c) {
      std::vector<std::uint8_t> hits;
      std::mt19937 lines(11);
      for (int i = 0; i < 400; ++i) hits.push_back(c.read(LineAddr{lines() % 64}, kAll).hit.bits());
      return hits;
    };
    Cache fresh(cfg), reused(cfg);
    const auto first = pass(fresh);
    ASSERT_EQ(pass(reused), first);
    reused.invalidate_all();
    EXPECT_EQ(pass(reused), first);  // as new; the generator went on from where it stopped, before
    EXPECT_LT(std::count(first.begin(), first.end(), std::uint8_t{0xf}), 300);  // misses made choices
  }
}

TEST(Cache, ParsesReplacementNames) {
  Replacement r{};
  int m = 0;
  EXPECT_TRUE(parse_replacement("randm8", r, m));
  EXPECT_EQ(r, Replacement::RandomOldest);
  EXPECT_EQ(m, 8);
  EXPECT_TRUE(parse_replacement("lru", r, m));
  EXPECT_EQ(r, Replacement::Lru);
  for (const char* bad : {"randm", "randm0", "randm-1", "randm8x", "randm123456", "LRU"})
    EXPECT_FALSE(parse_replacement(bad, r, m)) << bad;
  CacheConfig c = config(512, 4, Replacement::RandomOldest);
  c.victim_candidates = 8;
  EXPECT_NE(Cache(c).describe().find("randm8"), std::string::npos) << Cache(c).describe();
}

TEST(Cache, SectorFillsVersusLineFills) {
  // Sectored (5.x+): a miss on sector 0 fetches sector 0 only; a later read of
  // the whole line hits 1 sector and fetches the other 3.
  Cache sectored(config(1024, 2));
  ReadResult r = sectored.read(LineAddr{3}, sec(0));
  EXPECT_EQ(r.fetch, sec(0));
  r = sectored.read(LineAddr{3}, kAll);
  EXPECT_EQ(r.hit, sec(0));
  EXPECT_EQ(r.miss, SectorMask(0xe));
  EXPECT_EQ(r.fetch, SectorMask(0xe));
  // Whole-line fills (2.x/3.x): the first miss fetches all 4 sectors; the second read hits 4.
  Cache lines(config(1024, 2));
  ReadOptions line_fill;
  line_fill.fill_line = true;
  r = lines.read(LineAddr{3}, sec(0), line_fill);
  EXPECT_EQ(r.miss, sec(0));
  EXPECT_EQ(r.fetch, kAll);
  EXPECT_EQ(lines.read(LineAddr{3}, kAll, line_fill).hit, kAll);
}

TEST(Cache, EvictFirstLinesGoFirst) {
  // One 2-way set. A (normal), then B with evict-first (.cs): B is the next victim
  // although A is older. C replaces B; A survives.
  Cache c(config(256, 2));
  ReadOptions cs;
  cs.evict_first = true;
  c.read(LineAddr{1}, kAll);      // A
  c.read(LineAddr{2}, kAll, cs);  // B, evict-first
  c.read(LineAddr{3}, kAll);      // C evicts B
  EXPECT_TRUE(c.contains(LineAddr{1}));
  EXPECT_FALSE(c.contains(LineAddr{2}));
  EXPECT_TRUE(c.contains(LineAddr{3}));
  // An evict-first line never displaces a free way: one line in the set, then
  // an evict-first line, and both stay.
  Cache d(config(256, 2));
  d.read(LineAddr{2}, kAll, cs);
  d.read(LineAddr{1}, kAll);
  EXPECT_TRUE(d.contains(LineAddr{1}));
  EXPECT_TRUE(d.contains(LineAddr{2}));
  // A normal hit turns an evict-first line into the most recent one:
  // A (.cs), B, hit A, C -> C evicts B.
  Cache e(config(256, 2));
  e.read(LineAddr{1}, kAll, cs);  // A evict-first
  e.read(LineAddr{2}, kAll);      // B at the head; A stays at the victim end
  e.read(LineAddr{1}, kAll);      // normal hit: A moves to the head, B is LRU
  e.read(LineAddr{3}, kAll);      // C evicts B
  EXPECT_TRUE(e.contains(LineAddr{1}));
  EXPECT_FALSE(e.contains(LineAddr{2}));
}

TEST(Cache, WriteBackCounts) {
  // One 2-way set, write-back, write-allocate without fetch (byte masks).
  Cache c(config(256, 2, Replacement::Lru, true));
  // A full 32 B sector write: valid and dirty, no fetch needed; a read of it hits.
  WriteResult w = c.write(LineAddr{1}, bytes(0, 32));
  EXPECT_EQ(w.miss, sec(0));
  EXPECT_EQ(c.valid_sectors(LineAddr{1}), sec(0));
  EXPECT_EQ(c.dirty_sectors(LineAddr{1}), sec(0));
  EXPECT_EQ(c.read(LineAddr{1}, sec(0)).hit, sec(0));
  // A second write to the same sector hits.
  EXPECT_EQ(c.write(LineAddr{1}, bytes(8, 4)).hit, sec(0));
  // Two more lines evict line 1 (LRU): its one dirty sector, 32 bytes, is written back.
  c.read(LineAddr{2}, kAll);
  ReadResult r = c.read(LineAddr{3}, kAll);
  EXPECT_EQ(r.evicted.line, LineAddr{1});
  EXPECT_EQ(r.evicted.dirty, sec(0));
  EXPECT_EQ(r.evicted.dirty_partial, SectorMask{});
  EXPECT_EQ(r.evicted.bytes, bytes(0, 32));
}

TEST(Cache, PartialSectorWrites) {
  Cache c(config(256, 2, Replacement::Lru, true));
  // 4 bytes into sector 1: the sector holds written bytes but no data.
  WriteResult w = c.write(LineAddr{1}, bytes(32, 4));
  EXPECT_EQ(w.miss, sec(1));
  EXPECT_EQ(c.valid_sectors(LineAddr{1}), SectorMask{});
  EXPECT_EQ(c.dirty_sectors(LineAddr{1}), sec(1));
  // Another write into the same sector hits (the line and its bytes are there).
  EXPECT_EQ(c.write(LineAddr{1}, bytes(36, 4)).hit, sec(1));
  // A read of the sector misses: it must be fetched and merged; it stays dirty.
  ReadResult r = c.read(LineAddr{1}, sec(1));
  EXPECT_EQ(r.miss, sec(1));
  EXPECT_EQ(r.fetch, sec(1));
  EXPECT_EQ(c.valid_sectors(LineAddr{1}), sec(1));
  EXPECT_EQ(c.dirty_sectors(LineAddr{1}), sec(1));
  // Eight 4-byte writes covering sector 2 make it valid without any fetch.
  for (unsigned off = 64; off < 96; off += 4) c.write(LineAddr{1}, bytes(off, 4));
  EXPECT_EQ(c.valid_sectors(LineAddr{1}), sec(1) | sec(2));
  // A partially written sector that is evicted writes back just its bytes.
  c.write(LineAddr{1}, bytes(100, 2));  // sector 3, 2 bytes
  c.read(LineAddr{2}, kAll);
  const Eviction e = c.read(LineAddr{3}, kAll).evicted;
  EXPECT_EQ(e.dirty, SectorMask(0xe));        // sectors 1, 2, 3
  EXPECT_EQ(e.dirty_partial, sec(3));
  LineBytes expect = bytes(32, 64);  // sectors 1 and 2 whole
  expect.mark(100, 2);
  EXPECT_EQ(e.bytes, expect);
}

TEST(Cache, WithoutByteMasksPartialWritesGoAround) {
  Cache c(config(256, 2));
  EXPECT_EQ(c.write(LineAddr{1}, bytes(0, 4)).miss, sec(0));
  EXPECT_FALSE(c.contains(LineAddr{1}));  // nothing to keep without the data
  c.write(LineAddr{1}, bytes(0, 64));     // two full sectors are kept
  EXPECT_EQ(c.valid_sectors(LineAddr{1}), sec(0) | sec(1));
}

TEST(Cache, WriteThroughAndNoAllocate) {
  Cache c(config(256, 2, Replacement::Lru, true));
  WriteOptions through;
  through.write_back = false;
  c.write(LineAddr{1}, bytes(0, 128), through);
  EXPECT_EQ(c.valid_sectors(LineAddr{1}), kAll);
  EXPECT_EQ(c.dirty_sectors(LineAddr{1}), SectorMask{});
  WriteOptions around = through;
  around.allocate = false;
  EXPECT_EQ(c.write(LineAddr{2}, bytes(0, 32), around).miss, sec(0));
  EXPECT_FALSE(c.contains(LineAddr{2}));
  // ...but a resident line is updated.
  EXPECT_EQ(c.write(LineAddr{1}, bytes(0, 32), around).hit, sec(0));
}

TEST(Cache, FlushAndInvalidate) {
  Cache c(config(1024, 2, Replacement::Lru, true));
  c.write(LineAddr{1}, bytes(0, 64));   // 2 dirty sectors
  c.write(LineAddr{2}, bytes(96, 32));  // 1 dirty sector
  std::uint64_t lines = 0;
  EXPECT_EQ(c.flush_dirty([&](const Eviction& e) { lines += e.dirty.any() ? 1 : 0; }), 3u);
  EXPECT_EQ(lines, 2u);
  EXPECT_EQ(c.flush_dirty(), 0u);  // clean now
  EXPECT_TRUE(c.contains(LineAddr{1}));  // flushing keeps the data
  // invalidate returns what was dirty; the line is gone.
  c.write(LineAddr{1}, bytes(0, 32));
  EXPECT_EQ(c.invalidate(LineAddr{1}).dirty, sec(0));
  EXPECT_FALSE(c.contains(LineAddr{1}));
  EXPECT_FALSE(c.invalidate(LineAddr{1}).any());
  c.invalidate_all();
  EXPECT_FALSE(c.contains(LineAddr{2}));
  // An invalidated way is reused before any valid line is evicted: one 2-way set.
  Cache s(config(256, 2));
  hit_all(s, 1);
  hit_all(s, 2);
  s.invalidate(LineAddr{2});
  hit_all(s, 3);  // takes the free way
  EXPECT_TRUE(s.contains(LineAddr{1}));
}

TEST(Cache, XorFoldSetIndex) {
  // 4 sets (2 index bits), direct mapped. Modulo: lines 0, 4, 8, 12 all map to set 0.
  // XOR fold of 2-bit chunks: 4 = 0b01'00 -> 1, 8 = 0b10'00 -> 2, 12 = 0b11'00 -> 3.
  CacheConfig cfg = config(512, 1);
  cfg.set_hash = SetHash::XorFold;
  Cache x(cfg);
  EXPECT_EQ(x.set_of(LineAddr{4}), 1u);
  EXPECT_EQ(x.set_of(LineAddr{8}), 2u);
  EXPECT_EQ(x.set_of(LineAddr{12}), 3u);
  for (std::uint64_t l : {0, 4, 8, 12}) hit_all(x, l);
  for (std::uint64_t l : {0, 4, 8, 12}) EXPECT_TRUE(hit_all(x, l));
  Cache m(config(512, 1));
  for (std::uint64_t l : {0, 4, 8, 12}) hit_all(m, l);
  EXPECT_FALSE(m.contains(LineAddr{0}));  // conflicts under modulo
}

TEST(Cache, XorFoldSetIndexOfANonPowerOfTwoSetCount) {
  // 3 sets: 2-bit chunks, then modulo 3 (the 9.0 L2 partition has 10,240 sets).
  // 3 = 0b11 -> 3 -> 0; 7 = 0b01'11 -> 2; 13 = 0b11'01 -> 2; 15 = 0b11'11 -> 0; 9 = 0b10'01 -> 3 -> 0.
  CacheConfig cfg = config(3 * 128, 1);
  cfg.set_hash = SetHash::XorFold;
  Cache x(cfg);
  ASSERT_EQ(x.sets(), 3u);
  EXPECT_EQ(x.set_of(LineAddr{3}), 0u);
  EXPECT_EQ(x.set_of(LineAddr{7}), 2u);
  EXPECT_EQ(x.set_of(LineAddr{13}), 2u);
  EXPECT_EQ(x.set_of(LineAddr{15}), 0u);
  EXPECT_EQ(x.set_of(LineAddr{9}), 0u);
  EXPECT_EQ(x.set_of(LineAddr{2}), 2u);
}

// A reference LRU model (a list per set) against the cache, for narrow sets
// (tag scan) and wide ones (line index with backward-shift deletion).
void differential(int ways, int sets) {
  Cache c(config(static_cast<std::int64_t>(ways) * sets * 128, ways));
  std::vector<std::list<std::uint64_t>> model(static_cast<std::size_t>(sets));
  std::mt19937_64 rng(42);
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t line = rng() % static_cast<std::uint64_t>(ways * sets * 3);
    auto& set = model[line % static_cast<std::uint64_t>(sets)];
    if (rng() % 8 == 0) {  // invalidate now and then
      set.remove(line);
      c.invalidate(LineAddr{line});
      continue;
    }
    const bool expect_hit = std::find(set.begin(), set.end(), line) != set.end();
    ASSERT_EQ(c.read(LineAddr{line}, kAll).hit == kAll, expect_hit) << "step " << step;
    set.remove(line);
    set.push_front(line);
    if (set.size() > static_cast<std::size_t>(ways)) set.pop_back();
  }
}

TEST(Cache, MatchesReferenceLruNarrowSets) { differential(4, 8); }
TEST(Cache, MatchesReferenceLruWideSets) { differential(96, 4); }

TEST(Cache, RejectsImpossibleGeometry) {
  CacheConfig bad = config(1024, 2);
  bad.line_bytes = 96;
  EXPECT_THROW(Cache{bad}, std::invalid_argument);
  bad = config(1024, 0);
  EXPECT_THROW(Cache{bad}, std::invalid_argument);
  bad = config(1024, 2);
  bad.sector_bytes = 8;  // 16 sectors per line
  EXPECT_THROW(Cache{bad}, std::invalid_argument);
  bad = config(1024, 2);
  bad.fill_sectors = 3;  // not a power of two
  EXPECT_THROW(Cache{bad}, std::invalid_argument);
  bad.fill_sectors = 8;  // more than the line's 4 sectors
  EXPECT_THROW(Cache{bad}, std::invalid_argument);
}

// Sector promotion (CacheConfig::fill_sectors = 2: 64 B fills of two 32 B
// sectors; the 9.0 L2, src/memory/l2_partitions.hpp).
ReadOptions group_read() {
  ReadOptions o;
  o.group_fill = true;
  return o;
}

TEST(Cache, GroupFillPromotesThePartnerSector) {
  CacheConfig cfg = config(1024, 2);
  cfg.fill_sectors = 2;
  Cache c(cfg);
  // A miss on sector 0: the group {0, 1} is fetched, 1 promoted.
  ReadResult r = c.read(LineAddr{5}, sec(0), group_read());
  EXPECT_EQ(r.miss, sec(0));
  EXPECT_EQ(r.fetch, sec(0) | sec(1));
  EXPECT_EQ(r.promoted, sec(1));
  EXPECT_EQ(c.valid_sectors(LineAddr{5}), sec(0) | sec(1));
  // Sector 3: group {2, 3}, 2 promoted.
  r = c.read(LineAddr{5}, sec(3), group_read());
  EXPECT_EQ(r.fetch, sec(2) | sec(3));
  EXPECT_EQ(r.promoted, sec(2));
  // The promoted sectors then hit, and nothing is fetched.
  r = c.read(LineAddr{5}, sec(1) | sec(2), group_read());
  EXPECT_EQ(r.hit, sec(1) | sec(2));
  EXPECT_EQ(r.fetch, SectorMask{});
  EXPECT_EQ(r.promoted, SectorMask{});
}

TEST(Cache, GroupFillSkipsValidSectorsAndPlainReads) {
  CacheConfig cfg = config(1024, 2, Replacement::Lru, true);
  cfg.fill_sectors = 2;
  Cache c(cfg);
  c.write(LineAddr{9}, bytes(32, 32));  // sector 1 fully written: valid
  // A miss on sector 0 fetches only sector 0: its partner already holds data.
  ReadResult r = c.read(LineAddr{9}, sec(0), group_read());
  EXPECT_EQ(r.fetch, sec(0));
  EXPECT_EQ(r.promoted, SectorMask{});
  // A plain read (an atomic's) fetches what it asks for and promotes nothing.
  r = c.read(LineAddr{9}, sec(2));
  EXPECT_EQ(r.fetch, sec(2));
  EXPECT_EQ(r.promoted, SectorMask{});
}

TEST(Cache, WholeLineFillGroups) {
  CacheConfig cfg = config(256, 2, Replacement::Lru, true);  // one set of two ways
  cfg.fill_sectors = 4;                                       // a miss fetches the whole line
  Cache c(cfg);
  EXPECT_EQ(c.read(LineAddr{1}, sec(0), group_read()).promoted, sec(1) | sec(2) | sec(3));
  c.read(LineAddr{2}, sec(0), group_read());
  c.read(LineAddr{3}, sec(0), group_read());  // evicts line 1 (LRU)
  EXPECT_FALSE(c.contains(LineAddr{1}));
  // A read of a line whose other sectors were written fetches only the rest of the group.
  c.write(LineAddr{1}, bytes(0, 64));  // sectors 0 and 1 written whole: valid
  EXPECT_EQ(c.read(LineAddr{1}, sec(3), group_read()).fetch, sec(2) | sec(3));
  EXPECT_NE(c.describe().find("128 B fills"), std::string::npos) << c.describe();
}

TEST(LineBytesTest, TouchedAndFull) {
  LineBytes b;
  b.mark(30, 4);  // bytes 30..33: sectors 0 and 1 touched, none full
  EXPECT_EQ(b.touched(32), sec(0) | sec(1));
  EXPECT_EQ(b.full(32), SectorMask{});
  b.mark(96, 32);
  EXPECT_EQ(b.full(32), sec(3));
  EXPECT_EQ(LineBytes::all(128).full(32), kAll);
}

}  // namespace
}  // namespace warpscope::test
