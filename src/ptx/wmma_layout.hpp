#pragma once
// Where the elements of a wmma fragment sit in the warp's registers, and which memory instructions
// ptxas makes of a wmma.load / wmma.store. PTX leaves both to the implementation (PTX ISA 9.7.14.4:
// "the mapping of matrix elements into fragments is unspecified"); both are measured on the H100
// (validation/h100/wmma_probe: a fragment loaded from a matrix whose element i holds i, every lane's
// registers written out, and the SASS of every load and store; sm_80, sm_86 and sm_89 compile the probe
// to the same memory instructions as sm_90).
//
// Every fragment is the warp's share of one matrix (A: M x K, B: K x N, C/D: M x N) in "runs": with
// g = lane / 4 and q = lane % 4, run j of a lane holds `run` consecutive elements, either along a row
// (row g + dr, columns run q + dc ..) or, for fragments held transposed, along a column (rows run q + dr ..,
// column g + dc), (dr, dc) being the run's offset. The registers hold the runs in order, element after
// element, and .f16 A and B fragments repeat them to fill the 8 registers PTX gives them.
#include <array>
#include <cstdint>
#include <optional>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

struct WmmaLayout {
  std::uint8_t rows = 0, cols = 0;   // the matrix the fragment holds a share of
  std::uint8_t elem_bytes = 0;       // 1, 2, 4 or 8
  std::uint8_t run = 0;              // consecutive elements of a run
  bool transposed = false;           // runs go down a column (lane / 4 picks the column)
  std::uint8_t runs = 0;             // runs per lane, without repeats
  std::array<std::array<std::uint8_t, 2>, 8> offset{};  // (dr, dc) of each run
  std::uint8_t registers = 0;        // the PTX operand's registers (32-bit; .f64: 64-bit)

  unsigned elements() const { return static_cast<unsigned>(runs) * run; }
  // Row and column of a lane's element e (0 .. elements() - 1).
  std::array<unsigned, 2> place(int lane, unsigned e) const {
    const unsigned g = static_cast<unsigned>(lane) / 4, q = static_cast<unsigned>(lane) % 4;
    const auto& o = offset[e / run];
    const unsigned along = run * q + e % run;
    return transposed ? std::array<unsigned, 2>{along + o[0], g + o[1]} : std::array<unsigned, 2>{g + o[0], along + o[1]};
  }
};

// The layout of fragment `use` ('a', 'b', 'c': C and D) of shape m x n x k with elements of type t
// (tf32: .tf32 A/B, stored as .f32), or nothing for a combination PTX or the measurement lacks.
std::optional<WmmaLayout> wmma_layout(char use, unsigned m, unsigned n, unsigned k, Type t, bool tf32);

// One memory instruction of a lowered wmma.load / wmma.store: every lane accesses `bytes` bytes at the
// element (row, col) of run `index` (per_run) or of element `index` (per element); for ldmatrix, lanes
// 8 i + r give row r of the 8 x 16-byte block of run index + i.
struct WmmaAccess {
  enum class Kind : std::uint8_t { PerRun, PerElement, Ldmatrix } kind = Kind::PerRun;
  std::uint8_t index = 0;
  std::uint8_t bytes = 0;     // PerRun / PerElement: bytes per lane
  std::uint8_t matrices = 0;  // Ldmatrix: .x1 .x2 .x4
};

// What ptxas (CUDA 13.0, sm_80 - sm_90) makes of a wmma.load (load) or wmma.store of fragment `l` with
// row- or column-major memory, in a state space known to be shared (`shared`) or not:
//   - A and B of 16-bit elements in .shared memory, and those of 8-bit elements whose runs lie along
//     the memory's rows: ldmatrix (LDSM .x4 for each 4 runs, each run one 8 x 16-byte block);
//   - other 16-bit fragments, and 8-bit ones whose runs lie along memory rows: one 4-byte access per
//     run, each lane reading word q of the run's row g (transposed fragments are then moved across the
//     warp with MOVM, no memory traffic);
//   - 32- and 64-bit elements: one access of a whole run where the run is contiguous in memory (an .f32
//     accumulator in row-major memory: 8 bytes), else one per element; 8-bit runs across memory rows:
//     one byte per element.
// At most 16 accesses (8-bit A of m32n8k16 read column-major: 16 bytes a lane).
struct WmmaPlan {
  std::array<WmmaAccess, 16> access{};
  std::uint8_t count = 0;
};
WmmaPlan wmma_plan(const WmmaLayout& l, char use, bool col_major, bool shared);

// Byte offset, from the fragment's base address, of element (row, col) of a matrix with leading
// dimension ld (elements between rows, or between columns when col_major).
inline std::uint64_t wmma_offset(const WmmaLayout& l, unsigned row, unsigned col, std::uint64_t ld, bool col_major) {
  return (col_major ? col * ld + row : row * ld + col) * l.elem_bytes;
}

}  // namespace warpscope::ptx
