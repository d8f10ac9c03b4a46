// The interpreter's warp-wide matrix instructions (Interpreter::Impl::matrix_move, mma): ldmatrix and
// stmatrix move 8x8 matrices of 16-bit elements between shared memory rows and the warp's registers;
// mma.sync multiplies fragments held across the warp's registers. Both need the whole warp
// (.sync.aligned). The element placement is the PTX ISA's (9.7.14.5.14-16), checked against the H100's
// results in tests/validation/h100_matrix_probe_test.cpp.
#include <cmath>

#include "ptx/alu.hpp"
#include "ptx/interpreter_impl.hpp"
#include "ptx/matrix_arith.hpp"

namespace warpscope::ptx {
using matrix::element;
using matrix::number;

void Interpreter::Impl::need_whole_warp(const Warp& w, const Instruction& in, std::uint32_t exec) const {
  if (exec != 0xffffffffu)
    fault(w, in, std::countr_zero(exec),
          fmt::format("needs all 32 lanes of the warp (.sync.aligned), executed by lanes {:#010x}", exec));
}

// ldmatrix: lane 8m + r gives the address of row r of matrix m; thread t receives, in register m,
// elements (t / 4, 2 (t % 4)) and (t / 4, 2 (t % 4) + 1) of matrix m, or with .trans elements
// (2 (t % 4), t / 4) and (2 (t % 4) + 1, t / 4). stmatrix stores the same places from the registers.
void Interpreter::Impl::matrix_move(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
  need_whole_warp(w, in, exec);
  const bool load = in.op == Opcode::Ldmatrix;
  const Operand& addr = in.operands[load ? 1 : 0];
  const Operand& regs = in.operands[load ? 0 : 1];
  const int matrices = in.vec;
  const std::uint32_t row_lanes = matrix_row_lanes(static_cast<unsigned>(matrices));
  std::array<Place, 32> rows{};
  for (std::uint32_t b = row_lanes; b; b &= b - 1) {
    const int l = std::countr_zero(b);
    Place& pl = rows[static_cast<std::size_t>(l)];
    locate(c, w, f, in, l, in.space, address_of(f, addr, l), 16, pl);
    if (pl.space != Space::Shared) fault(w, in, l, fmt::format("row address 0x{:x} is not in shared memory", pl.record_addr));
  }
  for (int mat = 0; mat < matrices; ++mat) {
    const std::int32_t r = regs.regs[static_cast<std::size_t>(mat)];
    if (load) {
      for (int t = 0; t < 32; ++t) {
        std::uint64_t v = 0;
        for (int j = 0; j < 2; ++j) {
          const int row = in.trans ? 2 * (t % 4) + j : t / 4, col = in.trans ? t / 4 : 2 * (t % 4) + j;
          v |= load_bytes(rows[static_cast<std::size_t>(8 * mat + row)].p + 2 * col, 2) << (16 * j);
        }
        set(f, r, t, v);
      }
      continue;
    }
    // Rows that share an address: the H100 keeps the later matrix's row and, within a matrix, the row of
    // the lowest lane (every stmatrix checksum of validation/h100/matrix_probe, rows shared or not).
    for (int row = 7; row >= 0; --row)
      for (int col = 0; col < 8; ++col) {
        const int t = in.trans ? 4 * col + row / 2 : 4 * row + col / 2, j = in.trans ? row % 2 : col % 2;
        store_bytes(rows[static_cast<std::size_t>(8 * mat + row)].p + 2 * col, element(r >= 0 ? reg(f, r, t) : 0, j, 2), 2);
      }
  }
  emit(c, w, f, pc, in, load ? Op::LoadMatrix : Op::StoreMatrix, 16, rows, row_lanes);
}

// mma.sync D = A B + C for the shapes decode_mma admits. Fragments (PTX ISA 9.7.14.5.14), with g = lane / 4
// and q = lane % 4, for A (M x K, row) and B (K x N, col) of `per` elements a register:
//   A register i, element j: row g + 8 (i % 2), column q per + j + 4 per (i / 2)
//   B register i, element j: row q per + j + 4 per i, column g
//   C and D element e (registers in order, 2 to a register for .f16): row g + 8 (e / 2), column 2 q + e % 2
// and for m8n8k4 .f64: A (g, q), B (q, g), C/D register e: (g, 2 q + e). Floating-point products and sums
// are computed in double precision and rounded once to D's type (exact for the probe's small integers;
// the tensor cores' own accumulation order and rounding are not modelled); integers wrap in 32 bits
// (.satfinite clamps).
void Interpreter::Impl::mma(Warp& w, Frame& f, const Instruction& in, std::uint32_t exec) {
  need_whole_warp(w, in, exec);
  const unsigned M = in.mma_m, N = in.mma_n, K = in.mma_k;
  const bool f64 = in.type == Type::F64;
  const int ebytes = f64 ? 8 : in.tf32 ? 4 : type_bytes(in.type2);
  const unsigned per = f64 ? 1u : 4u / static_cast<unsigned>(ebytes);
  const Operand &D = in.operands[0], &A = in.operands[1], &B = in.operands[2], &C = in.operands[3];
  auto reg_of = [&](const Operand& o, std::size_t i, int lane) { return o.regs[i] >= 0 ? reg(f, o.regs[i], lane) : 0; };
  std::array<double, 16 * 32> a{};  // M x K, row-major
  std::array<double, 32 * 8> b{};   // K x N
  std::array<double, 16 * 8> acc{};  // M x N
  for (int lane = 0; lane < 32; ++lane) {
    const unsigned g = static_cast<unsigned>(lane) / 4, q = static_cast<unsigned>(lane) % 4;
    if (f64) {
      a[g * K + q] = alu::f64(reg_of(A, 0, lane));
      b[q * N + g] = alu::f64(reg_of(B, 0, lane));
      for (unsigned e = 0; e < 2; ++e) acc[g * N + 2 * q + e] = alu::f64(reg_of(C, e, lane));
      continue;
    }
    for (std::size_t i = 0; i < A.count; ++i)
      for (unsigned j = 0; j < per; ++j) {
        const unsigned row = g + 8 * (static_cast<unsigned>(i) % 2), col = q * per + j + 4 * per * (static_cast<unsigned>(i) / 2);
        a[row * K + col] = number(element(reg_of(A, i, lane), static_cast<int>(j), ebytes), in.type2, in.tf32);
      }
    for (std::size_t i = 0; i < B.count; ++i)
      for (unsigned j = 0; j < per; ++j) {
        const unsigned row = q * per + j + 4 * per * static_cast<unsigned>(i);
        b[row * N + g] = number(element(reg_of(B, i, lane), static_cast<int>(j), ebytes), in.type3, in.tf32);
      }
    for (unsigned e = 0; e < 4; ++e) {
      const std::uint64_t r = reg_of(C, in.type == Type::F16 ? e / 2 : e, lane);
      const std::uint64_t bits = in.type == Type::F16 ? element(r, static_cast<int>(e % 2), 2) : r;
      acc[(g + 8 * (e / 2)) * N + 2 * q + e % 2] =
          in.type == Type::F16 ? alu::f16_to_f32(static_cast<std::uint16_t>(bits))
          : in.type == Type::S32 ? static_cast<double>(alu::sext(bits, 4)) : alu::f32(bits);
    }
  }
  matrix::multiply(a.data(), b.data(), acc.data(), M, N, K, in.type, in.satfinite);
  for (int lane = 0; lane < 32; ++lane) {
    const unsigned g = static_cast<unsigned>(lane) / 4, q = static_cast<unsigned>(lane) % 4;
    if (f64) {
      for (unsigned e = 0; e < 2; ++e) set(f, D.regs[e], lane, alu::bits(acc[g * N + 2 * q + e]));
      continue;
    }
    std::array<std::uint64_t, 4> result{};
    for (unsigned e = 0; e < 4; ++e) {
      const double v = acc[(g + 8 * (e / 2)) * N + 2 * q + e % 2];
      if (in.type == Type::F16) result[e / 2] |= matrix::bits_of(v, Type::F16) << (16 * (e % 2));
      else result[e] = matrix::bits_of(v, in.type);
    }
    for (std::size_t i = 0; i < D.count; ++i) set(f, D.regs[i], lane, result[i]);
  }
}

}  // namespace warpscope::ptx
