// The interpreter's state (interpreter.hpp's Impl), shared by interpreter.cpp (scheduling, control flow,
// memory) and warp_alu.cpp (the per-lane arithmetic): warps, their frames and SIMT stacks, CTAs.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ptx/alu.hpp"
#include "ptx/interpreter.hpp"
#include "ptx/ptx_error.hpp"
#include "ptx/reconvergence.hpp"
#include "tracer/demangle.hpp"

namespace warpscope::ptx {
namespace detail {

inline int halves_of(Type t) { return (t == Type::F16x2 || t == Type::BF16x2) ? 2 : 1; }

using alu::as_signed;
using alu::as_unsigned;
using alu::f32;
using alu::f64;
using alu::trunc;

struct SimtEntry {
  std::uint32_t pc = 0, rpc = kNoReconvergence, mask = 0;
};

struct Frame {
  std::uint32_t fn = 0;
  std::vector<std::uint64_t> regs;   // [register * 32 + lane]
  std::vector<std::uint8_t> params;  // [lane * param_bytes + offset]
  std::vector<SimtEntry> stack;
  std::uint64_t local_base = 0;  // this frame's .local variables in each thread's local memory
  std::uint32_t call_pc = 0;     // in the caller: the call instruction
  std::uint32_t entered = 0;     // lanes that entered
};

// An mbarrier object (PTX ISA 9.7.13.15.1): the phase under way, the arrivals it still expects, the count
// each new phase starts from, and the transaction bytes still owed (negative while completions lead).
struct MBarrier {
  std::uint64_t phase = 0;
  std::uint32_t expected = 0, pending = 0;
  std::int64_t tx = 0;
};

struct Warp {
  std::uint32_t index = 0;
  std::uint32_t exited = 0;
  std::vector<Frame> frames;
  bool waiting = false;  // at a barrier
  bool done = false;
  bool yielded = false;  // an mbarrier wait found its phase incomplete: let the other warps run
  std::int32_t bar_dest = -1;  // bar.red: the register the result goes to on release
  BarMode bar_mode = BarMode::Sync;
  std::uint32_t bar_id = 0, bar_count = 0;  // bar.sync id, count: the named barrier it waits at (count 0: the CTA's)
  bool cluster_wait = false;           // waiting at barrier.cluster.wait (waiting is set too)
  std::uint64_t cluster_arrived = 0;   // barrier.cluster.arrive: 1 + the cluster barrier phase it arrived in (0: none)
};

struct Cta {
  std::uint64_t linear = 0;
  std::uint32_t x = 0, y = 0, z = 0;
  std::uint32_t rank = 0;  // in its cluster (%cluster_ctarank)
  std::vector<std::uint8_t> shared;
  std::vector<std::uint8_t> local;  // threads x local bytes
  std::vector<Warp> warps;
  std::size_t current = 0;  // the warp running
  std::uint64_t bar_popc = 0;
  bool bar_and = true, bar_or = false;
  // mbarrier objects by shared-memory offset (warp_mbarrier.cpp). Every change bumps mbar_changes; waits
  // that fail with no change since the last failure count in idle_waits, which ends a deadlocked CTA.
  std::unordered_map<std::uint64_t, MBarrier> mbarriers;
  // Threads that arrived (bar.arrive) at each named barrier of a thread count since it last opened.
  std::unordered_map<std::uint32_t, std::uint32_t> bar_arrived;
  std::uint64_t mbar_changes = 0, changes_at_last_wait = 0, idle_waits = 0;
};

}  // namespace detail

using namespace detail;

struct Interpreter::Impl {
  ModuleState& state;
  const Module& m;
  LaunchParams launch;
  std::vector<std::uint32_t> reach;       // the functions the launch can run, the kernel first
  std::vector<std::uint32_t> pc_base;     // per function: its first PC in this launch's numbering
  std::vector<std::uint64_t> local_need;  // per function: local bytes of the deepest call chain from it
  std::vector<std::vector<std::uint64_t>> reg_mask;  // per function, per register: bits its type holds
  std::vector<std::uint64_t> shared_offset;  // per symbol: offset in the CTA's shared memory
  std::uint32_t static_shared = 0, dynamic_base = 0;
  std::uint64_t local_per_thread = 0;
  std::uint32_t threads_per_cta = 0, warps_per_cta = 0;
  std::uint64_t ctas = 0, next_cta = 0;
  // Thread block clusters (sm_90): a launch runs cluster after cluster, the CTAs of one together (their warps take
  // turns), so that they can read each other's shared memory and meet at barrier.cluster. Without a cluster shape
  // each CTA is a cluster of one.
  Dim3 cluster_dims{1, 1, 1};
  std::uint32_t cluster_size = 1;
  std::uint64_t clusters = 0, next_cluster = 0;
  std::vector<std::unique_ptr<Cta>> resident;  // the running cluster's CTAs, by rank
  std::uint64_t cluster_phase = 0;             // barrier.cluster phases completed
  Cta* cta = nullptr;                          // the CTA whose warp runs (for messages)
  std::uint64_t warp_insts = 0, thread_insts = 0;
  std::vector<WarpAccess>* out = nullptr;

