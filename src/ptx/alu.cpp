#include "ptx/alu.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpscope::ptx::alu {

float flush(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

float saturate(float f) {
  if (std::isnan(f) || f <= 0.0f) return 0.0f;
  return f >= 1.0f ? 1.0f : f;
}

double saturate(double d) {
  if (std::isnan(d) || d <= 0.0) return 0.0;
  return d >= 1.0 ? 1.0 : d;
}

float round_to_f32(double d, Rounding r) {
  float f = static_cast<float>(d);  // round to nearest even
  if (std::isnan(d) || std::isinf(d) || static_cast<double>(f) == d) return f;
  switch (r) {
    case Rounding::Rz:
      if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
      break;
    case Rounding::Rm:
      if (static_cast<double>(f) > d) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
      break;
    case Rounding::Rp:
      if (static_cast<double>(f) < d) f = std::nextafter(f, std::numeric_limits<float>::infinity());
      break;
    default: break;
  }
  return f;
}

double round_integral(double d, Rounding r) {
  switch (r) {
    case Rounding::Rzi: return std::trunc(d);
    case Rounding::Rmi: return std::floor(d);
    case Rounding::Rpi: return std::ceil(d);
    default: return std::nearbyint(d);  // rni: to nearest even (the default rounding mode)
  }
}

std::uint16_t f32_to_f16(float f, Rounding r) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  if (std::isnan(f)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  const double a = std::fabs(static_cast<double>(f));
  if (std::isinf(f)) return static_cast<std::uint16_t>(sign | 0x7c00u);
  // Scale to units of the half's last place at this magnitude, round, rebuild.
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;    // a in [2^exp, 2^(exp+1))
  if (exp < -14) exp = -14;  // subnormal range
  const double ulp = std::ldexp(1.0, exp - 10);
  double q = a / ulp;
  const bool negative = sign != 0;
  switch (r) {
    case Rounding::Rz: q = std::trunc(q); break;
    case Rounding::Rm: q = negative ? std::ceil(q) : std::floor(q); break;
    case Rounding::Rp: q = negative ? std::floor(q) : std::ceil(q); break;
    default: q = std::nearbyint(q); break;
  }
  const double v = q * ulp;
  if (v >= 65520.0 || (v > 65504.0)) {
    const bool to_max = r == Rounding::Rz || (r == Rounding::Rm && !negative) || (r == Rounding::Rp && negative);
    return static_cast<std::uint16_t>(sign | (to_max ? 0x7bffu : 0x7c00u));
  }
  if (v == 0) return sign;
  int ve = 0;
  std::frexp(v, &ve);
  const int vexp = ve - 1;
  if (vexp < -14) return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(v / std::ldexp(1.0, -24)));
  const auto mant = static_cast<std::uint16_t>(v / std::ldexp(1.0, vexp - 10)) & 0x3ffu;
  return static_cast<std::uint16_t>(sign | (static_cast<unsigned>(vexp + 15) << 10) | mant);
}

float f16_to_f32(std::uint16_t h) {
  const bool negative = (h & 0x8000u) != 0;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  float v = 0;
  if (exp == 0) v = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31) v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(static_cast<float>(mant | 0x400), exp - 25);
  return negative ? -v : v;
}

std::uint16_t f32_to_bf16(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if (std::isnan(f)) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

namespace {

// A float-to-integer conversion as the GPU does it: NaN gives 0, out-of-range values the nearest
// representable integer (CUDA C Programming Guide, seed 000: conversions clamp).
std::uint64_t float_to_int(double d, Type t) {
  if (std::isnan(d)) return 0;
  const int bits = type_bytes(t) * 8;
  if (is_signed(t)) {
    const double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
    if (d <= lo) return trunc(static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min() >> (64 - bits)), t);
    if (d >= hi) return trunc(static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() >> (64 - bits)), t);
    return trunc(static_cast<std::uint64_t>(static_cast<std::int64_t>(d)), t);
  }
  if (d <= 0) return 0;
  if (d >= std::ldexp(1.0, bits)) return width_mask(bits / 8);
  return static_cast<std::uint64_t>(d);
}

