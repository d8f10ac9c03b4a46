// Counters of the memory system per kernel and per instruction (PC), as plain
// structs. Printers and the profiler-name table (metric_names.hpp) are separate.
#pragma once

#include <cstdint>

namespace warpscope {

// One kind of L1/L1TEX traffic (e.g. global loads): what the t-stage sees.
struct L1Traffic {
  std::uint64_t instructions = 0;  // warp instructions
  std::uint64_t requests = 0;
  std::uint64_t transactions = 0;  // cache-line (tag) lookups / generation's transactions
  std::uint64_t sectors = 0;       // sectors requested
  std::uint64_t sector_hits = 0;   // of those, found in L1 (tag and sector data present)
  std::uint64_t bytes_needed = 0;  // distinct bytes the active lanes used, summed per instruction
  std::uint64_t bytes_moved = 0;   // bytes the instructions moved (rules engine)
  std::uint64_t sector_misses() const { return sectors >= sector_hits ? sectors - sector_hits : 0; }
  void add(const L1Traffic& o);
  friend bool operator==(const L1Traffic&, const L1Traffic&) = default;
};

struct SharedTraffic {
  std::uint64_t instructions = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;
  std::uint64_t bank_conflicts = 0;
  void add(const SharedTraffic& o);
  friend bool operator==(const SharedTraffic&, const SharedTraffic&) = default;
};

struct Counters {
  L1Traffic global_ld, global_st, global_atom, local_ld, local_st, readonly_ld;
  SharedTraffic shared_ld, shared_st, shared_atom;
  // ldmatrix / stmatrix (LDSM / STSM), apart from shared_ld / shared_st; Nsight Compute's shared
  // wavefronts and bank conflicts of op_ld / op_st include them, and the metric table adds them there.
  SharedTraffic shared_ldsm, shared_stsm;
  // wgmma (HGMMA, 9.0+): the tensor cores' reads of shared-memory operands (types.hpp Op::GmmaRead), apart from
  // every LSU count; Nsight Compute's op_gmma wavefronts and its SASS-level op_shared_gmma instructions.
  SharedTraffic shared_gmma;
  // Distributed shared memory (9.0+ clusters): accesses to another CTA's shared memory, counted as the L1's t-stage
  // counts global ones (requests, 128-byte lines as transactions, 32-byte sectors) in Nsight Compute's dshared
  // metrics; no cache, no L2 (validation/h100/cluster_probe).
  L1Traffic dshared_ld, dshared_st, dshared_atom;
  // st.async (STAS): its tag-stage traffic is in dshared_st, its instructions here (Nsight Compute's op_dshared_stas);
  // reductions into another CTA (red.async, REDAS: op_redas), lanes on one address served one pass each
  // (validation/h100/async_store_probe).
  std::uint64_t dshared_stas_instructions = 0;
  L1Traffic dshared_red;
  // cp.async (LDGSTS) on 8.0+, through L1 (ca) and bypassing it (cg): the global reads (requests, sectors,
  // hits; Nsight Compute's l1tex__t_*_global_op_ld include them, its op_global_ld instructions do not) and
  // the shared writes. An LDGSTS counts its instruction with its global read, or with its shared write where
  // no read comes before it (validation/h100/async_probe).
  L1Traffic global_ldgsts, global_ldgsts_bypass;
  SharedTraffic shared_ldgsts, shared_ldgsts_bypass;
  // Bulk copies (cp.async.bulk, UBLKCP; 9.0+) by the TMA unit, global -> shared (bulk_ld) and shared -> global
  // (bulk_st), past L1: instructions, the L2 requests and the sectors of their 128-byte pieces (Nsight Compute's
  // l1tex__m_*_op_tma_ld / _st), the bytes copied (needed) and the sectors' bytes (moved).
  L1Traffic bulk_ld, bulk_st;
  std::uint64_t const_instructions = 0, const_serialization = 0;
  // Loads and stores through generic addresses (SASS LD / ST; KernelInfo::generic_pcs): their traffic is
  // in the spaces above, their warp instructions only here, as Nsight Compute counts them.
  std::uint64_t generic_ld_instructions = 0, generic_st_instructions = 0;
  // L2, traffic from the SMs' L1 (Nsight Compute "srcunit_tex"). Requests: one
  // per 128 B line per L1 request (per line transaction on 2.x-6.x L2-only paths).
  // Write hits count every written sector (L2 writes allocate without fetching;
  // on the H100 lts__t_sectors_srcunit_tex_op_write_lookup_hit = _op_write).
  std::uint64_t l2_read_requests = 0, l2_read_sectors = 0, l2_read_sector_hits = 0;
  std::uint64_t l2_write_requests = 0, l2_write_sectors = 0, l2_write_sector_hits = 0;
  // Atomics (ATOM) and reductions (RED), performed at L2 (a miss fetches the sector from DRAM),
  // apart as Nsight Compute counts them (lts__t_*_op_atom, lts__t_*_op_red).
  std::uint64_t l2_atom_requests = 0, l2_atom_sectors = 0, l2_atom_sector_hits = 0;
  std::uint64_t l2_red_requests = 0, l2_red_sectors = 0, l2_red_sector_hits = 0;
  // DRAM
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  void add(const Counters& o);
  friend bool operator==(const Counters&, const Counters&) = default;
};

}  // namespace warpscope
