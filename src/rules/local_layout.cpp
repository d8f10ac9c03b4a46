#include "rules/local_layout.hpp"

namespace warpscope::rules {

WarpAccess local_part(const WarpAccess& a, int part) {
  WarpAccess p = a;
  p.size = a.size > 4 ? std::uint8_t{4} : a.size;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const std::uint64_t o = a.addr[lane];
    const std::uint64_t word = (o >> 2) + static_cast<std::uint64_t>(part);
    p.addr[lane] = (word << 7) | (std::uint64_t{lane} << 2) | (o & 3u);
  }
  return p;
}

void add_part(InstructionCounts& total, const InstructionCounts& part) {
  total.requests += part.requests;
  total.sub_requests += part.sub_requests;
  total.transactions += part.transactions;
  total.sectors += part.sectors;
  total.bytes_needed += part.bytes_needed;
  total.bytes_moved += part.bytes_moved;
  total.replays += part.replays;
  total.tx32 += part.tx32;
  total.tx64 += part.tx64;
  total.tx128 += part.tx128;
}

}  // namespace warpscope::rules
