// An open-addressing map from line address to tag-store slot, for caches whose
// sets are too wide to scan (the 7.0+ L1 is modelled as 4 sets of up to 512
// ways). Linear probing with backward-shift deletion: no tombstones, so lookups
// stay short however many lines come and go. Sized once; never allocates after.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cache/big_buffer.hpp"

namespace warpscope::cache {

class LineIndex {
 public:
  static constexpr std::uint32_t kNotFound = ~0u;

  LineIndex() = default;
  // Room for `entries` keys at a load factor of at most 1/2.
  explicit LineIndex(std::uint64_t entries) {
    std::uint64_t size = 16;
    while (size < 2 * entries) size <<= 1;
    table_ = BigArray<Entry>(size, Entry{});
    mask_ = size - 1;
    shift_ = 64 - log2(size);
  }
  bool enabled() const { return !table_.empty(); }

  std::uint32_t find(std::uint64_t key) const {
    for (std::uint64_t i = home(key);; i = (i + 1) & mask_) {
      if (table_[i].key == key) return table_[i].val;
      if (table_[i].key == kEmpty) return kNotFound;
    }
  }
  // find() that also returns where an insert of the absent key would go
  // (valid until the next modification), saving insert's probe.
  std::uint32_t find(std::uint64_t key, std::uint64_t& position) const {
    for (std::uint64_t i = home(key);; i = (i + 1) & mask_) {
      if (table_[i].key == key) return table_[i].val;
      if (table_[i].key == kEmpty) {
        position = i;
        return kNotFound;
      }
    }
  }
  void insert_at(std::uint64_t position, std::uint64_t key, std::uint32_t val) { table_[position] = Entry{key, val}; }
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&table_[home(key)], 1); }
  void insert(std::uint64_t key, std::uint32_t val) {
    std::uint64_t i = home(key);
    while (table_[i].key != kEmpty && table_[i].key != key) i = (i + 1) & mask_;
    table_[i] = Entry{key, val};
  }
  void erase(std::uint64_t key) {
    std::uint64_t i = home(key);
    while (table_[i].key != key) {
      if (table_[i].key == kEmpty) return;
      i = (i + 1) & mask_;
    }
    // Backward shift: pull later members of the cluster into the hole when
    // their home position does not lie (cyclically) in (hole, position].
    for (std::uint64_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (table_[j].key == kEmpty) break;
      const std::uint64_t h = home(table_[j].key);
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      table_[i] = table_[j];
      i = j;
    }
    table_[i] = Entry{};
  }
  void clear() { std::fill(table_.begin(), table_.end(), Entry{}); }
  std::uint64_t bytes() const { return table_.size() * sizeof(Entry); }

 private:
  static constexpr std::uint64_t kEmpty = ~0ull;
  struct Entry {
    std::uint64_t key = kEmpty;
    std::uint32_t val = 0;
  };
  static int log2(std::uint64_t v) {
    int s = 0;
    while ((1ull << s) < v) ++s;
    return s;
  }
  std::uint64_t home(std::uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) >> shift_; }

  BigArray<Entry> table_;
  std::uint64_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace warpscope::cache
