#include "analyze/analyzer.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "analyze/interleaver.hpp"
#include "warpscope/occupancy.hpp"

namespace warpscope {
namespace {

// An instruction: its kernel and PC (a PC may use all 64 bits).
struct PcKey {
  std::uint32_t kernel = 0;
  std::uint64_t pc = 0;
  bool operator==(const PcKey&) const = default;
};
struct PcKeyHash {
  std::size_t operator()(const PcKey& k) const {
    return std::hash<std::uint64_t>{}(k.pc * 0x9E3779B97F4A7C15ull ^ k.kernel);
  }
};

// The launch shape the occupancy calculator and the driver's carveout see.
OccupancyInput launch_of(const KernelInfo& k) {
  OccupancyInput in;
  in.threads = static_cast<int>(std::min<std::uint64_t>(k.block.count(), 1u << 30));
  in.regs = static_cast<int>(k.registers);
  in.smem = std::int64_t{k.static_shared} + k.dynamic_shared;
  return in;
}

// Per-architecture state during the pass.
struct ArchRun {
  const ArchSpec* arch = nullptr;
  std::unique_ptr<MemorySystem> memory;
  ArchResult result;
  std::unordered_map<PcKey, std::size_t, PcKeyHash> pc_index;  // -> pcs[]
  PcKey last_pc_key;                                           // pc_slot's last answer
  std::size_t last_pc_slot = ~std::size_t{0};
  std::vector<std::size_t> kernel_slot;                      // trace kernel id -> kernels[] + 1
  std::int64_t current_kernel = -1;
  std::unique_ptr<WarpInterleaver> interleaver;
  bool flush_dirty = false;
  // The instructions' counters while the pass runs (result.pcs at the end): a
  // deque keeps each one where it is, as the memory system's L2 thread needs.
  std::deque<PcCounters> pcs;

  void close_kernel() {
    if (current_kernel < 0) return;
    memory->end_kernel(flush_dirty);
    result.kernels[kernel_slot[static_cast<std::size_t>(current_kernel)] - 1].counters.add(memory->kernel_counters());
    memory->reset_kernel_counters();
    current_kernel = -1;
  }

  // The record's slot in result.pcs, created on first sight. A tracer writes
  // an instruction's records for many warps in a row: the last one is reused
  // without a hash lookup.
  std::size_t pc_slot(const WarpAccess& rec) {
    const PcKey key{rec.kernel, rec.pc};
    if (key == last_pc_key && last_pc_slot < pcs.size()) return last_pc_slot;
    auto [it, fresh] = pc_index.try_emplace(key, pcs.size());
    if (fresh) {
      PcCounters p;
      p.kernel = rec.kernel;
      p.pc = rec.pc;
      p.space = rec.space;
      p.op = rec.op;
      p.size = rec.size;
      pcs.push_back(p);
    }
    last_pc_key = key;
    last_pc_slot = it->second;
    return it->second;
  }

