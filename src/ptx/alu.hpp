// The per-lane arithmetic of PTX instructions: integer operations at their
// type's width, IEEE single and double precision with PTX's rounding, flush to
// zero and saturation modifiers, and conversions (cvt). Values travel as the
// 64-bit pattern of a register; helpers read them at a type and write them back.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "ptx/ir.hpp"

namespace warpscope::ptx::alu {

// mul.hi of 64-bit operands needs the 128-bit product (a GCC and Clang extension).
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

inline std::uint64_t width_mask(int bytes) { return bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1; }
inline std::uint64_t trunc(std::uint64_t v, Type t) { return v & width_mask(type_bytes(t)); }
inline std::int64_t sext(std::uint64_t v, int bytes) {
  const int shift = 64 - bytes * 8;
  return shift <= 0 ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v << shift) >> shift;
}
// The register bits as a signed or unsigned 64-bit integer of type t.
inline std::int64_t as_signed(std::uint64_t v, Type t) { return sext(v, type_bytes(t)); }
inline std::uint64_t as_unsigned(std::uint64_t v, Type t) { return trunc(v, t); }

inline float f32(std::uint64_t v) { return std::bit_cast<float>(static_cast<std::uint32_t>(v)); }
inline double f64(std::uint64_t v) { return std::bit_cast<double>(v); }
inline std::uint64_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }
inline std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }

float flush(float f);    // a subnormal becomes a zero of the same sign (.ftz)
float saturate(float f);  // .sat: clamp to [0, 1], NaN to 0
double saturate(double d);

// A double rounded to float in a PTX rounding mode (Rn when None).
float round_to_f32(double d, Rounding r);
// An integral value in a rounding mode (rni, rzi, rmi, rpi).
double round_integral(double d, Rounding r);

// IEEE half precision, for cvt to and from .f16 (round to nearest even).
std::uint16_t f32_to_f16(float f, Rounding r);
float f16_to_f32(std::uint16_t h);
// bfloat16: a float's upper 16 bits (round to nearest even; NaN stays NaN).
std::uint16_t f32_to_bf16(float f);
inline float bf16_to_f32(std::uint16_t h) { return std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16); }
// One 16-bit float (the low 16 bits of h) as a float: .bf16 where `bf`, else .f16.
inline float half_to_f32(std::uint64_t h, bool bf) {
  const auto bits = static_cast<std::uint16_t>(h);
  return bf ? bf16_to_f32(bits) : f16_to_f32(bits);
}
// setp / set .and, .or, .xor: a comparison's result combined with the predicate operand c.
inline bool bool_combine(BoolOp op, bool v, bool c) {
  return op == BoolOp::And ? (v && c) : op == BoolOp::Or ? (v || c) : op == BoolOp::Xor ? (v != c) : v;
}

// cvt.rounding.sat.ftz.dtype.atype on one value (the source register's bits).
std::uint64_t convert(std::uint64_t v, const Instruction& in);

// Float min/max with PTX's NaN rule: a NaN operand yields the other one (ISA 9.7.3.10).
template <class F>
F fmin_ptx(F a, F b) {
  if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<F>::quiet_NaN() : b;
  if (std::isnan(b)) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class F>
F fmax_ptx(F a, F b) {
  if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<F>::quiet_NaN() : b;
  if (std::isnan(b)) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// old (op) x at type t, for atom/red (the value they store) and redux.sync (the warp's value): add,
// min, max (integer or float), inc, dec, and, or, xor, exch. Returns false for any other operation
// (cas takes a third operand: its caller serves it).
bool combine(AtomicOp op, std::uint64_t old, std::uint64_t x, Type t, std::uint64_t& out);

// setp's comparison of two values of type t.
bool compare(std::uint64_t a, std::uint64_t b, Type t, CmpOp c);

// prmt.b32 in the default mode: four selector nibbles pick bytes of {b, a}, bit 3 replicates the sign.
std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t selector);

}  // namespace warpscope::ptx::alu
