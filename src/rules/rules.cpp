// Dispatch: one warp instruction -> the rule set of its space and generation.
#include "warpscope/rules.hpp"

#include "rules/atomic_passes.hpp"
#include "rules/global_rules.hpp"
#include "rules/local_layout.hpp"
#include "rules/texture_requests.hpp"

namespace warpscope {

MemoryPath global_path(const WarpAccess& a, const ArchSpec& arch) {
  if (arch.rules == RulesFamily::TeslaStrict || arch.rules == RulesFamily::TeslaRelaxed) return MemoryPath::Dram;
  // Stores, atomics and reductions are not cached in the SM before 7.0: they
  // invalidate the L1 line and go to L2 in 32 B segments (seed001 "GMEM Writes").
  const bool is_load = a.op == Op::Load || a.op == Op::AsyncCopy;  // a cp.async's global side reads
  if (is_texture(a.space)) return MemoryPath::ReadOnly;
  if (a.space == Space::Local) {
    if (arch.rules == RulesFamily::Volta) return MemoryPath::L1;
    return is_load && arch.l1_caches_local ? MemoryPath::L1 : MemoryPath::L2;
  }
  if (!is_load) return arch.rules == RulesFamily::Volta ? MemoryPath::L1 : MemoryPath::L2;
  switch (a.cache) {
    case CacheOp::Nc:
      return arch.readonly_present ? MemoryPath::ReadOnly
                                   : (arch.l1_caches_global ? MemoryPath::L1 : MemoryPath::L2);
    case CacheOp::Cg:
    case CacheOp::Cv:
      return MemoryPath::L2;
    case CacheOp::Ca:
    case CacheOp::Cs:
    case CacheOp::Lu:
      return arch.l1_caches_global || arch.l1_global_opt_in ? MemoryPath::L1 : MemoryPath::L2;
    case CacheOp::Default:
    case CacheOp::Wb:
    case CacheOp::Wt:
      return arch.l1_caches_global ? MemoryPath::L1 : MemoryPath::L2;
  }
  return MemoryPath::L2;
}

InstructionCounts analyze(const WarpAccess& a, const ArchSpec& arch, const RulesOptions& options) {
  if (auto passes = rules::serve_by_passes(
          a, arch, [&](const WarpAccess& pass, bool, bool) { return rules::analyze_at_addresses(pass, arch, options); }))
    return *passes;
  if (is_texture(a.space)) return rules::texture_counts(a, arch, options);
  if (a.space != Space::Local) return rules::analyze_at_addresses(a, arch, options);
  InstructionCounts total = rules::analyze_at_addresses(rules::local_part(a, 0), arch, options);
  for (int part = 1; part < rules::local_parts(a); ++part)
    rules::add_part(total, rules::analyze_at_addresses(rules::local_part(a, part), arch, options));
  return total;
}

InstructionCounts rules::analyze_at_addresses(const WarpAccess& a, const ArchSpec& arch, const RulesOptions& options) {
  InstructionCounts c;
  c.requests = 1;
  c.applies = InstructionCounts::kRequests;
  switch (a.space) {
    case Space::Shared:
      c.path = MemoryPath::Shared;
      rules::shared_banks(a, arch, options, c);
      return c;
    case Space::Const:
      c.path = MemoryPath::Constant;
      rules::constant_cache(a, arch, c);
      return c;
    case Space::DShared:
      // Another CTA's shared memory: the L1's t-stage counts it as a global access's requests, 128-byte lines and
      // 32-byte sectors (validation/h100/cluster_probe: 7 load and 2 store patterns exact), then the crossbar.
      c.applies |= InstructionCounts::kBytes;
      rules::cached_global(a, arch, MemoryPath::L1, c);
      c.path = MemoryPath::DShared;
      return c;
    case Space::Global:
    case Space::Local:
    case Space::Texture:
    case Space::TexturePitch:
      break;
  }
  c.path = global_path(a, arch);
  c.applies |= InstructionCounts::kBytes;
  if (c.path == MemoryPath::Dram) {
    rules::tesla_global(a, arch, c);
  } else {
    rules::cached_global(a, arch, c.path, c);
  }
  // Fermi and Kepler replay an instruction once per extra transaction (seed001
  // "If N transactions are needed, there will be (N-1) replays").
  // The read-only path needs no replays (seed001 "Read-Only Cache").
  if ((arch.rules == RulesFamily::Fermi || arch.rules == RulesFamily::Kepler) && c.path != MemoryPath::ReadOnly) {
    c.applies |= InstructionCounts::kReplays;
    c.replays = c.transactions > 0 ? c.transactions - 1 : 0;
  }
  return c;
}

}  // namespace warpscope