  Impl(ModuleState& s, LaunchParams l) : state(s), m(*s.module), launch(std::move(l)) {
    const Function& k = m.functions.at(launch.function);
    if (!k.is_kernel) throw PtxError(fmt::format("{}: {} is a .func, not a kernel (.entry)", m.path, k.name));
    threads_per_cta = static_cast<std::uint32_t>(launch.block.count());
    if (threads_per_cta == 0 || threads_per_cta > 1024)
      throw PtxError(fmt::format("kernel {}: a block of {} threads (1 to 1024)", k.name, launch.block.count()));
    if (launch.grid.count() == 0) throw PtxError(fmt::format("kernel {}: an empty grid", k.name));
    warps_per_cta = (threads_per_cta + 31) / 32;
    ctas = launch.grid.count();
    if (launch.cluster.count() > 0) cluster_dims = launch.cluster;
    else if (k.cluster[0] > 0) cluster_dims = Dim3{k.cluster[0], k.cluster[1], k.cluster[2]};
    cluster_size = static_cast<std::uint32_t>(cluster_dims.count());
    if (cluster_size > 16)
      throw PtxError(fmt::format("kernel {}: a cluster of {} CTAs (the H100 runs at most 16)", k.name, cluster_size));
    if (launch.grid.x % cluster_dims.x || launch.grid.y % cluster_dims.y || launch.grid.z % cluster_dims.z)
      throw PtxError(fmt::format("kernel {}: the grid ({},{},{}) is not a whole number of clusters ({},{},{})", k.name, launch.grid.x,
                                 launch.grid.y, launch.grid.z, cluster_dims.x, cluster_dims.y, cluster_dims.z));
    clusters = ctas / cluster_size;
    // The functions this launch can reach, each numbered after the kernel.
    reach.push_back(launch.function);
    std::vector<char> seen(m.functions.size(), 0);
    seen[launch.function] = 1;
    for (std::size_t i = 0; i < reach.size(); ++i)
      for (const auto& in : m.functions[reach[i]].code)
        if (in.op == Opcode::Call && !seen[in.callee]) {
          seen[in.callee] = 1;
          reach.push_back(in.callee);
        }
    pc_base.assign(m.functions.size(), 0);
    reg_mask.resize(m.functions.size());
    std::uint32_t next = 0;
    std::vector<std::string> unsupported;
    for (std::uint32_t f : reach) {
      const Function& fn = m.functions[f];
      pc_base[f] = next;
      next += static_cast<std::uint32_t>(fn.code.size());
      for (const auto& r : fn.registers)
        reg_mask[f].push_back(r.type == Type::Pred ? 1 : alu::width_mask(type_bytes(r.type)));
      if (fn.is_extern && fn.name != "vprintf" && fn.name != "__assertfail" && fn.name != "malloc" && fn.name != "free")
        unsupported.push_back(fmt::format("a call of the external function {} (declared at line {})", fn.name, fn.ptx_line));
      for (const auto& in : fn.code)
        if (in.op == Opcode::Unsupported && unsupported.size() < 8)
          unsupported.push_back(fmt::format("line {}: '{}'", in.ptx_line, in.text));
    }
    if (!unsupported.empty())
      throw PtxError(fmt::format("{}: kernel {} uses what the interpreter cannot run: {}", m.path, tracer::demangle(k.name),
                                 fmt::join(unsupported, "; ")));
    // Local memory: the deepest chain of frames.
    local_need.assign(m.functions.size(), UINT64_MAX);
    std::vector<char> on_path(m.functions.size(), 0);
    local_per_thread = local_chain(launch.function, on_path);
    // Shared memory: the module's and the reachable functions' .shared variables the code names, then the
    // dynamic part (extern arrays) from an aligned offset.
    std::set<std::int32_t> used;
    for (std::uint32_t f : reach)
      for (const auto& in : m.functions[f].code)
        for (const auto& o : in.operands)
          if (o.symbol >= 0 && m.symbols[ix(o.symbol)].space == StateSpace::Shared) used.insert(o.symbol);
    shared_offset.assign(m.symbols.size(), 0);
    std::uint64_t off = 0;
    std::uint32_t dyn_align = 16;
    for (std::int32_t sym : used) {
      const Variable& v = m.symbols[ix(sym)];
      if (v.is_extern || v.size == 0) {
        dyn_align = std::max(dyn_align, v.align);
        continue;
      }
      off = (off + v.align - 1) / v.align * v.align;
      shared_offset[ix(sym)] = off;
      off += v.size;
    }
    static_shared = static_cast<std::uint32_t>(off);
    dynamic_base = static_cast<std::uint32_t>((off + dyn_align - 1) / dyn_align * dyn_align);
    for (std::int32_t sym : used)
      if (m.symbols[ix(sym)].is_extern || m.symbols[ix(sym)].size == 0) shared_offset[ix(sym)] = dynamic_base;
    const std::uint64_t shared_total = dynamic_base + std::uint64_t{launch.dynamic_shared};
    if (shared_total > (1u << 20))
      throw PtxError(fmt::format("kernel {}: {} bytes of shared memory per CTA", k.name, shared_total));
    if (local_per_thread * threads_per_cta > (1ull << 31))
      throw PtxError(fmt::format("kernel {}: {} bytes of local memory per thread", k.name, local_per_thread));
    if (launch.params.size() < k.param_bytes)
      throw PtxError(fmt::format("kernel {}: {} bytes of arguments for {} bytes of parameters", k.name, launch.params.size(), k.param_bytes));
  }

  static constexpr std::uint32_t kReservedSmem = 1024;
  std::uint64_t reserved_base() const { return (dynamic_base + std::uint64_t{launch.dynamic_shared} + 15) / 16 * 16; }

  std::uint64_t local_chain(std::uint32_t f, std::vector<char>& on_path) {
    if (local_need[f] != UINT64_MAX) return local_need[f];
    if (on_path[f]) throw PtxError(fmt::format("{}: function {} is recursive; the interpreter does not run recursion", m.path, m.functions[f].name));
    on_path[f] = 1;
    const Function& fn = m.functions[f];
    std::uint64_t deepest = 0;
    for (const auto& in : fn.code)
      if (in.op == Opcode::Call) deepest = std::max(deepest, local_chain(in.callee, on_path));
    on_path[f] = 0;
    return local_need[f] = (fn.local_bytes + 15) / 16 * 16 + deepest;
  }

