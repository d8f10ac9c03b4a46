#include "ptx/ir.hpp"

namespace warpscope::ptx {

int type_bytes(Type t) {
  switch (t) {
    case Type::None: return 0;
    case Type::B8: case Type::U8: case Type::S8: case Type::Pred: return 1;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 2;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2: return 4;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 8;
    case Type::B128: return 16;
  }
  return 0;
}

bool is_signed(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }

bool is_float(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::F32 || t == Type::F64;
}

}  // namespace warpscope::ptx
