// The occupancy calculator (cuda_occupancy.h, CUDA 8.0 and 13.0; the legacy
// CUDA_Occupancy_Calculator.xls for CC 1.x). Every number comes from the
// architecture database; the two generation quirks that the database has no key
// for are named functions below, each with its source. docs/OCCUPANCY.md.
#include "warpscope/occupancy.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "warpscope/error.hpp"

namespace warpscope {
namespace {

using i64 = std::int64_t;

i64 round_up(i64 x, i64 unit) {
  return unit <= 1 ? x : (x + unit - 1) / unit * unit;
}
i64 div_up(i64 x, i64 y) {
  return (x + y - 1) / y;
}
int clamp_int(i64 v) {
  return v > kUnlimited ? kUnlimited : static_cast<int>(v);
}

std::string bytes(i64 b) {
  return b % 1024 == 0 ? fmt::format("{} KB", b / 1024) : fmt::format("{} B", b);
}

// cuda_occupancy.h (CUDA 8.0) cudaOccRegAllocationGranularity: on CC 2.x a warp
// of 21, 22, 29, 30, 37, 38, 45 or 46 registers per thread is allocated in units
// of 128 registers instead of the database's 64.
i64 register_unit(const ArchSpec& a, int regs) {
  if (a.cc_major == 2) {
    for (int r : {21, 22, 29, 30, 37, 38, 45, 46})
      if (regs == r) return 128;
  }
  return a.register_allocation_unit;
}

// cuda_occupancy.h (CUDA 9.0-13.0) cudaOccMaxActiveBlocksPerMultiprocessor: "for
// forward compatibility within Pascal family", a block that cannot run on GP10x
// (CC 6.1, 4 sub-partitions) is refused on GP100 (CC 6.0, 2 sub-partitions) too.
bool checks_as_cc61(const ArchSpec& a) {
  return a.cc_major == 6 && a.cc_minor == 0;
}

struct RegisterLimit {
  int blocks = kUnlimited;
  i64 per_warp = 0, per_block = 0;
  std::string error;
};

// Per-warp allocation (2.0+): registers per warp rounded up to the unit; the SM's
// file is split among `granularity` sub-partitions (cudaOccSubPartitionsPerMultiprocessor).
RegisterLimit registers_per_warp(const ArchSpec& a, int regs, int warps, int granularity) {
  RegisterLimit r;
  r.per_warp = round_up(static_cast<i64>(regs) * a.warp_size, register_unit(a, regs));
  r.per_block = r.per_warp * warps;
  const i64 assumed = r.per_warp * round_up(warps, granularity);  // the hardware check
  if (assumed > a.max_registers_per_block) {
    r.error = fmt::format("block needs {} registers ({} warps{} x {} per warp), over max_registers_per_block = {}",
                          assumed, round_up(warps, granularity),
                          warps % granularity ? fmt::format(" (rounded up to {})", granularity) : "", r.per_warp,
                          a.max_registers_per_block);
    return r;
  }
  if (r.per_warp == 0) return r;
  const i64 warps_fit = a.registers_per_sm / granularity / r.per_warp * granularity;
  r.blocks = clamp_int(warps_fit / warps);
  return r;
}

RegisterLimit register_limit(const ArchSpec& a, int regs, int warps) {
  if (!a.register_allocation_per_warp) {
    // CC 1.x: per block, warps rounded up to the warp allocation granularity (xls).
    RegisterLimit r;
    r.per_block = round_up(round_up(warps, a.warp_allocation_granularity) * a.warp_size * static_cast<i64>(regs),
                           a.register_allocation_unit);
    if (r.per_block > a.max_registers_per_block)
      r.error = fmt::format("block needs {} registers, over max_registers_per_block = {}", r.per_block,
                            a.max_registers_per_block);
    else if (r.per_block > 0)
      r.blocks = clamp_int(a.registers_per_sm / r.per_block);
    return r;
  }
  RegisterLimit r = registers_per_warp(a, regs, warps, a.warp_allocation_granularity);
  if (r.error.empty() && checks_as_cc61(a)) {
    const RegisterLimit gp10x = registers_per_warp(a, regs, warps, 4);
    if (!gp10x.error.empty() || gp10x.blocks == 0)
      r.error = fmt::format(
          "{} warps x {} registers do not fit CC 6.1's 4 register sub-partitions, which "
          "cuda_occupancy.h requires on 6.0 too (max_registers_per_block = {})",
          warps, r.per_warp, a.max_registers_per_block);
  }
  return r;
}

// Smallest selectable shared-memory capacity >= bytes, or nullopt.
std::optional<i64> capacity_at_least(const ArchSpec& a, i64 want) {
  std::optional<i64> best;
  for (i64 c : a.shared_capacities)
    if (c >= want && (!best || c < *best)) best = c;
  return best;
}

// The shared memory per SM that the blocks share (cudaOccSMemPerMultiprocessor
// and cudaOccMaxBlocksPerSMSmemLimit). 7.0+: the carveout, rounded up to a
// supported capacity, but never below what one block needs. Older: the
// cache-config split, or the largest when the preferred one cannot hold a block.
i64 shared_capacity(const ArchSpec& a, const OccupancyInput& in, i64 per_block) {
  if (a.cc_major >= 7) {
    int pct = -1;
    if (in.carveout_pct)
      pct = *in.carveout_pct;
    else if (in.cache == CachePreference::L1)
      pct = 0;
    else if (in.cache == CachePreference::Equal)
      pct = 50;
    else if (in.cache == CachePreference::Shared)
      pct = 100;
    const i64 want = pct < 0 ? a.max_shared_per_sm : pct * a.max_shared_per_sm / 100;
    const i64 preferred = capacity_at_least(a, want).value_or(a.max_shared_per_sm);
    if (preferred >= per_block) return preferred;
    return capacity_at_least(a, per_block).value_or(a.max_shared_per_sm);
  }
  std::vector<i64> caps = a.shared_capacities;
  std::sort(caps.begin(), caps.end());
  i64 preferred = a.max_shared_per_sm;
  if (!caps.empty() && in.cache == CachePreference::L1) preferred = caps.front();
  if (!caps.empty() && in.cache == CachePreference::Equal) preferred = caps[caps.size() / 2];
  return preferred >= per_block ? preferred : a.max_shared_per_sm;
}

struct Limits {
  int warps = 0, regs = 0, smem = 0, blocks = 0, warps_per_block = 0;
  RegisterLimit reg;
  i64 shared_per_block = 0, shared_per_sm = 0;
  std::string error;
  [[nodiscard]] int min() const { return std::min({warps, regs, smem, blocks}); }
  [[nodiscard]] unsigned at_or_below(int n) const {
    return (warps <= n ? kLimitWarps : 0u) | (regs <= n ? kLimitRegisters : 0u) |
           (smem <= n ? kLimitSharedMemory : 0u) | (blocks <= n ? kLimitBlocks : 0u);
  }
};

Limits limits(const ArchSpec& a, const OccupancyInput& in) {
  Limits l;
  if (in.threads <= 0) {
    l.error = fmt::format("block size must be at least 1 thread (got {})", in.threads);
    return l;
  }
  if (in.threads > a.max_threads_per_block) {
    l.error =
        fmt::format("block of {} threads exceeds max_threads_per_block = {}", in.threads, a.max_threads_per_block);
    return l;
  }
  if (in.regs < 0 || in.regs > a.max_registers_per_thread) {
    l.error = fmt::format("{} registers per thread exceed max_registers_per_thread = {}", in.regs,
                          a.max_registers_per_thread);
    if (in.regs < 0) l.error = "registers per thread cannot be negative";
    return l;
  }
  if (in.smem < 0) {
    l.error = "shared memory per block cannot be negative";
    return l;
  }
  if (in.carveout_pct && (*in.carveout_pct < 0 || *in.carveout_pct > 100)) {
    l.error = fmt::format("carveout {} % is outside 0..100", *in.carveout_pct);
    return l;
  }
  l.warps_per_block = static_cast<int>(div_up(in.threads, a.warp_size));
  l.warps = a.max_warps_per_sm / l.warps_per_block;
  l.blocks = a.max_blocks_per_sm;
  l.reg = register_limit(a, in.regs, l.warps_per_block);
  if (!l.reg.error.empty()) {
    l.error = l.reg.error;
    return l;
  }
  l.regs = l.reg.blocks;
  // cudaOccMaxBlocksPerSMSmemLimit: reserved shared memory (8.0+) is part of the block's allocation.
  l.shared_per_block = round_up(in.smem + a.reserved_shared_per_block, a.shared_allocation_unit);
  if (l.shared_per_block > a.max_shared_per_block_optin + a.reserved_shared_per_block) {
    l.error = fmt::format("{} of shared memory per block exceeds max_shared_per_block_optin = {}", bytes(in.smem),
                          bytes(a.max_shared_per_block_optin));
    return l;
  }
  l.shared_per_sm = shared_capacity(a, in, l.shared_per_block);
  l.smem = l.shared_per_block > 0 ? clamp_int(l.shared_per_sm / l.shared_per_block) : kUnlimited;
  if (l.min() == 0) l.error = "no block fits on an SM";  // not reachable with consistent database values
  return l;
}

// The largest value <= start at which the resource's own limit reaches `target`.
template <typename LimitOf>
std::optional<i64> largest_fitting(i64 start, i64 stop, i64 step, int target, LimitOf limit_of) {
  for (i64 v = start; v >= stop; v -= step) {
    if (limit_of(v) >= target) return v;
  }
  return std::nullopt;
}

RaiseHint raise_registers(const ArchSpec& a, const OccupancyInput& in, const Limits& l, int blocks) {
  RaiseHint h;
  const int target = blocks + 1;
  h.blocked_by = l.at_or_below(blocks) & ~kLimitRegisters;
  if (h.blocked_by != 0 || in.regs == 0) return h;
  h.at_most = largest_fitting(in.regs - 1, 0, 1, target, [&](i64 r) {
    const RegisterLimit rl = register_limit(a, static_cast<int>(r), l.warps_per_block);
    return rl.error.empty() ? rl.blocks : 0;
  });
  return h;
}

RaiseHint raise_shared(const ArchSpec& a, const OccupancyInput& in, const Limits& l, int blocks) {
  RaiseHint h;
  const int target = blocks + 1;
  h.blocked_by = l.at_or_below(blocks) & ~kLimitSharedMemory;
  if (h.blocked_by != 0 || l.shared_per_block == 0) return h;
  // Candidates: the largest request of each smaller allocation, then no shared memory at all.
  const i64 unit = std::max<i64>(a.shared_allocation_unit, 1);
  auto limit_of = [&](i64 smem) {
    const i64 per_block = round_up(smem + a.reserved_shared_per_block, unit);
    if (per_block == 0) return kUnlimited;
    OccupancyInput trial = in;
    trial.smem = smem;
    return clamp_int(shared_capacity(a, trial, per_block) / per_block);
  };
  const i64 start = l.shared_per_block - unit - a.reserved_shared_per_block;
  h.at_most = largest_fitting(start, std::max<i64>(unit - a.reserved_shared_per_block, 1), unit, target, limit_of);
  if (!h.at_most && limit_of(0) >= target) h.at_most = 0;
  return h;
}

}  // namespace

std::string_view to_string(CachePreference p) {
  switch (p) {
    case CachePreference::Shared:
      return "shared";
    case CachePreference::L1:
      return "l1";
    case CachePreference::Equal:
      return "equal";
    default:
      return "none";
  }
}

std::optional<CachePreference> parse_cache_preference(std::string_view t) {
  for (auto p : {CachePreference::None, CachePreference::Shared, CachePreference::L1, CachePreference::Equal})
    if (t == to_string(p)) return p;
  if (t == "L1") return CachePreference::L1;
  return std::nullopt;
}

std::vector<std::string> limiter_names(unsigned limiters) {
  std::vector<std::string> out;
  if (limiters & kLimitWarps) out.emplace_back("warps");
  if (limiters & kLimitRegisters) out.emplace_back("registers");
  if (limiters & kLimitSharedMemory) out.emplace_back("shared_memory");
  if (limiters & kLimitBlocks) out.emplace_back("blocks");
  return out;
}

std::int64_t driver_shared_capacity(const ArchSpec& a, const OccupancyInput& in) {
  if (a.cc_major < 7 || a.unified_l1_shared <= 0 || a.shared_capacities.empty()) return a.default_shared_capacity;
  OccupancyInput all = in;  // the blocks that fit with every capacity on offer
  all.carveout_pct = 100;
  all.cache = CachePreference::None;
  const OccupancyResult r = compute_occupancy(a, all);
  const i64 per_block = r.shared_per_block;
  i64 need = i64{r.blocks_per_sm} * per_block;  // the blocks that fit
  // Blocks of up to a quarter of the warp slots (<= 512 threads of 2048): room
  // for driver_blocks_factor times the warp-limited blocks where that stays
  // within driver_factor_cap, and never below the default capacity. Larger
  // blocks get just what fits (validation/h100/carveout_probe: 1024 threads
  // with 4 KB each run at 16 KB).
  if (r.limit_warps >= 4) {
    const i64 target = std::min<i64>(i64{a.driver_blocks_factor} * r.limit_warps, a.max_blocks_per_sm) * per_block;
    need = std::max({need, std::min(target, a.driver_factor_cap), a.default_shared_capacity});
  } else if (a.driver_blocks_factor <= 1) {
    need = std::max(need, a.default_shared_capacity);
  }
  return capacity_at_least(a, need).value_or(a.max_shared_per_sm);
}

OccupancyResult compute_occupancy(const ArchSpec& a, const OccupancyInput& in) {
  const Limits l = limits(a, in);
  if (!l.error.empty()) throw InputError(l.error);
  OccupancyResult r;
  r.blocks_per_sm = l.min();
  r.limiters = l.at_or_below(r.blocks_per_sm);
  r.warps_per_block = l.warps_per_block;
  r.warps_per_sm = r.blocks_per_sm * l.warps_per_block;
  r.threads_per_sm = r.blocks_per_sm * in.threads;
  r.occupancy = static_cast<double>(r.warps_per_sm) / a.max_warps_per_sm;
  r.limit_warps = l.warps;
  r.limit_registers = l.regs;
  r.limit_shared = l.smem;
  r.limit_blocks = l.blocks;
  r.registers_per_warp = l.reg.per_warp;
  r.registers_per_block = l.reg.per_block;
  r.shared_per_block = l.shared_per_block;
  r.shared_per_sm = l.shared_per_sm;
  r.needs_optin = in.smem > a.max_shared_per_block;
  r.raise_registers = raise_registers(a, in, l, r.blocks_per_sm);
  r.raise_shared = raise_shared(a, in, l, r.blocks_per_sm);
  return r;
}

std::string_view to_string(SweepAxis a) {
  switch (a) {
    case SweepAxis::Registers:
      return "regs";
    case SweepAxis::SharedMemory:
      return "smem";
    default:
      return "block";
  }
}

std::vector<SweepPoint> sweep_occupancy(const ArchSpec& a, const OccupancyInput& base, SweepAxis axis) {
  std::vector<i64> values;
  if (axis == SweepAxis::BlockSize) {
    for (i64 t = a.warp_size; t <= a.max_threads_per_block; t += a.warp_size) values.push_back(t);
  } else if (axis == SweepAxis::Registers) {
    for (i64 r = 8; r < a.max_registers_per_thread; r += 8) values.push_back(r);
    values.push_back(a.max_registers_per_thread);
  } else {
    i64 step = 512;
    while (a.max_shared_per_block_optin / step > 32) step *= 2;
    for (i64 s = 0; s <= a.max_shared_per_block_optin; s += step) values.push_back(s);
    if (values.back() != a.max_shared_per_block_optin) values.push_back(a.max_shared_per_block_optin);
  }
  std::vector<SweepPoint> out;
  out.reserve(values.size());
  for (i64 v : values) {
    OccupancyInput in = base;
    if (axis == SweepAxis::BlockSize) in.threads = static_cast<int>(v);
    if (axis == SweepAxis::Registers) in.regs = static_cast<int>(v);
    if (axis == SweepAxis::SharedMemory) in.smem = v;
    SweepPoint p;
    p.value = v;
    try {
      p.result = compute_occupancy(a, in);
    } catch (const InputError& e) {
      p.error = e.what();
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace warpscope
