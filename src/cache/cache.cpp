// The sectored set-associative cache (warpscope/cache.hpp).
//
// Storage, sized at construction: per set one block of `ways` line addresses
// followed by `ways` 8-byte slots (sector state and replacement links;
// cache/set_order.hpp), so that a lookup reads one contiguous region; plus
// 16 B of written-byte mask per way where the cache keeps byte masks (touched
// only when a partial write happens). A 50 MB L2 of 128 B lines is 409,600
// ways: 6.5 MB of blocks and 6.5 MB of byte masks.
//
// Lookups scan the set's line addresses (branch-free, vectorised) when a set
// has at most kScanWays ways; wider sets (the 7.x/8.x L1 is modelled as 4 sets
// of up to 384 ways, the 9.0 L1 as 32 sets of 56) scan 16-bit fingerprints
// instead (cache/way_fingerprints.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#include "cache/big_buffer.hpp"
#include "cache/set_order.hpp"
#include "cache/tag_scan.hpp"
#include "cache/way_fingerprints.hpp"
#include "warpscope/cache.hpp"

namespace warpscope {
namespace {

using cache::kEmptyTag;
using cache::Slot;
constexpr std::uint32_t kScanWays = 32;

// Slot::flags. kPartial: some bytes were written into sectors that hold no data
// (their bytes are in the byte-mask array; stale there otherwise).
enum : std::uint8_t { kEvictFirst = 1, kPartial = 2 };

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
int log2_ceil(std::uint64_t v) {
  int s = 0;
  while ((1ull << s) < v) ++s;
  return s;
}

// The bytes of the sectors in `m` (sector_bytes 32 fast path).
LineBytes sector_bytes_of(SectorMask m, unsigned sector_bytes) {
  LineBytes b;
  for (int s = 0; s < 8; ++s)
    if (m.test(s)) b.mark(static_cast<unsigned>(s) * sector_bytes, sector_bytes);
  return b;
}

LineBytes masked(const LineBytes& b, const LineBytes& m) {
  LineBytes r;
  r.w[0] = b.w[0] & m.w[0];
  r.w[1] = b.w[1] & m.w[1];
  return r;
}

}  // namespace

struct Cache::Impl {
  CacheConfig cfg;
  std::uint32_t sets = 1;
  std::uint32_t ways = 1;
  int sectors = 4;
  SectorMask all_sectors;
  std::uint64_t set_mask = 0;  // sets - 1 when a power of two
  bool sets_pow2 = true;
  int fold_bits = 0;
  std::uint64_t rng = 1;
  std::uint64_t candidates = 1;  // RandomOldest: min(M, ways)

  std::size_t stride = 0;              // bytes per set block: ways x (8 B tag + 8 B slot)
  bool promotion = false;              // fill_sectors > 1
  std::array<std::uint8_t, 256> group_of{};  // sector mask -> the aligned fill groups it touches
  cache::BigBuffer store;              // sets blocks
  cache::BigArray<LineBytes> partial;  // sets * ways when cfg.byte_masks (valid where kPartial)
  cache::SetOrder order;
  cache::WayFingerprints fingerprints;  // when ways > kScanWays
  // Bit per set: it allocated a line since the last invalidate_all. A kernel
  // of a trace touches a few MB, and resetting all 400K ways of a 50 MB L2 plus
  // 132 L1s at every kernel boundary took 17% of `analyze` on the suite's
  // 90-kernel global_rules trace. Set without a test (a flag array and a list
  // of sets cost ~7% of an sm_90 record in bench/memory_bench.cpp).
  std::vector<std::uint64_t> touched_bits;
  bool track_sets = true;
  // Any line allocated since the last invalidate_all: an untracked cache (an
  // L1) that no record reached is not swept. Resetting all 132 sm_90 L1s was
  // ~390 us per kernel, 8 s for a trace of 20,000 one-record launches.
  bool allocated = false;

