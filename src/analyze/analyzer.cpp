#include "analyze/analyzer.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "analyze/generic_instructions.hpp"
#include "analyze/interleaver.hpp"
#include "analyze/kept_record.hpp"
#include "memory/launch_reads.hpp"
#include "tracer/demangle.hpp"
#include "tracer/sass_listing.hpp"
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

// One copy of an architecture's model during the pass (a lane): the runs of
// consecutive records it was handed, in trace order. With several lanes each
// has some of the runs; a run's counters do not depend on the runs before it
// (caches start empty at every launch), and merge_lanes puts them together.
struct ArchRun {
  const ArchSpec* arch = nullptr;
  MemoryConfig config;
  bool l2_thread = false;
  std::uint64_t run = 0;                 // the run being replayed (its index in the trace)
  std::vector<std::uint64_t> first_run;  // per result.kernels[]: the run that created it
  std::vector<std::uint64_t> pc_run;     // per pcs[]: the run that created it
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

  // Lanes other than the first build their model when their first run comes
  // (~12 ms and ~24 MB for sm_90), so short traces do not pay for idle lanes.
  void build_memory() {
    if (memory) return;
    memory = std::make_unique<MemorySystem>(*arch, config);
    memory->set_l2_thread(l2_thread);
  }

  void close_kernel() {
    if (current_kernel < 0) return;
    memory->end_kernel(flush_dirty);
    KernelResult& k = result.kernels[kernel_slot[static_cast<std::size_t>(current_kernel)] - 1];
    Counters counters = memory->kernel_counters();
    // Generic loads and stores: this run's instructions move to op_generic (generic_instructions.hpp).
    if (arch->cc_major >= 7)
      for (const std::uint64_t pc : k.info.generic_pcs)
        if (const auto it = pc_index.find(PcKey{static_cast<std::uint32_t>(current_kernel), pc}); it != pc_index.end())
          count_as_generic(pcs[it->second].counters, counters, pcs[it->second].op);
    k.counters.add(counters);
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
      pc_run.push_back(run);
      PcCounters p;
      p.kernel = rec.kernel;
      p.pc = rec.pc;
      p.space = rec.space;
      p.op = rec.op;
      p.atomic_op = rec.atomic_op;
      p.size = rec.size;
      p.first = rec;
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
    // A cp.async is two records (its read, then its write), a tensor copy one a row: each executed once.
    if (counts_execution(rec)) ++pc.executions;
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
    std::uint64_t run = 0;  // runs of consecutive records of one kernel, counted over the trace
    KernelInfo info;
    bool has_sm = false;  // its first record carries an SM id
  };
  // Records in their compact form (a fifth of a WarpAccess for evenly spaced
  // warps): each model expands them as it goes.
  std::vector<PackedAccess> recs;
  ChunkedBuffer<std::uint64_t> lanes;  // the lanes of records not evenly spaced
  std::vector<KernelStart> starts;

  Batch();
  void add(const PackedAccess& rec) { recs.push_back(keep_record(rec, lanes)); }
  void clear() {
    recs.clear();
    lanes.clear();
    starts.clear();
  }
};
constexpr std::size_t kBatchRecords = 4096;
Batch::Batch() { recs.reserve(kBatchRecords); }

// A new kernel on one run: the previous kernel's buffered warps go out, and
// warps are interleaved per wave of this architecture's co-resident CTAs.
void start_kernel(ArchRun& r, const Batch::KernelStart& k, bool interleave) {
  const std::uint32_t id = k.info.id;
  if (r.kernel_slot.size() <= id) r.kernel_slot.resize(id + 1u, 0);
  if (r.interleaver) r.interleaver->flush();
  r.interleaver.reset();
  r.close_kernel();  // also when the same kernel resumes: a launch of its own
  r.build_memory();
  r.run = k.run;
  if (r.kernel_slot[id] == 0) {  // first seen: a result, in order of first appearance
    KernelResult kr;
    kr.info = k.info;
    r.result.kernels.push_back(std::move(kr));
    r.first_run.push_back(k.run);
    r.kernel_slot[id] = r.result.kernels.size();
  }
  if (interleave && !k.has_sm) {
    ArchRun* run = &r;
    r.interleaver = std::make_unique<WarpInterleaver>(wave_ctas(*r.arch, k.info, r.memory->num_sms()),
                                                      [run](const WarpAccess& x) { run->process(x); });
  }
}

void run_batch(ArchRun& r, const Batch& b, bool interleave) {
  std::size_t next_start = 0;
  WarpAccess rec;
  for (std::size_t i = 0; i < b.recs.size(); ++i) {
    while (next_start < b.starts.size() && b.starts[next_start].at == i) start_kernel(r, b.starts[next_start++], interleave);
    if (r.interleaver) {
      r.interleaver->push(b.recs[i]);  // expanded when the interleaver replays it
      continue;
    }
    b.recs[i].expand(rec);
    r.process(rec);
  }
}

