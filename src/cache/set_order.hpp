// The per-way state of a cache (sector state and replacement links, 8 bytes;
// the line addresses sit next to them, cache.cpp) and the replacement order of
// every set as an intrusive doubly-linked list over its ways:
//
//   head (most recently used / newest) ... valid lines ... | invalid ways ... tail
//                                                           ^ first_invalid
//
// Invalid ways always sit at the end, so a miss takes `first_invalid` while the
// set has room and the line before it (the LRU, or oldest, valid line) when it
// is full. Evict-first lines (.cs/.lu) are inserted just before first_invalid:
// they are the next victims, but never displace a free way. All operations are
// O(1) whatever the associativity, and touch only the slots involved, which
// matters for the 512-way sets of the 7.0+ L1 model.
//
// The replacement policies differ in two places only (cache.cpp):
//   Lru:    a hit moves the line to the head;         victim = last valid line.
//   Fifo:   a hit changes nothing (insertion order);  victim = last valid line.
//   Random: a hit changes nothing;                     victim = an evict-first line
//           at the end if any, else a uniformly random way (seeded xorshift).
#pragma once

#include <cstdint>
#include <vector>

namespace warpscope::cache {

inline constexpr std::uint16_t kNone = 0xffff;
inline constexpr std::uint64_t kEmptyTag = ~0ull;

struct Slot {
  std::uint8_t valid = 0;  // sector data present
  std::uint8_t dirty = 0;  // sector modified since fetched/cleaned
  std::uint8_t flags = 0;  // kEvictFirst, kPartial
  std::uint8_t spare = 0;
  std::uint16_t prev = kNone, next = kNone;
};
static_assert(sizeof(Slot) == 8);

struct SetHeader {
  std::uint16_t head = kNone, tail = kNone, first_invalid = kNone;
};

class SetOrder {
 public:
  SetOrder() = default;
  SetOrder(std::uint32_t sets, std::uint32_t ways) : ways_(ways), headers_(sets) {}

  // Every way of `set` free, in way order.
  void reset(std::uint32_t set, Slot* l) {
    for (std::uint32_t w = 0; w < ways_; ++w) {
      l[w].prev = w == 0 ? kNone : static_cast<std::uint16_t>(w - 1);
      l[w].next = w + 1 == ways_ ? kNone : static_cast<std::uint16_t>(w + 1);
    }
    headers_[set] = SetHeader{0, static_cast<std::uint16_t>(ways_ - 1), 0};
  }

  std::uint16_t first_invalid(std::uint32_t set) const { return headers_[set].first_invalid; }
  // The last valid way (the LRU/oldest line); only meaningful when the set is full.
  std::uint16_t last_valid(std::uint32_t set, const Slot* l) const {
    const SetHeader& h = headers_[set];
    return h.first_invalid == kNone ? h.tail : l[h.first_invalid].prev;
  }

  // A free or victim way becomes valid: at the head, or (evict_first) just
  // before the invalid ways. `l` is the set's first slot.
  void install(std::uint32_t set, Slot* l, std::uint16_t way, bool evict_first) {
    SetHeader& h = headers_[set];
    if (h.first_invalid == way) h.first_invalid = l[way].next;
    unlink(h, l, way);
    insert_before(h, l, way, evict_first ? h.first_invalid : h.head);
  }
  void move_to_head(std::uint32_t set, Slot* l, std::uint16_t way) {
    SetHeader& h = headers_[set];
    if (h.head == way) return;
    unlink(h, l, way);
    insert_before(h, l, way, h.head);
  }
  // A valid way becomes free: moved to the tail.
  void release(std::uint32_t set, Slot* l, std::uint16_t way) {
    SetHeader& h = headers_[set];
    if (h.first_invalid == way) return;
    unlink(h, l, way);
    insert_before(h, l, way, kNone);
    if (h.first_invalid == kNone) h.first_invalid = way;
  }
  const SetHeader* header(std::uint32_t set) const { return &headers_[set]; }
  std::uint64_t bytes() const { return headers_.size() * sizeof(SetHeader); }

 private:
  static void unlink(SetHeader& h, Slot* l, std::uint16_t way) {
    const std::uint16_t p = l[way].prev, n = l[way].next;
    if (p == kNone) h.head = n;
    else l[p].next = n;
    if (n == kNone) h.tail = p;
    else l[n].prev = p;
    l[way].prev = l[way].next = kNone;
  }
  // Inserts `way` before `at` (kNone: at the tail).
  static void insert_before(SetHeader& h, Slot* l, std::uint16_t way, std::uint16_t at) {
    const std::uint16_t p = at == kNone ? h.tail : l[at].prev;
    l[way].prev = p;
    l[way].next = at;
    if (p == kNone) h.head = way;
    else l[p].next = way;
    if (at == kNone) h.tail = way;
    else l[at].prev = way;
  }

  std::uint32_t ways_ = 0;
  std::vector<SetHeader> headers_;
};

}  // namespace warpscope::cache
