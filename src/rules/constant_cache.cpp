// Constant memory: a request is split into as many requests as it has distinct
// addresses, served one after another (CUDA C Programming Guide §5.3.2
// "Constant Memory"; 1.x first splits the warp into half-warps). Uniform access
// is one request broadcast to all lanes (seed001 "Constants").
#include "rules/global_rules.hpp"
#include "rules/small_set.hpp"

namespace warpscope::rules {

void constant_cache(const WarpAccess& a, const ArchSpec& arch, InstructionCounts& c) {
  const int lanes = arch.constant_request_lanes;
  std::uint32_t serialized = 0;
  for (int first = 0; first < kWarpSize; first += lanes) {
    if (a.active.slice(first, lanes).none()) continue;
    ++c.sub_requests;
    SmallSet<64> distinct;
    std::uint64_t last = ~0ull;
    for (int lane = first; lane < first + lanes; ++lane) {
      if (!a.active.test(lane)) continue;
      const std::uint64_t addr = a.addr[static_cast<unsigned>(lane)] & ~static_cast<std::uint64_t>(a.size - 1);
      if (addr == last) continue;
      last = addr;
      serialized += distinct.insert(addr) ? 1u : 0u;
    }
  }
  c.serialization = serialized;
  c.transactions = serialized;
  c.replays = serialized > 0 ? serialized - 1 : 0;
  c.applies |= InstructionCounts::kSerialization | InstructionCounts::kReplays | InstructionCounts::kTransactions;
}

}  // namespace warpscope::rules
