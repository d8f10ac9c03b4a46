// The DRAM reads of a kernel's constant data (constant.dram_fetch_bytes).
//
// Measured on the H100 (validation/h100/suite const_local, docs/VALIDATION.md
// "Constant data"): besides the launch's own reads, Nsight Compute's
// dram__bytes_read of a kernel that loads __constant__ data grows by one block
// of 256 B for every aligned 256 B block its loads touch, each block once
// however many warps and SMs load from it (seven kernels touching 1-16 blocks,
// three runs). The constant caches between the SMs and DRAM are not modelled
// otherwise: this is their DRAM traffic for a kernel that starts with cold
// caches, as every kernel of the model and of Nsight Compute does.
#pragma once

#include <bit>
#include <cstdint>
#include <unordered_set>

#include "warpscope/warp_access.hpp"

namespace warpscope::memory {

class ConstantBlocks {
 public:
  // block_bytes: a power of two (0: not modelled, fetch() returns 0).
  explicit ConstantBlocks(int block_bytes = 0)
      : shift_(block_bytes > 0 ? std::countr_zero(static_cast<unsigned>(block_bytes)) : -1) {}

  void begin_kernel() { fetched_.clear(); }

  // The DRAM bytes `rec` (a constant load) reads: one block for each block
  // its active lanes touch that no earlier load of the kernel touched.
  std::uint64_t fetch(const WarpAccess& rec) {
    if (shift_ < 0) return 0;
    std::uint64_t bytes = 0;
    const std::uint64_t within = (std::uint64_t{1} << shift_) - 1;
    for (std::uint32_t m = rec.active.bits(); m != 0; m &= m - 1) {
      const std::uint64_t a = rec.addr[static_cast<unsigned>(std::countr_zero(m))];
      // The blocks of bytes [a, a + size): counted from a's block, so that an
      // access at the top of the address space cannot wrap around.
      const std::uint64_t span = ((a & within) + (rec.size > 0 ? rec.size - 1u : 0u)) >> shift_;
      for (std::uint64_t i = 0; i <= span; ++i)
        if (fetched_.insert((a >> shift_) + i).second) bytes += std::uint64_t{1} << shift_;
    }
    return bytes;
  }

 private:
  int shift_;
  std::unordered_set<std::uint64_t> fetched_;  // blocks read since begin_kernel()
};

}  // namespace warpscope::memory