  explicit Impl(const CacheConfig& c) : cfg(c) {
    if (c.line_bytes < 8 || c.line_bytes > 128 || !is_pow2(static_cast<std::uint64_t>(c.line_bytes)))
      throw std::invalid_argument(fmt::format("{}: line size {} B is not a power of two in 8..128", c.name, c.line_bytes));
    if (c.sector_bytes < 1 || !is_pow2(static_cast<std::uint64_t>(c.sector_bytes)) || c.sector_bytes > c.line_bytes ||
        c.line_bytes / c.sector_bytes > 8)
      throw std::invalid_argument(fmt::format("{}: sector size {} B does not divide a {} B line into 1..8 sectors",
                                              c.name, c.sector_bytes, c.line_bytes));
    if (c.fill_sectors < 1 || !is_pow2(static_cast<std::uint64_t>(c.fill_sectors)) ||
        c.fill_sectors > c.line_bytes / c.sector_bytes)
      throw std::invalid_argument(fmt::format("{}: fill groups of {} sectors do not divide a line of {} sectors",
                                              c.name, c.fill_sectors, c.line_bytes / c.sector_bytes));
    if (c.replacement == Replacement::RandomOldest && c.victim_candidates < 1)
      throw std::invalid_argument(fmt::format("{}: randm needs at least 1 victim candidate, not {}", c.name,
                                              c.victim_candidates));
    if (c.ways < 1 || c.ways >= 0xffff)
      throw std::invalid_argument(fmt::format("{}: {} ways is out of range (1..65534)", c.name, c.ways));
    if (c.size_bytes < 0) throw std::invalid_argument(fmt::format("{}: negative size", c.name));
    ways = static_cast<std::uint32_t>(c.ways);
    const auto lines = static_cast<std::uint64_t>(c.size_bytes) / static_cast<std::uint64_t>(c.line_bytes);
    sets = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, lines / ways));
    sectors = c.line_bytes / c.sector_bytes;
    all_sectors = SectorMask::first(sectors);
    sets_pow2 = is_pow2(sets);
    set_mask = sets - 1;
    fold_bits = log2_ceil(sets);
    reseed();
    candidates = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(1, c.victim_candidates)), ways);
    const std::size_t n = std::size_t{sets} * ways;
    promotion = c.fill_sectors > 1;
    stride = std::size_t{ways} * (sizeof(std::uint64_t) + sizeof(Slot));
    for (unsigned m = 0; promotion && m < 256; ++m)
      for (unsigned s = 0; s < 8; ++s)
        if ((m >> s) & 1u) {
          const unsigned g = static_cast<unsigned>(c.fill_sectors);
          group_of[m] |= static_cast<std::uint8_t>(((1u << g) - 1u) << (s / g * g));
        }
    store = cache::BigBuffer(stride * sets);
    order = cache::SetOrder(sets, ways);
    for (std::uint32_t set = 0; set < sets; ++set) {
      std::byte* b = store.data() + set * stride;
      for (std::uint32_t w = 0; w < ways; ++w) {
        ::new (static_cast<void*>(b + w * sizeof(std::uint64_t))) std::uint64_t(kEmptyTag);
        ::new (static_cast<void*>(b + ways * sizeof(std::uint64_t) + w * sizeof(Slot))) Slot{};
      }
      order.reset(set, slots_of(set));
    }
    if (c.byte_masks) partial = cache::BigArray<LineBytes>(n, LineBytes{});
    if (ways > kScanWays) fingerprints = cache::WayFingerprints(sets, ways);
    // Small caches (the L1s: 32 sets) are swept whole: as cheap, and no bit to set per miss.
    track_sets = sets >= 256;
    touched_bits.assign(track_sets ? (std::size_t{sets} + 63) / 64 : 0, 0);
  }

  std::uint64_t* tags_of(std::uint32_t set) const {
    return std::launder(reinterpret_cast<std::uint64_t*>(store.data() + set * stride));
  }
  Slot* slots_of(std::uint32_t set) const {
    return std::launder(reinterpret_cast<Slot*>(store.data() + set * stride + ways * sizeof(std::uint64_t)));
  }


  std::uint32_t set_of(std::uint64_t line) const {
    if (cfg.set_hash == SetHash::XorFold && fold_bits > 0) {
      const std::uint64_t m = (1ull << fold_bits) - 1;
      std::uint64_t h = 0;
      for (std::uint64_t x = line; x != 0; x >>= fold_bits) h ^= x & m;
      // h < 2^fold_bits < 2 x sets: the modulo is one conditional subtraction
      // (a 64-bit division per lookup measured ~4% of an L2 read).
      return static_cast<std::uint32_t>(sets_pow2 ? (h & set_mask) : (h >= sets ? h - sets : h));
    }
    return static_cast<std::uint32_t>(sets_pow2 ? (line & set_mask) : (line % sets));
  }

  // Where a line is, or would go.
  struct Lookup {
    std::uint32_t set;
    std::uint64_t* tags;        // the set's line addresses
    Slot* base;                 // the set's slots
    std::uint16_t way;          // kNone: absent
    std::uint16_t fingerprint;  // wide sets: the line's fingerprint
    std::size_t slot(std::uint32_t ways_per_set) const { return std::size_t{set} * ways_per_set + way; }
  };

  Lookup lookup(std::uint64_t line) const {
    Lookup l;
    l.set = set_of(line);
    l.tags = tags_of(l.set);
    l.base = slots_of(l.set);
    l.way = cache::kNone;
    l.fingerprint = 0;
    if (fingerprints.enabled()) {
      // The replacement order then touches slots at unpredictable ways (LRU:
      // the hit way's neighbours; randm: up to M-1 links back from the LRU
      // way): fetch the set's slots now, alongside the fingerprint scan, so
      // that those steps do not wait for one host-cache miss each (measured:
      // randm8 on sm_90 was 20-35% slower than LRU without it, equal with it).
      prefetch_lines(l.base, ways * sizeof(Slot));
      l.fingerprint = cache::WayFingerprints::of(line);
      l.way = fingerprints.find(l.set, l.fingerprint, line, l.tags, cache::kNone);
      return l;
    }
    // The slots and the order header are read right after the scan (the
    // victim, its neighbours): ask for every line of the block at once so that
    // their host-cache misses overlap instead of following one another.
    prefetch_block(l.set);
    const std::uint32_t match = cache::scan_tags(l.tags, ways, line);
    if (match != 0) l.way = static_cast<std::uint16_t>(std::countr_zero(match));
    return l;
  }

  // The way a miss in `set` would take now: a free way, else the LRU/oldest line.
  std::uint16_t next_victim(std::uint32_t set) const {
    const cache::SetHeader& h = *order.header(set);
    return h.first_invalid != cache::kNone ? h.first_invalid : h.tail;
  }

  // What `line` touches whatever the outcome: scanned sets, the whole set
  // block; wide sets, the way a miss would take and the head of the
  // replacement order (the set header names both without a host cache miss).
  // Not the fingerprints: a scattered warp's 32 lines share few sets, and 16
  // prefetches per line for the same rows measured no better than none.
  void prefetch(std::uint64_t line) const {
    const std::uint32_t set = set_of(line);
    if (fingerprints.enabled()) {
      const std::uint16_t victim = next_victim(set);
      __builtin_prefetch(tags_of(set) + victim, 1);
      __builtin_prefetch(slots_of(set) + victim, 1);
      const std::uint16_t head = order.header(set)->head;
      if (head != cache::kNone) __builtin_prefetch(slots_of(set) + head, 1);
      return;
    }
    prefetch_block(set);
  }
  void prefetch_block(std::uint32_t set) const {
    __builtin_prefetch(order.header(set), 1);
    prefetch_lines(store.data() + set * stride, stride);
  }
  static void prefetch_lines(const void* from, std::size_t bytes) {
    const auto first = reinterpret_cast<std::uintptr_t>(from) & ~std::uintptr_t{63};
    const auto last = reinterpret_cast<std::uintptr_t>(from) + bytes - 1;
    for (std::uintptr_t a = first; a <= last; a += 64) __builtin_prefetch(reinterpret_cast<const void*>(a), 1);
  }

  void reseed() { rng = cfg.seed == 0 ? 1 : cfg.seed; }
  std::uint64_t next_random() {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  }

  SectorMask partial_sectors(const Slot& st, std::size_t slot) const {
    if ((st.flags & kPartial) == 0) return {};
    return partial[slot].touched(static_cast<unsigned>(cfg.sector_bytes));
  }

  Eviction eviction_of(std::uint64_t tag, const Slot& st, std::size_t slot) const {
    Eviction e;
    e.line = LineAddr{tag};
    e.dirty = SectorMask(st.dirty);
    if (e.dirty.none()) return e;
    const SectorMask valid(st.valid);
    e.dirty_partial = e.dirty & ~valid;
    e.bytes = sector_bytes_of(e.dirty & valid, static_cast<unsigned>(cfg.sector_bytes));
    if (e.dirty_partial.any() && (st.flags & kPartial) != 0) e.bytes |= partial[slot];
    return e;
  }

  // Installs `line` into a free or victim way of the looked-up set (the
  // victim's dirty data goes to `evicted`); `l.way` becomes that way.
  Slot& allocate(Lookup& l, std::uint64_t line, bool evict_first, Eviction& evicted) {
    std::uint16_t way = order.first_invalid(l.set);
    if (way == cache::kNone) {
      way = order.last_valid(l.set, l.base);
      if ((l.base[way].flags & kEvictFirst) == 0) {
        if (cfg.replacement == Replacement::Random) {
          way = static_cast<std::uint16_t>(next_random() % ways);
        } else if (cfg.replacement == Replacement::RandomOldest) {
          // The r-th least recently used line (0: the LRU one), r < M.
          // r uniform in [0, M): the low 32 random bits scaled (no division).
          for (std::uint64_t r = ((next_random() & 0xffffffffu) * candidates) >> 32; r != 0; --r) way = l.base[way].prev;
        }
      }
      if (l.base[way].dirty != 0) evicted = eviction_of(l.tags[way], l.base[way], std::size_t{l.set} * ways + way);
    }
    if (track_sets) touched_bits[l.set >> 6] |= std::uint64_t{1} << (l.set & 63);
    allocated = true;
    l.way = way;
    Slot& st = l.base[way];
    l.tags[way] = line;
    st.valid = st.dirty = 0;
    st.flags = evict_first ? kEvictFirst : 0;
    if (fingerprints.enabled()) fingerprints.set(l.set, way, l.fingerprint);
    order.install(l.set, l.base, way, evict_first);
    return st;
  }

  void touch(const Lookup& l, bool evict_first_access) {
    if (evict_first_access) return;  // streaming accesses do not promote a line
    l.base[l.way].flags &= static_cast<std::uint8_t>(~kEvictFirst);
    if (cfg.replacement == Replacement::Lru || cfg.replacement == Replacement::RandomOldest)
      order.move_to_head(l.set, l.base, l.way);
  }

  // Fold away the written bytes of sectors that now hold data; a sector whose
  // every byte was written becomes valid data.
  void settle_partial(Slot& st, std::size_t slot) {
    if ((st.flags & kPartial) == 0) return;
    const auto sb = static_cast<unsigned>(cfg.sector_bytes);
    LineBytes& p = partial[slot];
    p = masked(p, sector_bytes_of(~SectorMask(st.valid) & all_sectors, sb));
    const SectorMask complete = p.full(sb);
    if (complete.any()) {
      st.valid |= complete.bits();
      p = masked(p, sector_bytes_of(~complete & all_sectors, sb));
    }
    if (p.none()) st.flags &= static_cast<std::uint8_t>(~kPartial);
  }

  // Group fill: the whole aligned groups of `fetch`, except what is valid.
  SectorMask grouped(SectorMask fetch, SectorMask valid) const {
    return SectorMask(group_of[fetch.bits()]) & ~valid & all_sectors;
  }

  ReadResult read(LineAddr line, SectorMask req, const ReadOptions& o) {
    ReadResult r;
    req &= all_sectors;
    const bool groups = o.group_fill && promotion;
    Lookup l = lookup(line.value);
    if (l.way != cache::kNone) {
      Slot& st = l.base[l.way];
      const SectorMask valid(st.valid);
      r.hit = req & valid;
      r.miss = req & ~valid;
      if (r.miss.any()) {
        r.fetch = o.allocate && o.fill_line ? (all_sectors & ~valid) : r.miss;
        if (groups) {
          r.fetch = grouped(r.fetch, valid);
          r.promoted = r.fetch & ~req;
        }
        if (o.allocate) {
          st.valid |= r.fetch.bits();
          settle_partial(st, l.slot(ways));
        }
      }
      touch(l, o.evict_first);
      return r;
    }
    r.miss = req;
    r.fetch = o.allocate && o.fill_line ? all_sectors : req;
    if (groups) {
      r.fetch = grouped(r.fetch, SectorMask{});
      r.promoted = r.fetch & ~req;
    }
    if (o.allocate) {
      Slot& st = allocate(l, line.value, o.evict_first, r.evicted);
      st.valid = r.fetch.bits();
    }
    return r;
  }

  WriteResult write(LineAddr line, const LineBytes& bytes, const WriteOptions& o) {
    WriteResult r;
    const auto sb = static_cast<unsigned>(cfg.sector_bytes);
    const SectorMask touched = bytes.touched(sb) & all_sectors;
    const SectorMask full = bytes.full(sb) & all_sectors;
    Lookup l = lookup(line.value);
    Slot* st = nullptr;
    if (l.way != cache::kNone) {
      r.line_present = true;
      st = &l.base[l.way];
      const SectorMask held = SectorMask(st->valid) | partial_sectors(*st, l.slot(ways));
      r.hit = touched & held;
      r.miss = touched & ~held;
      touch(l, o.evict_first);
    } else {
      r.miss = touched;
      if (!o.allocate || (!cfg.byte_masks && full.none())) return r;
      st = &allocate(l, line.value, o.evict_first, r.evicted);
    }
    const std::size_t slot = l.slot(ways);
    SectorMask kept = full | SectorMask(st->valid);
    st->valid |= full.bits();
    const SectorMask partial_now = touched & ~kept;
    if (partial_now.any() && cfg.byte_masks) {
      // Without byte masks a partial write into an absent sector is written around.
      const LineBytes add = masked(bytes, sector_bytes_of(partial_now, sb));
      if ((st->flags & kPartial) != 0) partial[slot] |= add;
      else partial[slot] = add;  // the mask array is stale unless kPartial
      st->flags |= kPartial;
      settle_partial(*st, slot);
      kept |= partial_now;
    } else if ((st->flags & kPartial) != 0 && full.any()) {
      settle_partial(*st, slot);  // whole-sector writes over partially written sectors
    }
    if (o.write_back) st->dirty |= (touched & kept).bits();
    return r;
  }

  // Drops a present line; returns its dirty data.
  Eviction invalidate(std::uint64_t line) {
    const Lookup l = lookup(line);
    if (l.way == cache::kNone) return {};
    Slot& st = l.base[l.way];
    Eviction e;
    if (st.dirty != 0) e = eviction_of(line, st, l.slot(ways));
    if (fingerprints.enabled()) fingerprints.clear(l.set, l.way);
    l.tags[l.way] = kEmptyTag;
    st.valid = st.dirty = st.flags = 0;
    order.release(l.set, l.base, l.way);
    return e;
  }

  void reset_set(std::uint32_t set) {
    std::uint64_t* t = tags_of(set);
    Slot* l = slots_of(set);
    for (std::uint32_t w = 0; w < ways; ++w) {
      t[w] = kEmptyTag;
      l[w].valid = l[w].dirty = l[w].flags = 0;
      if (fingerprints.enabled()) fingerprints.clear(set, static_cast<std::uint16_t>(w));
    }
    order.reset(set, l);
  }

  // The sets that allocated since the last invalidate_all, in set order (as a
  // sweep of every set visits them; the others hold no line and are as
  // invalidate_all left them); every set of an untracked cache that allocated.
  template <typename Fn>
  void for_touched_sets(Fn&& fn) {
    if (!allocated) return;
    if (!track_sets) {
      for (std::uint32_t set = 0; set < sets; ++set) fn(set);
      return;
    }
    for (std::size_t i = 0; i < touched_bits.size(); ++i)
      for (std::uint64_t bits = touched_bits[i]; bits != 0; bits &= bits - 1)
        fn(static_cast<std::uint32_t>(i * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
  }

  // The cache as constructed, its random choices included: a kernel's
  // evictions then do not depend on the kernels replayed before it.
  void invalidate_all() {
    for_touched_sets([&](std::uint32_t set) { reset_set(set); });
    std::fill(touched_bits.begin(), touched_bits.end(), std::uint64_t{0});
    allocated = false;
    reseed();
  }

  template <typename Fn>
  void for_each_dirty(Fn&& fn) {
    for_touched_sets([&](std::uint32_t set) {
      std::uint64_t* t = tags_of(set);
      Slot* l = slots_of(set);
      for (std::uint32_t w = 0; w < ways; ++w)
        if (t[w] != kEmptyTag && l[w].dirty != 0) fn(t[w], l[w], std::size_t{set} * ways + w);
    });
  }
};

Cache::Cache(const CacheConfig& config) : impl_(std::make_unique<Impl>(config)) {}
Cache::~Cache() = default;
Cache::Cache(Cache&&) noexcept = default;
Cache& Cache::operator=(Cache&&) noexcept = default;

ReadResult Cache::read(LineAddr line, SectorMask sectors, const ReadOptions& options) {
  return impl_->read(line, sectors, options);
}

WriteResult Cache::write(LineAddr line, const LineBytes& bytes, const WriteOptions& options) {
  return impl_->write(line, bytes, options);
}

Eviction Cache::invalidate(LineAddr line) { return impl_->invalidate(line.value); }

void Cache::invalidate_all() { impl_->invalidate_all(); }

void Cache::flush_visit(void (*fn)(void*, const Eviction&), void* ctx, std::uint64_t& sectors) {
  Impl& m = *impl_;
  m.for_each_dirty([&](std::uint64_t tag, Slot& st, std::size_t slot) {
    const Eviction e = m.eviction_of(tag, st, slot);
    sectors += static_cast<std::uint64_t>(e.dirty.count());
    if (fn) fn(ctx, e);
    st.dirty = 0;
  });
}

std::uint64_t Cache::flush_dirty() {
  std::uint64_t sectors = 0;
  flush_visit(nullptr, nullptr, sectors);
  return sectors;
}

void Cache::prefetch(LineAddr line) const { impl_->prefetch(line.value); }

bool Cache::contains(LineAddr line) const { return impl_->lookup(line.value).way != cache::kNone; }

SectorMask Cache::valid_sectors(LineAddr line) const {
  const auto l = impl_->lookup(line.value);
  return l.way == cache::kNone ? SectorMask{} : SectorMask(l.base[l.way].valid);
}

SectorMask Cache::dirty_sectors(LineAddr line) const {
  const auto l = impl_->lookup(line.value);
  return l.way == cache::kNone ? SectorMask{} : SectorMask(l.base[l.way].dirty);
}

std::uint32_t Cache::set_of(LineAddr line) const { return impl_->set_of(line.value); }
std::uint32_t Cache::sets() const { return impl_->sets; }
int Cache::ways() const { return static_cast<int>(impl_->ways); }
int Cache::sectors_per_line() const { return impl_->sectors; }
std::int64_t Cache::capacity() const {
  return static_cast<std::int64_t>(impl_->sets) * impl_->ways * impl_->cfg.line_bytes;
}
const CacheConfig& Cache::config() const { return impl_->cfg; }

std::string Cache::describe() const {
  const Impl& m = *impl_;
  const std::int64_t cap = capacity();
  const std::string size = cap % (1024 * 1024) == 0   ? fmt::format("{} MB", cap / (1024 * 1024))
                           : cap % 1024 == 0          ? fmt::format("{} KB", cap / 1024)
                                                      : fmt::format("{} B", cap);
  return fmt::format("{}: {}, {} sets x {} ways, {} B lines of {} x {} B sectors, {}, {} set index{}{}", m.cfg.name,
                     size, m.sets, m.ways, m.cfg.line_bytes, m.sectors, m.cfg.sector_bytes,
                     m.cfg.replacement == Replacement::RandomOldest ? fmt::format("randm{}", m.cfg.victim_candidates)
                                                                    : std::string(to_string(m.cfg.replacement)),
                     to_string(m.cfg.set_hash),
                     m.cfg.byte_masks ? ", byte-masked writes" : "",
                     m.promotion ? fmt::format(", {} B fills", m.cfg.fill_sectors * m.cfg.sector_bytes) : "");
}

}  // namespace warpscope
