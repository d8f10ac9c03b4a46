// The architecture database: one description per compute capability, loaded at
// run time from TOML files (data/arch/*.toml), every value with its source.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

// Which rule set of the coalescer applies; one per memory-system generation.
enum class RulesFamily : std::uint8_t {
  TeslaStrict,   // CC 1.0, 1.1: strict half-warp coalescing
  TeslaRelaxed,  // CC 1.2, 1.3: per-half-warp segment reduction (32/64/128 B)
  Fermi,         // CC 2.x: 128 B L1 lines (caching) or 32 B L2 segments
  Kepler,        // CC 3.x: L2-only global loads by default, read-only path on 3.5+
  Maxwell,       // CC 5.x, 6.x: unified L1/texture, 32 B sectors
  Volta,         // CC 7.0+: sectored L1TEX, one request per warp instruction
};
std::string_view to_string(RulesFamily f);

// Shared-memory broadcast capability.
enum class Broadcast : std::uint8_t {
  SingleWord,  // 1.x: one 32-bit word broadcast per step
  AnyWords,    // 2.x+: any number of words broadcast in one pass
};

// Index into the per-access-size arrays below: 1, 2, 4, 8, 16 bytes -> 0..4.
constexpr int size_index(unsigned size) {
  return size <= 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : 4;
}
using PerSize = std::array<int, 5>;

struct ArchSpec {
  // --- identity
  std::string name;         // "sm_35"
  int cc_major = 0, cc_minor = 0;
  std::string family;       // "Kepler"
  std::string description;  // example GPUs
  RulesFamily rules = RulesFamily::Volta;

  // --- [sm] execution resources
  int warp_size = 32;
  int fp32_cores = 0, fp64_cores = 0, sfus = 0, warp_schedulers = 0, dispatch_per_scheduler = 1;

  // --- [limits] technical-specification table
  int max_threads_per_block = 0, max_blocks_per_sm = 0, max_warps_per_sm = 0, max_threads_per_sm = 0;
  int registers_per_sm = 0, max_registers_per_block = 0, max_registers_per_thread = 0;
  std::int64_t max_shared_per_sm = 0, max_shared_per_block = 0, max_shared_per_block_optin = 0;
  std::int64_t reserved_shared_per_block = 0, constant_memory = 0, local_memory_per_thread = 0;
  int max_resident_grids = 0;

  // --- [allocation] granularities used by the occupancy calculator
  int register_allocation_unit = 0;
  bool register_allocation_per_warp = true;  // false: per block (CC 1.x)
  std::int64_t shared_allocation_unit = 0;
  int warp_allocation_granularity = 1;

  // --- [l1] L1 / shared on-chip memory
  std::int64_t unified_l1_shared = 0;             // 0 where L1 and shared are separate (5.x, 6.x)
  std::vector<std::int64_t> shared_capacities;    // shared-memory sizes the carveout may select
  std::int64_t default_shared_capacity = 0;
  int driver_blocks_factor = 1;                   // the driver's carveout target (driver_shared_capacity)
  std::int64_t driver_factor_cap = 0;
  std::int64_t l1_size = 0;                       // L1 data capacity at the default configuration
  int l1_line = 128, l1_sector = 32;
  bool l1_caches_global = false;                  // global loads cached in L1 without a modifier
  bool l1_global_opt_in = false;                  // ld.ca / -dlcm=ca makes global loads cache in L1
  bool l1_caches_local = false;
  // Cache-model geometry and policies of the L1 (src/memory). Sets stay fixed
  // when the carveout changes the capacity; ways = lines / sets.
  int l1_sets = 4;
  std::string l1_replacement = "lru";             // lru | fifo | random
  std::string l1_set_hash = "modulo";             // modulo | xor
  std::string l1_store_policy = "invalidate";     // global stores: invalidate | update | allocate
  bool l1_local_write_back = false;               // local stores write-allocate and write back in L1
  std::string l1_store_hit = "sector";            // what a store counts as a hit: sector | line

  // --- [global] coalescing parameters
  PerSize request_lanes{32, 32, 32, 32, 32};      // lanes per independent request, by access size
  PerSize segment_bytes{128, 128, 128, 128, 128}; // CC 1.2/1.3 segment size, by access size
  int l2_segment = 32;                            // granularity of L2-only transactions
  bool global_atomics_serialize = false;          // atomics/reductions: lanes on one address take a pass each
  int global_cas_access_bytes = 0;                // CAS: each aligned block of a line its own access (0: the line)
  std::vector<int> global_atomic_word_groups;     // line-index bit masks: a lane's word slot group (empty: none)

