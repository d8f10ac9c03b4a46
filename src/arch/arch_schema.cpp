#include "arch/arch_schema.hpp"

namespace warpscope::arch {

namespace {
using P = ParamType;
using S = ArchSpec;
}  // namespace

const std::vector<ParamDef>& param_defs() {
  static const std::vector<ParamDef> defs = {
      // [sm]
      {"sm", "warp_size", P::Int, "threads", "threads per warp", &S::warp_size},
      {"sm", "fp32_cores", P::Int, "cores", "CUDA cores (FP32 lanes) per SM", &S::fp32_cores},
      {"sm", "fp64_cores", P::Int, "cores", "FP64 units per SM (0: none)", &S::fp64_cores},
      {"sm", "sfus", P::Int, "units", "special function units per SM", &S::sfus},
      {"sm", "warp_schedulers", P::Int, "", "warp schedulers per SM", &S::warp_schedulers},
      {"sm", "dispatch_per_scheduler", P::Int, "instructions", "instructions each scheduler may issue per cycle", &S::dispatch_per_scheduler},
      // [limits]
      {"limits", "max_threads_per_block", P::Int, "threads", "", &S::max_threads_per_block},
      {"limits", "max_blocks_per_sm", P::Int, "blocks", "resident blocks per SM", &S::max_blocks_per_sm},
      {"limits", "max_warps_per_sm", P::Int, "warps", "resident warps per SM", &S::max_warps_per_sm},
      {"limits", "max_threads_per_sm", P::Int, "threads", "resident threads per SM", &S::max_threads_per_sm},
      {"limits", "registers_per_sm", P::Int, "registers", "32-bit registers per SM", &S::registers_per_sm},
      {"limits", "max_registers_per_block", P::Int, "registers", "32-bit registers per block", &S::max_registers_per_block},
      {"limits", "max_registers_per_thread", P::Int, "registers", "32-bit registers per thread", &S::max_registers_per_thread},
      {"limits", "max_shared_per_sm", P::Bytes, "bytes", "shared memory per SM (largest configuration)", &S::max_shared_per_sm},
      {"limits", "max_shared_per_block", P::Bytes, "bytes", "shared memory per block without opt-in", &S::max_shared_per_block},
      {"limits", "max_shared_per_block_optin", P::Bytes, "bytes", "shared memory per block with opt-in (dynamic)", &S::max_shared_per_block_optin},
      {"limits", "reserved_shared_per_block", P::Bytes, "bytes", "shared memory the system reserves per block", &S::reserved_shared_per_block},
      {"limits", "constant_memory", P::Bytes, "bytes", "constant memory size", &S::constant_memory},
      {"limits", "local_memory_per_thread", P::Bytes, "bytes", "local memory per thread", &S::local_memory_per_thread},
      {"limits", "max_resident_grids", P::Int, "grids", "concurrent kernels per device", &S::max_resident_grids},
      // [allocation]
      {"allocation", "register_unit", P::Int, "registers", "register allocation unit size", &S::register_allocation_unit},
      {"allocation", "register_per_warp", P::Bool, "", "true: registers allocated per warp; false: per block", &S::register_allocation_per_warp},
      {"allocation", "shared_unit", P::Bytes, "bytes", "shared memory allocation unit", &S::shared_allocation_unit},
      {"allocation", "warp_granularity", P::Int, "warps", "warp allocation granularity", &S::warp_allocation_granularity},
      // [l1]
      {"l1", "unified_size", P::Bytes, "bytes", "on-chip memory shared by L1 and shared memory (0: separate)", &S::unified_l1_shared},
      {"l1", "shared_capacities", P::BytesList, "bytes", "shared-memory capacities the configuration/carveout may select", &S::shared_capacities},
      {"l1", "default_shared_capacity", P::Bytes, "bytes", "shared-memory capacity of the default configuration", &S::default_shared_capacity},
      {"l1", "driver_blocks_factor", P::Int, "", "7.0+, a launch stating no carveout: the driver sizes shared memory for this many times the blocks its warp slots allow (blocks of at most 512 threads), up to driver_factor_cap; 1: the blocks that fit", &S::driver_blocks_factor},
      {"l1", "driver_factor_cap", P::Bytes, "bytes", "the largest shared capacity the driver picks for the driver_blocks_factor target (above it, only the blocks that fit)", &S::driver_factor_cap},
      {"l1", "size", P::Bytes, "bytes", "L1 data capacity at the default configuration (0: no L1)", &S::l1_size},
      {"l1", "line_size", P::Int, "bytes", "L1 line size", &S::l1_line},
      {"l1", "sector_size", P::Int, "bytes", "L1 sector size", &S::l1_sector},
      {"l1", "caches_global_loads", P::Bool, "", "global loads cached in L1 by default", &S::l1_caches_global},
      {"l1", "global_opt_in", P::Bool, "", "ld.ca / -Xptxas -dlcm=ca caches global loads in L1", &S::l1_global_opt_in},
      {"l1", "caches_local", P::Bool, "", "local memory cached in L1", &S::l1_caches_local},
      {"l1", "sets", P::Int, "sets", "L1 sets in the cache model; ways = L1 lines / sets at every carveout", &S::l1_sets},
      {"l1", "replacement", P::Text, "", "L1 replacement: lru, fifo, random or randm<M> (LRU order, the victim drawn from the M least recently used lines)", &S::l1_replacement},
      {"l1", "set_hash", P::Text, "", "L1 set index: modulo or xor (XOR-fold of the line address)", &S::l1_set_hash},
      {"l1", "store_policy", P::Text, "", "global stores in L1: invalidate (the line), update (write-through, no allocate) or allocate (write-through, write-allocate with byte masks)", &S::l1_store_policy},
      {"l1", "local_write_back", P::Bool, "", "local stores write-allocate in L1 and are written back on eviction", &S::l1_local_write_back},
      {"l1", "store_hit", P::Text, "", "what Nsight Compute counts as a store hit (store_policy allocate): sector (the sector was valid or partly written) or line (every sector of a store whose line tag was present)", &S::l1_store_hit},
      // [global]
      {"global", "request_lanes", P::PerSize, "lanes", "lanes per independent request for 1,2,4,8,16-byte accesses", &S::request_lanes},
      {"global", "segment_bytes", P::PerSize, "bytes", "CC 1.2/1.3 coalescing segment for 1,2,4,8,16-byte words", &S::segment_bytes},
      {"global", "l2_segment", P::Int, "bytes", "granularity of L2-only (non-caching) transactions", &S::l2_segment},
      {"global", "serialize_same_address_atomics", P::Bool, "", "atomics and reductions: lanes on one address are served in separate passes, one lane per address each (set accesses, sectors and L2 requests counted per pass); optional, false when absent", &S::global_atomics_serialize, false},
      {"global", "atomic_word_groups", P::IntList, "", "with serialize_same_address_atomics: masks of line-index bits (address >> 7), each the parity of one bit of a lane's group; a lane of a global atomic joins its line's access only if no lane since that access opened took the same 4-byte word slot of a line in the same group, else it opens another (which subsumes lanes on one address); optional, empty (lanes on one address only) when absent", &S::global_atomic_word_groups, false},
      {"global", "cas_access_bytes", P::Int, "bytes", "compare-and-swap atomics (a trace that records the operation): each aligned block of this many bytes of a line that the lanes touch is a set access and an L2 request of its own, sectors unchanged; optional, 0 (the whole line) when absent", &S::global_cas_access_bytes, false},
      // [shared]
      {"shared", "banks", P::Int, "banks", "shared-memory banks", &S::shared_banks},
      {"shared", "bank_width", P::Int, "bytes", "bank width in the default mode", &S::bank_width},
      {"shared", "bank_width_modes", P::IntList, "bytes", "selectable bank widths", &S::bank_width_modes},
      {"shared", "group_lanes", P::PerSize, "lanes", "lanes served together for 1,2,4,8,16-byte accesses", &S::shared_group_lanes},
      {"shared", "load_merge_lanes", P::PerSize, "lanes", "loads: lanes whose groups merge into one wavefront when conflict-free, by access size", &S::shared_load_merge_lanes},
      {"shared", "broadcast", P::BroadcastKind, "", "single-word (1.x) or any-words (2.x+)", &S::shared_broadcast},
      {"shared", "split_wide_accesses", P::Bool, "", "accesses wider than 32 bits split into 32-bit accesses", &S::shared_split_wide},
      {"shared", "extra_pass_128bit", P::Bool, "", "128-bit accesses take one extra way (2.x)", &S::shared_128bit_extra_pass},
      {"shared", "serialize_same_address_atomics", P::Bool, "", "shared atomics: lanes on one address are served in separate passes, one lane per address each (no broadcast); optional, false when absent", &S::shared_atomics_serialize, false},
      {"shared", "serialize_unknown_atomics", P::Bool, "", "with serialize_same_address_atomics: whether shared atomics whose operation the trace does not record are served pass by pass too (popc.inc, one increment per address by definition, never is); optional, false when absent", &S::shared_unknown_atomics_serialize, false},
      {"shared", "cas_wavefronts", P::Int, "wavefronts", "a shared compare-and-swap (a trace that records the operation) takes this many wavefronts for each one an add of the same lanes takes (its two operands), bank conflicts counted once; optional, 1 when absent", &S::shared_cas_wavefronts, false},
      // [readonly]
      {"readonly", "present", P::Bool, "", "ld.global.nc / __ldg uses a read-only data cache", &S::readonly_present},
      {"readonly", "size", P::Bytes, "bytes", "read-only data cache per SM", &S::readonly_size},
      {"readonly", "query_bytes", P::Int, "bytes", "read-only cache query granularity", &S::readonly_query_bytes},
      {"readonly", "threads_per_query", P::Int, "lanes", "lanes converted to queries at a time (0: no query rule)", &S::readonly_threads_per_query},
      {"readonly", "partitions", P::Int, "caches", "separate read-only caches per SM, one per group of warps (0: the read-only path is the L1)", &S::readonly_partitions},
      {"readonly", "ways", P::Int, "ways", "associativity of each separate read-only cache (lines of query_bytes)", &S::readonly_ways},
      // [texture]
      {"texture", "working_set_min", P::Bytes, "bytes", "texture cache working set per SM, lower bound", &S::texture_working_set_min},
      {"texture", "working_set_max", P::Bytes, "bytes", "texture cache working set per SM, upper bound", &S::texture_working_set_max},
      // [constant]
      {"constant", "working_set", P::Bytes, "bytes", "constant cache working set per SM", &S::constant_working_set},
      {"constant", "request_lanes", P::Int, "lanes", "lanes per constant request (16: half-warp on 1.x)", &S::constant_request_lanes},
      {"constant", "dram_fetch_bytes", P::Int, "bytes", "a kernel reads the constant data it loads from DRAM in aligned blocks of this many bytes, each block once (what Nsight Compute's dram__bytes_read adds for __constant__ data); 0: not modelled; optional, 0 when absent", &S::constant_dram_fetch_bytes, false},
      // [l2]
      {"l2", "max_size", P::Bytes, "bytes", "largest L2 of the generation", &S::l2_max_size},
      {"l2", "line_size", P::Int, "bytes", "L2 line size", &S::l2_line},
      {"l2", "sector_size", P::Int, "bytes", "L2 sector size", &S::l2_sector},
      {"l2", "fill_bytes", P::Int, "bytes", "bytes an L2 read miss fetches from DRAM: 32 = the sector, 64 = the aligned sector pair", &S::l2_fill_bytes},
      {"l2", "partial_writeback_reads", P::Bool, "", "a dirty sector written only in part is read from DRAM before it is written back (read-modify-write: ECC or a DRAM access larger than the written bytes)", &S::l2_partial_writeback_reads},
      {"l2", "merge_window", P::Int, "rounds", "the L2 request coalescer: a read of a sector the same SM requested within this many issue rounds (one memory instruction of every warp of a CTA) merges into that request and is never looked up in L2; 0: no coalescer", &S::l2_merge_window},
      {"l2", "partitions", P::Int, "partitions", "L2 partitions (1 or 2), each caching the lines its SMs read; a line missing there is read from its home partition (l2.home_bits), which alone reads DRAM and holds written data", &S::l2_partitions},
      {"l2", "home_bits", P::IntList, "bit numbers", "partitions = 2: the address bits whose XOR (parity) picks a line's home partition (bits of a line's address from the line size up)", &S::l2_home_bits},
      {"l2", "sm_partitions", P::IntList, "partitions", "the L2 partition of each SM id of the default GPU (gpu.sms entries); without it, or for another SM count, SM s is in partition s mod partitions", &S::l2_sm_partitions},
      {"l2", "ways", P::Int, "ways", "L2 associativity in the cache model; sets = L2 lines / ways", &S::l2_ways},
      {"l2", "replacement", P::Text, "", "L2 replacement: lru, fifo, random or randm<M> (LRU order, the victim drawn from the M least recently used lines)", &S::l2_replacement},
      {"l2", "set_hash", P::Text, "", "L2 set index: modulo or xor (XOR-fold of the line address)", &S::l2_set_hash},
      // [launch]
      {"launch", "dram_read_bytes", P::Bytes, "bytes", "DRAM bytes every launch reads besides its memory instructions' traffic (with its code, launch.code_fetch_bytes): what Nsight Compute's dram__bytes_read shows for a kernel that touches no global memory; 0: not modelled", &S::launch_dram_read_bytes},
      {"launch", "code_fetch_bytes", P::Int, "bytes", "a launch also reads its kernel's code (the SASS listing's size) rounded up to this many bytes; 0: code reads not modelled", &S::launch_code_fetch_bytes},
      // [gpu]
      {"gpu", "name", P::Text, "", "the default GPU the memory-system model represents", &S::gpu_name},
      {"gpu", "sms", P::Int, "SMs", "SMs of the default GPU", &S::gpu_sms},
      {"gpu", "l2_size", P::Bytes, "bytes", "L2 capacity of the default GPU (0: no L2)", &S::gpu_l2_size},
  };
  return defs;
}

std::string type_name(ParamType t) {
  switch (t) {
    case P::Int: return "integer";
    case P::Bytes: return "bytes (integer or \"48K\")";
    case P::Bool: return "boolean";
    case P::Text: return "string";
    case P::IntList: return "list of integers";
    case P::BytesList: return "list of byte sizes";
    case P::PerSize: return "list of 5 integers (1,2,4,8,16-byte accesses)";
    case P::BroadcastKind: return "\"single-word\" or \"any-words\"";
  }
  return "?";
}

}  // namespace warpscope::arch

namespace warpscope {
const std::vector<ArchSchemaKey>& arch_schema() {
  static const std::vector<ArchSchemaKey> keys = [] {
    std::vector<ArchSchemaKey> out;
    for (const auto& d : arch::param_defs())
      out.push_back({std::string(d.section) + "." + d.name, arch::type_name(d.type), d.unit, d.description});
    return out;
  }();
  return keys;
}
}  // namespace warpscope
