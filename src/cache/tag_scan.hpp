// The ways of a narrow set (at most 32) that hold a line address: bit w of the
// result is tags[w] == line. Branch-free, as a set's matching way is
// unpredictable. GCC vectorises the plain loop, but for a run-time way count
// it adds a permute, per-lane shifts and a horizontal OR to build the mask
// (~30 instructions for the 20-way H100 L2); compares into mask registers
// build it directly.
#pragma once

#include <cstdint>

#if defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace warpscope::cache {

inline std::uint32_t scan_tags(const std::uint64_t* tags, std::uint32_t ways, std::uint64_t line) {
  std::uint32_t match = 0;
  std::uint32_t w = 0;
#if defined(__AVX512F__)
  const __m512i key = _mm512_set1_epi64(static_cast<long long>(line));
  for (; w + 8 <= ways; w += 8)
    match |= static_cast<std::uint32_t>(_mm512_cmpeq_epi64_mask(_mm512_loadu_si512(tags + w), key)) << w;
  if (w < ways) {
    const auto tail = static_cast<__mmask8>((1u << (ways - w)) - 1u);
    match |= static_cast<std::uint32_t>(_mm512_mask_cmpeq_epi64_mask(tail, _mm512_maskz_loadu_epi64(tail, tags + w), key))
             << w;
    w = ways;
  }
#elif defined(__AVX2__)
  const __m256i key = _mm256_set1_epi64x(static_cast<long long>(line));
  for (; w + 4 <= ways; w += 4) {
    const __m256i eq = _mm256_cmpeq_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(tags + w)), key);
    match |= static_cast<std::uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(eq))) << w;
  }
#endif
  for (; w < ways; ++w) match |= static_cast<std::uint32_t>(tags[w] == line) << w;
  return match;
}

}  // namespace warpscope::cache
