// The per-lane arithmetic of the interpreter's warps (Interpreter::Impl::alu_op, half_op): the
// operations that only read and write registers, warp-wide ones (shfl, vote, redux, match) included.
#include "ptx/interpreter_impl.hpp"

namespace warpscope::ptx {

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
  // add, sub, mul, mad, fma and div give the canonical NaN 0x7fffffff where x86 would keep an input's
  // payload (validation/h100/async_probe: the SGEMM and the copy kernel of random bit patterns have the
  // H100's checksums only so).
  auto arith = [&](float x) { return std::isnan(x) && !in.sat ? std::uint64_t{0x7fffffff} : fl(x); };
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
      alu::combine(in.atomic, acc, v, t, acc);  // the parser admits add, min, max, and, or, xor only
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
  if (in.op == Opcode::Set) {
    // set.cmp{.bool}.dtype.stype d, a, b{, {!}c} (PTX ISA 9.7.3): true is all ones for an integer d, 1.0 for a float
    // one; a pair of halves compares and answers half by half.
    const bool pair = in.type2 == Type::F16x2 || in.type2 == Type::BF16x2, bf = in.type2 == Type::BF16x2;
    for (std::uint32_t bits = exec; bits; bits &= bits - 1) {
      const int l = std::countr_zero(bits);
      const std::uint64_t a = value(c, w, f, in.operands[1], l), b = value(c, w, f, in.operands[2], l);
      const bool cc = in.bool_op != BoolOp::None && value(c, w, f, in.operands[3], l) != 0;
      const auto combine = [&](bool v) { return alu::bool_combine(in.bool_op, v, cc); };
      std::uint64_t r = 0;
      if (pair) {
        for (int h = 0; h < 2; ++h) {
          const float x = alu::half_to_f32(a >> (16 * h), bf), y = alu::half_to_f32(b >> (16 * h), bf);
          const bool v = combine(alu::compare(alu::bits(x), alu::bits(y), Type::F32, in.cmp));
          const std::uint64_t one = is_half(in.type) ? (bf ? 0x3f80u : 0x3c00u) : 0xffffu;
          r |= (v ? one : 0u) << (16 * h);
        }
      } else {
        const bool v = combine(alu::compare(a, b, in.type2, in.cmp));
        r = !v ? 0 : in.type == Type::F32 ? 0x3f800000u : 0xffffffffu;
      }
      set(f, in.operands[0].reg, l, r);
    }
    return;
  }
  if (is_half(t) && in.op != Opcode::Mov && !(in.op == Opcode::Cvt && halves_of(t) == 1)) {
    half_op(c, w, f, in, exec);
    return;
  }
  if (in.op == Opcode::Elect) {
    // elect.sync d|p, membermask (PTX ISA 9.7.13.?): the lowest active lane of membermask leads; d is its lane
    // in every lane, p true in it alone.
    const std::uint32_t members = exec & static_cast<std::uint32_t>(value(c, w, f, in.operands[2], std::countr_zero(exec)));
    const int leader = members ? std::countr_zero(members) : -1;
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      set(f, in.operands[0].reg, l, static_cast<std::uint64_t>(leader < 0 ? 0 : leader));
      set(f, in.operands[1].reg, l, l == leader ? 1 : 0);
    }
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
        if (in.space == StateSpace::Shared || in.space == StateSpace::SharedCluster) r += kSharedWindow;
        else if (in.space == StateSpace::Local) r += kLocalWindow;
        else if (in.space == StateSpace::Const) r += kConstWindow;
        else if (in.space == StateSpace::Param) r += kParamWindow;
        break;
      case Opcode::CvtaTo:
        r = src(1, l);
        if (in.space == StateSpace::Shared || in.space == StateSpace::SharedCluster) r -= kSharedWindow;
        else if (in.space == StateSpace::Local) r -= kLocalWindow;
        else if (in.space == StateSpace::Const) r -= kConstWindow;
        else if (in.space == StateSpace::Param) r -= kParamWindow;
        r = trunc(r, t);
        break;
      case Opcode::Isspacep: {
        const std::uint64_t a = src(1, l);
        const bool sh = a >= kSharedWindow && a - kSharedWindow < kWindowSize;
        const bool lo = a >= kLocalWindow && a - kLocalWindow < kWindowSize;
        const bool co = a >= kConstWindow && a - kConstWindow < kWindowSize;
        if (in.space == StateSpace::Shared || in.space == StateSpace::SharedCluster) r = sh;
        else if (in.space == StateSpace::Local) r = lo;
        else if (in.space == StateSpace::Const) r = co;
        else r = !sh && !lo && !co;
        break;
      }
      case Opcode::Cvt: r = alu::convert(src(1, l), in); break;
      case Opcode::Add: case Opcode::Sub: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        const bool sub = in.op == Opcode::Sub;
        if (f32t && (in.rounding == Rounding::None || in.rounding == Rounding::Rn)) r = arith(sub ? fin(a) - fin(y) : fin(a) + fin(y));
        else if (f32t) r = arith(alu::round_to_f32(sub ? static_cast<double>(fin(a)) - static_cast<double>(fin(y)) : static_cast<double>(fin(a)) + static_cast<double>(fin(y)), in.rounding));
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
          r = arith(mad ? std::fma(fin(a), fin(y), fin(src(3, l))) : alu::round_to_f32(static_cast<double>(fin(a)) * static_cast<double>(fin(y)), in.rounding));
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
      case Opcode::Fma: r = f32t ? arith(std::fma(fin(src(1, l)), fin(src(2, l)), fin(src(3, l)))) : dbl(std::fma(f64(src(1, l)), f64(src(2, l)), f64(src(3, l)))); break;
      case Opcode::Div: case Opcode::Rem: {
        const std::uint64_t a = src(1, l), y = src(2, l);
        if (f32t) { r = arith(fin(a) / fin(y)); break; }
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
          v = alu::bool_combine(in.bool_op, v, cc);
          q = alu::bool_combine(in.bool_op, q, cc);
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
      case Opcode::Bmsk: {
        // PTX ISA bmsk: b bits from bit a, as its semantics section computes it (0 where the field is empty or,
        // with .clamp, where a or b is 32 or more).
        const std::uint64_t start = src(1, l) & 0xffffffffu, bits = src(2, l) & 0xffffffffu;
        const std::uint64_t a1 = start & 31u, b1 = bits & 31u, sum = a1 + b1;
        std::uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0u : ~0u << sum;
        const bool position_overflow = in.shift_clamp && start >= 32, width_overflow = in.shift_clamp && bits >= 32;
        if (position_overflow) mask0 = 0;
        if (sum >= 32 || position_overflow || width_overflow) mask1 = 0;
        else if (b1 == 0) mask1 = ~0u;
        r = mask0 & ~mask1;
        break;
      }
      case Opcode::Bfind: {
        // PTX ISA bfind: the most significant bit that differs from the sign (unsigned: the highest set bit);
        // none: 0xffffffff. .shiftamt gives the left shift that brings it to the top instead.
        std::uint64_t a = as_unsigned(src(1, l), t);
        if (is_signed(t) && ((a >> (width - 1)) & 1u) != 0) a = ~a & alu::width_mask(width / 8);
        const int pos = a == 0 ? -1 : 63 - std::countl_zero(a);
        r = pos < 0 ? 0xffffffffu : static_cast<std::uint64_t>(in.shift_amount ? width - 1 - pos : pos);
        break;
      }
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
      case Opcode::Fns: {
        // fns (PTX ISA): the |offset|-th set bit of mask from bit base, toward the top for a positive offset and
        // the bottom for a negative one; offset 0: base itself if set. None: 0xffffffff.
        const auto mask = static_cast<std::uint32_t>(src(1, l));
        const auto base = static_cast<std::int64_t>(src(2, l) & 31u);
        const std::int64_t offset = as_signed(src(3, l), Type::S32);
        r = 0xffffffffu;
        if (offset == 0) {
          if ((mask >> base) & 1u) r = static_cast<std::uint64_t>(base);
        } else {
          std::int64_t count = (offset > 0 ? offset : -offset) - 1;
          for (std::int64_t pos = base; pos >= 0 && pos < 32; pos += offset > 0 ? 1 : -1) {
            if (((mask >> pos) & 1u) == 0) continue;
            if (count-- == 0) {
              r = static_cast<std::uint64_t>(pos);
              break;
            }
          }
        }
        break;
      }
      case Opcode::Dp2a: {
        // dp2a.lo/.hi (PTX ISA 9.7.1.24): a's two 16-bit halves times b's bytes 0-1 (.lo) or 2-3 (.hi), plus c.
        const std::uint32_t a = static_cast<std::uint32_t>(src(1, l)), y = static_cast<std::uint32_t>(src(2, l));
        std::int64_t acc = as_signed(src(3, l), Type::S32);
        const bool sa = is_signed(in.type), sb = is_signed(in.type2 == Type::None ? in.type : in.type2);
        const int first = in.mul == MulMode::Hi ? 2 : 0;
        for (int k = 0; k < 2; ++k) {
          const std::int64_t x = sa ? static_cast<std::int16_t>(a >> (16 * k)) : static_cast<std::int64_t>((a >> (16 * k)) & 0xffffu);
          const std::uint32_t byte = (y >> (8 * (first + k))) & 0xffu;
          const std::int64_t z = sb ? static_cast<std::int8_t>(byte) : static_cast<std::int64_t>(byte);
          acc += x * z;
        }
        r = trunc(static_cast<std::uint64_t>(acc), Type::U32);
        break;
      }
      default: fault(w, in, l, "not supported by the interpreter");
    }
    set(f, d, l, r);
  }
}

void Interpreter::Impl::half_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec) {
  const Type t = in.type;
  const bool bf = t == Type::BF16 || t == Type::BF16x2;
  const int halves = (t == Type::F16x2 || t == Type::BF16x2) ? 2 : 1;
  const auto& ops = in.operands;
  const auto to_f = [&](std::uint64_t h) { return alu::half_to_f32(h, bf); };
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
        default: fault(w, in, l, "not supported by the interpreter");
      }
      r |= (res & 0xffffu) << (16 * h);
    }
    set(f, d, l, r);
  }
}

}  // namespace warpscope::ptx
