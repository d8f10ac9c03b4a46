// A fixed-capacity open-addressing set of 64-bit keys living on the stack: the
// rules engine's only "allocation". Capacity is a power of two at least twice
// the most keys one warp instruction can produce.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace warpscope::rules {

template <unsigned kSlots>
class SmallSet {
  static_assert(std::has_single_bit(kSlots) && kSlots >= 64);
  static constexpr int kShift = 64 - std::countr_zero(kSlots);

 public:
  SmallSet() { used_.fill(0); }

  // Adds key; true if it was not there yet.
  bool insert(std::uint64_t key) {
    unsigned h = static_cast<unsigned>((key * 0x9E3779B97F4A7C15ull) >> kShift);
    while (true) {
      const std::uint64_t bit = 1ull << (h & 63u);
      std::uint64_t& word = used_[h >> 6];
      if ((word & bit) == 0) {
        word |= bit;
        keys_[h] = key;
        ++size_;
        return true;
      }
      if (keys_[h] == key) return false;
      h = (h + 1) & (kSlots - 1);
    }
  }
  unsigned size() const { return size_; }

 private:
  std::array<std::uint64_t, kSlots / 64> used_;
  std::array<std::uint64_t, kSlots> keys_;
  unsigned size_ = 0;
};

}  // namespace warpscope::rules
