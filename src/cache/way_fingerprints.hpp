// 16-bit fingerprints of the lines in every way, for caches whose sets are too
// wide to scan by full line address (the 7.x/8.x L1 is modelled as 4 sets of
// up to 384 ways, the 9.0 L1 as 32 sets of 56). A lookup scans the set's
// fingerprints (2 B per way, 768 B for 384 ways, vectorised, 32 ways per step)
// and checks the full line address only where a fingerprint matches (about
// one way in 65,535 by chance). Why not a hash index: 132 SMs of L1 need 8 MB
// of index that every access probes at a random place (twice on a miss: the
// lookup and the victim's erase), so every access missed the host's caches;
// the fingerprints of all 132 L1s are 540 KB.
//
// Fingerprint 0 marks a free way; a line's fingerprint is never 0. Each set's
// row is padded to a multiple of 32 ways with zeros so that every step is a
// whole 32-way block.
#pragma once

#include <bit>
#include <cstdint>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "cache/big_buffer.hpp"

namespace warpscope::cache {

class WayFingerprints {
 public:
  static constexpr std::uint32_t kBlock = 32;

  WayFingerprints() = default;
  WayFingerprints(std::uint32_t sets, std::uint32_t ways)
      : row_((ways + kBlock - 1) / kBlock * kBlock), fp_(std::size_t{sets} * row_, std::uint16_t{0}) {}
  bool enabled() const { return !fp_.empty(); }

  static std::uint16_t of(std::uint64_t line) {
    const auto f = static_cast<std::uint16_t>((line * 0x9E3779B97F4A7C15ull) >> 48);
    return f == 0 ? std::uint16_t{1} : f;
  }

  // The way of `set` holding `line` (whose tags are `tags`), or `none`.
  std::uint16_t find(std::uint32_t set, std::uint16_t f, std::uint64_t line, const std::uint64_t* tags,
                     std::uint16_t none) const {
    const std::uint16_t* row = row_of(set);
    for (std::uint32_t base = 0; base < row_; base += kBlock) {
      for (std::uint32_t match = matches(row + base, f); match != 0; match &= match - 1) {
        const std::uint32_t way = base + static_cast<std::uint32_t>(std::countr_zero(match));
        if (tags[way] == line) return static_cast<std::uint16_t>(way);
      }
    }
    return none;
  }

  void set(std::uint32_t set, std::uint16_t way, std::uint16_t f) { row_of(set)[way] = f; }
  void clear(std::uint32_t set, std::uint16_t way) { row_of(set)[way] = 0; }

 private:
  // Bit w: block[w] == f, for a block of kBlock fingerprints. GCC does not
  // vectorise the plain loop into a mask, hence the intrinsics.
  static std::uint32_t matches(const std::uint16_t* block, std::uint16_t f) {
#if defined(__AVX512BW__)
    return _mm512_cmpeq_epi16_mask(_mm512_loadu_si512(block), _mm512_set1_epi16(static_cast<short>(f)));
#elif defined(__AVX2__)
    const __m256i key = _mm256_set1_epi16(static_cast<short>(f));
    const __m256i lo = _mm256_cmpeq_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block)), key);
    const __m256i hi = _mm256_cmpeq_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 16)), key);
    // packs interleaves 128-bit halves: lo0 hi0 lo1 hi1 -> reorder to lo0 lo1 hi0 hi1.
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(lo, hi), 0xD8);
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(bytes));
#elif defined(__SSE2__)
    const __m128i key = _mm_set1_epi16(static_cast<short>(f));
    auto sixteen = [&](const std::uint16_t* p) {
      const __m128i a = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), key);
      const __m128i b = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 8)), key);
      return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(a, b)));
    };
    return sixteen(block) | sixteen(block + 16) << 16;
#else
    std::uint32_t match = 0;
    for (std::uint32_t w = 0; w < kBlock; ++w) match |= static_cast<std::uint32_t>(block[w] == f) << w;
    return match;
#endif
  }
  std::uint16_t* row_of(std::uint32_t set) const { return fp_.data() + std::size_t{set} * row_; }

  std::uint32_t row_ = 0;  // fingerprints per set, ways rounded up to kBlock
  BigArray<std::uint16_t> fp_;
};

}  // namespace warpscope::cache
