#include "rules/atomic_passes.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "rules/local_layout.hpp"

namespace warpscope::rules {
namespace {

// For each active lane, how many active lanes before it share its address (0: the first).
std::array<std::uint8_t, kWarpSize> earlier_on_same_address(const WarpAccess& a) {
  std::array<std::uint8_t, kWarpSize> rank{};
  const std::uint32_t active = a.active.bits();
  for (std::uint32_t lanes = active; lanes != 0; lanes &= lanes - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(lanes));
    std::uint8_t n = 0;
    for (std::uint32_t before = active & ((1u << l) - 1u); before != 0; before &= before - 1)
      if (a.addr[static_cast<unsigned>(std::countr_zero(before))] == a.addr[l]) ++n;
    rank[l] = n;
  }
  return rank;
}

}  // namespace

bool serializes_same_address(const WarpAccess& a, const ArchSpec& arch) {
  if (a.op != Op::Atomic && a.op != Op::Reduction) return false;
  if (a.space == Space::Global) return arch.global_atomics_serialize;
  if (a.space == Space::Shared) return arch.shared_atomics_serialize;
  return false;
}

int atomic_passes(const WarpAccess& a) {
  if (a.active.none()) return 0;
  int passes = 1;
  for (std::uint8_t r : earlier_on_same_address(a)) passes = std::max(passes, r + 1);
  return passes;
}

WarpAccess atomic_pass(const WarpAccess& a, int pass) {
  const auto rank = earlier_on_same_address(a);
  WarpAccess p = a;
  std::uint32_t mask = 0;
  for (std::uint32_t lanes = a.active.bits(); lanes != 0; lanes &= lanes - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(lanes));
    if (rank[l] == pass) mask |= 1u << l;
  }
  p.active = LaneMask(mask);
  return p;
}

void add_pass(InstructionCounts& total, const InstructionCounts& pass) {
  InstructionCounts more = pass;  // the same instruction: no request, piece, replay or byte it did not have
  more.requests = more.sub_requests = more.replays = more.bytes_needed = 0;
  add_part(total, more);
  total.wavefronts += pass.wavefronts;
  total.bank_conflicts = total.wavefronts - total.ideal_wavefronts;
}

}  // namespace warpscope::rules
