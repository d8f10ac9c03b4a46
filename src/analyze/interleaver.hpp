// Approximates the hardware's issue order for traces recorded (or emulated)
// CTA by CTA: the CTAs that are resident at once -- a wave of SMs x blocks per
// SM, from the occupancy calculator -- are buffered and their warps replayed
// round robin, one instruction per warp in turn.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyze/chunked_buffer.hpp"
#include "warpscope/packed_access.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope {

class WarpInterleaver {
 public:
  using Sink = std::function<void(const WarpAccess&)>;
  // wave_ctas: CTAs resident at once. A new CTA arriving when max_records or
  // max_bytes are buffered starts a new wave early: the bytes bound keeps a
  // wave of scattered warps (256 bytes of lanes each) in memory, the records
  // bound is the one evenly spaced warps meet first.
  WarpInterleaver(std::uint64_t wave_ctas, Sink sink, std::size_t max_records = std::size_t{1} << 22,
                  std::size_t max_bytes = std::size_t{384} << 20);
  void push(const WarpAccess& rec);
  void push(const PackedAccess& rec);  // the same record in its compact form (its lanes are copied)
  // Emits everything buffered (call at kernel end and trace end).
  void flush();

 private:
  // A buffered record in its compact form (warpscope/packed_access.hpp): 64
  // bytes for a warp whose active lanes are evenly spaced, plus 8 bytes per
  // active lane otherwise, instead of a 288-byte WarpAccess.
  struct Stored {
    PackedAccess packed;  // its lanes, if any, in lanes_ (chunks never move)
    std::uint32_t next;   // the same warp's next record, or kNone
  };
  static constexpr std::uint32_t kNone = ~0u;
  struct Warp {
    std::uint32_t head, tail;
  };

  void store(const PackedAccess& rec, std::uint32_t warp);

  std::uint64_t wave_;
  Sink sink_;
  std::size_t max_records_, max_bytes_;
  std::uint32_t kernel_ = ~0u;
  ChunkedBuffer<Stored> records_;
  ChunkedBuffer<std::uint64_t> lanes_;
  std::vector<Warp> warps_;                                  // in first-seen order
  std::unordered_map<std::uint64_t, std::uint32_t> warp_of_;  // (cta << 16 | warp) -> index in warps_
  std::unordered_set<std::uint32_t> ctas_;
  std::uint64_t last_key_ = ~0ull;  // the warp of the previous record (traces come warp by warp)
  std::uint32_t last_warp_ = 0;
  std::vector<std::uint32_t> cursor_, live_;  // flush()'s scratch
  WarpAccess out_;
};

}  // namespace warpscope
