#include "ptx/interpreter.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "ptx/alu.hpp"
#include "ptx/ptx_error.hpp"
#include "ptx/reconvergence.hpp"
#include "tracer/demangle.hpp"

namespace warpscope::ptx {

ModuleState::ModuleState(const Module& m) : module(&m) {
  const_bank.assign(m.const_bytes, 0);
  global_address.assign(m.symbols.size(), 0);
  for (std::size_t s = 0; s < m.symbols.size(); ++s) {
    const Variable& v = m.symbols[s];
    if (v.owner >= 0) continue;
    if (v.space == StateSpace::Const) {
      std::copy(v.init.begin(), v.init.end(), const_bank.begin() + static_cast<std::ptrdiff_t>(v.offset));
    } else if (v.space == StateSpace::Global) {
      global_address[s] = memory.allocate(v.name, v.size);
      auto* a = memory.allocation(v.name);
      std::copy(v.init.begin(), v.init.end(), a->bytes.begin());
    }
  }
}

namespace {

int halves_of(Type t) { return (t == Type::F16x2 || t == Type::BF16x2) ? 2 : 1; }

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

struct Warp {
  std::uint32_t index = 0;
  std::uint32_t exited = 0;
  std::vector<Frame> frames;
  bool waiting = false;  // at a barrier
  bool done = false;
  std::int32_t bar_dest = -1;  // bar.red: the register the result goes to on release
  BarMode bar_mode = BarMode::Sync;
};

struct Cta {
  std::uint64_t linear = 0;
  std::uint32_t x = 0, y = 0, z = 0;
  std::vector<std::uint8_t> shared;
  std::vector<std::uint8_t> local;  // threads x local bytes
  std::vector<Warp> warps;
  std::size_t current = 0;  // the warp running
  std::uint64_t bar_popc = 0;
  bool bar_and = true, bar_or = false;
};

}  // namespace

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
  std::unique_ptr<Cta> cta;
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
  [[noreturn]] void fault(const Warp& w, std::uint32_t fn, const Instruction& in, int lane, const std::string& what) const {
    const std::uint32_t t = w.index * 32 + static_cast<std::uint32_t>(lane);
    const std::uint32_t bx = launch.block.x, by = launch.block.y;
    throw PtxError(fmt::format("{}:{}: kernel {}, CTA ({},{},{}), thread ({},{},{}): {}: {}", m.path, in.ptx_line,
                               tracer::demangle(m.functions[launch.function].name), cta->x, cta->y, cta->z, t % bx, (t / bx) % by, t / (bx * by),
                               in.text, what));
    (void)fn;
  }

  // --- CTA scheduling
  void start_cta() {
    cta = std::make_unique<Cta>();
    Cta& c = *cta;
    c.linear = next_cta++;
    c.x = static_cast<std::uint32_t>(c.linear % launch.grid.x);
    c.y = static_cast<std::uint32_t>((c.linear / launch.grid.x) % launch.grid.y);
    c.z = static_cast<std::uint32_t>(c.linear / (std::uint64_t{launch.grid.x} * launch.grid.y));
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
  }

  bool run(std::vector<WarpAccess>& sink, std::size_t want) {
    out = &sink;
    const std::size_t goal = sink.size() + want;
    while (sink.size() < goal) {
      if (!cta) {
        if (next_cta >= ctas) return false;
        start_cta();
      }
      Cta& c = *cta;
      // Run the current warp; on a barrier or exit move on; when no warp can run, release the barrier.
      bool progressed = false;
      for (std::size_t tried = 0; tried < c.warps.size() && sink.size() < goal; ++tried) {
        Warp& w = c.warps[c.current];
        if (!w.done && !w.waiting) {
          run_warp(c, w, goal);
          progressed = true;
          if (!w.done && !w.waiting) break;  // the record buffer filled up: resume this warp next time
        }
        c.current = (c.current + 1) % c.warps.size();
      }
      if (sink.size() >= goal) break;
      if (!progressed) {
        bool any_waiting = false;
        for (const Warp& w : c.warps) any_waiting = any_waiting || (w.waiting && !w.done);
        if (!any_waiting) {
          cta.reset();
          continue;
        }
        release_barrier(c);
      }
    }
    return next_cta < ctas || cta != nullptr;
  }

