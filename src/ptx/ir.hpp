// The decoded form of a PTX module that the interpreter runs: functions of
// instructions with resolved operands (registers by index, labels by
// instruction index, variables by symbol index). The parser builds it once;
// nothing here is looked up by name while a kernel runs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "warpscope/types.hpp"

namespace warpscope::ptx {

// PTX fundamental types (PTX ISA 5.2.2). Pred is a predicate register.
enum class Type : std::uint8_t { None, B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2, BF16, BF16x2, F32, F64, Pred,
  E4M3, E5M2,  // wgmma's 8-bit float elements (PTX ISA 5.2.5.1), not register types: kTypeNames leaves them out
};

// Pred: 1, None: 0
inline int type_bytes(Type t) {
  switch (t) {
    case Type::None: return 0;
    case Type::B8: case Type::U8: case Type::S8: case Type::Pred: case Type::E4M3: case Type::E5M2: return 1;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 2;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2: case Type::BF16x2: return 4;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 8;
    case Type::B128: return 16;
  }
  return 0;
}
// PTX's type names without the dot, one table both ways (the parser, messages).
inline constexpr std::array<std::pair<std::string_view, Type>, 20> kTypeNames{{
    {"b8", Type::B8},     {"b16", Type::B16},     {"b32", Type::B32},   {"b64", Type::B64}, {"b128", Type::B128},
    {"u8", Type::U8},     {"u16", Type::U16},     {"u32", Type::U32},   {"u64", Type::U64}, {"s8", Type::S8},
    {"s16", Type::S16},   {"s32", Type::S32},     {"s64", Type::S64},   {"f16", Type::F16}, {"f16x2", Type::F16x2},
    {"bf16", Type::BF16}, {"bf16x2", Type::BF16x2}, {"f32", Type::F32}, {"f64", Type::F64}, {"pred", Type::Pred}}};
inline std::optional<Type> parse_type(std::string_view name) {
  for (const auto& [n, t] : kTypeNames)
    if (n == name) return t;
  return std::nullopt;
}
inline std::string_view type_name(Type t) {
  for (const auto& [n, u] : kTypeNames)
    if (u == t) return n;
  return "b8";  // Type::None
}

// A register or symbol index (int32, -1 for none) as a subscript.
inline std::size_t ix(std::int32_t i) { return static_cast<std::size_t>(i); }
inline bool is_signed(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }
inline bool is_float(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2 || t == Type::F32 || t == Type::F64;
}
// 16-bit floats, alone or as pairs in 32 bits.
inline bool is_half(Type t) { return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2;
}

enum class Opcode : std::uint8_t {
  Unsupported,
  Mov, Ld, St, Cvta, CvtaTo, Cvt, Add, Sub, Mul, Mad, Mul24, Mad24, Div, Rem, Abs, Neg, Min, Max, And, Or, Xor, Not,
  Cnot, Shl, Shr, Setp, Selp, Slct, Bra, Ret, Exit, Bar, BarWarp, Nop, Atom, Red, Shfl, Vote, Activemask, Fma, Rcp,
  Sqrt, Rsqrt, Ex2, Lg2, Sin, Cos, Tanh, Popc, Clz, Brev, Bfe, Bfi, Prmt, Lop3, Shf, Copysign, Testp, Call, Sad,
  Isspacep, Trap, Dp4a, CpAsync, Redux, Match, Ldmatrix, Stmatrix, Mma, WmmaLoad, WmmaStore, WmmaMma, Mbarrier,
  Fns,       // fns.b32 d, mask, base, offset: the offset-th set bit of mask from base
  Dp2a,      // dp2a.{lo,hi}: two 16-bit by two 8-bit products, accumulated
  Set,       // set.cmp.dtype.stype: a comparison as all ones / 1.0 (per half for .f16x2)
  Bmsk,      // bmsk.{clamp,wrap}.b32: a mask of b bits from bit a
  Bfind,     // bfind{.shiftamt}: the most significant non-sign bit
  Elect,     // elect.sync d|p, membermask: the lowest active lane of membermask leads
  BulkCopy,  // cp.async.bulk: space Shared global -> shared (mbarrier complete_tx), Global shared -> global (bulk_group)
  TensorCopy,  // cp.async.bulk.tensor.{1-5}d .tile: as BulkCopy; vec: the rank; [map, {coordinates}] (Operand::count)
  Wgmma,       // wgmma.mma_async: D (Instruction::fragment), A (descriptor or 4 registers), B descriptor, scale-d, ...
  Mapa,        // mapa{.shared::cluster}.u32/.u64 d, a, rank: a's offset in CTA `rank`'s shared memory
  Getctarank,  // getctarank{.shared::cluster}.u32/.u64 d, a: the rank of the CTA whose shared memory a is in
  BarCluster,  // barrier.cluster.arrive (bar Arrive) / .wait (bar Sync): every thread of the cluster
  Tex,         // tex.{1d,2d}.v4.dtype.ctype d, [handle, {coordinates}]: type dtype, type2 ctype, vec the dimensions
};

enum class SpecialReg : std::uint8_t {
  Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Nwarpid, Smid, Nsmid, Gridid, Clock, Clock64, Globaltimer,
  LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe, DynamicSmemSize, TotalSmemSize,
  ReservedSmem,  // %reserved_smem_offset_{begin,end,cap,0,1}: component 0-2, 3 + n
  // Thread block clusters (sm_90): %clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid (x, y, z),
  // %cluster_ctarank, %cluster_nctarank, %is_explicit_cluster.
  Clusterid, Nclusterid, ClusterCtaid, ClusterNctaid, ClusterCtarank, ClusterNctarank, IsExplicitCluster,
};

// Where a state-space qualifier points. Generic: no qualifier (addresses of any window).
// SharedCluster: .shared::cluster, the shared memory of every CTA of the cluster (sm_90; the interpreter's addresses:
// a CTA's own offsets below 2^24, another CTA's (rank + 1) << 24 | offset, as mapa makes them).
enum class StateSpace : std::uint8_t { Generic, Global, Shared, Local, Const, Param, Reg, SharedCluster };

enum class CmpOp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : std::uint8_t { None, And, Or, Xor };
enum class Rounding : std::uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
enum class MulMode : std::uint8_t { Lo, Hi, Wide };
enum class ShflMode : std::uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : std::uint8_t { All, Any, Uni, Ballot };
enum class BarMode : std::uint8_t { Sync, Arrive, RedPopc, RedAnd, RedOr };
// mbarrier.* (PTX ISA 9.7.13.15) and cp.async.mbarrier.arrive (CpAsyncArrive): what Opcode::Mbarrier does.
enum class MbarOp : std::uint8_t { Init, Arrive, ArriveDrop, ExpectTx, CompleteTx, TestWait, TryWait, PendingCount, Inval, CpAsyncArrive };
// Whether the operation writes a destination operand (a state token, a wait's predicate, a pending count), which
// then comes first.
inline bool mbar_writes(MbarOp m) {
  return m != MbarOp::Init && m != MbarOp::ExpectTx && m != MbarOp::CompleteTx && m != MbarOp::Inval &&
         m != MbarOp::CpAsyncArrive;
}

enum class OperandKind : std::uint8_t { None, Reg, Imm, Special, Address, Vector, Label, Symbol, Sink };

struct Operand {
  OperandKind kind = OperandKind::None;
  bool negate = false;            // a predicate source written !%p
  SpecialReg special{};           // Special
  std::uint8_t component = 0;     // Special: x, y, z (0, 1, 2)
  std::uint8_t count = 0;         // Vector: registers in regs; Address: a tensor copy's coordinates in regs ([map, {x, y}])
  std::int32_t reg = -1;          // Reg; Address: base register (-1: none)
  std::int32_t symbol = -1;       // Symbol, Address: the variable (-1: none)
  std::int64_t offset = 0;        // Address: byte offset
  std::uint64_t imm = 0;          // Imm: the bits, in the type the instruction reads it as
  std::uint32_t label = 0;        // Label: instruction index
  std::array<std::int32_t, 8> regs{{-1, -1, -1, -1, -1, -1, -1, -1}};  // Vector (-1: the sink '_'); wmma fragments take 8
};

struct Instruction {
  Opcode op = Opcode::Unsupported;
  Type type = Type::None;   // the instruction's type; cvt: the destination type
  Type type2 = Type::None;  // cvt: source type; setp/slct: comparand type
  StateSpace space = StateSpace::Generic;
  CacheOp cache = CacheOp::Default;
  AtomicOp atomic = AtomicOp::Unknown;
  CmpOp cmp = CmpOp::Eq;
  BoolOp bool_op = BoolOp::None;
  Rounding rounding = Rounding::None;
  MulMode mul = MulMode::Lo;
  ShflMode shfl = ShflMode::Idx;
  VoteMode vote = VoteMode::All;
  BarMode bar = BarMode::Sync;
  bool ftz = false, sat = false, approx = false, uniform = false, shift_clamp = false, shift_left = false;
  bool pair_dest = false;      // setp/shfl writing d|p
  bool result_unused = false;  // atom whose result no instruction reads: the SASS is a reduction (RED)
  bool trans = false;          // ldmatrix/stmatrix .trans
  bool ignore_src = false;     // cp.async: operand 3 is the ignore-src predicate, not a source size
  bool cache_hint = false;     // cp.async .L2::cache_hint: a cache-policy operand comes last
  bool multicast = false;      // cp.async.bulk{.tensor} .multicast::cluster: a ctaMask operand after the mbarrier
  bool async_tx = false;       // st.async / red.async (sm_90): operand 2 is an mbarrier in the CTA written, completed by the bytes
  bool shift_amount = false;   // bfind.shiftamt: the left shift that brings the bit to the top, not its position
  MbarOp mbar = MbarOp::Init;  // Mbarrier: which operation
  bool mbar_parity = false;    // test_wait / try_wait .parity: the last source is a phase parity, not a state
  bool mbar_expect_tx = false; // arrive.expect_tx: the last source is a transaction count, not an arrival count
  bool mbar_noinc = false;     // cp.async.mbarrier.arrive.noinc: the arrival counts against the expected count
  // mma.sync and wmma.mma: shape M x N x K; type: D (= C for mma.sync), type2: A, type3: B, type4: C (wmma.mma);
  // tf32: A and B are .tf32 (type2/3 F32). wmma.load/store: type: the elements, tf32 as above.
  std::uint8_t mma_m = 0, mma_k = 0;
  std::uint16_t mma_n = 0;  // wgmma: up to 256
  Type type3 = Type::None, type4 = Type::None;
  bool tf32 = false, satfinite = false;
  char wmma_use = 0;       // wmma.load: 'a', 'b' or 'c'; wmma.store: 'c' (the D fragment has C's layout)
  bool col_major = false;  // wmma.load/store: the matrix in memory is column-major (.col)
  std::uint8_t vec = 1;        // ld/st/atom: 1, 2, 4 or 8 elements; ldmatrix/stmatrix: matrices (.x1 .x2 .x4); TensorCopy: rank
  std::int32_t guard = -1;     // @%p: predicate register, -1 none
  bool guard_negated = false;
  std::uint32_t callee = 0;    // Call: function index
  std::uint32_t reconverge = 0;  // Bra: where diverged lanes meet again (immediate post-dominator)
  std::uint32_t ptx_line = 0;    // line in the PTX file
  std::int32_t loc_file = -1;    // .loc: source file index and line, -1 when none
  std::uint32_t loc_line = 0;
  std::vector<std::int32_t> fragment;  // wgmma: D's registers (up to 128, more than an Operand holds)
  std::string text;            // the opcode as written, for errors ("tex.2d.v4.f32.f32")
  std::vector<Operand> operands;  // destination(s) first, as PTX writes them
};

// mma.sync's fragments: registers per thread of D, A, B and C (PTX ISA 9.7.14.5.14, the figures of each
// shape); A and B pack 2 (.f16, .bf16), 1 (.tf32) or 4 (.s8, .u8) elements in a 32-bit register.
inline std::array<std::uint8_t, 4> mma_fragment_registers(const Instruction& in) {
  if (in.type == Type::F64) return {2, 1, 1, 2};  // m8n8k4: one .f64 of A and of B, two of C and D
  const unsigned per = in.tf32 ? 1u : type_bytes(in.type2) == 2 ? 2u : 4u;
  const auto a = static_cast<std::uint8_t>(in.mma_m * in.mma_k / (32u * per));
  const auto b = static_cast<std::uint8_t>(in.mma_k * in.mma_n / (32u * per));
  const auto cd = static_cast<std::uint8_t>(in.mma_m * in.mma_n / (in.type == Type::F16 ? 64u : 32u));
  return {cd, a, b, cd};
}

// A .global/.const/.shared/.local variable, or a function parameter.
struct Variable {
  std::string name;
  StateSpace space = StateSpace::Global;
  Type type = Type::None;        // the element type as declared
  std::uint64_t size = 0;        // bytes (0: an extern array of unknown size, dynamic shared memory)
  std::uint32_t align = 1;
  std::uint64_t offset = 0;      // Const/Shared/Local/Param: offset in its space's area
  std::vector<std::uint8_t> init;  // initial bytes (global and const), may be shorter than size
  bool is_extern = false;
  std::int32_t owner = -1;       // the function that declares it (Local, Param, function-level Shared), -1: module
};

struct Register {
  std::string name;
  Type type = Type::B32;
};

struct Function {
  std::string name;
  bool is_kernel = false;
  std::array<std::uint32_t, 3> cluster{{0, 0, 0}};  // .reqnctapercluster (0: none)
  bool explicit_cluster = false;                    // .explicitcluster
  bool is_extern = false;          // declared only (vprintf, ...)
  std::vector<std::int32_t> params;       // symbols of the formal parameters, in order
  std::vector<std::int32_t> returns;      // symbols of the return parameters
  std::vector<Register> registers;
  std::vector<Instruction> code;
  std::uint64_t local_bytes = 0;   // its .local variables
  std::uint64_t param_bytes = 0;   // its formal and call-site parameters (per thread)
  std::uint32_t ptx_line = 0;
};

struct Module {
  std::string path;                // for messages
  std::string version, target;
  int address_size = 64;
  std::vector<Function> functions;
  std::vector<Variable> symbols;
  std::vector<std::string> files;  // .file index -> path ("" where not declared)
  std::uint64_t const_bytes = 0;   // the module's .const variables, laid out in order
  std::uint64_t static_shared_bytes = 0;  // module-level .shared variables
  std::unordered_map<std::string, std::uint32_t> function_index;

  const Function* find_function(const std::string& name) const {
    auto it = function_index.find(name);
    return it == function_index.end() ? nullptr : &functions[it->second];
  }
};

}  // namespace warpscope::ptx