  // --- [shared] banks
  int shared_banks = 32;
  int bank_width = 4;                             // bytes, default mode
  std::vector<int> bank_width_modes;              // selectable widths (Kepler: 4 and 8)
  PerSize shared_group_lanes{32, 32, 32, 16, 8};  // lanes served together, by access size
  PerSize shared_load_merge_lanes{32, 32, 32, 16, 8};  // loads: groups merged when conflict-free
  Broadcast shared_broadcast = Broadcast::AnyWords;
  bool shared_split_wide = false;                 // >32-bit accesses split into 32-bit ones (1.x)
  bool shared_128bit_extra_pass = false;          // 2.x: add one way to 128-bit accesses
  bool shared_atomics_serialize = false;          // shared atomics: lanes on one address take a pass each
  bool shared_unknown_atomics_serialize = false;  // ... also those whose operation the trace does not record
  int shared_cas_wavefronts = 1;                  // a shared CAS's wavefronts per wavefront of an add

  // --- [readonly] read-only data cache (ld.global.nc)
  bool readonly_present = false;
  std::int64_t readonly_size = 0;
  int readonly_query_bytes = 32, readonly_threads_per_query = 0;  // 0: no query rule (unified L1)
  int readonly_partitions = 0;                    // separate read-only caches per SM (0: the path is the L1)
  int readonly_ways = 0;                          // associativity of each separate read-only cache

  // --- [texture], [constant], [l2]
  std::int64_t texture_working_set_min = 0, texture_working_set_max = 0;
  std::int64_t constant_working_set = 0;
  int constant_request_lanes = 32;                // 1.x: half-warp
  int constant_dram_fetch_bytes = 0;              // a kernel reads each such block of constant data it loads once (0: not modelled)
  std::int64_t l2_max_size = 0;
  int l2_line = 128, l2_sector = 32;
  int l2_ways = 16;
  int l2_fill_bytes = 32;                         // DRAM read granularity of an L2 miss (sector promotion)
  int l2_partitions = 1;                          // L2 partitions, each caching what its SMs read (memory/l2_partitions.hpp)
  std::vector<int> l2_home_bits;                  // partitions = 2: address bits whose XOR picks a line's home partition
  std::vector<int> l2_sm_partitions;              // partition of each SM id of the default GPU (empty: alternate)
  bool l2_partial_writeback_reads = false;        // partial dirty sectors are read before written back
  int l2_merge_window = 0;                        // rounds within which an SM's L2 reads of a sector merge (0: none)
  std::string l2_replacement = "lru";             // lru | fifo | random
  std::string l2_set_hash = "modulo";             // modulo | xor

  // --- [launch] DRAM reads of every launch besides its memory instructions' traffic
  std::int64_t launch_dram_read_bytes = 0;        // fixed part (0: launch reads not modelled)
  int launch_code_fetch_bytes = 0;                // the kernel's code is read in pieces of this size (0: not counted)

  // --- [gpu] the default GPU of the architecture (memory-system model)
  std::string gpu_name;
  int gpu_sms = 0;
  std::int64_t gpu_l2_size = 0;

  std::string cc() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

// One parameter as written in the file, for printing with its source.
struct ArchParam {
  std::string key;          // "shared.banks"
  std::string value;        // as printed
  std::string unit;         // "bytes", "lanes", ""
  std::string description;
  std::string source;
};

struct ArchEntry {
  ArchSpec spec;
  std::vector<ArchParam> params;     // in schema order
  std::filesystem::path file;
};

// Describes every key an architecture file may hold (for docs and errors).
struct ArchSchemaKey {
  std::string key, type, unit, description;
};
const std::vector<ArchSchemaKey>& arch_schema();

class ArchDatabase {
 public:
  // Loads every *.toml of each directory; a later directory overrides an earlier
  // one's architecture of the same name. Throws InputError naming file and key.
  static ArchDatabase load(const std::vector<std::filesystem::path>& dirs);
  // The search path: $WARPSCOPE_ARCH_PATH (':'-separated), then the installed
  // share/warpscope/arch next to the executable, then the source tree's data/arch.
  static std::vector<std::filesystem::path> default_search_path();
  // Process-wide database from the default search path, loaded once.
  static const ArchDatabase& builtin();

  // "sm_35", "3.5", "35", "sm35", "compute_35" -> the entry; InputError listing the
  // known names when there is none.
  const ArchEntry& get(std::string_view name) const;
  const ArchEntry* find(std::string_view name) const;
  // Comma-separated list of names, each resolved as get() does ('all' for
  // every one), in the order given; an architecture named twice comes once.
  std::vector<const ArchEntry*> get_list(std::string_view names) const;
  // Sorted by compute capability.
  std::vector<const ArchEntry*> all() const;

 private:
  std::map<int, ArchEntry> by_cc_;  // key: major * 10 + minor
};

// Parses one architecture name to major*10+minor, or -1.
int parse_arch_name(std::string_view name);

}  // namespace warpscope
