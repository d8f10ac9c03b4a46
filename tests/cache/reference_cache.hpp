// A deliberately plain model of warpscope::Cache, for differential tests: the
// same rules (warpscope/cache.hpp, cache/set_order.hpp) written the obvious
// way, with a linear search for lookups and a vector per set for the
// replacement order, so that a fast-path bug in Cache shows up as a mismatch.
//
// The order of a set: valid ways first (most recently used / newest first),
// then the free ways. A miss takes the first free way; when there is none, the
// last valid way (Random: that one only when it is evict-first, else a random
// way). Evict-first installs go just before the free ways.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "warpscope/cache.hpp"

namespace warpscope::test {

class ReferenceCache {
 public:
  explicit ReferenceCache(const CacheConfig& c) : cfg_(c) {
    ways_ = static_cast<std::uint32_t>(c.ways);
    const auto lines = static_cast<std::uint64_t>(c.size_bytes) / static_cast<std::uint64_t>(c.line_bytes);
    sets_ = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, lines / ways_));
    sectors_ = c.line_bytes / c.sector_bytes;
    rng_ = c.seed == 0 ? 1 : c.seed;
    way_.assign(std::size_t{sets_} * ways_, Way{});
    order_.assign(sets_, {});
    for (std::uint32_t s = 0; s < sets_; ++s) reset_order(s);
  }

  std::uint32_t set_of(std::uint64_t line) const {
    std::uint64_t h = line;
    if (cfg_.set_hash == SetHash::XorFold) {
      int bits = 0;
      while ((1ull << bits) < sets_) ++bits;
      if (bits > 0) {
        h = 0;
        for (std::uint64_t x = line; x != 0; x >>= bits) h ^= x & ((1ull << bits) - 1);
      }
    }
    return static_cast<std::uint32_t>(h % sets_);
  }

  ReadResult read(std::uint64_t line, SectorMask req, const ReadOptions& o) {
    ReadResult r;
    req &= all();
    const bool groups = o.group_fill && cfg_.fill_sectors > 1;
    const std::uint32_t set = set_of(line);
    const int w = find(set, line);
    if (w >= 0) {
      Way& x = at(set, w);
      r.hit = req & x.valid;
      r.miss = req & ~x.valid;
      if (r.miss.any()) {
        r.fetch = o.allocate && o.fill_line ? (all() & ~x.valid) : r.miss;
        if (groups) {
          r.fetch = whole_groups(r.fetch) & ~x.valid;
          r.promoted = r.fetch & ~req;
        }
        if (o.allocate) {
          x.valid |= r.fetch;
          settle(x);
        }
      }
      touch(set, w, o.evict_first);
      return r;
    }
    r.miss = req;
    r.fetch = o.allocate && o.fill_line ? all() : req;
    if (groups) {
      r.fetch = whole_groups(r.fetch);
      r.promoted = r.fetch & ~req;
    }
    if (o.allocate) {
      Way& x = at(set, allocate(set, line, o.evict_first, r.evicted));
      x.valid = r.fetch;
    }
    return r;
  }

  WriteResult write(std::uint64_t line, const LineBytes& bytes, const WriteOptions& o) {
    WriteResult r;
    const auto sb = static_cast<unsigned>(cfg_.sector_bytes);
    const SectorMask touched = bytes.touched(sb) & all();
    const SectorMask full = bytes.full(sb) & all();
    const std::uint32_t set = set_of(line);
    int w = find(set, line);
    r.line_present = w >= 0;
    if (w >= 0) {
      const Way& x = at(set, w);
      const SectorMask held = x.valid | (x.has_partial ? x.partial.touched(sb) : SectorMask{});
      r.hit = touched & held;
      r.miss = touched & ~held;
      touch(set, w, o.evict_first);
    } else {
      r.miss = touched;
      if (!o.allocate || (!cfg_.byte_masks && full.none())) return r;
      w = allocate(set, line, o.evict_first, r.evicted);
    }
    Way& x = at(set, w);
    SectorMask kept = full | x.valid;
    x.valid |= full;
    const SectorMask partial_now = touched & ~kept;
    if (partial_now.any() && cfg_.byte_masks) {
      const LineBytes add = and_bytes(bytes, bytes_of(partial_now));
      if (x.has_partial) x.partial |= add;
      else x.partial = add;
      x.has_partial = true;
      settle(x);
      kept |= partial_now;
    } else if (x.has_partial && full.any()) {
      settle(x);
    }
    if (o.write_back) x.dirty |= touched & kept;
    return r;
  }

  Eviction invalidate(std::uint64_t line) {
    const std::uint32_t set = set_of(line);
    const int w = find(set, line);
    if (w < 0) return {};
    Way& x = at(set, w);
    const Eviction e = x.dirty.any() ? eviction_of(x) : Eviction{};
    x = Way{};
    std::vector<std::uint16_t>& order = order_[set];
    order.erase(std::find(order.begin(), order.end(), static_cast<std::uint16_t>(w)));
    order.push_back(static_cast<std::uint16_t>(w));
    return e;
  }

  // As constructed: no line, and the random choices start again from the seed.
  void invalidate_all() {
    std::fill(way_.begin(), way_.end(), Way{});
    for (std::uint32_t s = 0; s < sets_; ++s) reset_order(s);
    rng_ = cfg_.seed == 0 ? 1 : cfg_.seed;
  }

  // Every dirty line, by set and way, cleaned.
  std::vector<Eviction> flush_dirty() {
    std::vector<Eviction> out;
    for (Way& x : way_)
      if (x.present && x.dirty.any()) {
        out.push_back(eviction_of(x));
        x.dirty = SectorMask{};
      }
    return out;
  }

  bool contains(std::uint64_t line) const { return find(set_of(line), line) >= 0; }
  SectorMask valid_sectors(std::uint64_t line) const { return field(line, &Way::valid); }
  SectorMask dirty_sectors(std::uint64_t line) const { return field(line, &Way::dirty); }

 private:
  struct Way {
    bool present = false;
    std::uint64_t tag = 0;
    SectorMask valid, dirty;
    bool evict_first = false;
    bool has_partial = false;  // partial holds bytes written into sectors without data
    LineBytes partial;
  };

  static SectorMask one(int s) { return SectorMask(static_cast<std::uint8_t>(1u << s)); }
  // Every sector of each aligned fill group `m` touches.
  SectorMask whole_groups(SectorMask m) const {
    SectorMask r;
    for (int s = 0; s < sectors_; ++s)
      if (m.test(s)) {
        const int first = s - s % cfg_.fill_sectors;
        for (int k = first; k < first + cfg_.fill_sectors; ++k) r |= one(k);
      }
    return r;
  }

  SectorMask all() const { return SectorMask::first(sectors_); }
  Way& at(std::uint32_t set, int w) { return way_[std::size_t{set} * ways_ + static_cast<std::size_t>(w)]; }
  const Way& at(std::uint32_t set, int w) const { return way_[std::size_t{set} * ways_ + static_cast<std::size_t>(w)]; }

  int find(std::uint32_t set, std::uint64_t line) const {
    for (std::uint32_t w = 0; w < ways_; ++w)
      if (at(set, static_cast<int>(w)).present && at(set, static_cast<int>(w)).tag == line) return static_cast<int>(w);
    return -1;
  }
  SectorMask field(std::uint64_t line, SectorMask Way::*member) const {
    const std::uint32_t set = set_of(line);
    const int w = find(set, line);
    return w < 0 ? SectorMask{} : at(set, w).*member;
  }

  void reset_order(std::uint32_t set) {
    order_[set].clear();
    for (std::uint32_t w = 0; w < ways_; ++w) order_[set].push_back(static_cast<std::uint16_t>(w));
  }
  // Position of the first free way in the order (== size when the set is full).
  std::size_t first_free(std::uint32_t set) const {
    const std::vector<std::uint16_t>& order = order_[set];
    std::size_t i = 0;
    while (i < order.size() && at(set, order[i]).present) ++i;
    return i;
  }

  std::uint64_t next_random() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }

  int allocate(std::uint32_t set, std::uint64_t line, bool evict_first, Eviction& evicted) {
    std::vector<std::uint16_t>& order = order_[set];
    std::size_t pos = first_free(set);
    int w;
    if (pos < order.size()) {
      w = order[pos];
    } else {
      w = order.back();
      if (cfg_.replacement == Replacement::Random && !at(set, w).evict_first)
        w = static_cast<int>(next_random() % ways_);
      if (cfg_.replacement == Replacement::RandomOldest && !at(set, w).evict_first) {
        // One of the M least recently used lines, counted from the LRU end.
        const std::uint64_t m = std::min<std::uint64_t>(static_cast<std::uint64_t>(cfg_.victim_candidates), ways_);
        w = order[order.size() - 1 - static_cast<std::size_t>(((next_random() & 0xffffffffu) * m) >> 32)];
      }
      if (at(set, w).dirty.any()) evicted = eviction_of(at(set, w));
    }
    Way& x = at(set, w);
    x = Way{};
    x.present = true;
    x.tag = line;
    x.evict_first = evict_first;
    order.erase(std::find(order.begin(), order.end(), static_cast<std::uint16_t>(w)));
    if (evict_first) order.insert(order.begin() + static_cast<std::ptrdiff_t>(first_free(set)), static_cast<std::uint16_t>(w));
    else order.insert(order.begin(), static_cast<std::uint16_t>(w));
    return w;
  }

  void touch(std::uint32_t set, int w, bool evict_first_access) {
    if (evict_first_access) return;
    at(set, w).evict_first = false;
    if (cfg_.replacement != Replacement::Lru && cfg_.replacement != Replacement::RandomOldest) return;
    std::vector<std::uint16_t>& order = order_[set];
    order.erase(std::find(order.begin(), order.end(), static_cast<std::uint16_t>(w)));
    order.insert(order.begin(), static_cast<std::uint16_t>(w));
  }

  LineBytes bytes_of(SectorMask m) const {
    LineBytes b;
    for (int s = 0; s < 8; ++s)
      if (m.test(s)) b.mark(static_cast<unsigned>(s * cfg_.sector_bytes), static_cast<unsigned>(cfg_.sector_bytes));
    return b;
  }
  static LineBytes and_bytes(const LineBytes& a, const LineBytes& b) {
    LineBytes r;
    r.w[0] = a.w[0] & b.w[0];
    r.w[1] = a.w[1] & b.w[1];
    return r;
  }

  // Written bytes of sectors that now hold data are dropped; a sector whose
  // every byte was written becomes valid.
  void settle(Way& x) const {
    if (!x.has_partial) return;
    const auto sb = static_cast<unsigned>(cfg_.sector_bytes);
    x.partial = and_bytes(x.partial, bytes_of(~x.valid & all()));
    const SectorMask complete = x.partial.full(sb);
    x.valid |= complete;
    x.partial = and_bytes(x.partial, bytes_of(~complete & all()));
    if (x.partial.none()) x.has_partial = false;
  }

  Eviction eviction_of(const Way& x) const {
    Eviction e;
    e.line = LineAddr{x.tag};
    e.dirty = x.dirty;
    if (e.dirty.none()) return e;
    e.dirty_partial = e.dirty & ~x.valid;
    e.bytes = bytes_of(e.dirty & x.valid);
    if (e.dirty_partial.any() && x.has_partial) e.bytes |= x.partial;
    return e;
  }

  CacheConfig cfg_;
  std::uint32_t sets_ = 1, ways_ = 1;
  int sectors_ = 4;
  std::uint64_t rng_ = 1;
  std::vector<Way> way_;
  std::vector<std::vector<std::uint16_t>> order_;
};

}  // namespace warpscope::test
