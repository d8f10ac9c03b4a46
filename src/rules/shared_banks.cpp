// Shared-memory bank conflicts: wavefronts (passes through the banks) per warp
// instruction.
//
// Model: the warp is served in groups of lanes (group_lanes by access size:
// whole warp for <= 32-bit, half-warps for 64-bit, quarter-warps for 128-bit on
// 2.x and 5.x+; half-warps for everything on 1.x). Within a group, each bank
// serves one row per pass; threads touching the same row of a bank share it
// (broadcast). A group takes max over banks of distinct rows passes.
//  - banks, width, broadcast of any words: seed000 G.3.3 (2.x), G.5.3 (5.x);
//  - 64-bit: conflicts only within a half-warp; 128-bit: within a quarter-warp,
//    plus one way on 2.x (seed000 G.3.3 "Larger Than 32-Bit Access");
//  - Kepler: 64-bit banks; 64-bit mode maps 64-bit words to banks, 32-bit mode
//    maps 32-bit words but words i and i+32 of a 64-word segment share a row
//    (seed000 G.4.3);
//  - 1.x: 16 banks per half-warp, one broadcast word per pass, wider accesses
//    split into 32-bit ones (PG 1.x G.3.3; seed002 8.1.4 on 8/16-bit reads);
//  - ldmatrix / stmatrix (LDSM / STSM): each 8x8 matrix is served alone, its 8
//    rows of 16 B as one group; no merging across matrices, even of one address
//    (x4 with every lane on one row: 4 wavefronts), and one wavefront per matrix
//    is ideal (validation/h100/matrix_probe: 90 launches, every row pattern).
#include <algorithm>
#include <array>
#include <bit>

#include "rules/bank_passes.hpp"
#include "rules/global_rules.hpp"
#include "rules/small_set.hpp"

