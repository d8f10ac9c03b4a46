#include "memory/issue_clock.hpp"

#include <algorithm>

namespace warpscope::memory {
namespace {

std::uint64_t warp_key(std::uint32_t cta, std::uint16_t warp) { return (std::uint64_t{cta} << 16) | warp; }

}  // namespace

void IssueClock::begin_kernel(int sms, int slots_per_sm) {
  slots_per_sm_ = slots_per_sm > 0 ? slots_per_sm : 32;
  seen_ = 0;
  ctas_.clear();
  warps_.clear();
  slots_.assign(static_cast<std::size_t>(std::max(sms, 0)), {});
}

IssueClock::Cta& IssueClock::admit(int sm, std::uint32_t cta) {
  auto& slots = slots_[static_cast<std::size_t>(sm)];
  std::uint64_t start = 0;
  if (slots.size() < static_cast<std::size_t>(slots_per_sm_)) {
    slots.push_back(cta);
  } else {
    // The slot whose CTA issued least recently: that CTA has retired.
    std::size_t pick = 0;
    for (std::size_t i = 1; i < slots.size(); ++i)
      if (ctas_.at(slots[i]).last_seen < ctas_.at(slots[pick]).last_seen) pick = i;
    const auto old = ctas_.find(slots[pick]);
    start = old->second.end;
    for (std::uint32_t w = 0; w < old->second.warps; ++w) warps_.erase(warp_key(old->first, static_cast<std::uint16_t>(w)));
    ctas_.erase(old);
    slots[pick] = cta;
  }
  Cta& c = ctas_[cta];
  c.start = c.end = start;
  return c;
}

std::uint64_t IssueClock::next(int sm, std::uint32_t cta, std::uint16_t warp) {
  ++seen_;
  auto [it, fresh] = warps_.try_emplace(warp_key(cta, warp));
  Warp& w = it->second;
  if (fresh) {
    const auto known = ctas_.find(cta);
    w.cta = known != ctas_.end() ? &known->second : &admit(sm, cta);
    w.cta->warps = std::max<std::uint32_t>(w.cta->warps, std::uint32_t{warp} + 1u);
  }
  Cta& c = *w.cta;
  const std::uint64_t round = c.start + w.next++;
  c.end = std::max(c.end, round + 1);
  c.last_seen = seen_;
  return round;
}

}  // namespace warpscope::memory
