// Where a warp's local memory lives. The driver reserves local memory for the
// threads an SM can hold, not for the threads a grid launches (the CUDA C++
// Programming Guide on cudaLimitStackSize: the reservation scales with the
// maximum number of resident threads), so a warp's local window belongs to its
// resident slot on its SM: the warps of a later CTA on that slot write and read
// the same lines as the warps before them, and find them in L1 and L2
// (validation/h100/suite local_array: 41.5% of the spilling kernel's local
// stores hit in L1, which per-warp windows cannot give).
//
// A CTA takes the block slot of the CTA that the SM ran `blocks` CTAs earlier
// (CTAs arrive on an SM in issue order and finish wave by wave); its warp w
// takes warp slot block_slot x warps + w. Without a launch shape every warp of
// the trace gets a window of its own.
#pragma once

#include <cstdint>
#include <vector>

#include "warpscope/warp_access.hpp"

namespace warpscope::memory {

class LocalWindows {
 public:
  // blocks: CTAs resident per SM, warps: warps per CTA; 0: unknown.
  void begin_kernel(int sms, int blocks, int warps) {
    blocks_ = blocks > 0 && warps > 0 ? blocks : 0;
    warps_ = warps;
    sms_.assign(blocks_ > 0 ? static_cast<std::size_t>(sms) : 0, Sm{});
    for (Sm& s : sms_) s.cta.assign(static_cast<std::size_t>(blocks_), kNoCta);
  }

  // The cache key of local line `line` (a line of the warp's interleaved window)
  // of rec's warp on SM `sm`: apart from every global line (bit 63), slot
  // windows (bit 62) apart from per-warp ones.
  std::uint64_t key(const WarpAccess& rec, int sm, std::uint64_t line) {
    constexpr std::uint64_t kLocal = 1ull << 63, kSlot = 1ull << 62;
    if (blocks_ == 0 || sm < 0 || static_cast<std::size_t>(sm) >= sms_.size()) {
      const std::uint64_t warp_uid = (std::uint64_t{rec.kernel} << 48) ^ (std::uint64_t{rec.cta} << 16) ^ rec.warp;
      return kLocal | (((warp_uid << 20) ^ line) & (kSlot - 1));
    }
    Sm& s = sms_[static_cast<std::size_t>(sm)];
    std::size_t b = 0;
    while (b < s.cta.size() && s.cta[b] != rec.cta) ++b;
    if (b == s.cta.size()) {  // a CTA new on this SM: the slot of the one `blocks` CTAs before it
      b = s.arrivals++ % s.cta.size();
      s.cta[b] = rec.cta;
    }
    // (SM, warp slot) scattered over 26 bits: the windows spread over the
    // caches' sets as the hardware's distinct local addresses do; a window's
    // lines stay consecutive.
    const std::uint64_t slot = (std::uint64_t{static_cast<std::uint32_t>(sm)} << 16) |
                               ((b * static_cast<std::uint64_t>(warps_) + rec.warp) & 0xffff);
    const std::uint64_t window = (slot * 0x9E3779B97F4A7C15ull) >> 38;
    return kLocal | kSlot | (window << 36) | (line & ((1ull << 36) - 1));
  }

 private:
  static constexpr std::uint32_t kNoCta = ~0u;
  struct Sm {
    std::vector<std::uint32_t> cta;  // per block slot: the CTA in it
    std::uint64_t arrivals = 0;      // CTAs seen on this SM this kernel
  };
  int blocks_ = 0, warps_ = 0;
  std::vector<Sm> sms_;
};

}  // namespace warpscope::memory
