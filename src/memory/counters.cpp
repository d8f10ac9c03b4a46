// Counters::add and friends: plain field-by-field sums.
#include "warpscope/counters.hpp"

namespace warpscope {

void L1Traffic::add(const L1Traffic& o) {
  instructions += o.instructions;
  requests += o.requests;
  transactions += o.transactions;
  sectors += o.sectors;
  sector_hits += o.sector_hits;
  bytes_needed += o.bytes_needed;
  bytes_moved += o.bytes_moved;
}

void SharedTraffic::add(const SharedTraffic& o) {
  instructions += o.instructions;
  wavefronts += o.wavefronts;
  ideal_wavefronts += o.ideal_wavefronts;
  bank_conflicts += o.bank_conflicts;
}

void Counters::add(const Counters& o) {
  global_ld.add(o.global_ld);
  global_st.add(o.global_st);
  global_atom.add(o.global_atom);
  local_ld.add(o.local_ld);
  local_st.add(o.local_st);
  readonly_ld.add(o.readonly_ld);
  shared_ld.add(o.shared_ld);
  shared_st.add(o.shared_st);
  shared_atom.add(o.shared_atom);
  shared_ldsm.add(o.shared_ldsm);
  shared_stsm.add(o.shared_stsm);
  shared_gmma.add(o.shared_gmma);
  dshared_ld.add(o.dshared_ld);
  dshared_st.add(o.dshared_st);
  dshared_atom.add(o.dshared_atom);
  dshared_stas_instructions += o.dshared_stas_instructions;
  dshared_red.add(o.dshared_red);
  global_ldgsts.add(o.global_ldgsts);
  global_ldgsts_bypass.add(o.global_ldgsts_bypass);
  shared_ldgsts.add(o.shared_ldgsts);
  shared_ldgsts_bypass.add(o.shared_ldgsts_bypass);
  bulk_ld.add(o.bulk_ld);
  bulk_st.add(o.bulk_st);
  const_instructions += o.const_instructions;
  generic_ld_instructions += o.generic_ld_instructions;
  generic_st_instructions += o.generic_st_instructions;
  const_serialization += o.const_serialization;
  l2_read_requests += o.l2_read_requests;
  l2_read_sectors += o.l2_read_sectors;
  l2_read_sector_hits += o.l2_read_sector_hits;
  l2_write_requests += o.l2_write_requests;
  l2_write_sectors += o.l2_write_sectors;
  l2_write_sector_hits += o.l2_write_sector_hits;
  l2_atom_requests += o.l2_atom_requests;
  l2_atom_sectors += o.l2_atom_sectors;
  l2_atom_sector_hits += o.l2_atom_sector_hits;
  l2_red_requests += o.l2_red_requests;
  l2_red_sectors += o.l2_red_sectors;
  l2_red_sector_hits += o.l2_red_sector_hits;
  dram_read_bytes += o.dram_read_bytes;
  dram_write_bytes += o.dram_write_bytes;
}

}  // namespace warpscope
