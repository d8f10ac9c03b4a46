// wgmma.mma_async for the interpreter (PTX ISA 9.7.15, sm_90a): a warpgroup (four consecutive warps, the first a
// multiple of 4) computes D (64 x N) = A (64 x K) B (K x N) + D. A comes from shared memory through a matrix
// descriptor or from registers, B through a descriptor (ptx/wgmma_layout.hpp). Warp r of the group owns rows
// 16 r .. 16 r + 15 of A and D, so each warp computes its share alone, when it runs: the asynchronous
// completion that wgmma.fence / commit_group / wait_group order is immediate here.
// Fragments (PTX ISA 9.7.15.5.1, the register layouts of D and of A in registers), with g = lane / 4, q = lane % 4:
//   D: N / 8 blocks of 8 columns, block j element e (registers in order, two to a register for .f16) at row
//      g + 8 (e / 2), column 8 j + 2 q + e % 2 (mma.sync's m16n8 accumulator, repeated along N);
//   A in registers: mma.sync's m16n8k16 / k8 (.tf32) / k32 (8-bit) A fragment.
// The tensor cores' own rounding is not modelled: products and sums in double precision, rounded once to D
// (matrix_arith.hpp; exact for the small integers of validation/h100/wgmma_probe).
// Records: one Op::GmmaRead a warp (types.hpp), its share of the shared-memory reads: its 16 rows of A when A is in
// shared memory, and all of B on the group's first warp. The H100 counts them apart from every LSU shared access
// (op_gmma), in 128-byte wavefronts without conflicts, and each warp counts the instruction
// (validation/h100/wgmma_probe).
#include <vector>

#include "ptx/interpreter_impl.hpp"
#include "ptx/matrix_arith.hpp"
#include "ptx/wgmma_layout.hpp"