// Threads that each replay the batches of one lane through some of its
// architectures' models (round robin over the architectures), fed through
// bounded queues so that memory stays bounded whatever the trace size. Results
// do not depend on the thread count: each model sees the same records in the
// same order.
class RunWorkers {
 public:
  // lanes[j]: lane j's model of each architecture; `threads` workers per lane.
  RunWorkers(const std::vector<std::vector<ArchRun*>>& lanes, int threads, bool interleave) : interleave_(interleave) {
    for (std::size_t j = 0; j < lanes.size(); ++j) {
      const std::size_t first = workers_.size();
      for (int t = 0; t < threads; ++t) workers_.emplace_back().lane = j;  // deque: workers never move
      for (std::size_t a = 0; a < lanes[j].size(); ++a)
        workers_[first + a % static_cast<std::size_t>(threads)].runs.push_back(lanes[j][a]);
    }
    for (auto& w : workers_) w.thread = std::thread([this, &w] { work(w); });
  }
  RunWorkers(const RunWorkers&) = delete;
  RunWorkers& operator=(const RunWorkers&) = delete;
  ~RunWorkers() { stop(); }  // an error on the reading side: end quietly

  void push(std::size_t lane, std::shared_ptr<const Batch> b) {
    for (auto& w : workers_) {
      if (w.lane != lane) continue;
      std::unique_lock lock(w.mutex);
      w.room.wait(lock, [&] { return w.queue.size() < kQueued; });
      w.queue.push_back(b);
      w.ready.notify_one();
    }
  }
  // Ends the stream, waits for every worker; rethrows the error of the
  // earliest run that failed (of the first of its workers).
  void finish() {
    stop();
    const Worker* first = nullptr;
    for (const auto& w : workers_)
      if (w.error && (!first || w.error_run < first->error_run)) first = &w;
    if (first) std::rethrow_exception(first->error);
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
    std::size_t lane = 0;
    std::vector<ArchRun*> runs;
    std::uint64_t error_run = 0;
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
      for (ArchRun* r : w.runs) try {
          run_batch(*r, *b, interleave_);
        } catch (...) {
          w.error = std::current_exception();
          w.error_run = r->run;
          break;
        }
    }
  }

  bool interleave_;
  bool stopped_ = false;
  std::deque<Worker> workers_;
};

// One architecture's result from its lanes: each kernel's and instruction's
// counters summed, kernels and instructions in the order of the run that
// first had them, as one lane replaying every run would give them.
ArchResult merge_lanes(const std::vector<ArchRun*>& lanes) {
  if (lanes.size() == 1) return std::move(lanes.front()->result);
  ArchResult out;
  out.arch = lanes.front()->result.arch;
  out.memory_description = lanes.front()->result.memory_description;
  struct Entry {
    std::uint64_t run;
    std::size_t lane, index;
  };
  auto in_run_order = [](std::vector<Entry>& v) {
    std::stable_sort(v.begin(), v.end(), [](const Entry& a, const Entry& b) { return a.run < b.run; });
  };
  std::vector<Entry> kernels, pcs;
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    for (std::size_t i = 0; i < lanes[l]->first_run.size(); ++i) kernels.push_back({lanes[l]->first_run[i], l, i});
    for (std::size_t i = 0; i < lanes[l]->pc_run.size(); ++i) pcs.push_back({lanes[l]->pc_run[i], l, i});
  }
  in_run_order(kernels);
  in_run_order(pcs);
  std::unordered_map<std::uint32_t, std::size_t> kernel_at;
  for (const Entry& e : kernels) {
    KernelResult& k = lanes[e.lane]->result.kernels[e.index];
    const auto [it, fresh] = kernel_at.try_emplace(k.info.id, out.kernels.size());
    if (fresh) {
      out.kernels.push_back(std::move(k));
      continue;
    }
    KernelResult& into = out.kernels[it->second];
    into.records += k.records;
    into.counters.add(k.counters);
  }
  std::unordered_map<PcKey, std::size_t, PcKeyHash> pc_at;
  for (const Entry& e : pcs) {
    PcCounters& p = lanes[e.lane]->result.pcs[e.index];
    const auto [it, fresh] = pc_at.try_emplace(PcKey{p.kernel, p.pc}, out.pcs.size());
    if (fresh) {
      out.pcs.push_back(std::move(p));
      continue;
    }
    PcCounters& into = out.pcs[it->second];
    into.counters.add(p.counters);
    into.executions += p.executions;
    into.bytes_needed += p.bytes_needed;
    into.bytes_moved += p.bytes_moved;
  }
  return out;
}

}  // namespace

