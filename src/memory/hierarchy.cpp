// From the architecture database and a MemoryConfig to cache geometries and
// policies. Per-generation behaviour comes from the database (l1.*, l2.*,
// readonly.*, gpu.*) and from the rule family, never from CC number ranges.
#include "memory/hierarchy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "warpscope/error.hpp"

namespace warpscope::memory {
namespace {

std::string kb(std::int64_t b) { return b % 1024 == 0 ? fmt::format("{} KB", b / 1024) : fmt::format("{} B", b); }

// The database's policy for one cache (`override`: MemoryConfig's choice of
// kind; randm's M still comes from the database, else 8).
void set_replacement(const ArchSpec& arch, const std::string& text, const char* key,
                     const std::optional<Replacement>& override, CacheConfig& c) {
  Replacement r{};
  int candidates = c.victim_candidates;
  if (!parse_replacement(text, r, candidates))
    throw InputError(fmt::format("{}: {} = \"{}\" is not a replacement policy (known: lru, fifo, random, randm<M> "
                                 "with M >= 1)",
                                 arch.name, key, text));
  c.replacement = override ? *override : r;
  c.victim_candidates = candidates;
}

SetHash hash_of(const ArchSpec& arch, const std::string& text, const char* key) {
  SetHash h{};
  if (!parse_set_hash(text, h))
    throw InputError(fmt::format("{}: {} = \"{}\" is not a set index (known: modulo, xor)", arch.name, key, text));
  return h;
}

bool store_hits_whole_line_of(const ArchSpec& arch) {
  const std::string& t = arch.l1_store_hit;
  if (t == "sector" || t == "line") return t == "line";
  throw InputError(fmt::format("{}: l1.store_hit = \"{}\" is unknown (known: sector, line)", arch.name, t));
}

StorePolicy store_policy_of(const ArchSpec& arch) {
  const std::string& t = arch.l1_store_policy;
  if (t == "invalidate") return StorePolicy::Invalidate;
  if (t == "update") return StorePolicy::Update;
  if (t == "allocate") return StorePolicy::Allocate;
  throw InputError(fmt::format("{}: l1.store_policy = \"{}\" is unknown (known: invalidate, update, allocate)",
                               arch.name, t));
}

std::string capacities(const ArchSpec& arch) {
  std::string out;
  for (auto c : arch.shared_capacities) out += (out.empty() ? "" : ", ") + kb(c);
  return out;
}

// The shared-memory part of a unified L1/shared array (0 where separate).
std::int64_t shared_capacity_of(const ArchSpec& arch, const MemoryConfig& cfg) {
  if (arch.unified_l1_shared <= 0) return 0;
  if (cfg.shared_capacity >= 0) {
    if (std::find(arch.shared_capacities.begin(), arch.shared_capacities.end(), cfg.shared_capacity) ==
        arch.shared_capacities.end())
      throw InputError(fmt::format("shared capacity {} is not a configuration of {} (choose one of {})",
                                   kb(cfg.shared_capacity), arch.name, capacities(arch)));
    return cfg.shared_capacity;
  }
  if (cfg.carveout_percent < -1 || cfg.carveout_percent > 100)
    throw InputError(fmt::format("carveout {}% is outside 0..100 (or -1 for the driver default)", cfg.carveout_percent));
  if (cfg.carveout_percent >= 0 && arch.rules == RulesFamily::Volta) {
    // seed001 20.7.3: "When using a percentage, the carveout is rounded up to
    // the nearest supported shared memory capacity".
    const std::int64_t want = (arch.max_shared_per_sm * cfg.carveout_percent + 99) / 100;
    std::int64_t best = -1;
    for (auto c : arch.shared_capacities)
      if (c >= want && (best < 0 || c < best)) best = c;
    if (best < 0) best = *std::max_element(arch.shared_capacities.begin(), arch.shared_capacities.end());
    // ... but never below the driver's default: measured on the H100, carveouts of
    // 0-14% all run with 32 KB of shared memory (validation/h100/l1_geometry/README.md).
    return std::max(best, arch.default_shared_capacity);
  }
  return arch.default_shared_capacity;
}

// The L2 partitions (memory/l2_partitions.hpp): 1, or 2 with the home bits and
// each SM's partition.
void resolve_partitions(const ArchSpec& arch, Hierarchy& h) {
  const int parts = arch.l2_partitions;
  if (parts != 1 && parts != 2)
    throw InputError(fmt::format("{}: l2.partitions = {} is not supported (1 or 2)", arch.name, parts));
  h.l2_partitions = h.l2_bytes > 0 ? parts : 1;
  h.l2_partition_of_sm.assign(static_cast<std::size_t>(h.num_sms), 0);
  if (parts == 1) return;
  if (arch.l2_home_bits.empty())
    throw InputError(fmt::format("{}: l2.partitions = 2 needs l2.home_bits (the address bits that pick a line's home)",
                                 arch.name));
  const int line_bits = std::countr_zero(static_cast<unsigned>(arch.l2_line));
  for (const int b : arch.l2_home_bits) {
    if (b < line_bits || b > 56)
      throw InputError(fmt::format("{}: l2.home_bits: bit {} is not an address bit of a line ({}..56)", arch.name, b,
                                   line_bits));
    h.l2_home_mask |= 1ull << (b - line_bits);
  }
  const auto& map = arch.l2_sm_partitions;
  for (const int p : map)
    if (p < 0 || p >= parts)
      throw InputError(fmt::format("{}: l2.sm_partitions: partition {} is outside 0..{}", arch.name, p, parts - 1));
  // The map names the SM ids of the default GPU; another SM count alternates.
  const bool mapped = map.size() == static_cast<std::size_t>(h.num_sms);
  for (int s = 0; s < h.num_sms; ++s)
    h.l2_partition_of_sm[static_cast<std::size_t>(s)] =
        static_cast<std::uint8_t>(mapped ? map[static_cast<std::size_t>(s)] : s % parts);
}

}  // namespace

Hierarchy Hierarchy::resolve(const ArchSpec& arch, const MemoryConfig& cfg) {
  Hierarchy h;
  const bool tesla = arch.rules == RulesFamily::TeslaStrict || arch.rules == RulesFamily::TeslaRelaxed;
  h.num_sms = cfg.num_sms > 0 ? cfg.num_sms : arch.gpu_sms;
  if (cfg.num_sms < 0) throw InputError(fmt::format("number of SMs {} is negative", cfg.num_sms));
  if (h.num_sms <= 0) throw InputError(fmt::format("{}: gpu.sms is 0 and no SM count was given", arch.name));
  h.gpu = !cfg.gpu_name.empty()                  ? cfg.gpu_name
          : cfg.num_sms > 0 || cfg.l2_size > 0 ? fmt::format("custom {}", arch.name)
                                               : arch.gpu_name;
  h.dram_only = tesla;
  if (tesla) return h;

  if (arch.l1_line != arch.l2_line || arch.l1_line != 128 || arch.l1_sector != arch.l2_sector)
    throw InputError(fmt::format("{}: the memory model needs 128 B L1 and L2 lines with equal sectors "
                                 "(l1.line_size {}, l2.line_size {})", arch.name, arch.l1_line, arch.l2_line));
  if (arch.l1_sets < 1) throw InputError(fmt::format("{}: l1.sets must be at least 1", arch.name));
  if (arch.l2_ways < 1) throw InputError(fmt::format("{}: l2.ways must be at least 1", arch.name));

  const bool sectored = arch.rules == RulesFamily::Maxwell || arch.rules == RulesFamily::Volta;
  const bool volta = arch.rules == RulesFamily::Volta;
  h.sector_fills = sectored;
  h.count_bypass_lookups = volta;
  h.invalidate_on_bypass = !sectored;
  h.readonly_in_l1 = sectored && arch.readonly_present;
  h.nc_counts_as_global = volta;
  h.store = store_policy_of(arch);
  h.local_write_back = arch.l1_local_write_back && arch.l1_caches_local;
  h.store_hits_whole_line = store_hits_whole_line_of(arch);

  // L1 capacity: unified array minus shared (2.x, 3.x, 7.0+), else the fixed L1 (5.x, 6.x).
  h.shared_capacity = shared_capacity_of(arch, cfg);
  h.l1_bytes = arch.unified_l1_shared > 0 ? arch.unified_l1_shared - h.shared_capacity : arch.l1_size;
  h.l1_bytes = std::max<std::int64_t>(0, h.l1_bytes);
  const std::int64_t l1_lines = h.l1_bytes / arch.l1_line;
  const int l1_sets = static_cast<int>(std::min<std::int64_t>(arch.l1_sets, std::max<std::int64_t>(1, l1_lines)));
  h.l1.name = "L1";
  h.l1.size_bytes = h.l1_bytes;
  h.l1.line_bytes = arch.l1_line;
  h.l1.sector_bytes = arch.l1_sector;
  h.l1.ways = static_cast<int>(std::max<std::int64_t>(1, l1_lines / l1_sets));
  set_replacement(arch, arch.l1_replacement, "l1.replacement", cfg.l1_replacement, h.l1);
  h.l1.set_hash = hash_of(arch, arch.l1_set_hash, "l1.set_hash");
  h.l1.seed = cfg.seed;
  h.l1.byte_masks = h.store == StorePolicy::Allocate || h.local_write_back;
  if (l1_lines == 0) h.l1_bytes = 0;

  // Separate read-only data caches (3.5/3.7), one per group of warps.
  if (arch.readonly_present && arch.readonly_partitions > 0 && arch.readonly_size > 0) {
    h.readonly_partitions = arch.readonly_partitions;
    h.readonly.name = "read-only";
    h.readonly.size_bytes = arch.readonly_size / arch.readonly_partitions;
    h.readonly.line_bytes = arch.readonly_query_bytes;
    h.readonly.sector_bytes = arch.readonly_query_bytes;
    const std::int64_t lines = h.readonly.size_bytes / arch.readonly_query_bytes;
    h.readonly.ways = static_cast<int>(std::clamp<std::int64_t>(arch.readonly_ways, 1, std::max<std::int64_t>(1, lines)));
    h.readonly.replacement = h.l1.replacement;
    h.readonly.victim_candidates = h.l1.victim_candidates;
    h.readonly.set_hash = SetHash::Modulo;
    h.readonly.seed = cfg.seed + 1;
  }

  h.l2_bytes = cfg.l2_size > 0 ? cfg.l2_size : arch.gpu_l2_size;
  if (cfg.l2_size < 0) throw InputError(fmt::format("L2 size {} is negative", cfg.l2_size));
  h.l2.name = "L2";
  h.l2.size_bytes = h.l2_bytes;
  h.l2.line_bytes = arch.l2_line;
  h.l2.sector_bytes = arch.l2_sector;
  const std::int64_t l2_lines = h.l2_bytes / arch.l2_line;
  h.l2.ways = static_cast<int>(std::clamp<std::int64_t>(arch.l2_ways, 1, std::max<std::int64_t>(1, l2_lines)));
  set_replacement(arch, arch.l2_replacement, "l2.replacement", cfg.l2_replacement, h.l2);
  h.l2.set_hash = hash_of(arch, arch.l2_set_hash, "l2.set_hash");
  h.l2.seed = cfg.seed + 2;
  h.l2.byte_masks = true;  // write-allocate with byte masks, write-back (Accel-Sim l2_write_policy)
  if (l2_lines == 0) h.l2_bytes = 0;
  h.dram_sector_bytes = arch.l2_sector;
  // Sectors an L2 read miss fetches (the aligned group; 2 = 64 B promotion).
  h.l2.fill_sectors = std::max(1, arch.l2_fill_bytes / arch.l2_sector);
  if (arch.l2_line > 0 && arch.l2_sector > 0 &&
      (std::popcount(static_cast<unsigned>(h.l2.fill_sectors)) != 1 || h.l2.fill_sectors > arch.l2_line / arch.l2_sector))
    throw InputError(fmt::format("{}: l2.fill_bytes = {} is not a power-of-two number of {} B sectors within a {} B line",
                                 arch.name, arch.l2_fill_bytes, arch.l2_sector, arch.l2_line));
  resolve_partitions(arch, h);
  h.l2_partial_writeback_reads = arch.l2_partial_writeback_reads;
  if (arch.l2_merge_window < 0)
    throw InputError(fmt::format("{}: l2.merge_window = {} is negative (0: no request coalescer)", arch.name,
                                 arch.l2_merge_window));
  h.l2_merge_window = h.l2_bytes > 0 ? arch.l2_merge_window : 0;
  return h;
}

}  // namespace warpscope::memory