namespace warpscope::ptx {
using matrix::element;
using matrix::number;

void Interpreter::Impl::wgmma(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
  need_whole_warp(w, in, exec);
  const unsigned N = in.mma_n, K = in.mma_k, rank = w.index % 4;
  const unsigned ebytes = static_cast<unsigned>(type_bytes(in.type2));  // .tf32: 4 (an .f32)
  const unsigned per = 4u / ebytes;  // elements of A to a register
  const Operand &A = in.operands[1], &B = in.operands[2];
  const bool a_regs = A.kind == OperandKind::Vector;
  const bool halves = in.type2 == Type::F16 || in.type2 == Type::BF16;
  // imm-trans-a / imm-trans-b: the operand is M/N-major (16-bit floats only; the others are always K-major).
  const bool trans_a = halves && !a_regs && in.operands[6].imm != 0;
  const bool trans_b = halves && in.operands.back().imm != 0;
  const auto scale = [&](std::size_t k) {
    return in.type != Type::S32 && static_cast<std::int32_t>(in.operands[k].imm) == -1 ? -1.0 : 1.0;
  };
  const double scale_a = scale(4), scale_b = scale(5);
  const bool accumulate = value(c, w, f, in.operands[3], 0) != 0;

  // A descriptor is one value for the warpgroup: a lane that holds another is the kernel's bug.
  const auto descriptor = [&](const Operand& o, char name) {
    const std::uint64_t d = value(c, w, f, o, 0);
    for (int l = 1; l < 32; ++l)
      if (value(c, w, f, o, l) != d)
        fault(w, in, l, fmt::format("the {} descriptor 0x{:x} differs from lane 0's 0x{:x}", name, value(c, w, f, o, l), d));
    return decode_gmma_descriptor(d);
  };
  const auto shared_element = [&](const GmmaDescriptor& g, unsigned mn, unsigned k, bool k_major, char name) {
    const std::uint64_t a = gmma_element_address(g, mn, k, ebytes, k_major);
    if (a + ebytes > c.shared.size())
      fault(w, in, 0, fmt::format("{} element ({}, {}) at shared 0x{:x} is past the CTA's {} bytes of shared memory", name,
                                  name == 'A' ? mn : k, name == 'A' ? k : mn, a, c.shared.size()));
    return load_bytes(c.shared.data() + a, static_cast<int>(ebytes));
  };
  const bool tf32 = in.tf32;
  std::vector<double> a(16u * K), b(std::size_t{K} * N), acc(16u * N, 0.0);
  if (a_regs) {
    for (int lane = 0; lane < 32; ++lane) {
      const unsigned g = static_cast<unsigned>(lane) / 4, q = static_cast<unsigned>(lane) % 4;
      for (unsigned i = 0; i < 4; ++i)
        for (unsigned j = 0; j < per; ++j) {
          const unsigned row = g + 8 * (i % 2), col = q * per + j + 4 * per * (i / 2);
          a[row * K + col] = number(element(reg(f, A.regs[i], lane), static_cast<int>(j), static_cast<int>(ebytes)), in.type2, tf32);
        }
    }
  }
  GmmaDescriptor ga;
  if (!a_regs) {
    const GmmaDescriptor g = descriptor(A, 'A');
    ga = g;
    for (unsigned row = 0; row < 16; ++row)
      for (unsigned k = 0; k < K; ++k) a[row * K + k] = number(shared_element(g, 16 * rank + row, k, !trans_a, 'A'), in.type2, tf32);
  }
  const GmmaDescriptor gb = descriptor(B, 'B');
  for (unsigned k = 0; k < K; ++k)
    for (unsigned n = 0; n < N; ++n) b[k * N + n] = number(shared_element(gb, n, k, !trans_b, 'B'), in.type3, tf32);
  WarpAccess rec = bulk_record(c, w, f, pc, false);
  rec.space = Space::Shared;
  rec.op = Op::GmmaRead;
  rec.active = LaneMask(kGmmaMask);
  rec.addr[0] = a_regs ? gb.start : ga.start;
  rec.addr[1] = (a_regs ? 0u : 16u * K * ebytes) + (rank == 0 ? std::uint64_t{N} * K * ebytes : 0u);
  out->push_back(rec);
  for (double& x : a) x *= scale_a;
  for (double& x : b) x *= scale_b;

  const bool half_d = in.type == Type::F16;
  const auto place = [&](unsigned lane, unsigned e) {  // D element e of a lane: (row, column) in the warp's 16 x N
    const unsigned g = lane / 4, q = lane % 4, j = e / 4, r = e % 4;
    return std::pair{g + 8 * (r / 2), 8 * j + 2 * q + r % 2};
  };
  const std::size_t elements = N / 2;  // per lane
  if (accumulate)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned e = 0; e < elements; ++e) {
        const auto [row, col] = place(lane, e);
        const std::uint64_t r = reg(f, in.fragment[half_d ? e / 2 : e], static_cast<int>(lane));
        acc[row * N + col] = half_d ? alu::f16_to_f32(static_cast<std::uint16_t>(element(r, static_cast<int>(e % 2), 2)))
                             : in.type == Type::S32 ? static_cast<double>(alu::sext(r, 4)) : alu::f32(r);
      }
  matrix::multiply(a.data(), b.data(), acc.data(), 16, N, K, in.type, in.satfinite);
  for (unsigned lane = 0; lane < 32; ++lane) {
    std::uint64_t packed = 0;
    for (unsigned e = 0; e < elements; ++e) {
      const auto [row, col] = place(lane, e);
      const std::uint64_t bits = matrix::bits_of(acc[row * N + col], in.type);
      if (!half_d) {
        set(f, in.fragment[e], static_cast<int>(lane), bits);
        continue;
      }
      packed |= bits << (16 * (e % 2));
      if (e % 2 == 1) {
        set(f, in.fragment[e / 2], static_cast<int>(lane), packed);
        packed = 0;
      }
    }
  }
}

}  // namespace warpscope::ptx