  // --- errors
  [[noreturn]] void fault(const Warp& w, const Instruction& in, int lane, const std::string& what) const {
    const std::uint32_t t = w.index * 32 + static_cast<std::uint32_t>(lane);
    const std::uint32_t bx = launch.block.x, by = launch.block.y;
    throw PtxError(fmt::format("{}:{}: kernel {}, CTA ({},{},{}), thread ({},{},{}): {}: {}", m.path, in.ptx_line,
                               tracer::demangle(m.functions[launch.function].name), cta->x, cta->y, cta->z, t % bx, (t / bx) % by, t / (bx * by),
                               in.text, what));
  }

  // --- CTA scheduling
  // The next cluster's CTAs, in rank order (x fastest within the cluster; clusters in the grid's order).
  void start_cluster() {
    const Dim3 n{launch.grid.x / cluster_dims.x, launch.grid.y / cluster_dims.y, launch.grid.z / cluster_dims.z};
    const std::uint64_t k = next_cluster++;
    const auto kx = static_cast<std::uint32_t>(k % n.x), ky = static_cast<std::uint32_t>((k / n.x) % n.y),
               kz = static_cast<std::uint32_t>(k / (std::uint64_t{n.x} * n.y));
    resident.clear();
    cluster_phase = 0;
    for (std::uint32_t r = 0; r < cluster_size; ++r)
      resident.push_back(start_cta(kx * cluster_dims.x + r % cluster_dims.x, ky * cluster_dims.y + (r / cluster_dims.x) % cluster_dims.y,
                                   kz * cluster_dims.z + r / (cluster_dims.x * cluster_dims.y), r));
  }

  std::unique_ptr<Cta> start_cta(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t rank) {
    auto owned = std::make_unique<Cta>();
    Cta& c = *owned;
    ++next_cta;
    c.x = x;
    c.y = y;
    c.z = z;
    c.rank = rank;
    c.linear = x + std::uint64_t{launch.grid.x} * (y + std::uint64_t{launch.grid.y} * z);
    c.shared.assign(reserved_base() + kReservedSmem, 0);
    c.local.assign(local_per_thread * threads_per_cta, 0);
    c.warps.resize(warps_per_cta);
    const Function& k = m.functions[launch.function];
    for (std::uint32_t w = 0; w < warps_per_cta; ++w) {
      Warp& wp = c.warps[w];
      wp.index = w;
      const std::uint32_t lanes = std::min<std::uint32_t>(32, threads_per_cta - w * 32);
      const std::uint32_t mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
      wp.exited = ~mask;
      Frame f;
      f.fn = launch.function;
      f.regs.assign(k.registers.size() * 32, 0);
      f.params.assign(k.param_bytes * 32, 0);
      if (k.param_bytes > 0)
        for (int l = 0; l < 32; ++l)
          std::memcpy(f.params.data() + static_cast<std::size_t>(l) * k.param_bytes, launch.params.data(), k.param_bytes);
      f.stack.push_back({0, kNoReconvergence, mask});
      f.entered = mask;
      wp.frames.push_back(std::move(f));
    }
    return owned;
  }

  bool run(std::vector<WarpAccess>& sink, std::size_t want) {
    out = &sink;
    const std::size_t goal = sink.size() + want;
    while (sink.size() < goal) {
      if (resident.empty()) {
        if (next_cluster >= clusters) return false;
        start_cluster();
      }
      // Each CTA of the cluster in turn runs its warps: the current warp until a barrier or exit, then the next;
      // when no warp of any CTA can run, a barrier is released.
      bool progressed = false, filled = false;
      for (auto& owned : resident) {
        Cta& c = *owned;
        cta = &c;
        for (std::size_t tried = 0; tried < c.warps.size(); ++tried) {
          Warp& w = c.warps[c.current];
          if (!w.done && !w.waiting) {
            run_warp(c, w, goal);
            progressed = true;
            if (w.waiting && w.bar_count > 0) open_named_barrier(c, w.bar_id, w.bar_count);
            if (w.yielded) {
              w.yielded = false;  // it spins on an mbarrier: the next warp's turn
            } else if (!w.done && !w.waiting) {
              filled = true;  // the record buffer filled up: resume this warp next time
              break;
            }
          }
          c.current = (c.current + 1) % c.warps.size();
        }
        if (filled || sink.size() >= goal) break;
      }
      if (filled || sink.size() >= goal) break;
      if (!progressed && !release_barriers()) resident.clear();  // every warp of the cluster is done
    }
    return next_cluster < clusters || !resident.empty();
  }

  // No warp of the cluster can run: a CTA whose live warps wait at its own barriers passes them; else, with every
  // live warp at barrier.cluster.wait, the cluster's phase completes. False when no warp waits (the cluster is done).
  bool release_barriers() {
    bool any = false, released = false;
    for (auto& owned : resident) {
      Cta& c = *owned;
      bool cta_waits = false, cluster_waits = false;
      for (const Warp& w : c.warps) {
        if (w.done || !w.waiting) continue;
        (w.cluster_wait ? cluster_waits : cta_waits) = true;
      }
      any = any || cta_waits || cluster_waits;
      if (cta_waits && !cluster_waits) {
        cta = &c;
        release_barrier(c);
        released = true;
      }
    }
    if (!any || released) return any;
    // Only cluster waits are left. The phase completes when every live warp arrived in it; a warp that waits at a
    // CTA barrier beside them, or never arrived, is a deadlock the GPU would hang in.
    for (auto& owned : resident)
      for (const Warp& w : owned->warps)
        if (!w.done && w.cluster_arrived != cluster_phase + 1)
          throw PtxError(fmt::format("{}: kernel {}, CTA ({},{},{}), warp {}: barrier.cluster.wait can never complete: {}", m.path,
                                     tracer::demangle(m.functions[launch.function].name), owned->x, owned->y, owned->z, w.index,
                                     w.waiting ? "this warp waits at a CTA barrier without having arrived (deadlock)"
                                               : "this warp never arrives (deadlock)"));
    complete_cluster_phase();
    return true;
  }