  void release_barrier(Cta& c) {
    for (Warp& w : c.warps) {
      if (!w.waiting) continue;
      w.waiting = false;
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
  };

  // Where lane's access at addr lies; the result goes straight into pl (a returned Place read back
  // at once stalls on store forwarding: a third of the interpreter's time on a copy kernel).
  void locate(Cta& c, const Warp& w, Frame& f, const Instruction& in, int lane, StateSpace ss, std::uint64_t addr, std::uint32_t bytes, Place& pl) {
    if (bytes > 1 && addr % bytes != 0 && ss != StateSpace::Param)
      fault(w, f.fn, in, lane, fmt::format("misaligned address 0x{:x} for a {}-byte access", addr, bytes));
    if (ss == StateSpace::Generic) {
      if (addr >= kSharedWindow && addr - kSharedWindow < kWindowSize) return locate(c, w, f, in, lane, StateSpace::Shared, addr - kSharedWindow, bytes, pl);
      if (addr >= kLocalWindow && addr - kLocalWindow < kWindowSize) return locate(c, w, f, in, lane, StateSpace::Local, addr - kLocalWindow, bytes, pl);
      if (addr >= kConstWindow && addr - kConstWindow < kWindowSize) return locate(c, w, f, in, lane, StateSpace::Const, addr - kConstWindow, bytes, pl);
      ss = StateSpace::Global;
    }
    pl.record_addr = addr;
    pl.recorded = true;
    switch (ss) {
      case StateSpace::Global:
        pl.space = Space::Global;
        pl.p = state.memory.find(addr, bytes);
        if (!pl.p) fault(w, f.fn, in, lane, fmt::format("global address 0x{:x} is outside every buffer ({})", addr, state.memory.describe(addr)));
        return;
      case StateSpace::Shared:
        pl.space = Space::Shared;
        if (addr > c.shared.size() || bytes > c.shared.size() - addr)
          fault(w, f.fn, in, lane, fmt::format("shared address 0x{:x} is outside the CTA's {} bytes of shared memory", addr, c.shared.size()));
        pl.p = c.shared.data() + addr;
        return;
      case StateSpace::Local: {
        pl.space = Space::Local;
        if (addr > local_per_thread || bytes > local_per_thread - addr)
          fault(w, f.fn, in, lane, fmt::format("local address 0x{:x} is outside the thread's {} bytes of local memory", addr, local_per_thread));
        const std::uint64_t t = w.index * 32ull + static_cast<std::uint64_t>(lane);
        pl.p = c.local.data() + t * local_per_thread + addr;
        return;
      }
      case StateSpace::Const:
        pl.space = Space::Const;
        if (addr > state.const_bank.size() || bytes > state.const_bank.size() - addr)
          fault(w, f.fn, in, lane, fmt::format("constant address 0x{:x} is outside the module's {} bytes of constant data", addr, state.const_bank.size()));
        pl.p = state.const_bank.data() + addr;
        return;
      case StateSpace::Param: {
        pl.recorded = false;
        const Function& fn = m.functions[f.fn];
        if (addr > fn.param_bytes || bytes > fn.param_bytes - addr)
          fault(w, f.fn, in, lane, fmt::format("parameter offset {} is outside the function's {} bytes of parameters", addr, fn.param_bytes));
        pl.p = f.params.data() + static_cast<std::size_t>(lane) * fn.param_bytes + addr;
        return;
      }
      default:
        fault(w, f.fn, in, lane, "an address in an unsupported state space");
    }
  }

  std::uint64_t address_of(const Cta& c, const Warp& w, const Frame& f, const Operand& o, int lane) const {
    std::uint64_t base = 0;
    if (o.reg >= 0) base = reg(f, o.reg, lane);
    else if (o.symbol >= 0) base = symbol_address(f, o.symbol);
    (void)c;
    (void)w;
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
    constexpr Space kOrder[] = {Space::Global, Space::Shared, Space::Local, Space::Const};
    std::array<std::uint32_t, 5> by_space{};
    for (std::uint32_t bitsleft = mask; bitsleft; bitsleft &= bitsleft - 1) {
      const int l = std::countr_zero(bitsleft);
      const Place& pl = places[static_cast<std::size_t>(l)];
      if (pl.recorded) by_space[static_cast<std::size_t>(pl.space)] |= 1u << l;
    }
    for (Space s : kOrder) {
      const std::uint32_t lanes = by_space[static_cast<std::size_t>(s)];
      if (!lanes) continue;
      WarpAccess a;
      a.pc = pc_base[f.fn] + pc;
      a.kernel = launch.kernel_id;
      a.cta = static_cast<std::uint32_t>(c.linear);
      a.warp = static_cast<std::uint16_t>(w.index);
      a.space = s;
      // Shared memory has no reduction instruction (ATOMS ... RZ): a generic atom that ptxas would make a
      // RED stays an atomic where its lanes land in shared memory.
      a.op = s == Space::Shared && op == Op::Reduction && in.op == Opcode::Atom ? Op::Atomic : op;
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
    while (!w.done && !w.waiting && out->size() < goal) {
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
  void memory_op(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec);
  void alu_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec);

  // 16-bit floats (.f16, .bf16, and pairs of them in 32 bits): each half computed in single precision and
  // rounded to its format; cvt of two floats to a pair.
  void half_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec) {
    const Type t = in.type;
    const bool bf = t == Type::BF16 || t == Type::BF16x2;
    const int halves = (t == Type::F16x2 || t == Type::BF16x2) ? 2 : 1;
    const auto& ops = in.operands;
    const auto to_f = [&](std::uint64_t h) { return bf ? alu::bf16_to_f32(static_cast<std::uint16_t>(h)) : alu::f16_to_f32(static_cast<std::uint16_t>(h)); };
    const auto from_f = [&](float x) -> std::uint64_t {
      if (in.sat) x = alu::saturate(x);
      return bf ? alu::f32_to_bf16(x) : alu::f32_to_f16(x, Rounding::Rn);
    };
    const std::int32_t d = ops[0].kind == OperandKind::Reg ? ops[0].reg : -1;
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      std::uint64_t r = 0;
      if (in.op == Opcode::Cvt) {  // cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower
        const float hi = alu::f32(value(c, w, f, ops[1], l)), lo = alu::f32(value(c, w, f, ops[2], l));
        r = (from_f(hi) << 16) | from_f(lo);
        set(f, d, l, r);
        continue;
      }
      for (int h = 0; h < halves; ++h) {
        auto part = [&](std::size_t i) { return to_f((value(c, w, f, ops[i], l) >> (16 * h)) & 0xffffu); };
        const std::uint64_t raw = (value(c, w, f, ops[1], l) >> (16 * h)) & 0xffffu;
        std::uint64_t res = 0;
        switch (in.op) {
          case Opcode::Add: res = from_f(part(1) + part(2)); break;
          case Opcode::Sub: res = from_f(part(1) - part(2)); break;
          case Opcode::Mul: res = from_f(part(1) * part(2)); break;
          case Opcode::Fma: res = from_f(std::fma(part(1), part(2), part(3))); break;
          case Opcode::Min: res = from_f(alu::fmin_ptx(part(1), part(2))); break;
          case Opcode::Max: res = from_f(alu::fmax_ptx(part(1), part(2))); break;
          case Opcode::Neg: res = raw ^ 0x8000u; break;
          case Opcode::Abs: res = raw & 0x7fffu; break;
          default: fault(w, f.fn, in, l, "not supported by the interpreter");
        }
        r |= (res & 0xffffu) << (16 * h);
      }
      set(f, d, l, r);
    }
  }

  // cp.async.ca/cg.shared.global [dst], [src], bytes{, src bytes}: the copy happens at once (its
  // commit and wait are no-ops); the record is the global read, as Accel-Sim's traces read LDGSTS.
  void cp_async(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
    const auto bytes = static_cast<std::uint32_t>(in.operands[2].imm);
    std::array<Place, 32> places{};
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      const std::uint64_t src_bytes = in.operands.size() > 3 && in.operands[3].kind != OperandKind::Address
                                          ? std::min<std::uint64_t>(value(c, w, f, in.operands[3], l), bytes)
                                          : bytes;
      Place dst;
      locate(c, w, f, in, l, StateSpace::Shared, address_of(c, w, f, in.operands[0], l), bytes, dst);
      Place& src = places[static_cast<std::size_t>(l)];
      locate(c, w, f, in, l, StateSpace::Global, address_of(c, w, f, in.operands[1], l), bytes, src);
      std::memset(dst.p, 0, bytes);
      std::memcpy(dst.p, src.p, static_cast<std::size_t>(src_bytes));
    }
    emit(c, w, f, pc, in, Op::Load, static_cast<std::uint8_t>(bytes), places, exec);
  }
};

