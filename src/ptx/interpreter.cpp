#include "ptx/interpreter_impl.hpp"

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
      if (exec) fault(w, in, std::countr_zero(exec), "the kernel executed trap");
      e.pc = pc + 1;
      return;
    case Opcode::Call:
      e.pc = pc + 1;
      if (exec) call(w, f, pc, in, exec);
      return;
    case Opcode::Bar: {
      e.pc = pc + 1;
      if (exec == 0) return;  // predicated off in every lane: no barrier
      if (in.bar == BarMode::Sync || in.bar == BarMode::Arrive) {
        // bar.sync / bar.arrive id{, count}: with a count, a named barrier of that many threads.
        const auto lane0 = static_cast<std::uint32_t>(std::countr_zero(exec));
        const auto id = in.operands.empty() ? 0u : static_cast<std::uint32_t>(value(c, w, f, in.operands[0], static_cast<int>(lane0)));
        const auto count = in.operands.size() > 1 ? static_cast<std::uint32_t>(value(c, w, f, in.operands[1], static_cast<int>(lane0))) : 0u;
        if (in.bar == BarMode::Arrive) {
          if (count > 0) {
            c.bar_arrived[id] += 32;
            open_named_barrier(c, id, count);
          }
          return;
        }
        w.bar_id = id;
        w.bar_count = count;
      }
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
    case Opcode::BulkCopy:
      e.pc = pc + 1;
      if (exec) bulk_copy(c, w, f, pc, in, exec);
      return;
    case Opcode::TensorCopy:
      e.pc = pc + 1;
      if (exec) tensor_copy(c, w, f, pc, in, exec);
      return;
    case Opcode::Mbarrier:
      e.pc = pc + 1;
      if (exec) mbarrier_op(c, w, f, in, exec);
      return;
    case Opcode::Ldmatrix: case Opcode::Stmatrix:
      e.pc = pc + 1;
      matrix_move(c, w, f, pc, in, exec);
      return;
    case Opcode::Mma:
      e.pc = pc + 1;
      mma(w, f, in, exec);
      return;
    case Opcode::WmmaLoad: case Opcode::WmmaStore:
      e.pc = pc + 1;
      wmma_move(c, w, f, pc, in, exec);
      return;
    case Opcode::WmmaMma:
      e.pc = pc + 1;
      wmma_mma(w, f, in, exec);
      return;
    case Opcode::Wgmma:
      e.pc = pc + 1;
      wgmma(c, w, f, pc, in, exec);
      return;
    case Opcode::Tex:
      e.pc = pc + 1;
      texture_fetch(c, w, f, pc, in, exec);
      return;
    case Opcode::BarCluster:
      e.pc = pc + 1;
      cluster_barrier(w, in, exec);
      return;
    case Opcode::Mapa: case Opcode::Getctarank:
      e.pc = pc + 1;
      for (std::uint32_t b = exec; b; b &= b - 1) {
        const int l = std::countr_zero(b);
        // A generic address must lie in the shared window; a .shared::cluster one is an offset or mapa's form.
        const bool generic = in.space != StateSpace::SharedCluster;
        const std::uint64_t a = value(c, w, f, in.operands[1], l);
        if (generic && (a < kSharedWindow || a - kSharedWindow >= kWindowSize))
          fault(w, in, l, fmt::format("0x{:x} is not a generic address of shared memory", a));
        const std::uint64_t sa = generic ? a - kSharedWindow : a;
        if (in.op == Opcode::Getctarank) {
          const std::uint32_t r = rank_of(c, sa);
          if (r >= cluster_size) fault(w, in, l, fmt::format("shared::cluster address 0x{:x} names no CTA of a cluster of {}", sa, cluster_size));
          set(f, in.operands[0].reg, l, r);
          continue;
        }
        const auto r = static_cast<std::uint32_t>(value(c, w, f, in.operands[2], l));
        if (r >= cluster_size) fault(w, in, l, fmt::format("mapa to CTA rank {} of a cluster of {}", r, cluster_size));
        set(f, in.operands[0].reg, l, (generic ? kSharedWindow : 0) + cluster_address(r, sa));
      }
      return;
    case Opcode::Unsupported:
      fault(w, in, std::countr_zero(mask), "not supported by the interpreter");
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
    fault(w, in, std::countr_zero(exec), "parameter space through a register address is not supported");
  const std::uint32_t bytes = static_cast<std::uint32_t>(elem) * in.vec;
  std::array<Place, 32> places{};
  for (std::uint32_t b = exec; b; b &= b - 1) {
    const int l = std::countr_zero(b);
    Place& pl = places[static_cast<std::size_t>(l)];
    locate(c, w, f, in, l, in.space, address_of(f, addr_op, l), bytes, pl);
    if (!is_ld && pl.space == Space::Const && pl.recorded) fault(w, in, l, "a write to constant memory");
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
      if (in.atomic == AtomicOp::Cas) nv = trunc(old, t) == trunc(x, t) ? value(c, w, f, in.operands[first + 1], l) : old;
      else if (!alu::combine(in.atomic, old, x, t, nv)) fault(w, in, l, "an atomic operation the interpreter does not know");
      store_bytes(p, nv, elem);
      if (atom) set(f, in.operands[0].reg, l, old);
    }
  }
  if (in.async_tx) {  // st.async / red.async: each lane's bytes complete the mbarrier of the CTA they land in
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      Place pl;
      locate(c, w, f, in, l, StateSpace::SharedCluster, address_of(f, in.operands[2], l), 8, pl);
      if (pl.owner != places[static_cast<std::size_t>(l)].owner)
        fault(w, in, l, "the mbarrier is in another CTA than the bytes it counts (st.async and red.async complete the written CTA's)");
      MBarrier& barrier = mbarrier_at(*pl.owner, w, in, l, pl.record_addr);
      barrier.tx -= static_cast<std::int64_t>(bytes);
      complete_if_done(*pl.owner, barrier);
    }
  }
  emit(c, w, f, pc, in, op, static_cast<std::uint8_t>(std::min<std::uint32_t>(bytes, 255)), places, exec);
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

std::set<std::uint64_t> Interpreter::generic_pcs() const {
  std::set<std::uint64_t> out;
  for (std::uint32_t f : impl_->reach) {
    const Function& fn = impl_->m.functions[f];
    for (std::size_t i = 0; i < fn.code.size(); ++i) {
      const Instruction& in = fn.code[i];
      const bool moves = in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::WmmaLoad || in.op == Opcode::WmmaStore;
      if (moves && in.space == StateSpace::Generic) out.insert(impl_->pc_base[f] + i);
    }
  }
  return out;
}

bool Interpreter::moves_wmma_fragments() const {
  for (std::uint32_t f : impl_->reach)
    for (const Instruction& in : impl_->m.functions[f].code)
      if (in.op == Opcode::WmmaLoad || in.op == Opcode::WmmaStore) return true;
  return false;
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
