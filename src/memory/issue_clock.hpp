// When each warp record issues, estimated: the clock the L2 request coalescer
// (memory/l2_request_coalescer.hpp) compares to decide what is in flight.
//
// A trace gives the order in which records reached the tracer, which under
// instrumentation is mostly instruction by instruction across the whole grid
// (every warp's first load, then every warp's second, ...), not the order in
// which the hardware issued them. So time is estimated from the trace's
// structure instead: the warps of a CTA issue in lockstep, the k-th memory
// instruction of each in round start + k, where `start` is 0 for the CTAs
// resident from the launch and, for a later CTA, the last round of the CTA
// whose SM slot it takes (the slot whose CTA issued least recently in the
// trace: it is the one that retired). One round is one memory instruction of
// every warp of the CTA; it is a count, not cycles.
//
// Memory is bounded by the resident CTAs: a CTA's state is dropped when
// another takes its slot. A CTA id seen again after that starts afresh.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace warpscope::memory {

class IssueClock {
 public:
  // slots_per_sm: CTAs resident per SM (the occupancy); 0 when unknown (32 assumed).
  void begin_kernel(int sms, int slots_per_sm);
  // The round of the next record of (cta, warp) on `sm` (0 <= sm < sms), and
  // the clock moves past it.
  std::uint64_t next(int sm, std::uint32_t cta, std::uint16_t warp);

 private:
  struct Cta {
    std::uint64_t start = 0;      // round of its first instruction
    std::uint64_t end = 0;        // one past the last round any of its warps reached
    std::uint64_t last_seen = 0;  // trace position of its latest record
    std::uint32_t warps = 0;      // one past the highest warp index seen
  };
  struct Warp {
    std::uint64_t next = 0;  // its next instruction index
    Cta* cta = nullptr;      // unordered_map nodes do not move
  };
  Cta& admit(int sm, std::uint32_t cta);

  int slots_per_sm_ = 32;
  std::uint64_t seen_ = 0;
  std::unordered_map<std::uint32_t, Cta> ctas_;
  std::unordered_map<std::uint64_t, Warp> warps_;     // key: cta << 16 | warp
  std::vector<std::vector<std::uint32_t>> slots_;     // per SM: the CTA in each occupied slot
};

}  // namespace warpscope::memory