void Interpreter::Impl::step(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t mask, std::uint32_t exec) {
  SimtEntry& e = f.stack.back();
  switch (in.op) {
    case Opcode::Bra: {
      const std::uint32_t target = in.operands[0].label;
      const std::uint32_t taken = exec, not_taken = mask & ~exec;
      if (not_taken == 0) {
        e.pc = target;
      } else if (taken == 0) {
        e.pc = pc + 1;
      } else {
        const std::uint32_t rpc = in.reconverge;
        e.pc = rpc;  // this entry waits at the reconvergence point with every lane
        f.stack.push_back({pc + 1, rpc, not_taken});
        f.stack.push_back({target, rpc, taken});
      }
      return;
    }
    case Opcode::Exit:
      e.pc = pc + 1;
      w.exited |= exec;
      return;
    case Opcode::Ret:
      e.pc = pc + 1;
      retire(w, f, exec);
      return;
    case Opcode::Trap:
      if (exec) fault(w, f.fn, in, std::countr_zero(exec), "the kernel executed trap");
      e.pc = pc + 1;
      return;
    case Opcode::Call:
      e.pc = pc + 1;
      if (exec) call(w, f, pc, in, exec);
      return;
    case Opcode::Bar: {
      e.pc = pc + 1;
      if (in.bar == BarMode::Arrive) return;
      w.waiting = true;
      if (in.bar != BarMode::Sync) {
        // bar.red.op d, a{, b}, {!}c: the predicate is the last operand.
        const Operand& p = in.operands.back();
        for (std::uint32_t b = exec; b; b &= b - 1) {
          const bool v = value(c, w, f, p, std::countr_zero(b)) != 0;
          c.bar_popc += v ? 1 : 0;
          c.bar_and = c.bar_and && v;
          c.bar_or = c.bar_or || v;
        }
        w.bar_dest = in.operands[0].reg;
        w.bar_mode = in.bar;
      }
      return;
    }
    case Opcode::BarWarp: case Opcode::Nop:
      e.pc = pc + 1;
      return;
    case Opcode::Ld: case Opcode::St: case Opcode::Atom: case Opcode::Red:
      e.pc = pc + 1;
      if (exec) memory_op(c, w, f, pc, in, exec);
      return;
    case Opcode::CpAsync:
      e.pc = pc + 1;
      if (exec) cp_async(c, w, f, pc, in, exec);
      return;
    case Opcode::Unsupported:
      fault(w, f.fn, in, std::countr_zero(mask), "not supported by the interpreter");
    default:
      e.pc = pc + 1;
      alu_op(c, w, f, in, exec);
      return;
  }
}

void Interpreter::Impl::memory_op(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
  const int elem = type_bytes(in.type);
  const bool is_ld = in.op == Opcode::Ld, is_st = in.op == Opcode::St;
  const Operand& addr_op = in.operands[is_ld || in.op == Opcode::Atom ? 1 : 0];
  if (addr_op.reg >= 0 && in.space == StateSpace::Param)
    fault(w, f.fn, in, std::countr_zero(exec), "parameter space through a register address is not supported");
  const std::uint32_t bytes = static_cast<std::uint32_t>(elem) * in.vec;
  std::array<Place, 32> places{};
  for (std::uint32_t b = exec; b; b &= b - 1) {
    const int l = std::countr_zero(b);
    const std::uint64_t a = address_of(c, w, f, addr_op, l);
    locate(c, w, f, in, l, in.space, a, bytes, places[static_cast<std::size_t>(l)]);
  }
  if (!is_ld)
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      if (places[static_cast<std::size_t>(l)].space == Space::Const && places[static_cast<std::size_t>(l)].recorded)
        fault(w, f.fn, in, l, "a write to constant memory");
    }
  Op op = Op::Load;
  if (is_ld) {
    const Operand& d = in.operands[0];
    const bool sign = is_signed(in.type);
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      const std::uint8_t* p = places[static_cast<std::size_t>(l)].p;
      if (d.kind == OperandKind::Vector) {
        for (int k = 0; k < d.count; ++k)
          if (d.regs[static_cast<std::size_t>(k)] >= 0) {
            std::uint64_t v = load_bytes(p + k * elem, elem);
            if (sign) v = static_cast<std::uint64_t>(alu::sext(v, elem));
            set(f, d.regs[static_cast<std::size_t>(k)], l, v);
          }
      } else if (d.kind == OperandKind::Reg) {
        std::uint64_t v = load_bytes(p, elem);
        if (sign) v = static_cast<std::uint64_t>(alu::sext(v, elem));
        set(f, d.reg, l, v);
      }
    }
  } else if (is_st) {
    op = Op::Store;
    const Operand& s = in.operands[1];
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      std::uint8_t* p = places[static_cast<std::size_t>(l)].p;
      if (s.kind == OperandKind::Vector) {
        for (int k = 0; k < s.count; ++k)
          store_bytes(p + k * elem, s.regs[static_cast<std::size_t>(k)] >= 0 ? reg(f, s.regs[static_cast<std::size_t>(k)], l) : 0, elem);
      } else {
        store_bytes(p, value(c, w, f, s, l), elem);
      }
    }
  } else {
    // atom / red: read-modify-write lane by lane, in lane order.
    const bool atom = in.op == Opcode::Atom;
    op = atom ? (in.result_unused ? Op::Reduction : Op::Atomic) : Op::Reduction;
    const std::size_t first = atom ? 2 : 1;
    const Type t = in.type;
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      std::uint8_t* p = places[static_cast<std::size_t>(l)].p;
      const std::uint64_t old = load_bytes(p, elem);
      const std::uint64_t x = value(c, w, f, in.operands[first], l);
      std::uint64_t nv = old;
      switch (in.atomic) {
        case AtomicOp::Add: case AtomicOp::PopcInc:
          if (t == Type::F32) nv = alu::bits(f32(old) + f32(x));
          else if (t == Type::F64) nv = alu::bits(f64(old) + f64(x));
          else nv = trunc(old + x, t);
          break;
        case AtomicOp::Min:
          if (t == Type::F32) nv = alu::bits(alu::fmin_ptx(f32(old), f32(x)));
          else if (t == Type::F64) nv = alu::bits(alu::fmin_ptx(f64(old), f64(x)));
          else if (is_signed(t)) nv = trunc(static_cast<std::uint64_t>(std::min(as_signed(old, t), as_signed(x, t))), t);
          else nv = std::min(as_unsigned(old, t), as_unsigned(x, t));
          break;
        case AtomicOp::Max:
          if (t == Type::F32) nv = alu::bits(alu::fmax_ptx(f32(old), f32(x)));
          else if (t == Type::F64) nv = alu::bits(alu::fmax_ptx(f64(old), f64(x)));
          else if (is_signed(t)) nv = trunc(static_cast<std::uint64_t>(std::max(as_signed(old, t), as_signed(x, t))), t);
          else nv = std::max(as_unsigned(old, t), as_unsigned(x, t));
          break;
        case AtomicOp::Inc: nv = as_unsigned(old, t) >= as_unsigned(x, t) ? 0 : trunc(old + 1, t); break;
        case AtomicOp::Dec: nv = (old == 0 || as_unsigned(old, t) > as_unsigned(x, t)) ? trunc(x, t) : trunc(old - 1, t); break;
        case AtomicOp::And: nv = old & x; break;
        case AtomicOp::Or: nv = old | x; break;
        case AtomicOp::Xor: nv = old ^ x; break;
        case AtomicOp::Exch: nv = x; break;
        case AtomicOp::Cas:
          nv = trunc(old, t) == trunc(x, t) ? value(c, w, f, in.operands[first + 1], l) : old;
          break;
        default: fault(w, f.fn, in, l, "an atomic operation the interpreter does not know");
      }
      store_bytes(p, nv, elem);
      if (atom) set(f, in.operands[0].reg, l, old);
    }
  }
  emit(c, w, f, pc, in, op, static_cast<std::uint8_t>(std::min<std::uint32_t>(bytes, 255)), places, exec);
}

