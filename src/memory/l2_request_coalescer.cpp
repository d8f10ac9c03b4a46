#include "memory/l2_request_coalescer.hpp"

#include <algorithm>
#include <limits>

namespace warpscope::memory {

L2RequestCoalescer::L2RequestCoalescer(std::uint32_t window, std::uint32_t buckets_log2) : window_(window) {
  if (window_ == 0) return;
  bucket_mask_ = (std::uint64_t{1} << buckets_log2) - 1;
  table_.assign((bucket_mask_ + 1) * 4, Entry{});
}

void L2RequestCoalescer::begin_kernel() {
  if (!enabled()) return;
  // Entries of other generations count as empty; clear only when the 8-bit
  // generation wraps (every 255 kernels).
  if (++kernel_ == 0) {
    std::fill(table_.begin(), table_.end(), Entry{});
    kernel_ = 1;
  }
}

SectorMask L2RequestCoalescer::offer(int sm, std::uint64_t line, SectorMask sectors, std::uint64_t round) {
  if (!enabled() || sectors.none()) return sectors;
  const auto now = static_cast<std::uint32_t>(std::min<std::uint64_t>(round, std::numeric_limits<std::uint32_t>::max()));
  const auto who = static_cast<std::uint16_t>(sm);
  const std::uint64_t h = (line ^ (std::uint64_t{who} << 48)) * 0x9E3779B97F4A7C15ull;
  Entry* bucket = &table_[((h >> 32) & bucket_mask_) * 4];
  Entry* victim = bucket;
  for (int w = 0; w < 4; ++w) {
    Entry& e = bucket[w];
    if (e.kernel == kernel_ && e.line == line && e.sm == who) {
      const std::uint32_t apart = now >= e.round ? now - e.round : e.round - now;
      if (apart >= window_) {  // what it sent has returned: a new request
        e.round = now;
        e.sectors = sectors.bits();
        return sectors;
      }
      const SectorMask sent = sectors & ~SectorMask(e.sectors);
      e.sectors |= sent.bits();  // joins the request in flight (approximation: ages from its round)
      return sent;
    }
    if (e.kernel != kernel_) victim = &e;
    else if (victim->kernel == kernel_ && e.round < victim->round) victim = &e;
  }
  *victim = Entry{line, now, who, sectors.bits(), kernel_};
  return sectors;
}

}  // namespace warpscope::memory
