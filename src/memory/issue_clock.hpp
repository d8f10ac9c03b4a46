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
// Memory is bounded by the resident CTAs: a CTA's state lives in its SM slot
// and is dropped when another takes the slot. A CTA id seen again after that
// starts afresh.
//
// Cost: this runs for every record of an sm_90 replay, so the state is flat
// (the slots in one array, an open-addressed CTA id -> slot index, each
// CTA's warps in a small array) instead of two std::unordered_maps: `analyze`
// of the suite's local_memory trace on sm_90 0.34-0.42 -> 0.28-0.33 s
// (docs/PERFORMANCE.md, session 9).
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
  // Warps per CTA kept in its array; a CTA has at most 32 (1,024 threads), a
  // hand-written trace may name more: those go to the slot's `far` map.
  static constexpr std::uint32_t kDirectWarps = 64;
  static constexpr std::uint32_t kFree = ~0u;

  struct Slot {
    std::uint32_t cta = 0;
    std::uint64_t start = 0;      // round of its first instruction
    std::uint64_t end = 0;        // one past the last round any of its warps reached
    std::uint64_t last_seen = 0;  // trace position of its latest record
    std::vector<std::uint64_t> next;  // per warp: its next instruction index
    std::unordered_map<std::uint16_t, std::uint64_t> far;  // the same for warps >= kDirectWarps
  };

  std::uint32_t find(std::uint32_t cta) const;  // slot index, or kFree
  void index_insert(std::uint32_t cta, std::uint32_t slot);
  void index_erase(std::uint32_t cta);
  std::uint32_t admit(int sm, std::uint32_t cta);
  std::uint64_t& warp_next(std::uint32_t slot, std::uint16_t warp);

  int slots_per_sm_ = 32;
  std::uint64_t seen_ = 0;
  std::vector<Slot> slots_;              // sm * slots_per_sm_ + i
  std::vector<std::uint32_t> used_;      // per SM: slots taken so far
  // Open addressing, linear probing: (cta, slot) pairs, slot kFree when empty.
  std::vector<std::uint64_t> index_;
  std::uint64_t index_mask_ = 0;
};

}  // namespace warpscope::memory