  void complete_cluster_phase() {
    ++cluster_phase;
    for (auto& owned : resident)
      for (Warp& w : owned->warps)
        if (w.cluster_wait) {
          w.cluster_wait = false;
          w.waiting = false;
          w.cluster_arrived = 0;
        }
  }

  // barrier.cluster.arrive: the warp's arrival in the current phase (every thread of the warp: .aligned, or lanes that
  // exited); the phase completes once every live warp of the cluster arrived and those waiting go on.
  // barrier.cluster.wait: waits until the phase the warp arrived in completes (at once when it has).
  void cluster_barrier(Warp& w, const Instruction& in, std::uint32_t exec) {
    if (exec == 0) return;
    if (in.bar == BarMode::Arrive) {
      if (w.cluster_arrived == cluster_phase + 1) fault(w, in, std::countr_zero(exec), "barrier.cluster.arrive twice in one phase");
      w.cluster_arrived = cluster_phase + 1;
      return;
    }
    if (w.cluster_arrived == 0) fault(w, in, std::countr_zero(exec), "barrier.cluster.wait without barrier.cluster.arrive before it");
    if (w.cluster_arrived <= cluster_phase) {  // its phase is over
      w.cluster_arrived = 0;
      return;
    }
    w.waiting = true;
    w.cluster_wait = true;
  }

  // A named barrier of a thread count (bar.sync id, count; bar.arrive id, count) opens once the threads waiting
  // at it and those that arrived make the count: its waiting warps go on, whatever other warps do (a producer
  // warp spinning on an mbarrier does not hold its consumers' barrier). Counts are of whole warps, as the
  // hardware counts them.
  void open_named_barrier(Cta& c, std::uint32_t id, std::uint32_t count) {
    std::uint32_t threads = c.bar_arrived[id];
    for (const Warp& w : c.warps)
      if (w.waiting && w.bar_count > 0 && w.bar_id == id) threads += 32;
    if (threads < count) return;
    for (Warp& w : c.warps)
      if (w.waiting && w.bar_count > 0 && w.bar_id == id) w.waiting = false;
    c.bar_arrived[id] = 0;
  }

  void release_barrier(Cta& c) {
    for (Warp& w : c.warps) {
      if (!w.waiting) continue;
      w.waiting = false;
      w.bar_count = 0;
      if (w.bar_dest >= 0) {
        Frame& f = w.frames.back();
        std::uint64_t v = 0;
        if (w.bar_mode == BarMode::RedPopc) v = c.bar_popc;
        else if (w.bar_mode == BarMode::RedAnd) v = c.bar_and ? 1 : 0;
        else v = c.bar_or ? 1 : 0;
        for (int l = 0; l < 32; ++l) set(f, w.bar_dest, l, v);
        w.bar_dest = -1;
      }
    }
    c.bar_popc = 0;
    c.bar_and = true;
    c.bar_or = false;
  }

  // --- registers and operands
  [[gnu::always_inline]] void set(Frame& f, std::int32_t r, int lane, std::uint64_t v) {
    if (r < 0) return;
    f.regs[static_cast<std::size_t>(r) * 32 + static_cast<std::size_t>(lane)] = v & reg_mask[f.fn][static_cast<std::size_t>(r)];
  }
  std::uint64_t reg(const Frame& f, std::int32_t r, int lane) const {
    return f.regs[static_cast<std::size_t>(r) * 32 + static_cast<std::size_t>(lane)];
  }
  std::uint64_t special(const Cta& c, const Warp& w, const Operand& o, int lane) const {
    const std::uint32_t t = w.index * 32 + static_cast<std::uint32_t>(lane);
    const Dim3& b = launch.block;
    const Dim3& g = launch.grid;
    auto pick = [&](std::uint32_t x, std::uint32_t y, std::uint32_t z) -> std::uint64_t { return o.component == 0 ? x : o.component == 1 ? y : z; };
    const std::uint32_t below = lane == 0 ? 0u : (0xffffffffu >> (32 - lane));
    switch (o.special) {
      case SpecialReg::Tid: return pick(t % b.x, (t / b.x) % b.y, t / (b.x * b.y));
      case SpecialReg::Ntid: return pick(b.x, b.y, b.z);
      case SpecialReg::Ctaid: return pick(c.x, c.y, c.z);
      case SpecialReg::Nctaid: return pick(g.x, g.y, g.z);
      case SpecialReg::Laneid: return static_cast<std::uint64_t>(lane);
      case SpecialReg::Warpid: return w.index;
      case SpecialReg::Nwarpid: return warps_per_cta;
      case SpecialReg::Smid: return 0;
      case SpecialReg::Nsmid: return 1;
      case SpecialReg::Gridid: return launch.kernel_id;
      case SpecialReg::Clock: case SpecialReg::Clock64: case SpecialReg::Globaltimer: return warp_insts;
      case SpecialReg::LanemaskEq: return 1u << lane;
      case SpecialReg::LanemaskLt: return below;
      case SpecialReg::LanemaskLe: return below | (1u << lane);
      case SpecialReg::LanemaskGt: return ~(below | (1u << lane));
      case SpecialReg::LanemaskGe: return ~below;
      case SpecialReg::DynamicSmemSize: return launch.dynamic_shared;
      case SpecialReg::TotalSmemSize: return dynamic_base + std::uint64_t{launch.dynamic_shared};
      case SpecialReg::Clusterid: return pick(c.x / cluster_dims.x, c.y / cluster_dims.y, c.z / cluster_dims.z);
      case SpecialReg::Nclusterid: return pick(g.x / cluster_dims.x, g.y / cluster_dims.y, g.z / cluster_dims.z);
      case SpecialReg::ClusterCtaid: return pick(c.x % cluster_dims.x, c.y % cluster_dims.y, c.z % cluster_dims.z);
      case SpecialReg::ClusterNctaid: return pick(cluster_dims.x, cluster_dims.y, cluster_dims.z);
      case SpecialReg::ClusterCtarank: return c.rank;
      case SpecialReg::ClusterNctarank: return cluster_size;
      case SpecialReg::IsExplicitCluster: {
        const Function& k = m.functions[launch.function];
        return launch.cluster.count() > 0 || k.cluster[0] > 0 || k.explicit_cluster ? 1 : 0;
      }
      case SpecialReg::ReservedSmem:  // 1 KB after the kernel's own shared memory, as sm_90 reserves 1 KB per CTA
        return reserved_base() + (o.component == 1 || o.component == 2 ? kReservedSmem : o.component >= 3 ? 8u * (o.component - 3u) : 0u);
    }
    return 0;
  }
  // The address of a variable in its own state space (mov d, var; [var+off]).
  std::uint64_t symbol_address(const Frame& f, std::int32_t s) const {
    const Variable& v = m.symbols[static_cast<std::size_t>(s)];
    switch (v.space) {
      case StateSpace::Global: return state.global_address[static_cast<std::size_t>(s)];
      case StateSpace::Shared: return shared_offset[static_cast<std::size_t>(s)];
      case StateSpace::Const: return v.offset;
      case StateSpace::Local: return f.local_base + v.offset;
      case StateSpace::Param: return v.offset;
      default: return 0;
    }
  }
  [[gnu::always_inline]] std::uint64_t value(const Cta& c, const Warp& w, const Frame& f, const Operand& o, int lane) const {
    switch (o.kind) {
      case OperandKind::Reg: {
        const std::uint64_t v = reg(f, o.reg, lane);
        return o.negate ? (v ? 0 : 1) : v;
      }
      case OperandKind::Imm: return o.imm;
      case OperandKind::Special: return special(c, w, o, lane);
      case OperandKind::Symbol: return symbol_address(f, o.symbol);
      default: return 0;
    }
  }

