#include "analyze/analyzer.hpp"

#include <chrono>

namespace warpscope {
namespace {

// Per-architecture state during the pass.
struct ArchRun {
  const ArchSpec* arch;
  std::unique_ptr<MemorySystem> memory;
  ArchResult result;
  std::unordered_map<std::uint64_t, std::size_t> pc_index;  // (kernel << 40) ^ pc -> pcs[]
  std::vector<std::size_t> kernel_slot;                      // trace kernel id -> kernels[] (+1), 0 = none
};

std::uint64_t pc_key(std::uint32_t kernel, std::uint64_t pc) { return (std::uint64_t{kernel} << 40) ^ pc; }

}  // namespace

AnalyzeResult analyze_trace(TraceSource& trace, const std::vector<const ArchSpec*>& archs,
                            const AnalyzeOptions& options, const ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<ArchRun> runs;
  runs.reserve(archs.size());
  for (const ArchSpec* a : archs) {
    ArchRun r{a, std::make_unique<MemorySystem>(*a, options.memory), {}, {}, {}};
    r.result.arch = a;
    r.result.memory_description = r.memory->describe();
    runs.push_back(std::move(r));
  }

  AnalyzeResult out;
  WarpAccess rec;
  std::int64_t current_kernel = -1;
  std::vector<std::int8_t> selected;  // per trace kernel id: -1 unknown, 0 no, 1 yes
  std::uint64_t next_progress = 0;
  while (trace.next(rec)) {
    ++out.records_read;
    if (progress && trace.bytes_read() >= next_progress) {
      progress(trace.bytes_read(), trace.file_size());
      next_progress = trace.bytes_read() + (1u << 22);
    }
    if (rec.kernel >= selected.size()) selected.resize(rec.kernel + 1u, -1);
    if (selected[rec.kernel] < 0) {
      const KernelInfo* info = nullptr;
      for (const auto& k : trace.kernels())
        if (k.id == rec.kernel) info = &k;
      const bool take = !options.kernel_filter || (info && std::regex_search(info->name, *options.kernel_filter));
      selected[rec.kernel] = take ? 1 : 0;
      if (take) {
        for (auto& r : runs) {
          if (r.kernel_slot.size() <= rec.kernel) r.kernel_slot.resize(rec.kernel + 1u, 0);
          KernelResult kr;
          if (info) kr.info = *info;
          kr.info.id = rec.kernel;
          r.result.kernels.push_back(std::move(kr));
          r.kernel_slot[rec.kernel] = r.result.kernels.size();
        }
      }
    }
    if (selected[rec.kernel] == 0) continue;
    ++out.records_analyzed;
    if (static_cast<std::int64_t>(rec.kernel) != current_kernel) {
      for (auto& r : runs) {
        if (current_kernel >= 0) {
          r.memory->end_kernel(options.flush_dirty_at_kernel_end);
          const std::size_t slot = r.kernel_slot[static_cast<std::size_t>(current_kernel)];
          r.result.kernels[slot - 1].counters.add(r.memory->kernel_counters());
        }
        r.memory->reset_kernel_counters();
        r.memory->begin_kernel();
      }
      current_kernel = rec.kernel;
    }
    for (auto& r : runs) {
      const int sms = r.memory->num_sms();
      const int sm = rec.sm >= 0 ? rec.sm % sms : place_cta(rec.cta, sms);
      auto [it, fresh] = r.pc_index.try_emplace(pc_key(rec.kernel, rec.pc), r.result.pcs.size());
      if (fresh) {
        PcCounters p;
        p.kernel = rec.kernel;
        p.pc = rec.pc;
        p.space = rec.space;
        p.op = rec.op;
        p.size = rec.size;
        r.result.pcs.push_back(p);
      }
      PcCounters& pc = r.result.pcs[it->second];
      const InstructionCounts c = r.memory->access(rec, sm, &pc.counters);
      ++pc.executions;
      pc.bytes_needed += c.bytes_needed;
      pc.bytes_moved += c.bytes_moved;
      r.result.kernels[r.kernel_slot[rec.kernel] - 1].records++;
    }
  }
  for (auto& r : runs) {
    if (current_kernel >= 0) {
      r.memory->end_kernel(options.flush_dirty_at_kernel_end);
      const std::size_t slot = r.kernel_slot[static_cast<std::size_t>(current_kernel)];
      r.result.kernels[slot - 1].counters.add(r.memory->kernel_counters());
      r.memory->reset_kernel_counters();
    }
    out.archs.push_back(std::move(r.result));
  }
  if (progress) progress(trace.bytes_read(), trace.file_size());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace warpscope
