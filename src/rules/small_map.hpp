// A fixed-capacity open-addressing hash map from 64-bit keys to small values,
// living on the stack: the rules engine's only "allocation". Capacity is a
// power of two at least twice the most keys one warp instruction can produce.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace warpscope::rules {

template <typename Value, int kSlots>
class SmallMap {
  static_assert(std::has_single_bit(static_cast<unsigned>(kSlots)) && kSlots >= 64);
  static constexpr int kShift = 64 - std::countr_zero(static_cast<unsigned>(kSlots));

 public:
  SmallMap() { used_.fill(0); }

  // Returns the value for key, default-constructed on first use; `inserted` tells which.
  Value& get(std::uint64_t key, bool& inserted) {
    unsigned h = static_cast<unsigned>((key * 0x9E3779B97F4A7C15ull) >> kShift);
    while (true) {
      const std::uint64_t bit = 1ull << (h & 63);
      std::uint64_t& word = used_[h >> 6];
      if ((word & bit) == 0) {
        word |= bit;
        keys_[h] = key;
        values_[h] = Value{};
        order_[size_++] = static_cast<std::uint16_t>(h);
        inserted = true;
        return values_[h];
      }
      if (keys_[h] == key) {
        inserted = false;
        return values_[h];
      }
      h = (h + 1) & (kSlots - 1);
    }
  }

  int size() const { return size_; }
  // Entries in insertion order.
  template <typename F>
  void for_each(F&& f) const {
    for (int i = 0; i < size_; ++i) f(keys_[order_[i]], values_[order_[i]]);
  }

 private:
  std::array<std::uint64_t, kSlots / 64> used_;
  std::array<std::uint64_t, kSlots> keys_;
  std::array<Value, kSlots> values_;
  std::array<std::uint16_t, kSlots> order_;
  int size_ = 0;
};

}  // namespace warpscope::rules