  // One record, in the order the SMs would issue it.
  void process(const WarpAccess& rec) {
    if (static_cast<std::int64_t>(rec.kernel) != current_kernel) {
      close_kernel();
      KernelResult& k = result.kernels[kernel_slot[rec.kernel] - 1];
      // The driver picks the carveout from the launch's shape (7.0+).
      if (k.info.block.count() > 0) memory->begin_kernel(launch_of(k.info));
      else memory->begin_kernel();
      k.l1_bytes = memory->l1_size();
      k.shared_capacity = memory->shared_capacity();
      current_kernel = rec.kernel;
    }
    const int sms = memory->num_sms();
    const int sm = rec.sm >= 0 ? rec.sm % sms : place_cta(rec.cta, sms);
    PcCounters& pc = pcs[pc_slot(rec)];
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
      blocks = compute_occupancy(arch, launch_of(k)).blocks_per_sm;
    } catch (const InputError&) {
      // recorded on another GPU with limits this one does not have: one block per SM
      blocks = 1;
    }
  }
  return static_cast<std::uint64_t>(std::max(blocks, 1)) * static_cast<std::uint64_t>(sms);
}

// A stretch of selected records for every architecture's run, and the kernels
// that start in it.
struct Batch {
  struct KernelStart {
    std::size_t at = 0;  // index of the kernel's first record in recs
    KernelInfo info;
    bool has_sm = false;  // its first record carries an SM id
  };
  std::vector<WarpAccess> recs;
  std::vector<KernelStart> starts;
};
constexpr std::size_t kBatchRecords = 4096;

// A new kernel on one run: the previous kernel's buffered warps go out, and
// warps are interleaved per wave of this architecture's co-resident CTAs.
void start_kernel(ArchRun& r, const Batch::KernelStart& k, bool interleave) {
  const std::uint32_t id = k.info.id;
  if (r.kernel_slot.size() <= id) r.kernel_slot.resize(id + 1u, 0);
  if (r.kernel_slot[id] == 0) {  // first seen: a result, in order of first appearance
    KernelResult kr;
    kr.info = k.info;
    r.result.kernels.push_back(std::move(kr));
    r.kernel_slot[id] = r.result.kernels.size();
  }
  if (r.interleaver) r.interleaver->flush();
  r.interleaver.reset();
  r.close_kernel();  // also when the same kernel resumes: a launch of its own
  if (interleave && !k.has_sm) {
    ArchRun* run = &r;
    r.interleaver = std::make_unique<WarpInterleaver>(wave_ctas(*r.arch, k.info, r.memory->num_sms()),
                                                      [run](const WarpAccess& x) { run->process(x); });
  }
}

void run_batch(ArchRun& r, const Batch& b, bool interleave) {
  std::size_t next_start = 0;
  for (std::size_t i = 0; i < b.recs.size(); ++i) {
    while (next_start < b.starts.size() && b.starts[next_start].at == i) start_kernel(r, b.starts[next_start++], interleave);
    if (r.interleaver) r.interleaver->push(b.recs[i]);
    else r.process(b.recs[i]);
  }
}

// Threads that each replay the batches through some of the runs (round robin
// over the architectures), fed through bounded queues so that memory stays
// bounded whatever the trace size. Results do not depend on the thread count:
// each run sees the same records in the same order.
class RunWorkers {
 public:
  RunWorkers(std::vector<std::unique_ptr<ArchRun>>& runs, int threads, bool interleave) : interleave_(interleave) {
    for (int t = 0; t < threads; ++t) workers_.emplace_back();  // deque: workers never move
    for (std::size_t i = 0; i < runs.size(); ++i) workers_[i % workers_.size()].runs.push_back(runs[i].get());
    for (auto& w : workers_) w.thread = std::thread([this, &w] { work(w); });
  }
  RunWorkers(const RunWorkers&) = delete;
  RunWorkers& operator=(const RunWorkers&) = delete;
  ~RunWorkers() { stop(); }  // an error on the reading side: end quietly

  void push(std::shared_ptr<const Batch> b) {
    for (auto& w : workers_) {
      std::unique_lock lock(w.mutex);
      w.room.wait(lock, [&] { return w.queue.size() < kQueued; });
      w.queue.push_back(b);
      w.ready.notify_one();
    }
  }
  // Ends the stream, waits for every worker; rethrows the first error of the
  // first architecture that failed.
  void finish() {
    stop();
    for (auto& w : workers_)
      if (w.error) std::rethrow_exception(w.error);
  }

 private:
  void stop() {
    if (stopped_) return;
    stopped_ = true;
    for (auto& w : workers_) {
      std::lock_guard lock(w.mutex);
      w.queue.push_back(nullptr);  // past the bound: the end marker never waits
      w.ready.notify_one();
    }
    for (auto& w : workers_) w.thread.join();
  }

  static constexpr std::size_t kQueued = 4;
  struct Worker {
    std::vector<ArchRun*> runs;
    std::thread thread;
    std::mutex mutex;
    std::condition_variable ready, room;
    std::deque<std::shared_ptr<const Batch>> queue;
    std::exception_ptr error;
  };

  void work(Worker& w) {
    for (;;) {
      std::shared_ptr<const Batch> b;
      {
        std::unique_lock lock(w.mutex);
        w.ready.wait(lock, [&] { return !w.queue.empty(); });
        b = std::move(w.queue.front());
        w.queue.pop_front();
        w.room.notify_one();
      }
      if (!b) return;
      if (w.error) continue;  // drain after a failure; the reader stops at finish()
      try {
        for (ArchRun* r : w.runs) run_batch(*r, *b, interleave_);
      } catch (...) {
        w.error = std::current_exception();
      }
    }
  }

  bool interleave_;
  bool stopped_ = false;
  std::deque<Worker> workers_;
};

}  // namespace

bool l2_threads(const AnalyzeOptions& options, std::size_t archs) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t total = options.threads > 0 ? static_cast<std::size_t>(options.threads) : cores;
  return options.threads != 1 && total >= 2 * std::max<std::size_t>(archs, 1);
}