void Interpreter::Impl::alu_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec) {
  const Type t = in.type;
  const auto& ops = in.operands;
  auto src = [&](std::size_t i, int l) __attribute__((always_inline)) { return value(c, w, f, ops[i], l); };
  const std::int32_t d = ops.empty() ? -1 : (ops[0].kind == OperandKind::Reg ? ops[0].reg : -1);
  const bool f32t = t == Type::F32, f64t = t == Type::F64;
  auto fl = [&](float x) {
    if (in.ftz) x = alu::flush(x);
    if (in.sat) x = alu::saturate(x);
    return alu::bits(x);
  };
  auto fin = [&](std::uint64_t v) { return in.ftz ? alu::flush(f32(v)) : f32(v); };
  auto dbl = [&](double x) { return alu::bits(in.sat ? alu::saturate(x) : x); };
  const int width = type_bytes(t) * 8;

  // Warp-wide operations first: every lane sees the others' values.
  if (in.op == Opcode::Shfl) {
    std::array<std::uint64_t, 32> a{};
    for (int l = 0; l < 32; ++l) a[static_cast<std::size_t>(l)] = src(in.pair_dest ? 2 : 1, l);
    const std::size_t s = in.pair_dest ? 2 : 1;
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      const std::uint32_t bval = static_cast<std::uint32_t>(src(s + 1, l)) & 31u;
      const std::uint32_t cval = static_cast<std::uint32_t>(src(s + 2, l));
      const std::uint32_t clamp = cval & 31u, seg = (cval >> 8) & 31u;
      const std::uint32_t lane = static_cast<std::uint32_t>(l);
      const std::uint32_t max_lane = (lane & seg) | (clamp & ~seg), min_lane = lane & seg;
      std::int32_t j = 0;
      bool ok = false;
      switch (in.shfl) {
        case ShflMode::Up: j = static_cast<std::int32_t>(lane) - static_cast<std::int32_t>(bval); ok = j >= static_cast<std::int32_t>(max_lane); break;
        case ShflMode::Down: j = static_cast<std::int32_t>(lane + bval); ok = j <= static_cast<std::int32_t>(max_lane); break;
        case ShflMode::Bfly: j = static_cast<std::int32_t>(lane ^ bval); ok = j <= static_cast<std::int32_t>(max_lane); break;
        case ShflMode::Idx: j = static_cast<std::int32_t>(min_lane | (bval & ~seg)); ok = j <= static_cast<std::int32_t>(max_lane); break;
      }
      if (!ok) j = static_cast<std::int32_t>(lane);
      set(f, d, l, a[static_cast<std::size_t>(j & 31)]);
      if (in.pair_dest) set(f, ops[1].reg, l, ok ? 1 : 0);
    }
    return;
  }
  if (in.op == Opcode::Vote) {
    std::uint32_t ballot = 0;
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      if (src(1, l) != 0) ballot |= 1u << l;
    }
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      std::uint64_t v = 0;
      switch (in.vote) {
        case VoteMode::All: v = ballot == exec; break;
        case VoteMode::Any: v = ballot != 0; break;
        case VoteMode::Uni: v = ballot == 0 || ballot == exec; break;
        case VoteMode::Ballot: v = ballot; break;
      }
      set(f, d, l, v);
    }
    return;
  }
  if (in.op == Opcode::Redux) {
    // redux.sync.op.type d, a, membermask: one value over the executing lanes, to each of them.
    std::uint64_t acc = 0;
    bool first = true;
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const std::uint64_t v = trunc(src(1, std::countr_zero(b)), t);
      if (first) {
        acc = v;
        first = false;
        continue;
      }
      switch (in.atomic) {
        case AtomicOp::Add: acc = trunc(acc + v, t); break;
        case AtomicOp::Min: acc = is_signed(t) ? trunc(static_cast<std::uint64_t>(std::min(as_signed(acc, t), as_signed(v, t))), t) : std::min(acc, v); break;
        case AtomicOp::Max: acc = is_signed(t) ? trunc(static_cast<std::uint64_t>(std::max(as_signed(acc, t), as_signed(v, t))), t) : std::max(acc, v); break;
        case AtomicOp::And: acc &= v; break;
        case AtomicOp::Or: acc |= v; break;
        default: acc ^= v; break;
      }
    }
    for (std::uint32_t b = exec; b; b &= b - 1) set(f, d, std::countr_zero(b), acc);
    return;
  }
  if (in.op == Opcode::Match) {
    // match.any: the executing lanes with the same value; match.all: all of them if they all agree.
    const std::size_t a = in.pair_dest ? 2 : 1;
    std::array<std::uint64_t, 32> v{};
    for (std::uint32_t b = exec; b; b &= b - 1) v[static_cast<std::size_t>(std::countr_zero(b))] = trunc(src(a, std::countr_zero(b)), t);
    bool all = true;
    for (std::uint32_t b = exec; b; b &= b - 1) all = all && v[static_cast<std::size_t>(std::countr_zero(b))] == v[static_cast<std::size_t>(std::countr_zero(exec))];
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      std::uint32_t same = 0;
      for (std::uint32_t c2 = exec; c2; c2 &= c2 - 1)
        if (v[static_cast<std::size_t>(std::countr_zero(c2))] == v[static_cast<std::size_t>(l)]) same |= 1u << std::countr_zero(c2);
      set(f, d, l, in.vote == VoteMode::Any ? same : (all ? exec : 0u));
      if (in.pair_dest) set(f, ops[1].reg, l, all ? 1 : 0);
    }
    return;
  }
  if (is_half(t) && in.op != Opcode::Mov && !(in.op == Opcode::Cvt && halves_of(t) == 1)) {
    half_op(c, w, f, in, exec);
    return;
  }
  if (in.op == Opcode::Activemask) {
    for (std::uint32_t b = exec; b; b &= b - 1) set(f, d, std::countr_zero(b), exec);
    return;
  }

  // Fast paths for the integer operations of address arithmetic, the bulk of nvcc's code: the
  // dispatch outside the lane loop. Same results as the general loop below.
  const auto lanes = [&](auto&& fn) __attribute__((always_inline)) {
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      set(f, d, l, fn(l));
    }
  };
  if (!is_float(t) && t != Type::Pred && d >= 0) {
    switch (in.op) {
      case Opcode::Mov:
        if (ops[1].kind != OperandKind::Vector) {
          lanes([&](int l) { return trunc(src(1, l), t); });
          return;
        }
        break;
      case Opcode::Add:
        if (!in.sat) {
          lanes([&](int l) { return trunc(src(1, l) + src(2, l), t); });
          return;
        }
        break;
      case Opcode::Sub:
        if (!in.sat) {
          lanes([&](int l) { return trunc(src(1, l) - src(2, l), t); });
          return;
        }
        break;
      case Opcode::And: lanes([&](int l) { return trunc(src(1, l) & src(2, l), t); }); return;
      case Opcode::Or: lanes([&](int l) { return trunc(src(1, l) | src(2, l), t); }); return;
      case Opcode::Xor: lanes([&](int l) { return trunc(src(1, l) ^ src(2, l), t); }); return;
      case Opcode::Shl:
        lanes([&](int l) {
          const std::uint64_t sh = as_unsigned(src(2, l), Type::U32);
          return sh >= static_cast<std::uint64_t>(width) ? 0 : trunc(src(1, l) << sh, t);
        });
        return;
      case Opcode::Mul: case Opcode::Mad: {
        const bool mad = in.op == Opcode::Mad;
        if (in.mul == MulMode::Lo && !in.sat) {
          lanes([&](int l) { return trunc(src(1, l) * src(2, l) + (mad ? src(3, l) : 0), t); });
          return;
        }
        if (in.mul == MulMode::Wide) {
          const Type wide = width >= 32 ? Type::B64 : Type::B32;
          if (is_signed(t))
            lanes([&](int l) {
              return trunc(static_cast<std::uint64_t>(as_signed(src(1, l), t) * as_signed(src(2, l), t)) + (mad ? src(3, l) : 0), wide);
            });
          else
            lanes([&](int l) { return trunc(as_unsigned(src(1, l), t) * as_unsigned(src(2, l), t) + (mad ? src(3, l) : 0), wide); });
          return;
        }
        break;
      }
      case Opcode::Cvt:
        if (!is_float(in.type2)) {
          lanes([&](int l) { return alu::convert(src(1, l), in); });
          return;
        }
        break;
      default: break;
    }
  }

  for (std::uint32_t b = exec; b; b &= b - 1) {
    const int l = std::countr_zero(b);
    std::uint64_t r = 0;
    switch (in.op) {
      case Opcode::Mov: {
        if (ops[1].kind == OperandKind::Vector) {  // pack
          const int part = width / ops[1].count;
          for (int k = 0; k < ops[1].count; ++k)
            if (ops[1].regs[static_cast<std::size_t>(k)] >= 0)
              r |= (reg(f, ops[1].regs[static_cast<std::size_t>(k)], l) & alu::width_mask(part / 8)) << (k * part);
        } else {
          r = src(1, l);
        }
        if (ops[0].kind == OperandKind::Vector) {  // unpack
          const int part = width / ops[0].count;
          for (int k = 0; k < ops[0].count; ++k) set(f, ops[0].regs[static_cast<std::size_t>(k)], l, r >> (k * part));
          continue;
        }
        r = t == Type::Pred ? (r != 0) : trunc(r, t);
        break;
      }
      case Opcode::Cvta:  // a window offset to a generic address
        r = src(1, l);
        if (in.space == StateSpace::Shared) r += kSharedWindow;
        else if (in.space == StateSpace::Local) r += kLocalWindow;
        else if (in.space == StateSpace::Const) r += kConstWindow;
        break;
      case Opcode::CvtaTo:
        r = src(1, l);
        if (in.space == StateSpace::Shared) r -= kSharedWindow;
        else if (in.space == StateSpace::Local) r -= kLocalWindow;
        else if (in.space == StateSpace::Const) r -= kConstWindow;
        r = trunc(r, t);
        break;
      case Opcode::Isspacep: {
        const std::uint64_t a = src(1, l);
        const bool sh = a >= kSharedWindow && a - kSharedWindow < kWindowSize;
        const bool lo = a >= kLocalWindow && a - kLocalWindow < kWindowSize;
        const bool co = a >= kConstWindow && a - kConstWindow < kWindowSize;
        if (in.space == StateSpace::Shared) r = sh;
        else if (in.space == StateSpace::Local) r = lo;
        else if (in.space == StateSpace::Const) r = co;
        else r = !sh && !lo && !co;
        break;
      }
      case Opcode::Cvt: r = alu::convert(src(1, l), in); break;
      case Opcode::Add: case Opcode::Sub: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        const bool sub = in.op == Opcode::Sub;
        if (f32t && (in.rounding == Rounding::None || in.rounding == Rounding::Rn)) r = fl(sub ? fin(a) - fin(y) : fin(a) + fin(y));
        else if (f32t) r = fl(alu::round_to_f32(sub ? static_cast<double>(fin(a)) - static_cast<double>(fin(y)) : static_cast<double>(fin(a)) + static_cast<double>(fin(y)), in.rounding));
        else if (f64t) r = dbl(sub ? f64(a) - f64(y) : f64(a) + f64(y));
        else if (in.sat && t == Type::S32) {
          const std::int64_t v = sub ? as_signed(a, t) - as_signed(y, t) : as_signed(a, t) + as_signed(y, t);
          r = trunc(static_cast<std::uint64_t>(std::clamp<std::int64_t>(v, INT32_MIN, INT32_MAX)), t);
        } else r = trunc(sub ? a - y : a + y, t);
        break;
      }
      case Opcode::Mul: case Opcode::Mad: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        const bool mad = in.op == Opcode::Mad;
        if (f32t) {
          r = fl(mad ? std::fma(fin(a), fin(y), fin(src(3, l))) : alu::round_to_f32(static_cast<double>(fin(a)) * static_cast<double>(fin(y)), in.rounding));
          break;
        }
        if (f64t) {
          r = dbl(mad ? std::fma(f64(a), f64(y), f64(src(3, l))) : f64(a) * f64(y));
          break;
        }
        std::uint64_t p = 0;
        if (in.mul == MulMode::Wide) {
          p = is_signed(t) ? static_cast<std::uint64_t>(as_signed(a, t) * as_signed(y, t)) : as_unsigned(a, t) * as_unsigned(y, t);
          r = trunc(p + (mad ? src(3, l) : 0), width >= 32 ? Type::B64 : Type::B32);
          break;
        }
        if (in.mul == MulMode::Hi) {
          if (width == 64) {
            p = is_signed(t) ? static_cast<std::uint64_t>((static_cast<alu::i128>(as_signed(a, t)) * as_signed(y, t)) >> 64)
                             : static_cast<std::uint64_t>((static_cast<alu::u128>(a) * y) >> 64);
          } else {
            p = is_signed(t) ? static_cast<std::uint64_t>((as_signed(a, t) * as_signed(y, t)) >> width)
                             : (as_unsigned(a, t) * as_unsigned(y, t)) >> width;
          }
        } else {
          p = a * y;
        }
        if (mad && in.sat && t == Type::S32) {
          const std::int64_t v = static_cast<std::int64_t>(as_signed(p, t)) + as_signed(src(3, l), t);
          r = trunc(static_cast<std::uint64_t>(std::clamp<std::int64_t>(v, INT32_MIN, INT32_MAX)), t);
        } else {
          r = trunc(p + (mad ? src(3, l) : 0), t);
        }
        break;
      }
      case Opcode::Mul24: case Opcode::Mad24: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        const std::int64_t x24 = is_signed(t) ? alu::sext(a & 0xffffff, 3) : static_cast<std::int64_t>(a & 0xffffff);
        const std::int64_t y24 = is_signed(t) ? alu::sext(y & 0xffffff, 3) : static_cast<std::int64_t>(y & 0xffffff);
        const std::uint64_t p = static_cast<std::uint64_t>(x24 * y24);
        r = in.mul == MulMode::Hi ? (p >> 16) : p;
        r = trunc(r + (in.op == Opcode::Mad24 ? src(3, l) : 0), t);
        break;
      }
      case Opcode::Fma: r = f32t ? fl(std::fma(fin(src(1, l)), fin(src(2, l)), fin(src(3, l)))) : dbl(std::fma(f64(src(1, l)), f64(src(2, l)), f64(src(3, l)))); break;
      case Opcode::Div: case Opcode::Rem: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        if (f32t) { r = fl(fin(a) / fin(y)); break; }
        if (f64t) { r = dbl(f64(a) / f64(y)); break; }
        const bool div = in.op == Opcode::Div;
        if (is_signed(t)) {
          const std::int64_t x = as_signed(a, t), z = as_signed(y, t);
          if (z == 0) r = div ? ~0ull : a;  // undefined in PTX; the GPU's integer division gives all ones
          else if (z == -1) r = div ? static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(x) : 0;
          else r = static_cast<std::uint64_t>(div ? x / z : x % z);
        } else {
          const std::uint64_t x = as_unsigned(a, t), z = as_unsigned(y, t);
          r = z == 0 ? (div ? ~0ull : x) : (div ? x / z : x % z);
        }
        r = trunc(r, t);
        break;
      }
      case Opcode::Abs: {
        const std::uint64_t a = src(1, l);
        if (f32t) r = fl(std::fabs(fin(a)));
        else if (f64t) r = a & ~(1ull << 63);
        else r = trunc(static_cast<std::uint64_t>(as_signed(a, t) < 0 ? -as_signed(a, t) : as_signed(a, t)), t);
        break;
      }
      case Opcode::Neg: {
        const std::uint64_t a = src(1, l);
        if (f32t) r = fl(-fin(a));
        else if (f64t) r = a ^ (1ull << 63);
        else r = trunc(0 - a, t);
        break;
      }
      case Opcode::Min: case Opcode::Max: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        const bool mn = in.op == Opcode::Min;
        if (f32t) r = fl(mn ? alu::fmin_ptx(fin(a), fin(y)) : alu::fmax_ptx(fin(a), fin(y)));
        else if (f64t) r = alu::bits(mn ? alu::fmin_ptx(f64(a), f64(y)) : alu::fmax_ptx(f64(a), f64(y)));
        else if (is_signed(t)) r = trunc(static_cast<std::uint64_t>(mn ? std::min(as_signed(a, t), as_signed(y, t)) : std::max(as_signed(a, t), as_signed(y, t))), t);
        else r = mn ? std::min(as_unsigned(a, t), as_unsigned(y, t)) : std::max(as_unsigned(a, t), as_unsigned(y, t));
        break;
      }
      case Opcode::And: r = t == Type::Pred ? ((src(1, l) != 0) && (src(2, l) != 0)) : trunc(src(1, l) & src(2, l), t); break;
      case Opcode::Or: r = t == Type::Pred ? ((src(1, l) != 0) || (src(2, l) != 0)) : trunc(src(1, l) | src(2, l), t); break;
      case Opcode::Xor: r = t == Type::Pred ? ((src(1, l) != 0) != (src(2, l) != 0)) : trunc(src(1, l) ^ src(2, l), t); break;
      case Opcode::Not: r = t == Type::Pred ? (src(1, l) == 0) : trunc(~src(1, l), t); break;
      case Opcode::Cnot: r = trunc(src(1, l) == 0 ? 1 : 0, t); break;
      case Opcode::Shl: {
        const std::uint64_t s = as_unsigned(src(2, l), Type::U32);
        r = s >= static_cast<std::uint64_t>(width) ? 0 : trunc(src(1, l) << s, t);
        break;
      }
      case Opcode::Shr: {
        const std::uint64_t s = std::min<std::uint64_t>(as_unsigned(src(2, l), Type::U32), static_cast<std::uint64_t>(width));
        if (is_signed(t)) r = trunc(static_cast<std::uint64_t>(as_signed(src(1, l), t) >> std::min<std::uint64_t>(s, 63)), t);
        else r = s >= static_cast<std::uint64_t>(width) ? 0 : as_unsigned(src(1, l), t) >> s;
        break;
      }
      case Opcode::Setp: {
        const std::size_t first = in.pair_dest ? 2 : 1;
        bool v = alu::compare(src(first, l), src(first + 1, l), in.type, in.cmp);
        bool q = !v;
        if (in.bool_op != BoolOp::None) {
          const bool cc = src(first + 2, l) != 0;
          auto comb = [&](bool x) { return in.bool_op == BoolOp::And ? (x && cc) : in.bool_op == BoolOp::Or ? (x || cc) : (x != cc); };
          v = comb(v);
          q = comb(q);
        }
        if (in.pair_dest) set(f, ops[1].reg, l, q);
        r = v;
        break;
      }
      case Opcode::Selp: r = src(3, l) != 0 ? src(1, l) : src(2, l); break;
      case Opcode::Slct: {
        const std::uint64_t cv = src(3, l);
        // slct.f32: a NaN selector is unordered and selects b (PTX ISA, slct).
        const bool ge = in.type2 == Type::F32 ? f32(cv) >= 0.0f : as_signed(cv, Type::S32) >= 0;
        r = ge ? src(1, l) : src(2, l);
        break;
      }
      case Opcode::Rcp: r = f32t ? fl(1.0f / fin(src(1, l))) : dbl(1.0 / f64(src(1, l))); break;
      case Opcode::Sqrt: r = f32t ? fl(std::sqrt(fin(src(1, l)))) : dbl(std::sqrt(f64(src(1, l)))); break;
      case Opcode::Rsqrt: r = f32t ? fl(1.0f / std::sqrt(fin(src(1, l)))) : dbl(1.0 / std::sqrt(f64(src(1, l)))); break;
      case Opcode::Ex2: r = fl(std::exp2(fin(src(1, l)))); break;
      case Opcode::Lg2: r = fl(std::log2(fin(src(1, l)))); break;
      case Opcode::Sin: r = fl(std::sin(fin(src(1, l)))); break;
      case Opcode::Cos: r = fl(std::cos(fin(src(1, l)))); break;
      case Opcode::Tanh: r = fl(std::tanh(fin(src(1, l)))); break;
      case Opcode::Copysign:
        r = f32t ? alu::bits(std::copysign(f32(src(2, l)), f32(src(1, l)))) : alu::bits(std::copysign(f64(src(2, l)), f64(src(1, l))));
        break;
      case Opcode::Testp: {
        const double x = f32t ? static_cast<double>(f32(src(1, l))) : f64(src(1, l));
        const int cls = f32t ? std::fpclassify(f32(src(1, l))) : std::fpclassify(x);
        switch (static_cast<int>(in.cmp)) {
          case 0: r = std::isfinite(x); break;
          case 1: r = std::isinf(x); break;
          case 2: r = !std::isnan(x); break;
          case 3: r = std::isnan(x); break;
          case 4: r = cls == FP_NORMAL; break;
          default: r = cls == FP_SUBNORMAL; break;
        }
        break;
      }
      case Opcode::Popc: r = static_cast<std::uint64_t>(std::popcount(as_unsigned(src(1, l), t))); break;
      case Opcode::Clz: r = static_cast<std::uint64_t>(std::countl_zero(as_unsigned(src(1, l), t)) - (64 - width)); break;
      case Opcode::Brev: {
        std::uint64_t a = as_unsigned(src(1, l), t), v = 0;
        for (int k = 0; k < width; ++k) v |= ((a >> k) & 1u) << (width - 1 - k);
        r = v;
        break;
      }
      case Opcode::Bfe: {
        const std::uint64_t a = src(1, l);
        const std::uint32_t pos = static_cast<std::uint32_t>(src(2, l)) & 0xffu, len = static_cast<std::uint32_t>(src(3, l)) & 0xffu;
        std::uint64_t v = 0;
        for (int k = 0; k < width; ++k) {
          std::uint64_t bit = 0;
          if (static_cast<std::uint32_t>(k) < len && pos + static_cast<std::uint32_t>(k) < static_cast<std::uint32_t>(width))
            bit = (a >> (pos + static_cast<std::uint32_t>(k))) & 1u;
          else if (is_signed(t) && static_cast<std::uint32_t>(k) >= len && len > 0)
            bit = (a >> std::min<std::uint32_t>(pos + len - 1, static_cast<std::uint32_t>(width - 1))) & 1u;
          v |= bit << k;
        }
        r = v;
        break;
      }
      case Opcode::Bfi: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        const std::uint32_t pos = static_cast<std::uint32_t>(src(3, l)) & 0xffu, len = static_cast<std::uint32_t>(src(4, l)) & 0xffu;
        std::uint64_t v = y;
        for (std::uint32_t k = 0; k < len && pos + k < static_cast<std::uint32_t>(width); ++k) {
          v &= ~(1ull << (pos + k));
          v |= ((a >> k) & 1u) << (pos + k);
        }
        r = trunc(v, t);
        break;
      }
      case Opcode::Prmt: r = alu::prmt(static_cast<std::uint32_t>(src(1, l)), static_cast<std::uint32_t>(src(2, l)), static_cast<std::uint32_t>(src(3, l))); break;
      case Opcode::Lop3: {
        const std::uint64_t a = src(1, l), y = src(2, l), z = src(3, l);
        const std::uint32_t lut = static_cast<std::uint32_t>(src(4, l)) & 0xffu;
        std::uint64_t v = 0;
        for (int k = 0; k < 32; ++k) {
          const std::uint32_t idx = static_cast<std::uint32_t>(((a >> k) & 1u) << 2 | ((y >> k) & 1u) << 1 | ((z >> k) & 1u));
          v |= static_cast<std::uint64_t>((lut >> idx) & 1u) << k;
        }
        r = v;
        break;
      }
      case Opcode::Shf: {
        const std::uint64_t lo = as_unsigned(src(1, l), Type::U32), hi = as_unsigned(src(2, l), Type::U32);
        std::uint32_t n = static_cast<std::uint32_t>(src(3, l));
        n = in.shift_clamp ? std::min<std::uint32_t>(n, 32) : (n & 31u);
        const std::uint64_t both = (hi << 32) | lo;
        r = in.shift_left ? static_cast<std::uint32_t>((both << n) >> 32) : static_cast<std::uint32_t>(both >> n);
        break;
      }
      case Opcode::Sad: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        const std::uint64_t diff = is_signed(t) ? static_cast<std::uint64_t>(std::llabs(as_signed(a, t) - as_signed(y, t)))
                                                : (as_unsigned(a, t) > as_unsigned(y, t) ? as_unsigned(a, t) - as_unsigned(y, t) : as_unsigned(y, t) - as_unsigned(a, t));
        r = trunc(diff + src(3, l), t);
        break;
      }
      case Opcode::Dp4a: {
        const std::uint32_t a = static_cast<std::uint32_t>(src(1, l)), y = static_cast<std::uint32_t>(src(2, l));
        std::int64_t acc = as_signed(src(3, l), Type::S32);
        const bool sa = is_signed(in.type), sb = is_signed(in.type2 == Type::None ? in.type : in.type2);
        for (int k = 0; k < 4; ++k) {
          const std::int64_t x = sa ? static_cast<std::int8_t>(a >> (8 * k)) : static_cast<std::int64_t>((a >> (8 * k)) & 0xffu);
          const std::int64_t z = sb ? static_cast<std::int8_t>(y >> (8 * k)) : static_cast<std::int64_t>((y >> (8 * k)) & 0xffu);
          acc += x * z;
        }
        r = trunc(static_cast<std::uint64_t>(acc), Type::U32);
        break;
      }
      default: fault(w, f.fn, in, l, "not supported by the interpreter");
    }
    set(f, d, l, r);
  }
}

