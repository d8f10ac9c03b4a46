// libFuzzer target for the model behind `warpscope analyze`: a trace (text or
// native, as open_trace detects) replayed through the memory systems of one
// architecture per family (1.x DRAM only, 2.x, 3.5 read-only path, 5.x, 7.0,
// 9.0 with its L2 partitions, request coalescer and issue clock), with and
// without warp interleaving. The reader has its own target (fuzz_trace_reader);
// this one reaches the rules engine, the caches and the counters with records
// no tracer writes: CTA and warp ids up to 2^32 and 2^16, SM ids out of
// range, every space x op x size x cache operator, sparse masks, addresses at
// the top of the address space, kernels of any shape.
//
// Allowed out: TraceError and InputError (a bad SM id, a launch the GPU cannot
// run). Differential: sm_90 on four lanes (copies of the model replaying the
// launches side by side, analyze_lanes) must give what one model gives, or
// fail where it fails. Checked on every result: no hit count above its access count, and the
// per-instruction counters of a kernel add up to the kernel's counters (each
// record's traffic, write-backs included, is charged to its instruction).
// The HTML report of every result must nest correctly (the tests' checker).
// The GPUs are shrunk (4 SMs, a 64 KB L2) so that an input runs in
// milliseconds; the rules do not depend on the sizes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "analyze/analyzer.hpp"
#include "report/analyze_html.hpp"
#include "report/html_check.hpp"
#include "warpscope/arch.hpp"
#include "warpscope/error.hpp"
#include "warpscope/trace.hpp"

namespace {

using namespace warpscope;

void check_traffic(const L1Traffic& t) {
  if (t.sector_hits > t.sectors) std::abort();
}

void check_counters(const Counters& c) {
  for (const L1Traffic* t : {&c.global_ld, &c.global_st, &c.global_atom, &c.local_ld, &c.local_st, &c.readonly_ld})
    check_traffic(*t);
  if (c.l2_read_sector_hits > c.l2_read_sectors || c.l2_write_sector_hits > c.l2_write_sectors ||
      c.l2_atom_sector_hits > c.l2_atom_sectors || c.l2_red_sector_hits > c.l2_red_sectors)
    std::abort();
}

const std::vector<const ArchSpec*>& archs() {
  static const std::vector<const ArchSpec*> list = [] {
    const ArchDatabase& db = ArchDatabase::builtin();
    std::vector<const ArchSpec*> a;
    for (const char* name : {"sm_13", "sm_20", "sm_35", "sm_52", "sm_70", "sm_90"}) a.push_back(&db.get(name).spec);
    return a;
  }();
  return list;
}

void run(std::string_view bytes, bool interleave) {
  AnalyzeOptions options;
  options.memory.num_sms = 4;
  options.memory.l2_size = 64 * 1024;
  options.interleave_warps = interleave;
  options.threads = 1;
  try {
    auto trace = open_trace_buffer(bytes, "fuzz.trace", {});
    const AnalyzeResult r = analyze_trace(*trace, archs(), options);
    if (r.archs.size() != archs().size()) std::abort();
    for (const ArchResult& a : r.archs) {
      std::map<std::uint32_t, Counters> by_kernel;
      for (const PcCounters& pc : a.pcs) {
        check_counters(pc.counters);
        by_kernel[pc.kernel].add(pc.counters);
      }
      // A kernel id can be launched more than once; its launches add up.
      std::map<std::uint32_t, Counters> launches;
      for (const KernelResult& k : a.kernels) {
        check_counters(k.counters);
        // The launch's own DRAM reads (code size in the trace) belong to no instruction.
        if (k.launch_dram_read_bytes > k.counters.dram_read_bytes) std::abort();
        Counters of_instructions = k.counters;
        of_instructions.dram_read_bytes -= k.launch_dram_read_bytes;
        launches[k.info.id].add(of_instructions);
      }
      // Kernels that ran no record have no PCs (and zero counters).
      for (const auto& [id, total] : launches)
        if (total != (by_kernel.contains(id) ? by_kernel[id] : Counters{})) std::abort();
      for (const auto& [id, total] : by_kernel)
        if (!launches.contains(id)) std::abort();
    }
    report::AnalyzeHtmlOptions html;
    html.trace_path = "fuzz <trace> & co";
    html.top = 4;
    if (!test::html_problem(report::analyze_html(r, *trace, html)).empty()) std::abort();
  } catch (const TraceError&) {
  } catch (const InputError&) {
  }
}

std::optional<AnalyzeResult> run_sm90(std::string_view bytes, int threads) {
  AnalyzeOptions options;
  options.memory.num_sms = 4;
  options.memory.l2_size = 64 * 1024;
  options.threads = threads;
  try {
    auto trace = open_trace_buffer(bytes, "fuzz.trace", {});
    return analyze_trace(*trace, {&ArchDatabase::builtin().get("sm_90").spec}, options);
  } catch (const TraceError&) {
  } catch (const InputError&) {
  }
  return std::nullopt;
}

void lanes_agree(std::string_view bytes) {
  const auto one = run_sm90(bytes, 1), lanes = run_sm90(bytes, 8);  // 8 threads: 4 lanes
  if (one.has_value() != lanes.has_value()) std::abort();
  if (!one) return;
  const ArchResult &x = one->archs.at(0), &y = lanes->archs.at(0);
  if (x.kernels.size() != y.kernels.size() || x.pcs.size() != y.pcs.size() || one->resumed.size() != lanes->resumed.size())
    std::abort();
  for (std::size_t k = 0; k < x.kernels.size(); ++k)
    if (x.kernels[k].info.id != y.kernels[k].info.id || x.kernels[k].records != y.kernels[k].records ||
        x.kernels[k].counters != y.kernels[k].counters)
      std::abort();
  for (std::size_t p = 0; p < x.pcs.size(); ++p)
    if (x.pcs[p].kernel != y.pcs[p].kernel || x.pcs[p].pc != y.pcs[p].pc ||
        x.pcs[p].executions != y.pcs[p].executions || x.pcs[p].counters != y.pcs[p].counters ||
        x.pcs[p].first.cta != y.pcs[p].first.cta || x.pcs[p].first.warp != y.pcs[p].first.warp ||
        x.pcs[p].first.addr != y.pcs[p].first.addr)  // each instruction's first execution, whatever the lane
      std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  run(bytes, true);
  run(bytes, false);
  lanes_agree(bytes);
  return 0;
}
