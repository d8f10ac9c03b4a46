// Keeping a compact record (PackedAccess) past the buffer it was read into:
// the analyzer's batches and the warp interleaver both hold records this way.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "analyze/chunked_buffer.hpp"
#include "warpscope/packed_access.hpp"

namespace warpscope {

// `rec` with its lanes, if it has any (a warp not evenly spaced), copied into
// `lanes` as one run in one chunk, which never moves, and pointed to there.
inline PackedAccess keep_record(const PackedAccess& rec, ChunkedBuffer<std::uint64_t>& lanes) {
  PackedAccess kept = rec;
  if (rec.lanes == nullptr) return kept;
  const auto n = static_cast<std::size_t>(std::popcount(rec.mask));
  std::uint64_t* to = lanes.data_at(lanes.reserve_run(n));
  std::copy(rec.lanes, rec.lanes + n, to);
  kept.lanes = to;
  return kept;
}

}  // namespace warpscope