double source_value(std::uint64_t v, Type t) {
  switch (t) {
    case Type::F32: return static_cast<double>(f32(v));
    case Type::F64: return f64(v);
    case Type::F16: return static_cast<double>(f16_to_f32(static_cast<std::uint16_t>(v)));
    case Type::BF16: return static_cast<double>(bf16_to_f32(static_cast<std::uint16_t>(v)));
    default: return is_signed(t) ? static_cast<double>(as_signed(v, t)) : static_cast<double>(as_unsigned(v, t));
  }
}

}  // namespace

std::uint64_t convert(std::uint64_t v, const Instruction& in) {
  const Type d = in.type, s = in.type2;
  if (!is_float(d) && !is_float(s)) {
    // Integer to integer: extend by the source's signedness, clamp with .sat, cut to the destination.
    if (in.sat) {
      const int dbits = type_bytes(d) * 8;
      if (is_signed(s)) {
        const std::int64_t x = as_signed(v, s);
        std::int64_t lo = 0, hi = 0;
        if (is_signed(d)) {
          lo = dbits >= 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (dbits - 1));
          hi = dbits >= 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (dbits - 1)) - 1;
        } else {
          lo = 0;
          hi = dbits >= 64 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(width_mask(dbits / 8));
        }
        return trunc(static_cast<std::uint64_t>(std::clamp(x, lo, hi)), d);
      }
      const std::uint64_t x = as_unsigned(v, s);
      const std::uint64_t hi = is_signed(d) ? width_mask(dbits / 8) >> 1 : width_mask(dbits / 8);
      return std::min(x, hi);
    }
    const std::uint64_t x = is_signed(s) ? static_cast<std::uint64_t>(as_signed(v, s)) : as_unsigned(v, s);
    return trunc(x, d);
  }
  double x = source_value(v, s);
  if (is_float(s) && (s == Type::F32 || s == Type::F16) && in.ftz && std::fpclassify(static_cast<float>(x)) == FP_SUBNORMAL)
    x = std::copysign(0.0, x);
  if (!is_float(d)) {
    // Float to integer: the rounding is one of rni, rzi, rmi, rpi.
    return float_to_int(round_integral(x, in.rounding == Rounding::None ? Rounding::Rzi : in.rounding), d);
  }
  // To a float type: integral rounding (cvt.rni.f32.f32) or a precision change.
  if (in.rounding == Rounding::Rni || in.rounding == Rounding::Rzi || in.rounding == Rounding::Rmi || in.rounding == Rounding::Rpi)
    x = round_integral(x, in.rounding);
  if (in.sat) x = saturate(x);
  switch (d) {
    case Type::F64: return bits(x);
    case Type::F32: {
      float f = round_to_f32(x, in.rounding);  // integer sources up to 32 bits are exact in double
      if (!is_float(s) && (s == Type::S64 || s == Type::U64)) {
        // 64-bit integers may not be exact in double: convert directly (round to nearest).
        f = is_signed(s) ? static_cast<float>(as_signed(v, s)) : static_cast<float>(as_unsigned(v, s));
      }
      if (in.ftz) f = flush(f);
      return bits(f);
    }
    case Type::F16: return f32_to_f16(static_cast<float>(x), in.rounding);
    case Type::BF16: return f32_to_bf16(static_cast<float>(x));
    default: return 0;
  }
}

