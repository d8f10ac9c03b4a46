// The interpreter's wmma instructions (Interpreter::Impl::wmma_move, wmma_mma), what nvcuda::wmma
// compiles to: wmma.load / wmma.store move a fragment between memory and the warp's registers,
// wmma.mma multiplies fragments. Both need the whole warp (.sync.aligned). Where the elements sit
// and which memory instructions a load or store becomes are the H100's (wmma_layout.hpp): the values
// go straight between memory and registers, and the records are those of ptxas's instructions, so a
// PTX run counts what Nsight Compute counts (validation/h100/wmma_probe).
#include "ptx/interpreter_impl.hpp"
#include "ptx/matrix_arith.hpp"
#include "ptx/wmma_layout.hpp"

namespace warpscope::ptx {
namespace {

// Register and byte position of a fragment's element e (registers hold .f64 elements whole).
struct Slot {
  std::size_t reg;
  int index;
};
Slot slot(const WmmaLayout& l, unsigned e) {
  if (l.elem_bytes == 8) return {e, 0};
  const unsigned per = 4u / l.elem_bytes;
  return {e / per, static_cast<int>(e % per)};
}

}  // namespace

void Interpreter::Impl::wmma_move(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
  need_whole_warp(w, in, exec);
  const bool load = in.op == Opcode::WmmaLoad;
  const WmmaLayout l = *wmma_layout(in.wmma_use, in.mma_m, in.mma_n, in.mma_k, in.type, in.tf32);
  const Operand& addr = in.operands[load ? 1 : 0];
  const Operand& regs = in.operands[load ? 0 : 1];
  // One matrix for the warp: every lane must give the same address and stride (.aligned). Without a
  // stride the matrix is taken as dense: its rows (or columns) back to back.
  const bool has_stride = in.operands.size() == 3;
  const std::uint64_t base = address_of(f, addr, 0);
  const std::uint64_t ld = has_stride ? value(c, w, f, in.operands[2], 0) & 0xffffffffu : (in.col_major ? l.rows : l.cols);
  for (int lane = 1; lane < 32; ++lane) {
    if (address_of(f, addr, lane) != base)
      fault(w, in, lane, fmt::format("the matrix address 0x{:x} differs from lane 0's 0x{:x}", address_of(f, addr, lane), base));
    if (has_stride && (value(c, w, f, in.operands[2], lane) & 0xffffffffu) != ld)
      fault(w, in, lane, fmt::format("the stride {} differs from lane 0's {}", value(c, w, f, in.operands[2], lane) & 0xffffffffu, ld));
  }
  if (ld < (in.col_major ? l.rows : l.cols))
    fault(w, in, 0, fmt::format("the stride {} is less than the {} elements of a {}", ld, in.col_major ? l.rows : l.cols, in.col_major ? "column" : "row"));

  // The values, element by element.
  const int eb = l.elem_bytes;
  const std::size_t unique = l.elem_bytes == 8 ? l.elements() : l.elements() * l.elem_bytes / 4u;
  Place pl;
  for (int lane = 0; lane < 32; ++lane) {
    std::array<std::uint64_t, 8> word{};
    for (unsigned e = 0; e < l.elements(); ++e) {
      const auto [row, col] = l.place(lane, e);
      locate(c, w, f, in, lane, in.space, base + wmma_offset(l, row, col, ld, in.col_major), static_cast<std::uint32_t>(eb), pl);
      const Slot s = slot(l, e);
      if (load) {
        word[s.reg] |= load_bytes(pl.p, eb) << (8 * eb * s.index);
      } else {
        const std::int32_t r = regs.regs[s.reg];
        store_bytes(pl.p, matrix::element(r >= 0 ? reg(f, r, lane) : 0, s.index, eb), eb);
      }
    }
    if (load)
      for (std::size_t i = 0; i < regs.count; ++i)
        if (regs.regs[i] >= 0) set(f, regs.regs[i], lane, word[i % unique]);
  }

  // The records: ptxas's memory instructions for this load or store.
  const WmmaPlan plan = wmma_plan(l, in.wmma_use, in.col_major, in.space == StateSpace::Shared);
  std::array<Place, 32> places{};
  for (std::size_t k = 0; k < plan.count; ++k) {
    const WmmaAccess& a = plan.access[k];
    std::uint32_t lanes = 0xffffffffu;
    Op op = load ? Op::Load : Op::Store;
    for (int lane = 0; lane < 32; ++lane) {
      std::uint64_t at = 0;
      if (a.kind == WmmaAccess::Kind::PerElement) {
        const auto [row, col] = l.place(lane, a.index);
        at = wmma_offset(l, row, col, ld, in.col_major);
      } else {
        // The run's (or block's) origin in memory rows and columns; lane 8 i + r of an ldmatrix gives
        // row r of block i, lane (g, q) of a 4-byte access word q of row g.
        const unsigned run = a.kind == WmmaAccess::Kind::Ldmatrix ? a.index + static_cast<unsigned>(lane) / 8 : a.index;
        if (a.kind == WmmaAccess::Kind::Ldmatrix && static_cast<unsigned>(lane) / 8 >= a.matrices) break;
        const auto& o = l.offset[run];
        const unsigned mrow0 = in.col_major ? o[1] : o[0], mcol0 = in.col_major ? o[0] : o[1];
        const unsigned g = static_cast<unsigned>(lane) / 4, q = static_cast<unsigned>(lane) % 4;
        const unsigned mrow = a.kind == WmmaAccess::Kind::Ldmatrix ? mrow0 + static_cast<unsigned>(lane) % 8 : mrow0 + g;
        const unsigned mcol = a.kind == WmmaAccess::Kind::Ldmatrix ? mcol0 : mcol0 + q * (a.bytes / l.elem_bytes);
        at = (mrow * ld + mcol) * l.elem_bytes;
      }
      locate(c, w, f, in, lane, in.space, base + at, a.bytes, places[static_cast<std::size_t>(lane)]);
    }
    if (a.kind == WmmaAccess::Kind::Ldmatrix) {
      op = Op::LoadMatrix;
      lanes = matrix_row_lanes(a.matrices);
      for (std::uint32_t b = lanes; b; b &= b - 1)
        if (places[static_cast<std::size_t>(std::countr_zero(b))].space != Space::Shared)
          fault(w, in, std::countr_zero(b), "an ldmatrix row outside shared memory");
    }
    emit(c, w, f, pc, in, op, a.bytes, places, lanes);
  }
}

// D = A B + C on the matrices the fragments hold (their places: wmma_layout.hpp), then D into its
// fragment. The arithmetic is mma.sync's (matrix_arith.hpp).
void Interpreter::Impl::wmma_mma(Warp& w, Frame& f, const Instruction& in, std::uint32_t exec) {
  need_whole_warp(w, in, exec);
  const unsigned M = in.mma_m, N = in.mma_n, K = in.mma_k;
  const WmmaLayout ld = *wmma_layout('c', M, N, K, in.type, false), la = *wmma_layout('a', M, N, K, in.type2, in.tf32),
                   lb = *wmma_layout('b', M, N, K, in.type3, in.tf32), lc = *wmma_layout('c', M, N, K, in.type4, false);
  const Operand &D = in.operands[0], &A = in.operands[1], &B = in.operands[2], &C = in.operands[3];
  std::array<double, 32 * 16> a{}, b{}, acc{};  // M x K, K x N, M x N: at most 512 elements
  auto gather = [&](const WmmaLayout& l, const Operand& o, Type t, bool tf32, double* into, unsigned width) {
    for (int lane = 0; lane < 32; ++lane)
      for (unsigned e = 0; e < l.elements(); ++e) {
        const Slot s = slot(l, e);
        const std::int32_t r = o.regs[s.reg];
        const auto [row, col] = l.place(lane, e);
        into[row * width + col] = matrix::number(matrix::element(r >= 0 ? reg(f, r, lane) : 0, s.index, l.elem_bytes), t, tf32);
      }
  };
  gather(la, A, in.type2, in.tf32, a.data(), K);
  gather(lb, B, in.type3, in.tf32, b.data(), N);
  gather(lc, C, in.type4, false, acc.data(), N);
  matrix::multiply(a.data(), b.data(), acc.data(), M, N, K, in.type, in.satfinite);
  for (int lane = 0; lane < 32; ++lane) {
    std::array<std::uint64_t, 8> word{};
    for (unsigned e = 0; e < ld.elements(); ++e) {
      const auto [row, col] = ld.place(lane, e);
      const Slot s = slot(ld, e);
      word[s.reg] |= matrix::bits_of(acc[row * N + col], in.type) << (8 * ld.elem_bytes * s.index);
    }
    for (std::size_t i = 0; i < D.count; ++i)
      if (D.regs[i] >= 0) set(f, D.regs[i], lane, word[i]);
  }
}

}  // namespace warpscope::ptx
