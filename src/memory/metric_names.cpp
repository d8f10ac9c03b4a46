// The counter -> profiler-name table (warpscope/metric_names.hpp).
//
// Nsight Compute names: reference/ncu_gh100_memory_metrics.txt (measured list,
// ncu 2025.3.1 on the H100) and the Profiling Guide; rows whose name is not in
// that list are marked ncu_listed = false. nvprof names: the nvprof metric
// reference and Nsight Compute's "nvprof Metric Comparison" table
// (reference/ncu_and_microbench.md 1.2), which maps gld_transactions to
// l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum: on 5.x/6.x nvprof's
// transactions are 32 B sectors, on 2.x/3.x they are the generation's
// transactions (128 B lines for caching loads, segments for the rest).
#include "warpscope/metric_names.hpp"

#include <algorithm>
#include <iterator>

namespace warpscope {
namespace {

using K = L1Traffic Counters::*;
using S = SharedTraffic Counters::*;

double ratio(double num, double den) { return den == 0 ? 0.0 : num / den; }
double u(std::uint64_t v) { return static_cast<double>(v); }

// Traffic `k` plus `extra`, which the tag-stage counters of `k` include (global loads: the global
// reads of cp.async, validation/h100/async_probe); instruction counts are k's alone.
template <K k, K... extra> L1Traffic l1(const Counters& c) {
  L1Traffic t = c.*k;
  (t.add(c.*extra), ...);
  return t;
}
template <K k, K... extra> double instructions(const Counters& c) { return u((c.*k).instructions); }
template <K... k> double requests(const Counters& c) { return u(l1<k...>(c).requests); }
template <K... k> double transactions(const Counters& c) { return u(l1<k...>(c).transactions); }
template <K... k> double sectors(const Counters& c) { return u(l1<k...>(c).sectors); }
template <K... k> double hits(const Counters& c) { return u(l1<k...>(c).sector_hits); }
template <K... k> double misses(const Counters& c) { return u(l1<k...>(c).sector_misses()); }
template <K... k> double moved(const Counters& c) { return u(l1<k...>(c).bytes_moved); }
template <K... k> double needed(const Counters& c) { return u(l1<k...>(c).bytes_needed); }
template <K... k> double sectors_per_request(const Counters& c) {
  const L1Traffic t = l1<k...>(c);
  return ratio(u(t.sectors), u(t.requests));
}
template <K... k> double transactions_per_request(const Counters& c) {
  const L1Traffic t = l1<k...>(c);
  return ratio(u(t.transactions), u(t.requests));
}
template <K... k> double hit_rate(const Counters& c) {
  const L1Traffic t = l1<k...>(c);
  return 100.0 * ratio(u(t.sector_hits), u(t.sectors));
}
// Bus utilization: bytes the lanes used per byte moved (seed001 "Bus utilization").
template <K... k> double efficiency(const Counters& c) {
  const L1Traffic t = l1<k...>(c);
  return 100.0 * ratio(u(t.bytes_needed), u(t.bytes_moved));
}
template <K... k> double wasted(const Counters& c) {
  const L1Traffic t = l1<k...>(c);
  return t.bytes_moved > t.bytes_needed ? u(t.bytes_moved - t.bytes_needed) : 0.0;
}

// Shared traffic `s`, plus the matrix traffic `m` that Nsight Compute's data-stage counters of the
// same op include (LDSM in op_ld, STSM in op_st; its instruction counters leave them out).
template <S s, S m> SharedTraffic with_matrix(const Counters& c) {
  SharedTraffic t = c.*s;
  if constexpr (m != nullptr) t.add(c.*m);
  return t;
}
template <S s> double sh_instructions(const Counters& c) { return u((c.*s).instructions); }
template <S s, S m = nullptr> double sh_wavefronts(const Counters& c) { return u(with_matrix<s, m>(c).wavefronts); }
template <S s, S m = nullptr> double sh_ideal(const Counters& c) { return u(with_matrix<s, m>(c).ideal_wavefronts); }
template <S s, S m = nullptr> double sh_conflicts(const Counters& c) { return u(with_matrix<s, m>(c).bank_conflicts); }
template <S s, S m = nullptr> double sh_per_request(const Counters& c) {
  const SharedTraffic t = with_matrix<s, m>(c);
  return ratio(u(t.wavefronts), u(t.instructions));
}
template <S s, S m = nullptr> double sh_efficiency(const Counters& c) {
  const SharedTraffic t = with_matrix<s, m>(c);
  return 100.0 * ratio(u(t.ideal_wavefronts), u(t.wavefronts));
}

template <std::uint64_t Counters::*f> double field(const Counters& c) { return u(c.*f); }

// A cp.async counts its instruction with its global read, or with its shared write where it has no read
// (every lane zero-filled; memory/access_path.cpp access_async_copy).
double ldgsts_instructions(const Counters& c, bool bypass) {
  return bypass ? u(c.global_ldgsts_bypass.instructions + c.shared_ldgsts_bypass.instructions)
                : u(c.global_ldgsts.instructions + c.shared_ldgsts.instructions);
}

constexpr auto A = MetricScope::Always;
constexpr auto C = MetricScope::CachedGpus;
constexpr auto L = MetricScope::WithL1;
constexpr auto G = MetricScope::AsyncCopy;
constexpr auto B = MetricScope::BulkCopy;

// Global loads: LDG and the global reads of cp.async (LDGSTS), as Nsight Compute's tag-stage counters of
// op_ld count them (its instruction counter leaves LDGSTS out).
#define WS_GLOBAL_LD &Counters::global_ld, &Counters::global_ldgsts, &Counters::global_ldgsts_bypass

// One L1 traffic kind: 14 rows. `mem_op` is the ncu suffix ("global_op_ld").
#define WS_L1_ROWS(key, k, mem_op, inst_ncu, listed, nv_inst, nv_req, nv_tx, nv_tpr, nv_hit, nv_hit_fk, nv_eff)        \
  {key ".instructions", inst_ncu, nv_inst, "", "instructions", "warp-level instructions", A, &instructions<k>, listed}, \
  {key ".requests", "l1tex__t_requests_pipe_lsu_mem_" mem_op ".sum", nv_req, "", "requests",                           \
   "requests to the L1/L1TEX tag stage", A, &requests<k>, listed},                                                     \
  {key ".transactions", "l1tex__t_set_accesses_pipe_lsu_mem_" mem_op ".sum", "", nv_tx, "transactions",               \
   "cache-line lookups (7.0+: 128 B lines per request) / 2.x-3.x transactions", A, &transactions<k>, listed},          \
  {key ".sectors", "l1tex__t_sectors_pipe_lsu_mem_" mem_op ".sum", nv_tx, "-", "sectors", "32 B sectors requested",   \
   A, &sectors<k>, listed},                                                                                             \
  {key ".sector_hits", "l1tex__t_sectors_pipe_lsu_mem_" mem_op "_lookup_hit.sum", "", "", "sectors",                  \
   "sectors found in L1 (tag and data present)", L, &hits<k>, listed},                                                 \
  {key ".sector_misses", "l1tex__t_sectors_pipe_lsu_mem_" mem_op "_lookup_miss.sum", "", "", "sectors",               \
   "sectors not found in L1", L, &misses<k>, listed},                                                                  \
  {key ".bytes_moved", "l1tex__t_bytes_pipe_lsu_mem_" mem_op ".sum", "", "", "bytes",                                  \
   "bytes the memory system moved for the instructions", A, &moved<k>, false},                                         \
  {key ".bytes_needed", "", "", "", "bytes", "distinct bytes the active lanes used", A, &needed<k>, true},            \
  {key ".sectors_per_request", "l1tex__average_t_sectors_per_request_pipe_lsu_mem_" mem_op ".ratio", nv_tpr, "-",     \
   "sectors/request", "sectors per request", A, &sectors_per_request<k>, false},                                       \
  {key ".transactions_per_request", "", "", nv_tpr, "transactions/request", "transactions per request (2.x/3.x)", A,  \
   &transactions_per_request<k>, true},                                                                                 \
  {key ".hit_rate", "l1tex__t_sector_pipe_lsu_mem_" mem_op "_hit_rate.pct", nv_hit, nv_hit_fk, "%",                    \
   "L1 sector hit rate", L, &hit_rate<k>, false},                                                                      \
  {key ".efficiency", "", nv_eff, "", "%", "bytes used / bytes moved (bus utilization)", A, &efficiency<k>, true},     \
  {key ".bytes_wasted", "", "", "", "bytes", "bytes moved but not used", A, &wasted<k>, true}

// `m`: the matrix traffic (ldmatrix / stmatrix) Nsight Compute's wavefronts and conflicts of `op` include.
#define WS_SHARED_ROWS(key, s, m, op, listed_inst, nv_inst, nv_tx, nv_tpr, nv_conf)                                     \
  {key ".instructions", "smsp__inst_executed_op_shared_" op ".sum", nv_inst, "", "instructions",                       \
   "warp-level shared-memory instructions", A, &sh_instructions<s>, listed_inst},                                      \
  {key ".wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" op ".sum", nv_tx, "", "wavefronts",             \
   "passes through the shared-memory banks", A, &sh_wavefronts<s, m>, true},                                           \
  {key ".ideal_wavefronts", "", "", "", "wavefronts", "passes without bank conflicts", A, &sh_ideal<s, m>, true},      \
  {key ".bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" op ".sum", nv_conf, "", "conflicts",    \
   "wavefronts beyond the ideal", A, &sh_conflicts<s, m>, true},                                                       \
  {key ".wavefronts_per_request", "", nv_tpr, "", "wavefronts/request", "wavefronts per instruction", A,               \
   &sh_per_request<s, m>, true},                                                                                        \
  {key ".efficiency", "", "", "", "%", "ideal / actual wavefronts", A, &sh_efficiency<s, m>, true}

// ldmatrix / stmatrix alone (7.5+ / 9.0+; no nvprof names): the SASS-patched counters of LDSM / STSM.
#define WS_MATRIX_ROWS(key, s, inst_ncu, sass_op, what)                                                                 \
  {key ".instructions", inst_ncu, "", "", "instructions", "warp-level " what " instructions", A, &sh_instructions<s>,   \
   true},                                                                                                               \
  {key ".wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_" sass_op ".sum", "", "", "wavefronts", \
   "passes through the shared-memory banks (one per 8x8 matrix without conflicts)", A, &sh_wavefronts<s>, true},       \
  {key ".ideal_wavefronts", "", "", "", "wavefronts", "passes without bank conflicts: the matrices", A, &sh_ideal<s>,   \
   true},                                                                                                               \
  {key ".bank_conflicts", "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_" sass_op ".sum", "", "",       \
   "conflicts", "wavefronts beyond the ideal", A, &sh_conflicts<s>, true},                                             \
  {key ".wavefronts_per_request", "", "", "", "wavefronts/request", "wavefronts per instruction", A,                   \
   &sh_per_request<s>, true}

// Distributed shared memory (9.0+): the t-stage's counts of global memory under dshared names, and the sectors the
// crossbar carries (validation/h100/cluster_probe).
#define WS_DSHARED_ROWS(key, k, op)                                                                                      \
  {key ".instructions", "smsp__sass_inst_executed_op_dshared_" op ".sum", "", "", "instructions",                      \
   "warp-level instructions reaching another CTA's shared memory", A, &instructions<k>, true},                          \
  {key ".requests", "l1tex__t_requests_pipe_lsu_mem_dshared_op_" op ".sum", "", "", "requests",                         \
   "requests to the L1's tag stage", A, &requests<k>, true},                                                            \
  {key ".transactions", "l1tex__t_set_accesses_pipe_lsu_mem_dshared_op_" op ".sum", "", "", "transactions",            \
   "128 B lines per request", A, &transactions<k>, true},                                                               \
  {key ".sectors", "l1tex__t_sectors_pipe_lsu_mem_dshared_op_" op ".sum", "", "", "sectors", "32 B sectors requested", \
   A, &sectors<k>, true},                                                                                               \
  {key ".xbar_sectors", "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_" op ".sum", "", "", "sectors",               \
   "sectors back over the crossbar (the same sectors)", A, &sectors<k>, true},                                         \
  {key ".bytes_needed", "", "", "", "bytes", "distinct bytes the active lanes used", A, &needed<k>, true},             \
  {key ".sectors_per_request", "l1tex__average_t_sectors_per_request_pipe_lsu_mem_dshared_op_" op ".ratio", "", "",    \
   "sectors/request", "sectors per request", A, &sectors_per_request<k>, true},                                        \
  {key ".efficiency", "", "", "", "%", "bytes used / bytes moved", A, &efficiency<k>, true},                           \
  {key ".bytes_wasted", "", "", "", "bytes", "bytes moved but not used", A, &wasted<k>, true}

// The base names (no rollup suffix) of this table that ncu 2025.3.1 lists for
// gh100 (reference/ncu_gh100_memory_metrics.txt) or that validation/h100/cache
// collected (l1tex__t_set_accesses_pipe_lsu_mem_global_op_st).
constexpr std::string_view kMeasuredNames[] = {
    "smsp__inst_executed_op_global_ld",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld",
    "l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss",
    "l1tex__t_bytes_pipe_lsu_mem_global_op_ld",
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate",
    "smsp__inst_executed_op_global_st",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st",
    "l1tex__t_set_accesses_pipe_lsu_mem_global_op_st",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss",
    "l1tex__t_sector_pipe_lsu_mem_global_op_st_hit_rate",
    "smsp__inst_executed_op_local_ld",
    "l1tex__t_requests_pipe_lsu_mem_local_op_ld",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss",
    "smsp__inst_executed_op_local_st",
    "l1tex__t_requests_pipe_lsu_mem_local_op_st",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_miss",
    "smsp__inst_executed_op_shared_ld",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
    "smsp__inst_executed_op_shared_st",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom",
    // ldmatrix / stmatrix: validation/h100/matrix_probe
    "smsp__inst_executed_op_ldsm",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm",
    "smsp__inst_executed_op_shared_stsm",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm",
    // distributed shared memory: validation/h100/cluster_probe
    "smsp__sass_inst_executed_op_dshared_ld",
    "smsp__sass_inst_executed_op_dshared_st",
    "smsp__sass_inst_executed_op_dshared_atom",
    "l1tex__t_requests_pipe_lsu_mem_dshared_op_ld",
    "l1tex__t_requests_pipe_lsu_mem_dshared_op_st",
    "l1tex__t_requests_pipe_lsu_mem_dshared_op_atom",
    "l1tex__t_set_accesses_pipe_lsu_mem_dshared_op_ld",
    "l1tex__t_set_accesses_pipe_lsu_mem_dshared_op_st",
    "l1tex__t_set_accesses_pipe_lsu_mem_dshared_op_atom",
    "l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld",
    "l1tex__t_sectors_pipe_lsu_mem_dshared_op_st",
    "l1tex__t_sectors_pipe_lsu_mem_dshared_op_atom",
    "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_ld",
    "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_st",
    "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_atom",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_dshared_op_ld",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_dshared_op_st",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_dshared_op_atom",
    // st.async and red.async: validation/h100/async_store_probe
    "smsp__sass_inst_executed_op_dshared_stas",
    "smsp__sass_inst_executed_op_dshared_redas",
    "l1tex__t_requests_pipe_lsu_mem_dshared_op_redas",
    "l1tex__t_set_accesses_pipe_lsu_mem_dshared_op_redas",
    "l1tex__t_sectors_pipe_lsu_mem_dshared_op_redas",
    "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_redas",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_dshared_op_redas",
    // wgmma (HGMMA): validation/h100/wgmma_probe
    "smsp__sass_inst_executed_op_shared_gmma",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma",
    // cp.async (LDGSTS): validation/h100/async_probe
    "smsp__inst_executed_op_ldgsts",
    "smsp__sass_inst_executed_op_ldgsts_cache_access",
    "smsp__sass_inst_executed_op_ldgsts_cache_bypass",
    "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access",
    "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts",
    // cp.async.bulk (UBLKCP): validation/h100/barrier_probe
    "smsp__inst_executed_op_tma_ld",
    "smsp__inst_executed_op_tma_st",
    "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld",
    "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld",
    "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st",
    "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st",
    "lts__t_requests_srcunit_tex_op_read",
    "lts__t_sectors_srcunit_tex_op_read",
    "lts__t_requests_srcunit_tex_op_atom",  // atomics and reductions: validation/h100/atomics_probe
    "lts__t_sectors_srcunit_tex_op_atom",
    "lts__t_sectors_srcunit_tex_op_atom_lookup_hit",
    "lts__t_requests_srcunit_tex_op_red",
    "lts__t_sectors_srcunit_tex_op_red",
    "lts__t_sectors_srcunit_tex_op_red_lookup_hit",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom",
    "l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom",
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit",
    "lts__t_sectors_srcunit_tex_op_read_lookup_miss",
    "lts__t_sector_op_read_hit_rate",
    "lts__t_requests_srcunit_tex_op_write",
    "lts__t_sectors_srcunit_tex_op_write",
    "lts__t_sectors_srcunit_tex_op_write_lookup_hit",
    "lts__t_sector_op_write_hit_rate",
    "dram__bytes_read",
    "dram__sectors_read",
    "dram__bytes_write",
    "dram__sectors_write",
};

std::string_view strip_suffix(std::string_view name);

const std::vector<MetricName>& table() {
  static const std::vector<MetricName> rows = [] {
    std::vector<MetricName> r = {
      WS_L1_ROWS("global_ld", WS_GLOBAL_LD, "global_op_ld", "smsp__inst_executed_op_global_ld.sum", true,
                 "inst_executed_global_loads", "global_load_requests", "gld_transactions",
                 "gld_transactions_per_request", "global_hit_rate", "l1_cache_global_hit_rate", "gld_efficiency"),
      WS_L1_ROWS("global_st", &Counters::global_st, "global_op_st", "smsp__inst_executed_op_global_st.sum", true,
                 "inst_executed_global_stores", "global_store_requests", "gst_transactions",
                 "gst_transactions_per_request", "", "", "gst_efficiency"),
      WS_L1_ROWS("global_atom", &Counters::global_atom, "global_op_atom", "smsp__inst_executed_op_global_atom.sum",
                 false, "inst_executed_global_atomics", "global_atomic_requests", "atomic_transactions",
                 "atomic_transactions_per_request", "", "", ""),
      WS_L1_ROWS("local_ld", &Counters::local_ld, "local_op_ld", "smsp__inst_executed_op_local_ld.sum", true,
                 "inst_executed_local_loads", "local_load_requests", "local_load_transactions",
                 "local_load_transactions_per_request", "local_hit_rate", "l1_cache_local_hit_rate", ""),
      WS_L1_ROWS("local_st", &Counters::local_st, "local_op_st", "smsp__inst_executed_op_local_st.sum", true,
                 "inst_executed_local_stores", "local_store_requests", "local_store_transactions",
                 "local_store_transactions_per_request", "", "", ""),
      // Read-only / texture path: 3.5-6.x (ld.global.nc, texture); 7.0+ texture fetches (pipe_tex).
      {"readonly_ld.instructions", "smsp__inst_executed_op_texture.sum", "inst_executed_tex_ops", "", "instructions",
       "warp-level read-only/texture loads", A, &instructions<&Counters::readonly_ld>, false},
      {"readonly_ld.requests", "l1tex__t_requests_pipe_tex_mem_texture.sum", "tex_cache_requests", "", "requests",
       "requests to the read-only/texture cache", A, &requests<&Counters::readonly_ld>, false},
      {"readonly_ld.transactions", "", "", "", "queries", "read-only cache queries (3.5/3.7: 32 B per 4 threads)", A,
       &transactions<&Counters::readonly_ld>, true},
      {"readonly_ld.sectors", "l1tex__t_sectors_pipe_tex_mem_texture.sum", "tex_cache_transactions", "", "sectors",
       "32 B sectors requested", A, &sectors<&Counters::readonly_ld>, false},
      {"readonly_ld.sector_hits", "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum", "", "", "sectors",
       "sectors found in the read-only cache", L, &hits<&Counters::readonly_ld>, false},
      {"readonly_ld.hit_rate", "l1tex__t_sector_pipe_tex_mem_texture_hit_rate.pct", "tex_cache_hit_rate",
       "nc_cache_global_hit_rate", "%", "read-only cache sector hit rate", L, &hit_rate<&Counters::readonly_ld>, false},
      {"readonly_ld.efficiency", "", "", "", "%", "bytes used / bytes moved", A, &efficiency<&Counters::readonly_ld>,
       true},

      WS_SHARED_ROWS("shared_ld", &Counters::shared_ld, &Counters::shared_ldsm, "ld", true,
                     "inst_executed_shared_loads", "shared_load_transactions", "shared_load_transactions_per_request",
                     "shared_ld_bank_conflict"),
      WS_SHARED_ROWS("shared_st", &Counters::shared_st, &Counters::shared_stsm, "st", true,
                     "inst_executed_shared_stores", "shared_store_transactions", "shared_store_transactions_per_request",
                     "shared_st_bank_conflict"),
      WS_SHARED_ROWS("shared_atom", &Counters::shared_atom, nullptr, "atom", false, "inst_executed_shared_atomics", "",
                     "", ""),
      WS_MATRIX_ROWS("ldsm", &Counters::shared_ldsm, "smsp__inst_executed_op_ldsm.sum", "ldsm", "ldmatrix (LDSM)"),
      WS_MATRIX_ROWS("stsm", &Counters::shared_stsm, "smsp__inst_executed_op_shared_stsm.sum", "stsm",
                     "stmatrix (STSM)"),
      WS_DSHARED_ROWS("dshared_ld", &Counters::dshared_ld, "ld"),
      WS_DSHARED_ROWS("dshared_st", &Counters::dshared_st, "st"),
      WS_DSHARED_ROWS("dshared_atom", &Counters::dshared_atom, "atom"),
      // red.async (REDAS) and st.async (STAS): validation/h100/async_store_probe.
      WS_DSHARED_ROWS("dshared_red", &Counters::dshared_red, "redas"),
      {"dshared_stas.instructions", "smsp__sass_inst_executed_op_dshared_stas.sum", "", "", "instructions",
       "warp-level st.async instructions (STAS); their requests and sectors are dshared_st's", A,
       [](const Counters& c) { return static_cast<double>(c.dshared_stas_instructions); }, true},
      // wgmma.mma_async (HGMMA, 9.0+): the tensor cores' shared-memory operand reads (validation/h100/wgmma_probe).
      {"gmma.instructions", "smsp__sass_inst_executed_op_shared_gmma.sum", "", "", "instructions",
       "warp-level wgmma instructions (HGMMA): each warp of the warpgroup counts it", A, &sh_instructions<&Counters::shared_gmma>,
       true},
      {"gmma.wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", "", "", "wavefronts",
       "128-byte passes of the tensor cores through the shared-memory banks (operands A and B)", A,
       &sh_wavefronts<&Counters::shared_gmma>, true},
      {"gmma.bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum", "", "", "conflicts",
       "wavefronts beyond the ideal (none in the canonical layouts)", A, &sh_conflicts<&Counters::shared_gmma>, true},

      // cp.async (LDGSTS, 8.0+), through L1 (cache_access) and bypassing it (cache_bypass):
      // validation/h100/async_probe. Instructions and wavefronts come from the shared writes, requests,
      // sectors and hits from the global reads.
      {"ldgsts.instructions", "smsp__inst_executed_op_ldgsts.sum", "", "", "instructions",
       "warp-level cp.async instructions (LDGSTS)", G,
       [](const Counters& c) { return ldgsts_instructions(c, false) + ldgsts_instructions(c, true); }, true},
      {"ldgsts.instructions_cache_access", "smsp__sass_inst_executed_op_ldgsts_cache_access.sum", "", "",
       "instructions", "cp.async.ca: through L1", G, [](const Counters& c) { return ldgsts_instructions(c, false); },
       true},
      {"ldgsts.instructions_cache_bypass", "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum", "", "",
       "instructions", "cp.async.cg: bypassing L1 (LDGSTS.BYPASS)", G,
       [](const Counters& c) { return ldgsts_instructions(c, true); }, true},
      {"ldgsts.requests", "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", "", "", "requests",
       "requests of the global reads (none where every lane zero-fills)", G,
       &requests<&Counters::global_ldgsts, &Counters::global_ldgsts_bypass>, true},
      // The tag stage's own count has a request also for a cp.async.ca whose lanes all zero-fill (the
      // SASS-patched one above has none): async_probe zfill_*; those are the shared writes with no read.
      {"ldgsts.requests_cache_access", "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", "", "",
       "requests", "requests of cp.async.ca at the L1 tag stage, zero-filling ones included", G,
       [](const Counters& c) { return u(c.global_ldgsts.requests + c.shared_ldgsts.instructions); }, true},
      {"ldgsts.requests_cache_bypass", "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum",
       "", "", "requests", "requests of the global reads bypassing L1", G,
       &requests<&Counters::global_ldgsts_bypass>, true},
      {"ldgsts.sectors", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", "", "", "sectors",
       "32 B sectors the global reads asked for", G,
       &sectors<&Counters::global_ldgsts, &Counters::global_ldgsts_bypass>, true},
      {"ldgsts.sectors_cache_access", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", "", "",
       "sectors", "sectors of the global reads through L1", G, &sectors<&Counters::global_ldgsts>, true},
      {"ldgsts.sectors_cache_bypass", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum", "",
       "", "sectors", "sectors of the global reads bypassing L1", G, &sectors<&Counters::global_ldgsts_bypass>, true},
      {"ldgsts.sector_hits", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum", "", "",
       "sectors", "sectors of cp.async.ca found in L1", G, &hits<&Counters::global_ldgsts>, true},
      {"ldgsts.sector_misses", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum", "", "",
       "sectors", "sectors of cp.async.ca not found in L1", G, &misses<&Counters::global_ldgsts>, true},
      {"ldgsts.hit_rate", "", "", "", "%", "L1 sector hit rate of cp.async.ca", G, &hit_rate<&Counters::global_ldgsts>,
       true},
      {"ldgsts.wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", "", "",
       "wavefronts", "passes of the shared writes through the banks", G,
       &sh_wavefronts<&Counters::shared_ldgsts, &Counters::shared_ldgsts_bypass>, true},
      {"ldgsts.ideal_wavefronts", "", "", "", "wavefronts", "passes without bank conflicts", G,
       &sh_ideal<&Counters::shared_ldgsts, &Counters::shared_ldgsts_bypass>, true},
      {"ldgsts.bank_conflicts", "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "", "",
       "conflicts", "wavefronts beyond the ideal (cp.async.ca; .cg counts none)", G,
       &sh_conflicts<&Counters::shared_ldgsts, &Counters::shared_ldgsts_bypass>, true},
      {"ldgsts.data_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "", "",
       "conflicts", "the same, as the L1's data stage counts them (other traffic adds some)", G,
       &sh_conflicts<&Counters::shared_ldgsts, &Counters::shared_ldgsts_bypass>, true},

      // cp.async.bulk (UBLKCP, 9.0+) by the TMA unit: validation/h100/barrier_probe. Its L2 requests and sectors are
      // in the l2.* rows (srcunit tex) as well.
      {"tma_ld.instructions", "smsp__inst_executed_op_tma_ld.sum", "", "", "instructions",
       "warp-level bulk copies global -> shared (cp.async.bulk, UBLKCP)", B, &instructions<&Counters::bulk_ld>, true},
      {"tma_ld.l2_requests", "", "", "", "requests", "the L2 read requests of their 128-byte pieces", B,
       &requests<&Counters::bulk_ld>, true},
      {"tma_ld.sectors", "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", "", "", "sectors",
       "sectors the pieces read (a sector two pieces share counts twice)", B, &sectors<&Counters::bulk_ld>, true},
      {"tma_ld.bytes", "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "", "", "bytes",
       "bytes of those sectors", B, &moved<&Counters::bulk_ld>, true},
      {"tma_ld.bytes_needed", "", "", "", "bytes", "bytes copied", B, &needed<&Counters::bulk_ld>, true},
      {"tma_st.instructions", "smsp__inst_executed_op_tma_st.sum", "", "", "instructions",
       "warp-level bulk copies shared -> global (cp.async.bulk, UBLKCP)", B, &instructions<&Counters::bulk_st>, true},
      {"tma_st.l2_requests", "", "", "", "requests", "the L2 write requests of their 128-byte pieces (one per line)", B,
       &requests<&Counters::bulk_st>, true},
      {"tma_st.sectors", "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum", "", "", "sectors",
       "sectors the pieces write", B, &sectors<&Counters::bulk_st>, true},
      {"tma_st.bytes", "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", "", "", "bytes",
       "bytes of those sectors", B, &moved<&Counters::bulk_st>, true},
      {"tma_st.bytes_needed", "", "", "", "bytes", "bytes copied", B, &needed<&Counters::bulk_st>, true},

      // Listed by this ncu on the H100 (validation/h100/wmma_probe/wmma_probe.ncu.csv), not in the reference list.
      {"generic_ld.instructions", "smsp__inst_executed_op_generic_ld.sum", "", "", "instructions",
       "warp-level loads through a generic address (LD), whose sectors count in the space they reach", A,
       &field<&Counters::generic_ld_instructions>, true},
      {"generic_st.instructions", "smsp__inst_executed_op_generic_st.sum", "", "", "instructions",
       "warp-level stores through a generic address (ST), whose sectors count in the space they reach", A,
       &field<&Counters::generic_st_instructions>, true},
      {"const.instructions", "", "", "", "instructions", "warp-level constant-memory loads", A,
       &field<&Counters::const_instructions>, true},
      {"const.serialization", "", "", "", "requests", "constant-cache requests after serialization by address", A,
       &field<&Counters::const_serialization>, true},

      {"l2.read_requests", "lts__t_requests_srcunit_tex_op_read.sum", "", "", "requests",
       "L2 read requests from L1 (one per 128 B line)", C, &field<&Counters::l2_read_requests>, true},
      {"l2.read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum", "l2_tex_read_transactions",
       "l2_l1_read_transactions", "sectors", "L2 sectors read by L1 misses and L1 bypasses", C,
       &field<&Counters::l2_read_sectors>, true},
      {"l2.read_sector_hits", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "", "", "sectors",
       "of those, found in L2", C, &field<&Counters::l2_read_sector_hits>, true},
      {"l2.read_sector_misses", "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "", "", "sectors",
       "of those, missed in L2", C,
       [](const Counters& c) { return u(c.l2_read_sectors - std::min(c.l2_read_sectors, c.l2_read_sector_hits)); },
       true},
      {"l2.read_hit_rate", "lts__t_sector_op_read_hit_rate.pct", "l2_tex_read_hit_rate", "l2_l1_read_hit_rate", "%",
       "L2 sector hit rate of reads from L1", C,
       [](const Counters& c) { return 100.0 * ratio(u(c.l2_read_sector_hits), u(c.l2_read_sectors)); }, true},
      {"l2.write_requests", "lts__t_requests_srcunit_tex_op_write.sum", "", "", "requests",
       "L2 write requests from L1 (one per 128 B line)", C, &field<&Counters::l2_write_requests>, true},
      {"l2.write_sectors", "lts__t_sectors_srcunit_tex_op_write.sum", "l2_tex_write_transactions",
       "l2_l1_write_transactions", "sectors", "L2 sectors written by stores and L1 write-backs", C,
       &field<&Counters::l2_write_sectors>, true},
      {"l2.write_sector_hits", "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum", "", "", "sectors",
       "of those, counted as hits (every written sector: writes allocate without fetching)", C,
       &field<&Counters::l2_write_sector_hits>, true},
      {"l2.write_hit_rate", "lts__t_sector_op_write_hit_rate.pct", "l2_tex_write_hit_rate", "-", "%",
       "L2 sector hit rate of writes from L1", C,
       [](const Counters& c) { return 100.0 * ratio(u(c.l2_write_sector_hits), u(c.l2_write_sectors)); }, true},
      // Nsight Compute counts atomics (ATOM) and reductions (RED) apart, nvprof together
      // (validation/h100/atomics_probe: a REDG's L2 traffic is in lts__t_*_op_red only).
      {"l2.atom_requests", "lts__t_requests_srcunit_tex_op_atom.sum", "", "", "requests",
       "L2 atomic requests (one per 128 B line and pass)", C, &field<&Counters::l2_atom_requests>, true},
      {"l2.atom_sectors", "lts__t_sectors_srcunit_tex_op_atom.sum", "", "", "sectors", "L2 sectors of atomics", C,
       &field<&Counters::l2_atom_sectors>, true},
      {"l2.atom_sector_hits", "lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum", "", "", "sectors",
       "of those, found in L2", C, &field<&Counters::l2_atom_sector_hits>, true},
      {"l2.red_requests", "lts__t_requests_srcunit_tex_op_red.sum", "", "", "requests",
       "L2 reduction requests (one per 128 B line and pass)", C, &field<&Counters::l2_red_requests>, true},
      {"l2.red_sectors", "lts__t_sectors_srcunit_tex_op_red.sum", "", "", "sectors", "L2 sectors of reductions", C,
       &field<&Counters::l2_red_sectors>, true},
      {"l2.red_sector_hits", "lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum", "", "", "sectors",
       "of those, found in L2", C, &field<&Counters::l2_red_sector_hits>, true},
      {"l2.atom_red_sectors", "", "l2_atomic_transactions", "", "sectors", "L2 sectors of atomics and reductions", C,
       [](const Counters& c) { return u(c.l2_atom_sectors + c.l2_red_sectors); }, true},

      {"dram.read_bytes", "dram__bytes_read.sum", "dram_read_bytes", "-", "bytes", "bytes read from DRAM", A,
       &field<&Counters::dram_read_bytes>, true},
      {"dram.read_sectors", "dram__sectors_read.sum", "dram_read_transactions", "", "sectors",
       "32 B sectors read from DRAM", A, [](const Counters& c) { return u(c.dram_read_bytes / 32); }, true},
      {"dram.write_bytes", "dram__bytes_write.sum", "dram_write_bytes", "-", "bytes", "bytes written to DRAM", A,
       &field<&Counters::dram_write_bytes>, true},
      {"dram.write_sectors", "dram__sectors_write.sum", "dram_write_transactions", "", "sectors",
       "32 B sectors written to DRAM", A, [](const Counters& c) { return u(c.dram_write_bytes / 32); }, true},
    };
    for (MetricName& m : r) {
      const std::string_view key = m.our_key;
      // Atomics go to L2 unfiltered: their L2 requests and sectors follow from the access pattern
      // (one request per line and pass, every sector of it; validation/h100/atomics_probe).
      const bool l2_atomic_traffic = key == "l2.atom_requests" || key == "l2.atom_sectors" ||
                                     key == "l2.red_requests" || key == "l2.red_sectors" || key == "l2.atom_red_sectors";
      m.depends_on_caches = (key.starts_with("l2.") && !l2_atomic_traffic) || key.starts_with("dram.") ||
                            key.ends_with(".sector_hits") || key.ends_with(".sector_misses") || key.ends_with(".hit_rate");
      const std::string_view base = strip_suffix(m.ncu);
      m.ncu_listed = m.ncu.empty() ||
                     std::find(std::begin(kMeasuredNames), std::end(kMeasuredNames), base) != std::end(kMeasuredNames);
    }
    return r;
  }();
  return rows;
}

#undef WS_L1_ROWS
#undef WS_SHARED_ROWS
#undef WS_MATRIX_ROWS
#undef WS_GLOBAL_LD

std::string_view strip_suffix(std::string_view name) {
  for (std::string_view suffix : {".sum", ".pct", ".ratio", ".avg", ".max"})
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix)
      return name.substr(0, name.size() - suffix.size());
  return name;
}

bool fermi_kepler_profiler(const ArchSpec& arch) {
  return arch.rules == RulesFamily::TeslaStrict || arch.rules == RulesFamily::TeslaRelaxed ||
         arch.rules == RulesFamily::Fermi || arch.rules == RulesFamily::Kepler;
}

bool applies(const MetricName& m, const ArchSpec& arch) {
  const bool tesla = arch.rules == RulesFamily::TeslaStrict || arch.rules == RulesFamily::TeslaRelaxed;
  switch (m.scope) {
    case MetricScope::Always: return true;
    case MetricScope::CachedGpus: return !tesla;
    case MetricScope::WithL1: return !tesla;
    case MetricScope::AsyncCopy: return arch.cc_major >= 8;
    case MetricScope::BulkCopy: return arch.cc_major >= 9;
  }
  return true;
}

}  // namespace

