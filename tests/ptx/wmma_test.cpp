// wmma.load / wmma.store / wmma.mma in the interpreter: the fragment layouts' shape (each matrix element
// in exactly one place of one lane; the register counts of the PTX ISA, 9.7.14.4.1), the memory
// instructions ptxas makes of each load and store (validation/h100/wmma_probe/wmma_probe.sass.txt),
// hand-worked values and records, and the errors. The layouts themselves are checked against the H100's
// registers in tests/validation/h100_wmma_probe_test.cpp.
#include <gtest/gtest.h>

#include <bit>
#include <set>

#include "ptx/ptx_error.hpp"
#include "ptx/wmma_layout.hpp"
#include "ptx_test_support.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope::test {
namespace {

using ptx::Type;

struct Kind {
  char use;
  unsigned m, n, k;
  Type type;
  bool tf32;
  unsigned registers;  // the PTX ISA's fragment size (9.7.14.4.1, "Matrix fragments for WMMA")
};

const Kind kKinds[] = {
    {'a', 16, 16, 16, Type::F16, false, 8},  {'b', 16, 16, 16, Type::F16, false, 8},  {'c', 16, 16, 16, Type::F16, false, 4},
    {'c', 16, 16, 16, Type::F32, false, 8},  {'a', 32, 8, 16, Type::F16, false, 8},   {'b', 32, 8, 16, Type::F16, false, 8},
    {'c', 32, 8, 16, Type::F32, false, 8},   {'a', 8, 32, 16, Type::F16, false, 8},   {'b', 8, 32, 16, Type::F16, false, 8},
    {'c', 8, 32, 16, Type::F16, false, 4},   {'a', 16, 16, 16, Type::BF16, false, 4}, {'b', 16, 16, 16, Type::BF16, false, 4},
    {'a', 32, 8, 16, Type::BF16, false, 8},  {'b', 32, 8, 16, Type::BF16, false, 2},  {'a', 8, 32, 16, Type::BF16, false, 2},
    {'b', 8, 32, 16, Type::BF16, false, 8},  {'a', 16, 16, 8, Type::F32, true, 4},    {'b', 16, 16, 8, Type::F32, true, 4},
    {'c', 16, 16, 8, Type::F32, false, 8},   {'a', 16, 16, 16, Type::S8, false, 2},   {'b', 16, 16, 16, Type::U8, false, 2},
    {'a', 32, 8, 16, Type::S8, false, 4},    {'b', 32, 8, 16, Type::S8, false, 1},    {'a', 8, 32, 16, Type::U8, false, 1},
    {'b', 8, 32, 16, Type::S8, false, 4},    {'c', 16, 16, 16, Type::S32, false, 8},  {'c', 8, 32, 16, Type::S32, false, 8},
    {'a', 8, 8, 4, Type::F64, false, 1},     {'b', 8, 8, 4, Type::F64, false, 1},     {'c', 8, 8, 4, Type::F64, false, 2},
};

TEST(WmmaLayout, EachElementOfTheMatrixHasOnePlaceAndThePtxRegisterCount) {
  for (const Kind& k : kKinds) {
    const auto l = ptx::wmma_layout(k.use, k.m, k.n, k.k, k.type, k.tf32);
    ASSERT_TRUE(l) << k.use << " m" << k.m << "n" << k.n << "k" << k.k;
    const unsigned rows = k.use == 'a' ? k.m : k.use == 'b' ? k.k : k.m, cols = k.use == 'a' ? k.k : k.n;
    EXPECT_EQ(l->rows, rows);
    EXPECT_EQ(l->cols, cols);
    EXPECT_EQ(l->registers, k.registers) << k.use << " m" << k.m << "n" << k.n << "k" << k.k;
    std::set<unsigned> seen;
    for (int lane = 0; lane < 32; ++lane)
      for (unsigned e = 0; e < l->elements(); ++e) {
        const auto [r, c] = l->place(lane, e);
        ASSERT_LT(r, rows);
        ASSERT_LT(c, cols);
        EXPECT_TRUE(seen.insert(r * cols + c).second) << "element (" << r << ", " << c << ") twice";
      }
    EXPECT_EQ(seen.size(), rows * cols);
  }
  // Combinations PTX has no wmma for, or whose layout was not measured: none.
  EXPECT_FALSE(ptx::wmma_layout('a', 16, 16, 8, Type::F16, false));
  EXPECT_FALSE(ptx::wmma_layout('c', 16, 16, 16, Type::BF16, false));
  EXPECT_FALSE(ptx::wmma_layout('a', 8, 8, 32, Type::S8, false));  // the .s4 shape
}

// The SASS of validation/h100/wmma_probe (CUDA 13.0, sm_90; sm_80 and sm_100 the same per kernel).
TEST(WmmaPlan, TheMemoryInstructionsPtxasMakes) {
  using K = ptx::WmmaAccess::Kind;
  auto plan = [](char use, unsigned m, unsigned n, unsigned k, Type t, bool tf32, bool col, bool shared) {
    return ptx::wmma_plan(*ptx::wmma_layout(use, m, n, k, t, tf32), use, col, shared);
  };
  // f16 A from shared memory: one LDSM.16.M88.4 (row) or .MT88.4 (col); m32n8k16's A: two.
  for (bool col : {false, true}) {
    const auto p = plan('a', 16, 16, 16, Type::F16, false, col, true);
    ASSERT_EQ(p.count, 1);
    EXPECT_EQ(p.access[0].kind, K::Ldmatrix);
    EXPECT_EQ(p.access[0].matrices, 4);
  }
  EXPECT_EQ(plan('a', 32, 8, 16, Type::F16, false, false, true).count, 2);
  // ... from global memory: 4 LDG.E, one per 8 x 8 block, also column-major (then MOVM).
  for (bool col : {false, true}) {
    const auto p = plan('a', 16, 16, 16, Type::F16, false, col, false);
    ASSERT_EQ(p.count, 4);
    EXPECT_EQ(p.access[0].kind, K::PerRun);
    EXPECT_EQ(p.access[0].bytes, 4);
  }
  // s8 A: row-major LDSM.16.M88.2 from shared; column-major 8 LDS.U8 (one byte an element).
  const auto s8row = plan('a', 16, 16, 16, Type::S8, false, false, true);
  ASSERT_EQ(s8row.count, 1);
  EXPECT_EQ(s8row.access[0].matrices, 2);
  const auto s8col = plan('a', 16, 16, 16, Type::S8, false, true, true);
  ASSERT_EQ(s8col.count, 8);
  EXPECT_EQ(s8col.access[0].kind, K::PerElement);
  EXPECT_EQ(s8col.access[0].bytes, 1);
  // An .f32 accumulator: 4 LDS.64 / STG.E.64 row-major, 8 LDS / STG.E column-major; .f16 ones 4 LDS (no LDSM).
  EXPECT_EQ(plan('c', 16, 16, 16, Type::F32, false, false, true).count, 4);
  EXPECT_EQ(plan('c', 16, 16, 16, Type::F32, false, false, true).access[0].bytes, 8);
  EXPECT_EQ(plan('c', 16, 16, 16, Type::F32, false, true, false).count, 8);
  EXPECT_EQ(plan('c', 16, 16, 16, Type::F16, false, false, true).access[0].kind, K::PerRun);
  // tf32 A: 4 LD.E either way; .f64: A one LD.E.64, C row-major one LD.E.128, column-major two LD.E.64.
  EXPECT_EQ(plan('a', 16, 16, 8, Type::F32, true, false, false).count, 4);
  EXPECT_EQ(plan('a', 16, 16, 8, Type::F32, true, true, false).count, 4);
  EXPECT_EQ(plan('a', 8, 8, 4, Type::F64, false, false, false).count, 1);
  EXPECT_EQ(plan('c', 8, 8, 4, Type::F64, false, false, false).access[0].bytes, 16);
  EXPECT_EQ(plan('c', 8, 8, 4, Type::F64, false, true, false).count, 2);
}

const char* kPrologue = R"(
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 32;
  add.s64 %rd2, %rd1, %rd3;
)";