int analyze_threads(const AnalyzeOptions& options, std::size_t archs) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // One architecture stays on the reading thread: a model thread beside it
  // measured no faster (the trace's decoding workers already run apart).
  if (archs < 2 || options.threads == 1 || (options.threads == 0 && cores < 2)) return 0;
  const std::size_t want = options.threads > 0 ? static_cast<std::size_t>(options.threads) : cores;
  return static_cast<int>(std::max<std::size_t>(1, std::min(want, archs)));
}

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
    r->memory->set_l2_thread(l2_threads(options, archs.size()));
    runs.push_back(std::move(r));
  }
  const int threads = analyze_threads(options, runs.size());
  std::unique_ptr<RunWorkers> workers;
  if (threads > 0) workers = std::make_unique<RunWorkers>(runs, threads, options.interleave_warps);

  AnalyzeResult out;
  // Runs of consecutive records of one kernel, over every record read (the
  // selected or not), so that --kernel replays a kernel as a full pass does.
  std::int64_t previous_kernel = -1;
  std::vector<std::int8_t> selected;  // per trace kernel id: -1 unknown, 0 no, 1 yes
  std::vector<std::uint8_t> ran;      // per trace kernel id: 1 once another kernel's records followed its own, 2 reported
  std::uint64_t next_progress = 0;
  auto batch = std::make_shared<Batch>();
  batch->recs.reserve(kBatchRecords);
  // One thread: the runs take each batch in turn; several: the workers do.
  auto hand_over = [&] {
    if (batch->recs.empty()) return;
    if (workers) {
      workers->push(std::move(batch));
      batch = std::make_shared<Batch>();
      batch->recs.reserve(kBatchRecords);
    } else {
      for (auto& r : runs) run_batch(*r, *batch, options.interleave_warps);
      batch->recs.clear();
      batch->starts.clear();
    }
  };
  // Records come by the chunk (next_batch, no copy); each is expanded to the
  // WarpAccess the memory system takes only once its kernel is selected.
  for (auto in = trace.next_batch(); !in.empty(); in = trace.next_batch()) {
    out.records_read += in.size();
    if (progress && trace.bytes_read() >= next_progress) {
      progress(trace.bytes_read(), trace.file_size());
      next_progress = trace.bytes_read() + (1u << 22);
    }
    std::uint64_t index = out.records_read - in.size();
    for (const PackedAccess& packed : in) {
      const std::uint64_t at = index++;
      if (packed.kernel >= selected.size()) {
        selected.resize(packed.kernel + 1u, -1);
        ran.resize(packed.kernel + 1u, 0);
      }
      const bool run_starts = static_cast<std::int64_t>(packed.kernel) != previous_kernel;
      bool resumes = false;
      if (run_starts) {
        if (previous_kernel >= 0 && ran[static_cast<std::size_t>(previous_kernel)] == 0)
          ran[static_cast<std::size_t>(previous_kernel)] = 1;
        resumes = ran[packed.kernel] == 1;  // 2: reported already
        previous_kernel = packed.kernel;
      }
      const KernelInfo* info = selected[packed.kernel] < 0 || run_starts ? trace.kernel(packed.kernel) : nullptr;
      if (selected[packed.kernel] < 0) {
        const bool take = !options.kernel_filter || (info && std::regex_search(info->name, *options.kernel_filter));
        selected[packed.kernel] = take ? 1 : 0;
      }
      if (selected[packed.kernel] == 0) continue;
      ++out.records_analyzed;
      if (resumes) {
        out.resumed.push_back({packed.kernel, at});
        ran[packed.kernel] = 2;  // reported
      }
      if (run_starts) {
        Batch::KernelStart k;
        k.at = batch->recs.size();
        if (info) k.info = *info;
        k.info.id = packed.kernel;
        k.has_sm = packed.sm >= 0;
        batch->starts.push_back(std::move(k));
      }
      packed.expand(batch->recs.emplace_back());
      if (batch->recs.size() >= kBatchRecords) hand_over();
    }
  }
  hand_over();
  if (workers) workers->finish();
  for (auto& r : runs) {
    if (r->interleaver) r->interleaver->flush();
    r->close_kernel();
    r->result.pcs.assign(std::make_move_iterator(r->pcs.begin()), std::make_move_iterator(r->pcs.end()));
    out.archs.push_back(std::move(r->result));
  }
  if (progress) progress(trace.bytes_read(), trace.file_size());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace warpscope