namespace {

// The threads the models may use: --threads, or the cores for 0.
std::size_t thread_budget(const AnalyzeOptions& options) {
  return options.threads > 0 ? static_cast<std::size_t>(options.threads)
                             : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

std::vector<std::size_t> rank_by_bytes_wasted(const std::vector<PcCounters>& pcs, std::size_t top) {
  std::vector<std::size_t> order(pcs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return pcs[a].bytes_wasted() > pcs[b].bytes_wasted(); });
  if (order.size() > top) order.resize(top);
  return order;
}

int analyze_lanes(const AnalyzeOptions& options, std::size_t archs) {
  // A lane takes two threads per architecture: its model and the model's L2
  // side; at most kMaxModels models in all (~35 MB each for the H100).
  const std::size_t a = std::max<std::size_t>(archs, 1);
  return static_cast<int>(std::clamp<std::size_t>(std::min(thread_budget(options) / (2 * a), kMaxModels / a), 1, kMaxLanes));
}

bool l2_threads(const AnalyzeOptions& options, std::size_t archs) {
  return thread_budget(options) >= 2 * std::max<std::size_t>(archs, 1);
}

int analyze_threads(const AnalyzeOptions& options, std::size_t archs) {
  // One architecture stays on the reading thread: a model thread beside it
  // measured no faster (the trace's decoding workers already run apart).
  const std::size_t budget = thread_budget(options);
  if (archs < 2 || budget < 2) return 0;
  return static_cast<int>(std::min(budget, archs));
}

AnalyzeResult analyze_trace(TraceSource& trace, const std::vector<const ArchSpec*>& archs,
                            const AnalyzeOptions& options, const ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  const auto lanes = static_cast<std::size_t>(analyze_lanes(options, archs.size()));
  std::vector<std::unique_ptr<ArchRun>> runs;  // lane-major: lane j's model of architecture a at j * archs + a
  std::vector<std::vector<ArchRun*>> by_lane(lanes);
  const bool l2_thread = l2_threads(options, archs.size());
  for (std::size_t j = 0; j < lanes; ++j)
    for (const ArchSpec* a : archs) {
      auto r = std::make_unique<ArchRun>();
      r->arch = a;
      r->config = options.memory;
      r->l2_thread = l2_thread;
      r->result.arch = a;
      if (j == 0) {
        r->build_memory();
        r->result.memory_description = r->memory->describe();
      }
      r->flush_dirty = options.flush_dirty_at_kernel_end;
      by_lane[j].push_back(r.get());
      runs.push_back(std::move(r));
    }
  // Several lanes: a worker per model; one: as analyze_threads says.
  const int threads = lanes > 1 ? static_cast<int>(archs.size()) : analyze_threads(options, archs.size());
  std::unique_ptr<RunWorkers> workers;
  if (threads > 0) workers = std::make_unique<RunWorkers>(by_lane, threads, options.interleave_warps);

  AnalyzeResult out;
  // Runs of consecutive records of one kernel, over every record read (the
  // selected or not), so that --kernel replays a kernel as a full pass does.
  std::int64_t previous_kernel = -1;
  std::vector<std::int8_t> selected;  // per trace kernel id: -1 unknown, 0 no, 1 yes
  std::vector<std::uint8_t> ran;      // per trace kernel id: 1 once another kernel's records followed its own, 2 reported
  std::uint64_t next_progress = 0;
  std::uint64_t run_count = 0;  // runs of the selected kernels so far; run r goes to lane r mod lanes
  std::vector<std::shared_ptr<Batch>> batches(lanes);
  for (auto& b : batches) b = std::make_shared<Batch>();
  std::size_t lane = 0;  // of the current run
  std::map<std::uint64_t, AtomicOp> atomics;  // of the current run's kernel
  // One thread: the runs take each batch in turn; several: the workers do.
  auto hand_over = [&](std::size_t j) {
    std::shared_ptr<Batch>& batch = batches[j];
    if (batch->recs.empty()) return;
    if (workers) {
      workers->push(j, std::move(batch));
      batch = std::make_shared<Batch>();
    } else {
      for (ArchRun* r : by_lane[j]) run_batch(*r, *batch, options.interleave_warps);
      batch->clear();
    }
  };
  // Records come by the chunk (next_batch, no copy); a selected kernel's are
  // kept compact in the batch, and each model expands them to the WarpAccess
  // the memory system takes.
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
        lane = run_count % lanes;
        Batch::KernelStart k;
        k.run = run_count++;
        k.at = batches[lane]->recs.size();
        if (info) k.info = *info;
        k.info.id = packed.kernel;
        k.has_sm = packed.sm >= 0;
        atomics = k.info.atomics;
        if (k.info.generic_pcs.empty())
          if (auto it = options.generic_pcs_by_kernel.find(k.info.name); it != options.generic_pcs_by_kernel.end())
            k.info.generic_pcs = it->second;
        if (atomics.empty() && !options.atomics_by_kernel.empty())
          if (auto it = options.atomics_by_kernel.find(k.info.name); it != options.atomics_by_kernel.end())
            atomics = it->second;
        batches[lane]->starts.push_back(std::move(k));
      }
      if (packed.op == Op::Atomic || packed.op == Op::Reduction) {
        // The trace names an atomic's operation per PC (KernelInfo::atomics); the record carries it to the model.
        PackedAccess with_op = packed;
        if (auto it = atomics.find(packed.pc); it != atomics.end()) with_op.atomic_op = it->second;
        if (with_op.atomic_op == AtomicOp::Unknown) ++out.atomics_without_operation;
        batches[lane]->add(with_op);
      } else {
        batches[lane]->add(packed);
      }
      if (batches[lane]->recs.size() >= kBatchRecords) hand_over(lane);
    }
  }
  for (std::size_t j = 0; j < lanes; ++j) hand_over(j);
  if (workers) workers->finish();
  for (auto& r : runs) {
    if (r->interleaver) r->interleaver->flush();
    r->close_kernel();
    r->result.pcs.assign(std::make_move_iterator(r->pcs.begin()), std::make_move_iterator(r->pcs.end()));
  }
  for (std::size_t a = 0; a < archs.size(); ++a) {
    std::vector<ArchRun*> of_arch;
    for (std::size_t j = 0; j < lanes; ++j) of_arch.push_back(by_lane[j][a]);
    out.archs.push_back(merge_lanes(of_arch));
    // Once per launch, however many runs of records it had. The size the
    // trace recorded comes first, as its atomics do; a listing fills the rest.
    for (KernelResult& k : out.archs.back().kernels) {
      k.code_bytes = k.info.code_bytes;
      if (k.code_bytes == 0)
        if (const auto code = options.code_bytes_by_kernel.find(k.info.name); code != options.code_bytes_by_kernel.end())
          k.code_bytes = code->second;
      if (k.code_bytes == 0) continue;
      k.launch_dram_read_bytes = memory::launch_dram_read_bytes(*archs[a], k.code_bytes);
      k.counters.dram_read_bytes += k.launch_dram_read_bytes;
    }
  }
  if (progress) progress(trace.bytes_read(), trace.file_size());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

