// One pass over a trace through the memory systems of several architectures
// side by side: per-kernel and per-instruction (PC) counters for each.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/counters.hpp"
#include "warpscope/memory_system.hpp"
#include "warpscope/trace.hpp"

namespace warpscope {

// Atomic operations by kernel name (mangled and demangled) and PC: from a SASS
// listing (atomic_tables_from_sass) for traces that do not record them.
using AtomicTables = std::map<std::string, std::map<std::uint64_t, AtomicOp>, std::less<>>;
// Bytes of each kernel's code by name (mangled and demangled): from a SASS listing (code_sizes_from_sass).
using CodeSizes = std::map<std::string, std::uint64_t, std::less<>>;
// PCs of each kernel's generic-address loads and stores (SASS LD / ST) by name (mangled and demangled).
using GenericPcTables = std::map<std::string, std::set<std::uint64_t>, std::less<>>;

struct AnalyzeOptions {
  std::optional<std::regex> kernel_filter;  // kernels whose name matches (search)
  std::string kernel_pattern;               // the text of the filter, for reports
  MemoryConfig memory;                      // applied to every architecture
  bool flush_dirty_at_kernel_end = false;   // count L2 write-backs of what stays dirty
  // Replay the warps of each wave of co-resident CTAs round robin (hardware issue
  // order) instead of in trace order; traces with SM ids are taken as they are.
  bool interleave_warps = true;
  // Threads that replay the records through the architectures' memory systems
  // while the reading thread reads and expands the next ones, when there are
  // several architectures: 0 = one per architecture, up to the cores (none on
  // a single core); 1 = everything on the reading thread; N = at most N. With
  // at least two per architecture (N, or the cores for 0), each memory system
  // also runs its L2 side on a thread of its own (l2_threads); with at least
  // four, a trace's launches are shared over copies of each model (lanes,
  // analyze_lanes). The results do not depend on it.
  int threads = 0;
  // For a kernel whose trace names no atomic operation (KernelInfo::atomics empty): its table
  // here, found by the kernel's name.
  AtomicTables atomics_by_kernel;
  // Each kernel's code size, found by its name: where the architecture models a launch's own DRAM
  // reads (launch.dram_read_bytes, memory/launch_reads.hpp), they are added to the kernel's
  // dram.read_bytes. Kernels not found here get none.
  CodeSizes code_bytes_by_kernel;
  // For a kernel whose trace names no generic-address load or store (KernelInfo::generic_pcs empty):
  // its PCs here, found by the kernel's name.
  GenericPcTables generic_pcs_by_kernel;
};

// The atomic operations of every function of a SASS listing (nvdisasm -c or cuobjdump -sass),
// each under its mangled and its demangled name. Throws InputError for a malformed listing.
AtomicTables atomic_tables_from_sass(std::string_view listing);
// The code size of every function of a SASS listing, under its mangled and its demangled name.
CodeSizes code_sizes_from_sass(std::string_view listing);
// Each of these from one reading of a listing: options.atomics_by_kernel, options.code_bytes_by_kernel
// and options.generic_pcs_by_kernel
// (analyze --sass, validate's <app>.sass). Throws InputError for a malformed listing.
void take_from_sass(std::string_view listing, AnalyzeOptions& options);

// Counters of one instruction (kernel, PC) on one architecture.
struct PcCounters {
  std::uint32_t kernel = 0;
  std::uint64_t pc = 0;
  Space space = Space::Global;
  Op op = Op::Load;
  AtomicOp atomic_op = AtomicOp::Unknown;  // atomics: the operation the trace (or --sass) names
  std::uint8_t size = 0;
  Counters counters;
  std::uint64_t executions = 0;
  std::uint64_t bytes_needed = 0, bytes_moved = 0;  // rules engine, summed over executions
  std::uint64_t bytes_wasted() const { return bytes_moved > bytes_needed ? bytes_moved - bytes_needed : 0; }
  // The instruction's first execution in trace order, as recorded: what the
  // HTML report draws (one record per instruction, not per execution).
  WarpAccess first;
};

// Indices of `pcs` by bytes wasted, most first, ties in the order the
// instructions first ran; at most `top` of them. The analyze tables, JSON and
// HTML report all rank this way.
std::vector<std::size_t> rank_by_bytes_wasted(const std::vector<PcCounters>& pcs, std::size_t top);

struct KernelResult {
  KernelInfo info;
  std::uint64_t records = 0;
  std::int64_t l1_bytes = 0;         // L1 per SM the kernel ran with (the carveout's remainder on 7.0+)
  std::int64_t shared_capacity = 0;  // the shared part of a unified L1/shared array (0: separate)
  std::uint64_t code_bytes = 0;      // the kernel's code size: the trace's, else AnalyzeOptions' (0: unknown)
  // The launch's own DRAM reads (memory/launch_reads.hpp), included in counters.dram_read_bytes
  // and in no instruction's.
  std::uint64_t launch_dram_read_bytes = 0;
  Counters counters;  // kernel totals
};

struct ArchResult {
  const ArchSpec* arch = nullptr;
  std::string memory_description;     // effective configuration
  std::vector<KernelResult> kernels;  // in trace order, filtered
  std::vector<PcCounters> pcs;        // every (kernel, PC) seen
};

// A kernel whose records go on after another kernel's (concurrent launches
// recorded interleaved): each run of its consecutive records is replayed as a
// launch of its own, from empty caches, and its counters are their sum.
struct ResumedKernel {
  std::uint32_t kernel = 0;
  std::uint64_t record = 0;  // index in the trace of its first record that resumes
};

struct AnalyzeResult {
  std::vector<ArchResult> archs;
  std::uint64_t records_read = 0, records_analyzed = 0;
  // Analysed atomics and reductions whose operation neither the trace nor atomics_by_kernel names.
  std::uint64_t atomics_without_operation = 0;
  std::vector<ResumedKernel> resumed;  // selected kernels only, the first time each resumes
  double seconds = 0;
};

// Progress callback: bytes read so far, total bytes (0 if unknown).
using ProgressFn = std::function<void(std::uint64_t, std::uint64_t)>;

AnalyzeResult analyze_trace(TraceSource& trace, const std::vector<const ArchSpec*>& archs,
                            const AnalyzeOptions& options, const ProgressFn& progress = {});

// The model threads analyze_trace starts for `archs` architectures (0: the
// models run on the reading thread).
int analyze_threads(const AnalyzeOptions& options, std::size_t archs);
// Whether each architecture's memory system also runs its L2 side on a thread
// of its own (MemorySystem::set_l2_thread): when there are two threads per
// architecture to spare.
bool l2_threads(const AnalyzeOptions& options, std::size_t archs);
// Copies of each architecture's model (lanes) that replay a trace's launches
// side by side: run r of consecutive records of one kernel goes to lane
// r mod lanes. Exact because every launch starts from empty caches
// (tests/memory/kernel_independence_test.cpp). One lane per two threads per
// architecture (its model and the model's L2 side), at most kMaxLanes lanes
// and kMaxModels models in all (memory: ~35 MB per H100 model).
inline constexpr std::size_t kMaxLanes = 8, kMaxModels = 16;
int analyze_lanes(const AnalyzeOptions& options, std::size_t archs);

// CTA -> SM when the trace carries no SM id: round robin over the SMs, the
// order in which the block scheduler hands out the first wave.
inline int place_cta(std::uint32_t cta, int num_sms) { return static_cast<int>(cta % static_cast<std::uint32_t>(num_sms)); }

}  // namespace warpscope
