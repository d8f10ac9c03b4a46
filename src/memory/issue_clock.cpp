#include "memory/issue_clock.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::memory {
namespace {

constexpr std::uint64_t entry(std::uint32_t cta, std::uint32_t slot) { return (std::uint64_t{slot} << 32) | cta; }
constexpr std::uint32_t entry_cta(std::uint64_t e) { return static_cast<std::uint32_t>(e); }
constexpr std::uint32_t entry_slot(std::uint64_t e) { return static_cast<std::uint32_t>(e >> 32); }
std::uint64_t home(std::uint32_t cta, std::uint64_t mask) { return (cta * 0x9E3779B1u) & mask; }

}  // namespace

void IssueClock::begin_kernel(int sms, int slots_per_sm) {
  slots_per_sm_ = slots_per_sm > 0 ? slots_per_sm : 32;
  seen_ = 0;
  const auto n_sms = static_cast<std::size_t>(std::max(sms, 0));
  const std::size_t total = n_sms * static_cast<std::size_t>(slots_per_sm_);
  // Slots are reset when admitted; kept ones keep their warp arrays' capacity.
  if (slots_.size() != total) slots_.resize(total);
  used_.assign(n_sms, 0);
  // At most half full: probes stay short.
  const std::size_t cap = std::bit_ceil(std::max<std::size_t>(64, 2 * total));
  index_.assign(cap, entry(0, kFree));
  index_mask_ = cap - 1;
}

std::uint32_t IssueClock::find(std::uint32_t cta) const {
  for (std::uint64_t i = home(cta, index_mask_);; i = (i + 1) & index_mask_) {
    const std::uint64_t e = index_[i];
    if (entry_slot(e) == kFree) return kFree;
    if (entry_cta(e) == cta) return entry_slot(e);
  }
}

void IssueClock::index_insert(std::uint32_t cta, std::uint32_t slot) {
  std::uint64_t i = home(cta, index_mask_);
  while (entry_slot(index_[i]) != kFree) i = (i + 1) & index_mask_;
  index_[i] = entry(cta, slot);
}

void IssueClock::index_erase(std::uint32_t cta) {
  std::uint64_t i = home(cta, index_mask_);
  while (entry_cta(index_[i]) != cta || entry_slot(index_[i]) == kFree) i = (i + 1) & index_mask_;
  // Backward-shift deletion: move later entries of the probe run into the hole
  // when their home does not lie cyclically in (hole, j].
  for (std::uint64_t j = (i + 1) & index_mask_;; j = (j + 1) & index_mask_) {
    const std::uint64_t e = index_[j];
    if (entry_slot(e) == kFree) break;
    const std::uint64_t h = home(entry_cta(e), index_mask_);
    const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (stays) continue;
    index_[i] = e;
    i = j;
  }
  index_[i] = entry(0, kFree);
}

std::uint32_t IssueClock::admit(int sm, std::uint32_t cta) {
  const auto first = static_cast<std::uint32_t>(sm) * static_cast<std::uint32_t>(slots_per_sm_);
  std::uint32_t& used = used_[static_cast<std::size_t>(sm)];
  std::uint64_t start = 0;
  std::uint32_t pick;
  if (used < static_cast<std::uint32_t>(slots_per_sm_)) {
    pick = first + used++;
  } else {
    // The slot whose CTA issued least recently: that CTA has retired.
    pick = first;
    for (std::uint32_t i = first + 1; i < first + used; ++i)
      if (slots_[i].last_seen < slots_[pick].last_seen) pick = i;
    Slot& old = slots_[pick];
    start = old.end;
    index_erase(old.cta);
  }
  Slot& s = slots_[pick];
  s.cta = cta;
  s.start = s.end = start;
  s.next.clear();
  s.far.clear();
  index_insert(cta, pick);
  return pick;
}

std::uint64_t& IssueClock::warp_next(std::uint32_t slot, std::uint16_t warp) {
  Slot& s = slots_[slot];
  if (warp < kDirectWarps) {
    if (warp >= s.next.size()) s.next.resize(std::size_t{warp} + 1, 0);
    return s.next[warp];
  }
  return s.far[warp];
}

std::uint64_t IssueClock::next(int sm, std::uint32_t cta, std::uint16_t warp) {
  ++seen_;
  std::uint32_t slot = find(cta);
  if (slot == kFree) slot = admit(sm, cta);
  Slot& s = slots_[slot];
  const std::uint64_t round = s.start + warp_next(slot, warp)++;
  s.end = std::max(s.end, round + 1);
  s.last_seen = seen_;
  return round;
}

}  // namespace warpscope::memory
