#include "rules/bank_passes.hpp"

#include <algorithm>
#include <array>

namespace warpscope::rules {

// The group's (row, bank) keys are bucketed by bank (a counting sort of at
// most 128 keys: 32 lanes x 4 words of a 16-byte access on 4-byte banks); a
// bank's passes are its distinct keys, counted by comparing within the bucket.
// Most buckets hold one key or copies of one, so this is linear in practice
// (a hash set of keys took 175 ns per 4-byte warp instruction, now ~50 ns:
// bench/rules_bench.cpp, docs/PERFORMANCE.md).
std::uint32_t bank_passes(const WarpAccess& a, int first, int lanes, const BankGeometry& g) {
  constexpr unsigned kMaxKeys = 128;
  std::array<std::uint64_t, kMaxKeys> key;
  std::array<std::uint8_t, kMaxKeys> bank_of;
  std::array<std::uint8_t, 65> start{};  // per bank, then prefix sums: where its bucket begins
  unsigned n = 0;
  std::uint64_t banks_seen = 0;
  auto add = [&](std::uint64_t word) {
    const unsigned bank = g.bank_of(word);
    key[n] = g.key_of(word, bank);
    bank_of[n] = static_cast<std::uint8_t>(bank);
    banks_seen |= 1ull << bank;
    ++n;
  };
  const unsigned words = std::max(1u, a.size / g.width);
  if (words == 1) {
    std::uint64_t last_word = ~0ull;
    for (int lane = first; lane < first + lanes; ++lane) {
      if (!a.active.test(lane)) continue;
      const std::uint64_t word = g.word_of(lane_addr(a, lane));
      if (word == last_word) continue;  // neighbours in one word: a broadcast, one key
      last_word = word;
      add(word);
    }
  } else {
    for (int lane = first; lane < first + lanes; ++lane) {
      if (!a.active.test(lane)) continue;
      const std::uint64_t word0 = g.word_of(lane_addr(a, lane));
      for (unsigned i = 0; i < words && n < kMaxKeys; ++i) add(word0 + i);
    }
  }
  if (n == 0) return 0;
  if (static_cast<unsigned>(std::popcount(banks_seen)) == n) return 1;  // one key per bank
  for (unsigned k = 0; k < n; ++k) ++start[bank_of[k] + 1u];
  for (unsigned b = 0; b < g.banks; ++b) start[b + 1] = static_cast<std::uint8_t>(start[b + 1] + start[b]);
  std::array<std::uint64_t, kMaxKeys> sorted;
  std::array<std::uint8_t, 64> fill;
  std::copy_n(start.begin(), 64, fill.begin());
  for (unsigned k = 0; k < n; ++k) sorted[fill[bank_of[k]]++] = key[k];
  std::uint32_t worst = 0;
  for (std::uint64_t left = banks_seen; left != 0; left &= left - 1) {
    const auto b = static_cast<unsigned>(std::countr_zero(left));
    std::uint32_t distinct = 0;
    for (unsigned i = start[b]; i < start[b + 1]; ++i) {
      unsigned j = start[b];
      while (j < i && sorted[j] != sorted[i]) ++j;
      distinct += j == i ? 1u : 0u;
    }
    worst = std::max(worst, distinct);
  }
  return worst;
}

}  // namespace warpscope::rules
