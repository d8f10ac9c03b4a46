// Shared-memory passes of one group of lanes (2.x and later: any number of
// words broadcast per pass): within the group each bank serves one row per
// pass, lanes touching the same (row, bank) share it, so the group takes the
// largest number of distinct rows any bank holds (seed000 G.3.3, G.4.3, G.5.3;
// rules/shared_banks.cpp applies it per group and generation).
#pragma once

#include <bit>
#include <cstdint>

#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

// A lane's address aligned down to the access size (what the banks see).
inline std::uint64_t lane_addr(const WarpAccess& a, int lane) {
  return a.addr[static_cast<unsigned>(lane)] & ~static_cast<std::uint64_t>(a.size - 1);
}

// Where a word of shared memory lives: bank and (row, bank) key. Every
// generation's geometry is powers of two (16 or 32 banks of 4 or 8 bytes), so
// the hot path shifts and masks; 64-bit divisions cost ~3/4 of a 4-byte warp
// instruction (170 ns, bench/rules_bench.cpp). Other values (a hand-written
// architecture file) divide.
struct BankGeometry {
  unsigned width, row_bytes, banks;
  bool pow2;
  unsigned width_shift, row_shift, bank_shift;

  BankGeometry(unsigned w, unsigned r, unsigned b)
      : width(w), row_bytes(r), banks(b), pow2(std::has_single_bit(w) && std::has_single_bit(r) && std::has_single_bit(b)),
        width_shift(static_cast<unsigned>(std::countr_zero(w))), row_shift(static_cast<unsigned>(std::countr_zero(r))),
        bank_shift(static_cast<unsigned>(std::countr_zero(b))) {}
  std::uint64_t word_of(std::uint64_t addr) const { return pow2 ? addr >> width_shift : addr / width; }
  unsigned bank_of(std::uint64_t word) const {
    return static_cast<unsigned>(pow2 ? word & (banks - 1u) : word % banks);
  }
  std::uint64_t key_of(std::uint64_t word, unsigned bank) const {
    return pow2 ? ((word << width_shift >> row_shift) << bank_shift) | bank : word * width / row_bytes * banks + bank;
  }
};

// Passes of lanes [first, first + lanes) of `a` (at most 32 lanes x 4 words).
std::uint32_t bank_passes(const WarpAccess& a, int first, int lanes, const BankGeometry& g);

}  // namespace warpscope::rules