  // --- memory
  struct Place {
    std::uint8_t* p = nullptr;
    std::uint64_t record_addr = 0;
    Space space = Space::Global;
    bool recorded = true;  // param reads are not memory traffic
    Cta* owner = nullptr;  // shared and distributed shared: the CTA whose shared memory it is
  };

  // A .shared::cluster address (ir.hpp StateSpace::SharedCluster): a CTA's own offsets are below 2^24; mapa makes
  // CTA r's as (r + 1) << 24 | offset.
  static constexpr std::uint64_t kClusterRankShift = 24;
  static std::uint64_t cluster_address(std::uint32_t rank, std::uint64_t offset) {
    return (std::uint64_t{rank} + 1) << kClusterRankShift | (offset & ((std::uint64_t{1} << kClusterRankShift) - 1));
  }
  // The rank a .shared::cluster address names (own: the CTA's own), or cluster_size when none.
  std::uint32_t rank_of(const Cta& own, std::uint64_t addr) const {
    const std::uint64_t r = addr >> kClusterRankShift;
    return r == 0 ? own.rank : r <= cluster_size ? static_cast<std::uint32_t>(r - 1) : cluster_size;
  }

  // Where lane's access at addr lies; the result goes straight into pl (a returned Place read back
  // at once stalls on store forwarding: a third of the interpreter's time on a copy kernel).
  void locate(Cta& c, const Warp& w, const Frame& f, const Instruction& in, int lane, StateSpace ss, std::uint64_t addr, std::uint32_t bytes, Place& pl) {
    if (bytes > 1 && addr % bytes != 0 && ss != StateSpace::Param)
      fault(w, in, lane, fmt::format("misaligned address 0x{:x} for a {}-byte access", addr, bytes));
    if (ss == StateSpace::Generic) {
      // The shared window holds every CTA of the cluster's shared memory (.shared::cluster addresses).
      if (addr >= kSharedWindow && addr - kSharedWindow < kWindowSize) return locate(c, w, f, in, lane, StateSpace::SharedCluster, addr - kSharedWindow, bytes, pl);
      if (addr >= kLocalWindow && addr - kLocalWindow < kWindowSize) return locate(c, w, f, in, lane, StateSpace::Local, addr - kLocalWindow, bytes, pl);
      if (addr >= kConstWindow && addr - kConstWindow < kWindowSize) return locate(c, w, f, in, lane, StateSpace::Const, addr - kConstWindow, bytes, pl);
      // The param window holds the kernel's own parameters, whichever function the lane is in.
      if (addr >= kParamWindow && addr - kParamWindow < kWindowSize)
        return locate(c, w, w.frames.front(), in, lane, StateSpace::Param, addr - kParamWindow, bytes, pl);
      ss = StateSpace::Global;
    }
    pl.record_addr = addr;
    pl.recorded = true;
    switch (ss) {
      case StateSpace::Global:
        pl.space = Space::Global;
        pl.p = state.memory.find(addr, bytes);
        if (!pl.p) fault(w, in, lane, fmt::format("global address 0x{:x} is outside every buffer ({})", addr, state.memory.describe(addr)));
        return;
      case StateSpace::Shared:
        pl.space = Space::Shared;
        pl.owner = &c;
        if (addr > c.shared.size() || bytes > c.shared.size() - addr)
          fault(w, in, lane, fmt::format("shared address 0x{:x} is outside the CTA's {} bytes of shared memory", addr, c.shared.size()));
        pl.p = c.shared.data() + addr;
        return;
      case StateSpace::SharedCluster: {
        const std::uint32_t r = rank_of(c, addr);
        if (r >= cluster_size)
          fault(w, in, lane, fmt::format("shared::cluster address 0x{:x} names CTA rank {} of a cluster of {}", addr,
                                         (addr >> kClusterRankShift) - 1, cluster_size));
        const std::uint64_t offset = addr & ((std::uint64_t{1} << kClusterRankShift) - 1);
        if (r == c.rank) return locate(c, w, f, in, lane, StateSpace::Shared, offset, bytes, pl);
        Cta& t = *resident[r];
        pl.space = Space::DShared;  // distributed shared memory, at its offset in the other CTA (types.hpp)
        pl.owner = &t;
        pl.record_addr = offset;
        if (offset > t.shared.size() || bytes > t.shared.size() - offset)
          fault(w, in, lane, fmt::format("shared address 0x{:x} is outside CTA rank {}'s {} bytes of shared memory", offset, r,
                                         t.shared.size()));
        pl.p = t.shared.data() + offset;
        return;
      }
      case StateSpace::Local: {
        pl.space = Space::Local;
        if (addr > local_per_thread || bytes > local_per_thread - addr)
          fault(w, in, lane, fmt::format("local address 0x{:x} is outside the thread's {} bytes of local memory", addr, local_per_thread));
        const std::uint64_t t = w.index * 32ull + static_cast<std::uint64_t>(lane);
        pl.p = c.local.data() + t * local_per_thread + addr;
        return;
      }
      case StateSpace::Const:
        pl.space = Space::Const;
        if (addr > state.const_bank.size() || bytes > state.const_bank.size() - addr)
          fault(w, in, lane, fmt::format("constant address 0x{:x} is outside the module's {} bytes of constant data", addr, state.const_bank.size()));
        pl.p = state.const_bank.data() + addr;
        return;
      case StateSpace::Param: {
        pl.recorded = false;
        const Function& fn = m.functions[f.fn];
        if (addr > fn.param_bytes || bytes > fn.param_bytes - addr)
          fault(w, in, lane, fmt::format("parameter offset {} is outside the function's {} bytes of parameters", addr, fn.param_bytes));
        // The frame is the lane's own (st.param into a callee's parameters writes it) or the kernel's, read only
        // through the param window.
        pl.p = const_cast<std::uint8_t*>(f.params.data()) + static_cast<std::size_t>(lane) * fn.param_bytes + addr;
        return;
      }
      default:
        fault(w, in, lane, "an address in an unsupported state space");
    }
  }

