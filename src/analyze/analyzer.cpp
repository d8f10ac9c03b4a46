#include "analyze/analyzer.hpp"

#include <chrono>

#include "analyze/interleaver.hpp"
#include "warpscope/occupancy.hpp"

namespace warpscope {
namespace {

std::uint64_t pc_key(std::uint32_t kernel, std::uint64_t pc) { return (std::uint64_t{kernel} << 40) ^ pc; }

// Per-architecture state during the pass.
struct ArchRun {
  const ArchSpec* arch = nullptr;
  std::unique_ptr<MemorySystem> memory;
  ArchResult result;
  std::unordered_map<std::uint64_t, std::size_t> pc_index;  // pc_key -> pcs[]
  std::vector<std::size_t> kernel_slot;                      // trace kernel id -> kernels[] + 1
  std::int64_t current_kernel = -1;
  std::unique_ptr<WarpInterleaver> interleaver;
  bool flush_dirty = false;

  void close_kernel() {
    if (current_kernel < 0) return;
    memory->end_kernel(flush_dirty);
    result.kernels[kernel_slot[static_cast<std::size_t>(current_kernel)] - 1].counters.add(memory->kernel_counters());
    memory->reset_kernel_counters();
    current_kernel = -1;
  }

  // One record, in the order the SMs would issue it.
  void process(const WarpAccess& rec) {
    if (static_cast<std::int64_t>(rec.kernel) != current_kernel) {
      close_kernel();
      KernelResult& k = result.kernels[kernel_slot[rec.kernel] - 1];
      if (k.info.block.count() > 0) {
        OccupancyInput launch;  // the driver picks the carveout from the launch's shape (7.0+)
        launch.threads = static_cast<int>(std::min<std::uint64_t>(k.info.block.count(), 1u << 30));
        launch.regs = static_cast<int>(k.info.registers);
        launch.smem = std::int64_t{k.info.static_shared} + k.info.dynamic_shared;
        memory->begin_kernel(launch);
      } else {
        memory->begin_kernel();
      }
      k.l1_bytes = memory->l1_size();
      k.shared_capacity = memory->shared_capacity();
      current_kernel = rec.kernel;
    }
    const int sms = memory->num_sms();
    const int sm = rec.sm >= 0 ? rec.sm % sms : place_cta(rec.cta, sms);
    auto [it, fresh] = pc_index.try_emplace(pc_key(rec.kernel, rec.pc), result.pcs.size());
    if (fresh) {
      PcCounters p;
      p.kernel = rec.kernel;
      p.pc = rec.pc;
      p.space = rec.space;
      p.op = rec.op;
      p.size = rec.size;
      result.pcs.push_back(p);
    }
    PcCounters& pc = result.pcs[it->second];
    const InstructionCounts c = memory->access(rec, sm, &pc.counters);
    ++pc.executions;
    pc.bytes_needed += c.bytes_needed;
    pc.bytes_moved += c.bytes_moved;
    result.kernels[kernel_slot[rec.kernel] - 1].records++;
  }
};

// CTAs resident on the whole GPU at once for this kernel on this architecture.
std::uint64_t wave_ctas(const ArchSpec& arch, const KernelInfo& k, int sms) {
  int blocks = arch.max_blocks_per_sm;
  const auto threads = k.block.count();
  if (threads > 1 && threads <= static_cast<std::uint64_t>(arch.max_threads_per_block)) {
    try {
      OccupancyInput in;
      in.threads = static_cast<int>(threads);
      in.regs = static_cast<int>(k.registers);
      in.smem = std::int64_t{k.static_shared} + k.dynamic_shared;
      blocks = compute_occupancy(arch, in).blocks_per_sm;
    } catch (const InputError&) {
      // recorded on another GPU with limits this one does not have: one block per SM
      blocks = 1;
    }
  }
  return static_cast<std::uint64_t>(std::max(blocks, 1)) * static_cast<std::uint64_t>(sms);
}

}  // namespace

AnalyzeResult analyze_trace(TraceSource& trace, const std::vector<const ArchSpec*>& archs,
                            const AnalyzeOptions& options, const ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<ArchRun>> runs;
  for (const ArchSpec* a : archs) {
    auto r = std::make_unique<ArchRun>();
    r->arch = a;
    r->memory = std::make_unique<MemorySystem>(*a, options.memory);
    r->result.arch = a;
    r->result.memory_description = r->memory->describe();
    r->flush_dirty = options.flush_dirty_at_kernel_end;
    runs.push_back(std::move(r));
  }

  AnalyzeResult out;
  WarpAccess rec;
  std::int64_t current_kernel = -1;
  std::vector<std::int8_t> selected;  // per trace kernel id: -1 unknown, 0 no, 1 yes
  std::uint64_t next_progress = 0;
  // Records come by the chunk (next_batch, no copy); each is expanded to the
  // WarpAccess the memory system takes only once its kernel is selected.
  for (auto batch = trace.next_batch(); !batch.empty(); batch = trace.next_batch()) {
    out.records_read += batch.size();
    if (progress && trace.bytes_read() >= next_progress) {
      progress(trace.bytes_read(), trace.file_size());
      next_progress = trace.bytes_read() + (1u << 22);
    }
    for (const PackedAccess& packed : batch) {
      if (packed.kernel >= selected.size()) selected.resize(packed.kernel + 1u, -1);
      const KernelInfo* info = nullptr;
      if (selected[packed.kernel] < 0 || static_cast<std::int64_t>(packed.kernel) != current_kernel)
        for (const auto& k : trace.kernels())
          if (k.id == packed.kernel) info = &k;
      if (selected[packed.kernel] < 0) {
        const bool take = !options.kernel_filter || (info && std::regex_search(info->name, *options.kernel_filter));
        selected[packed.kernel] = take ? 1 : 0;
        if (take)
          for (auto& r : runs) {
            if (r->kernel_slot.size() <= packed.kernel) r->kernel_slot.resize(packed.kernel + 1u, 0);
            KernelResult kr;
            if (info) kr.info = *info;
            kr.info.id = packed.kernel;
            r->result.kernels.push_back(std::move(kr));
            r->kernel_slot[packed.kernel] = r->result.kernels.size();
          }
      }
      if (selected[packed.kernel] == 0) continue;
      ++out.records_analyzed;
      packed.expand(rec);
      if (static_cast<std::int64_t>(packed.kernel) != current_kernel) {
        current_kernel = packed.kernel;
        for (auto& r : runs) {
          if (r->interleaver) r->interleaver->flush();
          r->interleaver.reset();
          if (options.interleave_warps && packed.sm < 0) {
            KernelInfo k = info ? *info : KernelInfo{};
            ArchRun* run = r.get();
            r->interleaver = std::make_unique<WarpInterleaver>(
                wave_ctas(*r->arch, k, r->memory->num_sms()), [run](const WarpAccess& x) { run->process(x); });
          }
        }
      }
      for (auto& r : runs) {
        if (r->interleaver) r->interleaver->push(rec);
        else r->process(rec);
      }
    }
  }
  for (auto& r : runs) {
    if (r->interleaver) r->interleaver->flush();
    r->close_kernel();
    out.archs.push_back(std::move(r->result));
  }
  if (progress) progress(trace.bytes_read(), trace.file_size());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace warpscope