namespace warpscope::rules {
namespace {

// Distinct bytes the active lanes touch (aligned accesses of one size).
std::uint32_t distinct_bytes(const WarpAccess& a) {
  SmallSet<64> seen;
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (a.active.test(lane)) seen.insert(lane_addr(a, lane));
  return seen.size() * a.size;
}

// 1.x: per pass, every thread of one broadcast word plus one thread per other bank.
std::uint32_t tesla_passes(const WarpAccess& a, int first, int lanes, unsigned offset, unsigned size,
                           unsigned banks) {
  std::uint32_t pending = 0;
  for (int k = 0; k < lanes; ++k)
    if (a.active.test(first + k)) pending |= 1u << k;
  auto addr_of = [&](int k) { return (lane_addr(a, first + k) + offset) & ~static_cast<std::uint64_t>(size - 1); };
  std::uint32_t passes = 0;
  while (pending != 0) {
    ++passes;
    const std::uint64_t broadcast_word = addr_of(std::countr_zero(pending)) / 4;
    std::uint64_t banks_served = 1ull << (broadcast_word % banks);
    std::uint32_t served = 0;
    for (int k = 0; k < lanes; ++k) {
      if (!((pending >> k) & 1u)) continue;
      const std::uint64_t word = addr_of(k) / 4;
      const std::uint64_t bank_bit = 1ull << (word % banks);
      if (word == broadcast_word) {
        served |= 1u << k;
      } else if ((banks_served & bank_bit) == 0) {
        banks_served |= bank_bit;
        served |= 1u << k;
      }
    }
    pending &= ~served;
  }
  return passes;
}

// One 8x8 matrix of ldmatrix/stmatrix on banks that span 128 B (7.5+: 32 x 4 B): its 16-byte rows
// each cover one of the 8 bank quads, so it takes the most distinct rows any quad holds. The same count
// as bank_passes(a, first, 8, ...) on those banks, without its sort (tests/rules/shared_banks_test.cpp).
std::uint32_t matrix_passes(const WarpAccess& a, int first) {
  std::array<std::uint64_t, 8> rows{};
  std::array<std::uint8_t, 8> per_quad{};
  unsigned n = 0, worst = 0;
  for (int lane = first; lane < first + 8; ++lane) {
    if (!a.active.test(lane)) continue;
    const std::uint64_t row = lane_addr(a, lane) >> 4;
    bool seen = false;
    for (unsigned i = 0; i < n && !seen; ++i) seen = rows[i] == row;
    if (seen) continue;  // lanes on one row: one access
    rows[n++] = row;
    worst = std::max<unsigned>(worst, ++per_quad[row & 7u]);
  }
  return worst;
}

}  // namespace

void shared_banks(const WarpAccess& a, const ArchSpec& arch, const RulesOptions& options, InstructionCounts& c) {
  const auto banks = static_cast<unsigned>(arch.shared_banks);
  const int lanes = arch.shared_group_lanes[static_cast<unsigned>(size_index(a.size))];
  c.applies |= InstructionCounts::kWavefronts;

  std::uint32_t wavefronts = 0, ideal = 0;
  if (is_matrix(a.op)) {
    const unsigned width = static_cast<unsigned>(options.bank_width > 0 ? options.bank_width : arch.bank_width);
    const BankGeometry geometry(width, width * banks, banks);
    for (int first = 0; first < kWarpSize; first += 8) {
      if (a.active.slice(first, 8).none()) continue;
      if (arch.shared_broadcast == Broadcast::SingleWord) {  // no ldmatrix before 7.5: the 1.x banks, as a what-if
        for (unsigned p = 0; p < 4; ++p) wavefronts += tesla_passes(a, first, 8, p * 4u, 4u, banks);
        ideal += 4;
      } else {
        wavefronts += width * banks == 128 ? matrix_passes(a, first) : bank_passes(a, first, 8, geometry);
        ++ideal;
      }
    }
  } else if (arch.shared_broadcast == Broadcast::SingleWord) {
    const bool split = arch.shared_split_wide && a.size > 4;
    const unsigned piece = split ? 4u : a.size;
    const unsigned pieces = split ? a.size / 4u : 1u;
    for (int first = 0; first < kWarpSize; first += lanes) {
      if (a.active.slice(first, lanes).none()) continue;
      for (unsigned p = 0; p < pieces; ++p) {
        wavefronts += tesla_passes(a, first, lanes, p * 4u, piece, banks);
        ++ideal;
      }
    }
  } else {
    const unsigned width = static_cast<unsigned>(options.bank_width > 0 ? options.bank_width : arch.bank_width);
    unsigned physical = width;
    for (int m : arch.bank_width_modes) physical = std::max(physical, static_cast<unsigned>(m));
    const BankGeometry geometry(width, physical * banks, banks);
    const bool extra = arch.shared_128bit_extra_pass && a.size == 16;
    // Loads on 7.0+: the groups of a merge group are served in one wavefront
    // when together they are conflict-free (validation/h100/rules).
    const int merge = a.op == Op::Load ? std::max(lanes, arch.shared_load_merge_lanes[static_cast<unsigned>(size_index(a.size))]) : lanes;
    std::uint32_t merge_groups = 0;
    for (int top = 0; top < kWarpSize; top += merge) {
      if (a.active.slice(top, merge).none()) continue;
      ++merge_groups;
      if (merge > lanes && bank_passes(a, top, merge, geometry) == 1) {
        wavefronts += 1;
        ideal += 1;
        continue;
      }
      for (int first = top; first < top + merge; first += lanes) {
        if (a.active.slice(first, lanes).none()) continue;
        wavefronts += bank_passes(a, first, lanes, geometry) + (extra ? 1u : 0u);
        ++ideal;
      }
    }
    if (merge > lanes) {
      // What Nsight Compute counts as conflict-free for such loads: one wavefront
      // per 128 B of distinct data, at least one per merge group.
      const std::uint32_t bytes = distinct_bytes(a);
      ideal = std::max((bytes + 127u) / 128u, merge_groups);
    }
  }
  c.wavefronts = wavefronts;
  c.ideal_wavefronts = ideal;
  c.bank_conflicts = wavefronts - ideal;
  if (arch.rules != RulesFamily::Volta) {
    c.applies |= InstructionCounts::kReplays;
    c.replays = wavefronts > 0 ? wavefronts - 1 : 0;
  }
}

}  // namespace warpscope::rules