Interpreter::Interpreter(ModuleState& state, LaunchParams launch) : impl_(std::make_unique<Impl>(state, std::move(launch))) {}
Interpreter::~Interpreter() = default;
bool Interpreter::run(std::vector<WarpAccess>& out, std::size_t want) { return impl_->run(out, want); }
std::uint32_t Interpreter::static_shared_bytes() const { return impl_->static_shared; }
std::uint64_t Interpreter::local_bytes_per_thread() const { return impl_->local_per_thread; }
std::uint64_t Interpreter::warp_instructions() const { return impl_->warp_insts; }
std::uint64_t Interpreter::thread_instructions() const { return impl_->thread_insts; }
std::uint64_t Interpreter::ctas_started() const { return impl_->next_cta; }

std::map<std::uint64_t, SourceLocation> Interpreter::lines() const {
  std::map<std::uint64_t, SourceLocation> out;
  const Module& m = impl_->m;
  for (std::uint32_t f : impl_->reach) {
    const Function& fn = m.functions[f];
    for (std::size_t i = 0; i < fn.code.size(); ++i) {
      const Instruction& in = fn.code[i];
      SourceLocation loc;
      if (in.loc_file >= 0 && static_cast<std::size_t>(in.loc_file) < m.files.size() && !m.files[static_cast<std::size_t>(in.loc_file)].empty()) {
        loc.file = m.files[static_cast<std::size_t>(in.loc_file)];
        loc.line = in.loc_line;
      } else {
        loc.file = m.path;
        loc.line = in.ptx_line;
      }
      out[impl_->pc_base[f] + i] = loc;
    }
  }
  return out;
}

std::map<std::uint64_t, AtomicOp> Interpreter::atomics() const {
  std::map<std::uint64_t, AtomicOp> out;
  for (std::uint32_t f : impl_->reach) {
    const Function& fn = impl_->m.functions[f];
    for (std::size_t i = 0; i < fn.code.size(); ++i)
      if (fn.code[i].op == Opcode::Atom || fn.code[i].op == Opcode::Red) out[impl_->pc_base[f] + i] = fn.code[i].atomic;
  }
  return out;
}

}  // namespace warpscope::ptx
