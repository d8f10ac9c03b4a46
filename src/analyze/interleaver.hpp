// Approximates the hardware's issue order for traces recorded (or emulated)
// CTA by CTA: the CTAs that are resident at once -- a wave of SMs x blocks per
// SM, from the occupancy calculator -- are buffered and their warps replayed
// round robin, one instruction per warp in turn.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "warpscope/warp_access.hpp"

namespace warpscope {

class WarpInterleaver {
 public:
  using Sink = std::function<void(const WarpAccess&)>;
  // wave_ctas: CTAs resident at once; max_buffered bounds the memory (records).
  WarpInterleaver(std::uint64_t wave_ctas, Sink sink, std::size_t max_buffered = std::size_t{1} << 22);
  void push(const WarpAccess& rec);
  // Emits everything buffered (call at kernel end and trace end).
  void flush();

 private:
  std::uint64_t wave_;
  Sink sink_;
  std::size_t max_buffered_, buffered_ = 0;
  std::uint32_t kernel_ = ~0u;
  std::map<std::uint32_t, std::size_t> cta_slot_;     // CTA -> first queue of the CTA in queues_
  std::map<std::uint64_t, std::size_t> warp_queue_;   // (cta << 16 | warp) -> queue index
  std::vector<std::deque<WarpAccess>> queues_;        // one per warp, in first-seen order
};

}  // namespace warpscope