  std::uint64_t address_of(const Frame& f, const Operand& o, int lane) const {
    std::uint64_t base = 0;
    if (o.reg >= 0) base = reg(f, o.reg, lane);
    else if (o.symbol >= 0) base = symbol_address(f, o.symbol);
    return base + static_cast<std::uint64_t>(o.offset);
  }

  static std::uint64_t load_bytes(const std::uint8_t* p, int n) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, static_cast<std::size_t>(n));  // little endian, as the GPU
    return v;
  }
  static void store_bytes(std::uint8_t* p, std::uint64_t v, int n) { std::memcpy(p, &v, static_cast<std::size_t>(n)); }

  // One record per state space the active lanes touched.
  void emit(const Cta& c, const Warp& w, const Frame& f, std::uint32_t pc, const Instruction& in, Op op, std::uint8_t size,
            const std::array<Place, 32>& places, std::uint32_t mask) {
    constexpr Space kOrder[] = {Space::Global, Space::Shared, Space::DShared, Space::Local, Space::Const};
    std::array<std::uint32_t, 6> by_space{};
    for (std::uint32_t bitsleft = mask; bitsleft; bitsleft &= bitsleft - 1) {
      const int l = std::countr_zero(bitsleft);
      const Place& pl = places[static_cast<std::size_t>(l)];
      if (pl.recorded) by_space[static_cast<std::size_t>(pl.space)] |= 1u << l;
    }
    for (Space s : kOrder) {
      const std::uint32_t lanes = by_space[static_cast<std::size_t>(s)];
      if (!lanes) continue;
      WarpAccess a = record_of(c, w, f, pc);
      a.space = s;
      // Shared memory has no reduction instruction (ATOMS ... RZ): a generic atom that ptxas would make a
      // RED stays an atomic where its lanes land in shared memory.
      a.op = s == Space::Shared && op == Op::Reduction && in.op == Opcode::Atom ? Op::Atomic : op;
      // Into another CTA's shared memory only red.async is a reduction (REDAS); ptxas makes the others ATOM
      // (validation/h100/cluster_probe remote_atom, async_store_probe).
      if (s == Space::DShared && op == Op::Reduction && !in.async_tx) a.op = Op::Atomic;
      // st.async into another CTA is STAS (types.hpp Op::StoreAsync); into its own, a shared store.
      if (in.async_tx && op == Op::Store && s == Space::DShared) a.op = Op::StoreAsync;
      a.size = size;
      a.cache = in.cache;
      a.atomic_op = (op == Op::Atomic || op == Op::Reduction) ? in.atomic : AtomicOp::Unknown;
      a.active = LaneMask(lanes);
      for (std::uint32_t bitsleft = lanes; bitsleft; bitsleft &= bitsleft - 1) {
        const int l = std::countr_zero(bitsleft);
        a.addr[static_cast<std::size_t>(l)] = places[static_cast<std::size_t>(l)].record_addr;
      }
      out->push_back(a);
    }
  }

  // --- the warp loop
  void run_warp(Cta& c, Warp& w, std::size_t goal) {
    while (!w.done && !w.waiting && !w.yielded && out->size() < goal) {
      Frame& f = w.frames.back();
      if (f.stack.empty()) {
        leave_frame(w);
        continue;
      }
      SimtEntry& e = f.stack.back();
      const std::uint32_t mask = e.mask & ~w.exited;
      if (mask == 0 || e.pc == e.rpc) {
        f.stack.pop_back();
        continue;
      }
      const Function& fn = m.functions[f.fn];
      if (e.pc >= fn.code.size()) {  // the end of the code: as ret
        retire(w, f, mask);
        continue;
      }
      const Instruction& in = fn.code[e.pc];
      std::uint32_t exec = mask;
      if (in.guard >= 0) {
        std::uint32_t g = 0;
        for (std::uint32_t b = mask; b; b &= b - 1) {
          const int l = std::countr_zero(b);
          if ((reg(f, in.guard, l) != 0) != in.guard_negated) g |= 1u << l;
        }
        exec = g;
      }
      ++warp_insts;
      thread_insts += static_cast<std::uint64_t>(std::popcount(exec));
      if (launch.max_warp_instructions && warp_insts > launch.max_warp_instructions)
        throw PtxError(fmt::format("kernel {} did not finish within {} warp instructions (an endless loop? --max-instructions raises the limit)",
                                   tracer::demangle(m.functions[launch.function].name), launch.max_warp_instructions));
      step(c, w, f, e.pc, in, mask, exec);
    }
    if (!w.done && w.frames.size() == 1 && w.frames.back().stack.empty()) w.done = true;
  }

  // Lanes leave the current frame (ret); an empty kernel frame ends the warp.
  void retire(Warp& w, Frame& f, std::uint32_t lanes) {
    if (w.frames.size() == 1) {
      w.exited |= lanes;
      if ((w.exited | 0u) == 0xffffffffu) {
        f.stack.clear();
        w.done = true;
      }
      return;
    }
    for (auto& e : f.stack) e.mask &= ~lanes;
  }

  void leave_frame(Warp& w) {
    if (w.frames.size() == 1) {
      w.done = true;
      return;
    }
    Frame callee = std::move(w.frames.back());
    w.frames.pop_back();
    Frame& caller = w.frames.back();
    const Function& cf = m.functions[callee.fn];
    const Function& pf = m.functions[caller.fn];
    const Instruction& call = pf.code[callee.call_pc];
    // Return values: the callee's return parameters into the caller's (call (retval0), f, ...).
    std::size_t r = 0;
    for (const Operand& o : call.operands) {
      if (!o.negate) continue;
      if (r >= cf.returns.size()) break;
      const Variable& from = m.symbols[static_cast<std::size_t>(cf.returns[r++])];
      const Variable& to = m.symbols[static_cast<std::size_t>(o.symbol)];
      const std::uint64_t n = std::min(from.size, to.size);
      if (n == 0) continue;
      for (std::uint32_t b = callee.entered & ~w.exited; b; b &= b - 1) {
        const int l = std::countr_zero(b);
        std::memcpy(caller.params.data() + static_cast<std::size_t>(l) * pf.param_bytes + to.offset,
                    callee.params.data() + static_cast<std::size_t>(l) * cf.param_bytes + from.offset, n);
      }
    }
  }

  void call(Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
    const Function& callee = m.functions[in.callee];
    const Function& caller = m.functions[f.fn];
    if (callee.is_extern) {
      // vprintf and friends: no output, a zero result (the GPU's printf returns the bytes printed).
      for (const Operand& o : in.operands)
        if (o.negate && m.symbols[static_cast<std::size_t>(o.symbol)].size > 0) {
          const Variable& to = m.symbols[static_cast<std::size_t>(o.symbol)];
          for (std::uint32_t b = exec; b; b &= b - 1)
            std::memset(f.params.data() + static_cast<std::size_t>(std::countr_zero(b)) * caller.param_bytes + to.offset, 0, to.size);
        }
      return;
    }
    if (w.frames.size() >= 256) throw PtxError(fmt::format("{}:{}: calls nested more than 256 deep", m.path, in.ptx_line));
    Frame nf;
    nf.fn = in.callee;
    nf.regs.assign(callee.registers.size() * 32, 0);
    nf.params.assign(callee.param_bytes * 32, 0);
    nf.local_base = f.local_base + (caller.local_bytes + 15) / 16 * 16;
    nf.call_pc = pc;
    nf.entered = exec;
    std::size_t a = 0;
    for (const Operand& o : in.operands) {
      if (o.negate) continue;
      if (a >= callee.params.size()) break;
      const Variable& to = m.symbols[static_cast<std::size_t>(callee.params[a++])];
      const Variable& from = m.symbols[static_cast<std::size_t>(o.symbol)];
      const std::uint64_t n = std::min(from.size, to.size);
      if (n == 0) continue;
      for (std::uint32_t b = exec; b; b &= b - 1) {
        const int l = std::countr_zero(b);
        std::memcpy(nf.params.data() + static_cast<std::size_t>(l) * callee.param_bytes + to.offset,
                    f.params.data() + static_cast<std::size_t>(l) * caller.param_bytes + from.offset, n);
      }
    }
    nf.stack.push_back({0, kNoReconvergence, exec});
    w.frames.push_back(std::move(nf));
  }

  void step(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t mask, std::uint32_t exec);
  // mbarrier.* and cp.async.mbarrier.arrive (warp_mbarrier.cpp): no memory records (the H100 counts its SYNCS
  // instructions as no shared-memory access); a wait whose phase is incomplete yields the warp.
  void mbarrier_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec);
  // The mbarrier at shared offset `key` (an error names lane's thread where there is none), and its phase
  // completed where no arrival and no transaction byte is owed.
  MBarrier& mbarrier_at(Cta& c, const Warp& w, const Instruction& in, int lane, std::uint64_t key);
  static void complete_if_done(Cta& c, MBarrier& b);
  // A copy to shared memory completing `bytes` on the mbarrier at operand `bar` (complete_tx, as cp.async.bulk
  // and cp.async.bulk.tensor do).
  void complete_tx(Cta& c, const Warp& w, const Frame& f, const Instruction& in, int lane, const Operand& bar, std::uint64_t bytes);
  // The CTAs a copy to shared memory writes: with .multicast::cluster those of its ctaMask (operand k; the same
  // offsets and mbarrier in each), else the issuing CTA.
  // Every copy asks, so no heap: at most 16 CTAs (a cluster's largest).
  struct CopyTargets {
    std::array<Cta*, 16> cta{};
    std::size_t count = 0;
    Cta* const* begin() const { return cta.data(); }
    Cta* const* end() const { return cta.data() + count; }
    std::size_t size() const { return count; }
  };
  CopyTargets copy_targets(Cta& c, const Warp& w, const Frame& f, const Instruction& in, int lane, std::size_t k) {
    CopyTargets t;
    if (!in.multicast) {
      t.cta[t.count++] = &c;
      return t;
    }
    const std::uint64_t mask = value(c, w, f, in.operands[k], lane) & 0xffffu;
    if (mask == 0 || (mask >> cluster_size) != 0)
      fault(w, in, lane, fmt::format("a multicast to ctaMask 0x{:x} in a cluster of {} CTAs", mask, cluster_size));
    for (std::uint32_t r = 0; r < cluster_size; ++r)
      if ((mask >> r) & 1u) t.cta[t.count++] = resident[r].get();
    return t;
  }
  // A bulk or tensor copy's record, its descriptor lanes left to the caller (types.hpp Op::BulkLoad / BulkStore).
  WarpAccess bulk_record(const Cta& c, const Warp& w, const Frame& f, std::uint32_t pc, bool to_shared) const;
  // A record of the warp's instruction at `pc`: its PC, kernel, CTA and warp set, the rest defaults.
  WarpAccess record_of(const Cta& c, const Warp& w, const Frame& f, std::uint32_t pc) const {
    WarpAccess a;
    a.pc = pc_base[f.fn] + pc;
    a.kernel = launch.kernel_id;
    a.cta = static_cast<std::uint32_t>(c.linear);
    a.warp = static_cast<std::uint16_t>(w.index);
    return a;
  }
  // cp.async.bulk (warp_bulk_copy.cpp): each lane's copy at once, one record per copy (types.hpp Op::BulkLoad /
  // BulkStore); a copy to shared memory then completes its bytes on its mbarrier.
  void bulk_copy(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);
  // cp.async.bulk.tensor (warp_tensor_copy.cpp): each lane's box at once through its tensor map, one record per row
  // of the box with bytes in bounds (types.hpp kTensorRowMask).
  void tensor_copy(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);
  void memory_op(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);
  void alu_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec);

  // ldmatrix / stmatrix and mma.sync (warp_matrix.cpp): warp-wide, every lane of the warp must execute them.
  void need_whole_warp(const Warp& w, const Instruction& in, std::uint32_t exec) const;
  void matrix_move(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);
  void mma(Warp& w, Frame& f, const Instruction& in, std::uint32_t exec);
  // wmma.load / wmma.store and wmma.mma (warp_wmma.cpp): warp-wide as well.
  void wmma_move(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);
  void wmma_mma(Warp& w, Frame& f, const Instruction& in, std::uint32_t exec);
  // wgmma.mma_async (warp_wgmma.cpp): each warp computes its 16 rows of the warpgroup's 64 when it runs, reading
  // descriptor operands from the CTA's shared memory; one Op::GmmaRead record a warp.
  void wgmma(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);
  // tex (ptx/warp_texture.cpp): each lane's texels through its texture object, the result into d; records a texel
  // fetch (integer coordinates) or a sample and its further texels (types.hpp Op::TexSample).
  void texture_fetch(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);

  // 16-bit floats (.f16, .bf16, and pairs of them in 32 bits): each half computed in single precision and
  // rounded to its format; cvt of two floats to a pair (warp_alu.cpp).
  void half_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec);

  // cp.async.ca/cg.shared.global [dst], [src], bytes{, src bytes | ignore-src predicate}: the copy happens
  // at once (its commit and wait are no-ops). Two records, as LDGSTS counts them (types.hpp Op::AsyncCopy):
  // the global read of the lanes that read (src bytes above 0, source not ignored), then the shared write
  // of every lane.
  void cp_async(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
    const auto bytes = static_cast<std::uint32_t>(in.operands[2].imm);
    std::array<Place, 32> sources{}, destinations{};
    std::uint32_t reading = 0;
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      std::uint64_t src_bytes = bytes;
      if (in.operands.size() > 3 && in.operands[3].kind != OperandKind::Address) {
        const std::uint64_t v = value(c, w, f, in.operands[3], l);
        src_bytes = in.ignore_src ? (v != 0 ? 0 : bytes) : std::min<std::uint64_t>(v, bytes);
      }
      Place& dst = destinations[static_cast<std::size_t>(l)];
      locate(c, w, f, in, l, StateSpace::Shared, address_of(f, in.operands[0], l), bytes, dst);
      std::memset(dst.p, 0, bytes);
      if (src_bytes == 0) continue;  // zero-filled: no global read
      Place& src = sources[static_cast<std::size_t>(l)];
      locate(c, w, f, in, l, StateSpace::Global, address_of(f, in.operands[1], l), bytes, src);
      std::memcpy(dst.p, src.p, static_cast<std::size_t>(src_bytes));
      reading |= 1u << l;
    }
    emit(c, w, f, pc, in, Op::AsyncCopy, static_cast<std::uint8_t>(bytes), sources, reading);
    emit(c, w, f, pc, in, Op::AsyncCopy, static_cast<std::uint8_t>(bytes), destinations, exec);
  }
};

}  // namespace warpscope::ptx