std::string kernel(const std::string& name, const std::string& body) {
  return ".visible .entry " + name +
         "(.param .u64 out)\n{\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg .b32 %a<8>;\n  .reg .b32 %b<8>;\n"
         "  .reg .f32 %f<16>;\n" +
         kPrologue + body + "\n  ret;\n}\n";
}

// A 16 x 16 .f16 A, row-major at out[0..511], element i holding the bits i: with g = lane / 4 and
// q = lane % 4, register 0 holds (g, 2q) and (g, 2q + 1), register 1 row g + 8, registers 2 and 3
// columns + 8 (the mma.sync m16n8k16 A fragment), registers 4-7 the same again. From global memory
// that is 4 LDG.E of 4 bytes, each lane one word of one row of an 8 x 8 block; from shared memory one
// LDSM.x4 whose lanes 8 i + r give row r of block i.
TEST(PtxInterpreter, WmmaLoadPlacesTheElementsAndIssuesPtxassInstructions) {
  PtxRun run(ptx_module(".shared .align 16 .b8 tile[512];\n" + kernel("wload", R"(
  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd1], 16;
  st.global.v4.u32 [%rd2+1024], {%a0, %a1, %a2, %a3};
  st.global.v4.u32 [%rd2+1040], {%a4, %a5, %a6, %a7};
  mov.u32 %r2, tile;
  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, [%r2], 16;)")));
  run.buffer("out", 2048);
  for (std::uint16_t i = 0; i < 256; ++i) run.write<std::uint16_t>("out", i, i);
  const auto rec = run.launch("wload", {1, 1, 1}, {32, 1, 1}, {run.state->memory.allocation("out")->base});
  for (std::uint32_t t = 0; t < 32; ++t) {
    const std::uint32_t g = t / 4, q = t % 4;
    auto pair = [](std::uint32_t row, std::uint32_t col) { return (row * 16 + col) | (row * 16 + col + 1) << 16; };
    const std::uint32_t want[4] = {pair(g, 2 * q), pair(g + 8, 2 * q), pair(g, 2 * q + 8), pair(g + 8, 2 * q + 8)};
    for (std::uint32_t r = 0; r < 8; ++r) EXPECT_EQ(run.read<std::uint32_t>("out", 256 + 8 * t + r), want[r % 4]) << t << " " << r;
  }
  // The 4 loads, the 2 stores of the registers (v4: 16 bytes a lane) and the LDSM.
  ASSERT_EQ(rec.size(), 7u);
  const std::uint64_t base = run.state->memory.allocation("out")->base;
  const std::uint64_t block[4] = {0, 8 * 32, 16, 8 * 32 + 16};  // blocks (0,0), (8,0), (0,8), (8,8): 32-byte rows
  for (std::size_t b = 0; b < 4; ++b) {
    EXPECT_EQ(rec[b].op, Op::Load);
    EXPECT_EQ(rec[b].size, 4);
    for (std::size_t l = 0; l < 32; ++l) EXPECT_EQ(rec[b].addr[l], base + block[b] + (l / 4) * 32 + (l % 4) * 4) << b << " " << l;
  }
  const WarpAccess& ldsm = rec[6];
  EXPECT_EQ(ldsm.op, Op::LoadMatrix);
  EXPECT_EQ(ldsm.space, Space::Shared);
  EXPECT_EQ(ldsm.size, 16);
  EXPECT_EQ(ldsm.active.bits(), 0xffffffffu);
  for (std::size_t l = 0; l < 32; ++l) EXPECT_EQ(ldsm.addr[l] - ldsm.addr[0], block[l / 8] + (l % 8) * 32) << l;
}

// D = A B + C with B the identity and C = 0.5: D = A + 0.5 wherever the fragments put A's elements, and
// wmma.store.d writes it back in place (row-major .f32 rows of 16: 4 STG.E.64 of 8 bytes).
TEST(PtxInterpreter, WmmaMmaWithAnIdentityAddsC) {
  PtxRun run(ptx_module(kernel("wmma", R"(
  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd1], 16;
  add.s64 %rd4, %rd1, 512;
  wmma.load.b.sync.aligned.row.m16n16k16.global.f16 {%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, [%rd4], 16;
  mov.f32 %f0, 0f3F000000;
  wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, {%b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7}, {%f0, %f0, %f0, %f0, %f0, %f0, %f0, %f0};
  add.s64 %rd5, %rd1, 1024;
  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd5], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 16;)")));
  run.buffer("out", 2048);
  auto f16 = [](unsigned v) {  // small non-negative integers in IEEE half precision
    if (v == 0) return std::uint16_t{0};
    const int e = 31 - std::countl_zero(v);
    return static_cast<std::uint16_t>(static_cast<unsigned>(e + 15) << 10 | ((v << (10 - e)) & 0x3ffu));
  };
  for (unsigned i = 0; i < 256; ++i) {
    run.write<std::uint16_t>("out", i, f16(i));
    run.write<std::uint16_t>("out", 256 + i, i / 16 == i % 16 ? f16(1) : 0);
  }
  const auto rec = run.launch("wmma", {1, 1, 1}, {32, 1, 1}, {run.state->memory.allocation("out")->base});
  for (unsigned i = 0; i < 256; ++i) EXPECT_EQ(run.read<float>("out", 256 + i), static_cast<float>(i) + 0.5f) << i;
  ASSERT_EQ(rec.size(), 12u);  // 4 + 4 loads, 4 stores
  for (std::size_t i = 8; i < 12; ++i) {
    EXPECT_EQ(rec[i].op, Op::Store);
    EXPECT_EQ(rec[i].size, 8);
  }
}

// A run whose kernels load or store wmma fragments says whose instructions those are (sm_80 and later:
// sm_75's ptxas makes others); one without says nothing of it.
TEST(PtxRun, SaysWhichGenerationsWmmaInstructionsAreFrom) {
  const std::string load = "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, [%rd1], 16;";
  for (const bool wmma : {true, false}) {
    PtxBuffer out;
    out.name = "out";
    out.bytes = 1024;
    auto src = run_ptx(ptx_module(kernel("k", wmma ? load : "")), "k.ptx", {out}, {parse_ptx_launch("k<<<1, 32>>>(out)")});
    WarpAccess r;
    while (src->next(r)) {
    }
    EXPECT_EQ(src->summary().note.find("wmma loads and stores issue the memory instructions ptxas makes for sm_80 and later") !=
                  std::string::npos,
              wmma);
  }
}

std::string error_of(const std::string& body, unsigned threads = 32) {
  try {
    PtxRun run(ptx_module(".shared .align 16 .b8 tile[2048];\n" + kernel("bad", body)));
    const std::uint64_t out = run.buffer("out", 4096);
    run.launch("bad", {1, 1, 1}, {threads, 1, 1}, {out});
  } catch (const ptx::PtxError& e) {
    return e.what();
  }
  return "ran";
}

TEST(PtxInterpreter, WmmaErrorsNameTheProblem) {
  const std::string load = "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7}, ";
  // A fragment of the wrong size, named at parse time.
  EXPECT_NE(error_of("  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a0, %a1, %a2, %a3}, [%rd1], 16;")
                .find("expected a vector of 8 registers"),
            std::string::npos);
  // Types and shapes without a measured layout (sub-byte .s4) are refused when the kernel runs.
  EXPECT_NE(error_of("  wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%a0}, [%rd1], 32;").find("cannot run"), std::string::npos);
  // One matrix for the warp: lanes with other addresses or strides, half a warp, a stride below a row.
  EXPECT_NE(error_of(load + "[%rd2], 16;").find("differs from lane 0's"), std::string::npos);
  EXPECT_NE(error_of(load + "[%rd1], %r1;").find("stride"), std::string::npos);
  EXPECT_NE(error_of(load + "[%rd1], 16;", 16).find("needs all 32 lanes of the warp"), std::string::npos);
  EXPECT_NE(error_of(load + "[%rd1], 8;").find("is less than the 16 elements of a row"), std::string::npos);
  EXPECT_EQ(error_of(load + "[%rd1], 16;"), "ran");
}

}  // namespace
}  // namespace warpscope::test
