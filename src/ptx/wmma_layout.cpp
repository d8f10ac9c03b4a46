// The wmma fragment layouts and memory instructions measured on the H100 (wmma_layout.hpp;
// validation/h100/wmma_probe, tests/validation/h100_wmma_probe_test.cpp).
#include "ptx/wmma_layout.hpp"

#include <initializer_list>

namespace warpscope::ptx {
namespace {

using Offsets = std::initializer_list<std::array<std::uint8_t, 2>>;

WmmaLayout make(unsigned rows, unsigned cols, unsigned elem_bytes, unsigned run, bool transposed, Offsets offsets) {
  WmmaLayout l;
  l.rows = static_cast<std::uint8_t>(rows);
  l.cols = static_cast<std::uint8_t>(cols);
  l.elem_bytes = static_cast<std::uint8_t>(elem_bytes);
  l.run = static_cast<std::uint8_t>(run);
  l.transposed = transposed;
  for (const auto& o : offsets) l.offset[l.runs++] = o;
  l.registers = static_cast<std::uint8_t>(elem_bytes == 8 ? l.elements() : l.elements() * elem_bytes / 4);
  return l;
}

// C and D: the same places for .f16, .f32 and .s32 (measured for each); m8n32k16's are held transposed.
std::optional<WmmaLayout> accumulator(unsigned m, unsigned n, unsigned bytes) {
  if (m == 16 && n == 16) return make(16, 16, bytes, 2, false, {{0, 0}, {8, 0}, {0, 8}, {8, 8}});
  if (m == 32 && n == 8) return make(32, 8, bytes, 2, false, {{0, 0}, {8, 0}, {16, 0}, {24, 0}});
  if (m == 8 && n == 32) return make(8, 32, bytes, 2, true, {{0, 0}, {0, 8}, {0, 16}, {0, 24}});
  return std::nullopt;
}

}  // namespace

std::optional<WmmaLayout> wmma_layout(char use, unsigned m, unsigned n, unsigned k, Type t, bool tf32) {
  const bool shape16 = k == 16 && ((m == 16 && n == 16) || (m == 32 && n == 8) || (m == 8 && n == 32));
  if (use == 'c') {
    if (t == Type::F64) return m == 8 && n == 8 && k == 4 ? std::optional(make(8, 8, 8, 2, false, {{0, 0}})) : std::nullopt;
    if (t == Type::F32 && m == 16 && n == 16 && k == 8) return accumulator(16, 16, 4);
    if (!shape16) return std::nullopt;
    if (t == Type::F16) return accumulator(m, n, 2);
    if (t == Type::F32 || t == Type::S32) return accumulator(m, n, 4);
    return std::nullopt;
  }
  const bool a = use == 'a';
  if (tf32) {
    if (!(m == 16 && n == 16 && k == 8)) return std::nullopt;
    return a ? make(16, 8, 4, 1, false, {{0, 0}, {8, 0}, {0, 4}, {8, 4}}) : make(8, 16, 4, 1, true, {{0, 0}, {4, 0}, {0, 8}, {4, 8}});
  }
  if (t == Type::F64) {
    if (!(m == 8 && n == 8 && k == 4)) return std::nullopt;
    return a ? make(8, 4, 8, 1, false, {{0, 0}}) : make(4, 8, 8, 1, true, {{0, 0}});
  }
  if (!shape16) return std::nullopt;
  if (t == Type::F16 || t == Type::BF16) {
    WmmaLayout l;
    if (a && m == 16) l = make(16, 16, 2, 2, false, {{0, 0}, {8, 0}, {0, 8}, {8, 8}});
    else if (a && m == 32) l = make(32, 16, 2, 2, false, {{0, 0}, {8, 0}, {0, 8}, {8, 8}, {16, 0}, {24, 0}, {16, 8}, {24, 8}});
    else if (a) l = make(8, 16, 2, 2, false, {{0, 0}, {0, 8}});
    else if (n == 16) l = make(16, 16, 2, 2, true, {{0, 0}, {8, 0}, {0, 8}, {8, 8}});
    else if (n == 8) l = make(16, 8, 2, 2, true, {{0, 0}, {8, 0}});
    else l = make(16, 32, 2, 2, true, {{0, 0}, {0, 8}, {8, 0}, {8, 8}, {0, 16}, {0, 24}, {8, 16}, {8, 24}});
    if (t == Type::F16) l.registers = 8;  // .f16 A and B are 8 registers in every shape, the runs repeated
    return l;
  }
  if (t == Type::S8 || t == Type::U8) {
    if (a && m == 16) return make(16, 16, 1, 4, false, {{0, 0}, {8, 0}});
    if (a && m == 32) return make(32, 16, 1, 4, false, {{0, 0}, {8, 0}, {16, 0}, {24, 0}});
    if (a) return make(8, 16, 1, 4, false, {{0, 0}});
    if (n == 16) return make(16, 16, 1, 4, true, {{0, 0}, {0, 8}});
    if (n == 8) return make(16, 8, 1, 4, true, {{0, 0}});
    return make(16, 32, 1, 4, true, {{0, 0}, {0, 8}, {0, 16}, {0, 24}});
  }
  return std::nullopt;
}

WmmaPlan wmma_plan(const WmmaLayout& l, char use, bool col_major, bool shared) {
  WmmaPlan p;
  auto add = [&](WmmaAccess::Kind kind, unsigned index, unsigned bytes, unsigned matrices) {
    p.access[p.count++] = WmmaAccess{kind, static_cast<std::uint8_t>(index), static_cast<std::uint8_t>(bytes),
                                      static_cast<std::uint8_t>(matrices)};
  };
  // A run lies along a memory row when it goes along a row of a row-major matrix or down a column of a
  // column-major one.
  const bool along_memory_rows = l.transposed == col_major;
  const bool small = l.elem_bytes <= 2 && (l.elem_bytes == 2 || along_memory_rows);
  if (small && shared && use != 'c') {
    for (unsigned i = 0; i < l.runs; i += 4) add(WmmaAccess::Kind::Ldmatrix, i, 16, l.runs - i < 4 ? l.runs - i : 4);
  } else if (small) {
    for (unsigned i = 0; i < l.runs; ++i) add(WmmaAccess::Kind::PerRun, i, 4, 0);
  } else if (along_memory_rows) {
    for (unsigned i = 0; i < l.runs; ++i) add(WmmaAccess::Kind::PerRun, i, static_cast<unsigned>(l.run) * l.elem_bytes, 0);
  } else {
    for (unsigned e = 0; e < l.elements(); ++e) add(WmmaAccess::Kind::PerElement, e, l.elem_bytes, 0);
  }
  return p;
}

}  // namespace warpscope::ptx