bool combine(AtomicOp op, std::uint64_t old, std::uint64_t x, Type t, std::uint64_t& out) {
  switch (op) {
    case AtomicOp::Add: case AtomicOp::PopcInc:
      if (t == Type::F32) out = bits(f32(old) + f32(x));
      else if (t == Type::F64) out = bits(f64(old) + f64(x));
      else out = trunc(old + x, t);
      return true;
    case AtomicOp::Min:
      if (t == Type::F32) out = bits(fmin_ptx(f32(old), f32(x)));
      else if (t == Type::F64) out = bits(fmin_ptx(f64(old), f64(x)));
      else if (is_signed(t)) out = trunc(static_cast<std::uint64_t>(std::min(as_signed(old, t), as_signed(x, t))), t);
      else out = std::min(as_unsigned(old, t), as_unsigned(x, t));
      return true;
    case AtomicOp::Max:
      if (t == Type::F32) out = bits(fmax_ptx(f32(old), f32(x)));
      else if (t == Type::F64) out = bits(fmax_ptx(f64(old), f64(x)));
      else if (is_signed(t)) out = trunc(static_cast<std::uint64_t>(std::max(as_signed(old, t), as_signed(x, t))), t);
      else out = std::max(as_unsigned(old, t), as_unsigned(x, t));
      return true;
    case AtomicOp::Inc: out = as_unsigned(old, t) >= as_unsigned(x, t) ? 0 : trunc(old + 1, t); return true;
    case AtomicOp::Dec: out = (old == 0 || as_unsigned(old, t) > as_unsigned(x, t)) ? trunc(x, t) : trunc(old - 1, t); return true;
    case AtomicOp::And: out = old & x; return true;
    case AtomicOp::Or: out = old | x; return true;
    case AtomicOp::Xor: out = old ^ x; return true;
    case AtomicOp::Exch: out = x; return true;
    default: return false;
  }
}

bool compare(std::uint64_t a, std::uint64_t b, Type t, CmpOp c) {
  if (is_float(t)) {
    const double x = t == Type::F32 ? static_cast<double>(f32(a)) : f64(a);
    const double y = t == Type::F32 ? static_cast<double>(f32(b)) : f64(b);
    const bool unordered = std::isnan(x) || std::isnan(y);
    switch (c) {
      case CmpOp::Eq: return !unordered && x == y;
      case CmpOp::Ne: return !unordered && x != y;
      case CmpOp::Lt: return !unordered && x < y;
      case CmpOp::Le: return !unordered && x <= y;
      case CmpOp::Gt: return !unordered && x > y;
      case CmpOp::Ge: return !unordered && x >= y;
      case CmpOp::Equ: return unordered || x == y;
      case CmpOp::Neu: return unordered || x != y;
      case CmpOp::Ltu: return unordered || x < y;
      case CmpOp::Leu: return unordered || x <= y;
      case CmpOp::Gtu: return unordered || x > y;
      case CmpOp::Geu: return unordered || x >= y;
      case CmpOp::Num: return !unordered;
      case CmpOp::Nan: return unordered;
      default: return false;
    }
  }
  if (is_signed(t)) {
    const std::int64_t x = as_signed(a, t), y = as_signed(b, t);
    switch (c) {
      case CmpOp::Eq: return x == y;
      case CmpOp::Ne: return x != y;
      case CmpOp::Lt: return x < y;
      case CmpOp::Le: return x <= y;
      case CmpOp::Gt: return x > y;
      case CmpOp::Ge: return x >= y;
      default: break;
    }
  }
  const std::uint64_t x = as_unsigned(a, t), y = as_unsigned(b, t);
  switch (c) {
    case CmpOp::Eq: return x == y;
    case CmpOp::Ne: return x != y;
    case CmpOp::Lt: case CmpOp::Lo: return x < y;
    case CmpOp::Le: case CmpOp::Ls: return x <= y;
    case CmpOp::Gt: case CmpOp::Hi: return x > y;
    case CmpOp::Ge: case CmpOp::Hs: return x >= y;
    default: return false;
  }
}

std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t selector) {
  const std::uint64_t bytes = (std::uint64_t{b} << 32) | a;
  std::uint32_t out = 0;
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t sel = (selector >> (4 * k)) & 0xfu;
    std::uint32_t byte = static_cast<std::uint32_t>(bytes >> (8 * (sel & 7u))) & 0xffu;
    if (sel & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
    out |= byte << (8 * k);
  }
  return out;
}

}  // namespace warpscope::ptx::alu
