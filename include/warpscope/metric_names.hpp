// The one table that maps warpscope's counters to the names the profiler of
// each generation uses: Nsight Compute for CC >= 7.0, nvprof (and the CUDA
// profiler of its time) for CC < 7.0. Printers and validation read this table;
// nothing else spells a profiler name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/counters.hpp"

namespace warpscope {

// Which GPUs a metric exists on in the model.
enum class MetricScope : std::uint8_t {
  Always,
  CachedGpus,  // CC >= 2.0 (an L1/L2 hierarchy)
  WithL1,      // L1 hit counters: 2.x+ (read-only caches on 3.5+)
  AsyncCopy,   // cp.async (LDGSTS): CC >= 8.0
  BulkCopy,    // cp.async.bulk (UBLKCP, the TMA unit): CC >= 9.0
};

struct MetricName {
  std::string_view our_key;      // "global_ld.sectors"
  std::string_view ncu;          // Nsight Compute (CC >= 7.0); "" when it has none
  std::string_view nvprof;       // nvprof (CC 2.x-6.x); "" when it has none
  std::string_view nvprof_fermi_kepler;  // where 2.x/3.x nvprof differs ("" = same as nvprof)
  std::string_view unit;
  std::string_view description;
  MetricScope scope = MetricScope::Always;
  // The value from the counters (ratios already computed; 0 when undefined).
  double (*value)(const Counters&) = nullptr;
  // true when the ncu name is one ncu 2025.3.1 lists for gh100
  // (reference/ncu_gh100_memory_metrics.txt) or validation/h100 collected;
  // false: from the Profiling Guide / nvprof comparison, not checked on the H100.
  bool ncu_listed = true;
  // What the value rests on: false, the access pattern alone (coalescing,
  // banks, serialization: the rules engine, equal to the hardware where it is
  // deterministic); true, the modelled state of the caches (hits, misses, L2
  // and DRAM traffic), whose error against the H100 docs/VALIDATION.md states.
  bool depends_on_caches = false;
};

// Every row, in printing order: per traffic kind the raw counters then the
// derived ratios (sectors per request, hit rate, efficiency, bytes wasted),
// then L2 and DRAM.
const std::vector<MetricName>& metric_table();

// The row whose our_key, ncu or nvprof name (with or without the ".sum" /
// ".pct" / ".ratio" suffix) is `name`; nullptr when none.
const MetricName* find_metric(std::string_view name);

// The profiler name of a row on this architecture ("" when that profiler has none).
std::string_view profiler_name(const MetricName& m, const ArchSpec& arch);

struct Metric {
  std::string name;     // the profiler's name on this architecture, or our_key where it has none
  double value = 0;
  std::string unit;
  std::string our_key;
  bool depends_on_caches = false;  // MetricName::depends_on_caches
};

// "rules" or "caches": what a metric's value rests on, as printed and written.
std::string_view basis_name(bool depends_on_caches);

// The rows that apply to `arch` (scope), with their values, named as that
// generation's profiler names them.
std::vector<Metric> metrics(const Counters& counters, const ArchSpec& arch);

}  // namespace warpscope
