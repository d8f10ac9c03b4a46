// Which sectors of a store Nsight Compute counts as L1 lookup hits
// (l1.store_hit, with l1.store_policy = allocate).
//
// sector: the sectors found valid or partly written by an earlier store
// (Accel-Sim l1_write_policy: write-allocate with byte masks).
// line (9.0): every sector of the store once its line's tag is present, also
// sectors nobody wrote: g_st1_every4th_lane (validation/h100/suite; four warps
// write 8 B each into four different sectors of one line) has 74.5% hits, the
// three of four warps that find the tag; four warps storing into one new line
// at once also hit so (validation/h100/write_probe list l), and so does every
// order of new lines when a sub-partition's stores are 128 cycles or more
// apart (lists n, o). Stores of a sub-partition into a shared line a few to
// ~100 cycles apart lose hits on the H100, as many as the program's timing
// makes it (one extra instruction per warp changes it: list p); the model has
// no timing, so its count is the upper bound (docs/VALIDATION.md).
#pragma once

#include <cstdint>

#include "warpscope/cache.hpp"

namespace warpscope::memory {

inline std::uint64_t store_sector_hits(const WriteResult& r, bool line_was_present, bool whole_line) {
  const SectorMask hits = whole_line && line_was_present ? r.hit | r.miss : r.hit;
  return static_cast<std::uint64_t>(hits.count());
}

}  // namespace warpscope::memory