namespace {

CodeSizes code_sizes_of(const tracer::SassListing& listing) {
  CodeSizes out;
  for (const auto& [name, function] : listing.functions) {
    if (function.code_bytes == 0) continue;
    out[tracer::demangle(name)] = function.code_bytes;
    out[name] = function.code_bytes;
  }
  return out;
}

AtomicTables atomic_tables_of(const tracer::SassListing& listing) {
  AtomicTables out;
  for (const auto& [name, function] : listing.functions) {
    std::map<std::uint64_t, AtomicOp> table;
    for (const auto& [offset, ins] : function.memory)
      if (ins.atomic_op != AtomicOp::Unknown) table.emplace(offset, ins.atomic_op);
    if (table.empty()) continue;
    out[tracer::demangle(name)] = table;
    out[name] = std::move(table);
  }
  return out;
}

GenericPcTables generic_tables_of(const tracer::SassListing& listing) {
  GenericPcTables out;
  for (const auto& [name, function] : listing.functions) {
    std::set<std::uint64_t> pcs;
    for (const auto& [offset, ins] : function.memory)
      if (ins.generic && counted_as_generic(ins.op)) pcs.insert(offset);
    if (pcs.empty()) continue;
    out[tracer::demangle(name)] = pcs;
    out[name] = std::move(pcs);
  }
  return out;
}

}  // namespace

CodeSizes code_sizes_from_sass(std::string_view listing) { return code_sizes_of(tracer::parse_sass_listing(listing)); }

AtomicTables atomic_tables_from_sass(std::string_view listing) {
  return atomic_tables_of(tracer::parse_sass_listing(listing));
}

void take_from_sass(std::string_view listing, AnalyzeOptions& options) {
  const tracer::SassListing parsed = tracer::parse_sass_listing(listing);
  options.atomics_by_kernel = atomic_tables_of(parsed);
  options.code_bytes_by_kernel = code_sizes_of(parsed);
  options.generic_pcs_by_kernel = generic_tables_of(parsed);
}

}  // namespace warpscope
