#pragma once
// Element arithmetic the tensor-core instructions share (mma.sync in warp_matrix.cpp, wmma.mma in
// warp_wmma.cpp): elements packed in registers, their values, and D = A B + C on whole matrices.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ptx/alu.hpp"
#include "ptx/ir.hpp"

namespace warpscope::ptx::matrix {

// A register's element j (0-based from the low bits) of `bytes` bytes.
inline std::uint64_t element(std::uint64_t reg, int j, int bytes) {
  return (reg >> (j * bytes * 8)) & alu::width_mask(bytes);
}

// An 8-bit float (PTX ISA 5.2.5.1): .e4m3 (bias 7, no infinities, S.1111.111 NaN) or .e5m2 (bias 15, IEEE's
// infinities and NaNs); both with subnormals.
inline double fp8_value(std::uint8_t v, bool e4m3) {
  const unsigned mbits = e4m3 ? 3 : 2, ebits = e4m3 ? 4 : 5, bias = e4m3 ? 7 : 15;
  const unsigned m = v & ((1u << mbits) - 1), e = (v >> mbits) & ((1u << ebits) - 1);
  const double sign = (v & 0x80u) ? -1.0 : 1.0;
  if (e4m3 && e == 15 && m == 7) return std::nan("");
  if (!e4m3 && e == 31) return m == 0 ? sign * HUGE_VAL : std::nan("");
  if (e == 0) return sign * std::ldexp(m, 1 - static_cast<int>(bias) - static_cast<int>(mbits));
  return sign * std::ldexp((1u << mbits) + m, static_cast<int>(e) - static_cast<int>(bias) - static_cast<int>(mbits));
}

// Element bits as a number: the A/B types (.f16, .bf16, .tf32 (an .f32 whose low 13 bits the tensor
// cores ignore), .s8, .u8, .f64) and the C types (.f16, .f32, .s32, .f64).
inline double number(std::uint64_t bits, Type t, bool tf32) {
  switch (t) {
    case Type::F16: return alu::f16_to_f32(static_cast<std::uint16_t>(bits));
    case Type::BF16: return alu::bf16_to_f32(static_cast<std::uint16_t>(bits));
    case Type::F32: return alu::f32(tf32 ? bits & 0xffffe000u : bits);
    case Type::F64: return alu::f64(bits);
    case Type::S8: return static_cast<double>(alu::sext(bits, 1));
    case Type::U8: return static_cast<double>(bits & 0xffu);
    case Type::S32: return static_cast<double>(alu::sext(bits, 4));
    case Type::E4M3: case Type::E5M2: return fp8_value(static_cast<std::uint8_t>(bits), t == Type::E4M3);
    default: return 0;
  }
}

// D's bits for the value v: .f16 and .f32 rounded to nearest (through .f32, as mma.sync's D), .s32 as
// computed (already wrapped or clamped), .f64 as is.
inline std::uint64_t bits_of(double v, Type t) {
  switch (t) {
    case Type::F16: return alu::f32_to_f16(alu::round_to_f32(v, Rounding::Rn), Rounding::Rn);
    case Type::S32: return static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
    case Type::F64: return alu::bits(v);
    default: return alu::bits(alu::round_to_f32(v, Rounding::Rn));
  }
}

// acc (M x N) += a (M x K) b (K x N), all row-major. Integers (d_type .s32): exact 64-bit sums, then 32
// bits, or clamped with .satfinite. Floating point: products and sums in double precision, rounded once
// by bits_of (exact for small integers; the tensor cores' own order and rounding are not modelled);
// .f64 with fused multiply-adds.
inline void multiply(const double* a, const double* b, double* acc, unsigned M, unsigned N, unsigned K, Type d_type, bool satfinite) {
  // k outside n: each row of b is read in order (wgmma's N reaches 256), and every acc element still sums its
  // products in k order, so the result is the one the (r, n, k) loop gives.
  for (unsigned r = 0; r < M; ++r) {
    double* row = acc + std::size_t{r} * N;
    if (d_type == Type::S32) {
      std::int64_t s[256];
      for (unsigned n = 0; n < N; ++n) s[n] = static_cast<std::int64_t>(row[n]);
      for (unsigned k = 0; k < K; ++k) {
        const auto x = static_cast<std::int64_t>(a[r * K + k]);
        const double* br = b + std::size_t{k} * N;
        for (unsigned n = 0; n < N; ++n) s[n] += x * static_cast<std::int64_t>(br[n]);
      }
      for (unsigned n = 0; n < N; ++n) {
        const std::int64_t v = satfinite ? std::clamp<std::int64_t>(s[n], INT32_MIN, INT32_MAX) : s[n];
        row[n] = static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
      }
      continue;
    }
    for (unsigned k = 0; k < K; ++k) {
      const double x = a[r * K + k];
      const double* br = b + std::size_t{k} * N;
      if (d_type == Type::F64)
        for (unsigned n = 0; n < N; ++n) row[n] = std::fma(x, br[n], row[n]);
      else
        for (unsigned n = 0; n < N; ++n) row[n] += x * br[n];
    }
  }
}

}  // namespace warpscope::ptx::matrix