const std::vector<MetricName>& metric_table() { return table(); }

std::string_view basis_name(bool depends_on_caches) { return depends_on_caches ? "caches" : "rules"; }

std::string_view profiler_name(const MetricName& m, const ArchSpec& arch) {
  if (arch.rules == RulesFamily::Volta) return m.ncu;
  if (fermi_kepler_profiler(arch) && !m.nvprof_fermi_kepler.empty())
    return m.nvprof_fermi_kepler == "-" ? std::string_view{} : m.nvprof_fermi_kepler;
  return m.nvprof;
}

const MetricName* find_metric(std::string_view name) {
  const std::string_view bare = strip_suffix(name);
  for (const MetricName& m : table()) {
    if (m.our_key == name || m.ncu == name || m.nvprof == name || m.nvprof_fermi_kepler == name) return &m;
    if (!m.ncu.empty() && strip_suffix(m.ncu) == bare) return &m;
  }
  return nullptr;
}

std::vector<Metric> metrics(const Counters& counters, const ArchSpec& arch) {
  std::vector<Metric> out;
  out.reserve(table().size());
  for (const MetricName& m : table()) {
    if (!applies(m, arch)) continue;
    const std::string_view name = profiler_name(m, arch);
    out.push_back(Metric{std::string(name.empty() ? m.our_key : name), m.value(counters), std::string(m.unit),
                         std::string(m.our_key), m.depends_on_caches});
  }
  return out;
}

}  // namespace warpscope
