// The L2 request coalescer (LRC) in front of the 9.0 L2 (l2.merge_window).
//
// Measured (validation/h100/merge_probe, lrc_probe): L1TEX sends every miss
// on, and the LRC merges a read of a sector that an SM of the same GPC has
// requested and not yet received; Nsight Compute's lts__t_* counters never
// see the merged sectors (lts sectors = sectors offered - merged, on every
// suite launch). c_ldcg4_reuse4 (eight warps of a CTA issue four .cg loads
// each, every line read by four of them at once): 32,768 sectors offered,
// 24,576 merged, 8,192 looked up, 0 hits.
//
// What is modelled: merging between requests of one SM, in flight meaning
// issued within `window` rounds of each other on the IssueClock
// (memory/issue_clock.hpp). Merging between SMs of a GPC needs the relative
// timing of SMs, which a trace does not carry: tried on the suite with the
// measured SM-to-GPC map, it fixes the SGEMMs and breaks stencil and SpMV
// launches whose cross-CTA duplicates the hardware does not merge
// (docs/VALIDATION.md, "The L2 request coalescer").
//
// State: one 16-byte entry per (SM, line) requested recently, in 4-way
// buckets of a fixed 64 KB table (1,024 x 4: the suite has the same
// launches within target as with 64 times as many; 4 MB cost 40% of a scattered record in
// bench/memory_bench.cpp, 64 KB 4%); a full bucket drops its oldest entry,
// which can only lose a merge. What `offer` returns is exact otherwise.
#pragma once

#include <cstdint>
#include <vector>

#include "warpscope/cache.hpp"

namespace warpscope::memory {

class L2RequestCoalescer {
 public:
  L2RequestCoalescer() = default;
  // window: rounds within which a request is still in flight (>= 1); 0 disables.
  explicit L2RequestCoalescer(std::uint32_t window, std::uint32_t buckets_log2 = 10);
  bool enabled() const { return window_ > 0; }
  std::uint32_t window() const { return window_; }
  // Forgets every request (a new kernel).
  void begin_kernel();
  // `sm` asks L2 for `sectors` of `line` in `round`: the sectors it must send
  // (the others merge into its requests still in flight); those sent are in
  // flight from `round` on.
  SectorMask offer(int sm, std::uint64_t line, SectorMask sectors, std::uint64_t round);

 private:
  struct Entry {
    std::uint64_t line = 0;
    std::uint32_t round = 0;     // when its sectors were sent (saturates)
    std::uint16_t sm = 0;
    std::uint8_t sectors = 0;    // in flight since `round`
    std::uint8_t kernel = 0;     // generation; 0: never used
  };
  static_assert(sizeof(Entry) == 16);

  std::uint32_t window_ = 0;
  std::uint64_t bucket_mask_ = 0;
  std::uint8_t kernel_ = 1;
  std::vector<Entry> table_;
};

}  // namespace warpscope::memory
