#include "ptx/parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <unordered_map>

#include "ptx/lexer.hpp"
#include "ptx/reconvergence.hpp"
#include "ptx/wmma_layout.hpp"

namespace warpscope::ptx {
namespace {

// A literal as written: its kind decides how it becomes the bits of the type an instruction reads.
enum class Literal : std::uint8_t { Int, F32Bits, F64Bits, Decimal };

struct Number {
  Literal kind = Literal::Int;
  std::uint64_t bits = 0;  // Int: the value; F32Bits/F64Bits: the bits; Decimal: the double's bits
};

std::optional<std::uint64_t> parse_digits(std::string_view s, int base) {
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<Number> parse_number(std::string_view w) {
  if (w.empty() || !(w[0] >= '0' && w[0] <= '9')) return std::nullopt;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'f' || w[1] == 'F') && w.size() == 10) {
    auto v = parse_digits(w.substr(2), 16);
    if (!v) return std::nullopt;
    return Number{Literal::F32Bits, *v};
  }
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'd' || w[1] == 'D') && w.size() == 18) {
    auto v = parse_digits(w.substr(2), 16);
    if (!v) return std::nullopt;
    return Number{Literal::F64Bits, *v};
  }
  std::string_view body = w;
  if (!body.empty() && (body.back() == 'U' || body.back() == 'u')) body.remove_suffix(1);
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    auto v = parse_digits(body.substr(2), 16);
    if (!v) return std::nullopt;
    return Number{Literal::Int, *v};
  }
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B')) {
    auto v = parse_digits(body.substr(2), 2);
    if (!v) return std::nullopt;
    return Number{Literal::Int, *v};
  }
  if (body.find_first_of(".eE") != std::string_view::npos) {
    double d = 0;
    auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), d);
    if (ec != std::errc() || p != w.data() + w.size()) return std::nullopt;
    return Number{Literal::Decimal, std::bit_cast<std::uint64_t>(d)};
  }
  auto v = body.size() > 1 && body[0] == '0' ? parse_digits(body.substr(1), 8) : parse_digits(body, 10);
  if (!v) return std::nullopt;
  return Number{Literal::Int, *v};
}

std::optional<StateSpace> parse_space(std::string_view s) {
  if (s == "global") return StateSpace::Global;
  if (s == "shared" || s == "shared::cta") return StateSpace::Shared;
  if (s == "shared::cluster") return StateSpace::SharedCluster;
  if (s == "local") return StateSpace::Local;
  if (s == "const") return StateSpace::Const;
  if (s == "param" || s == "param::entry" || s == "param::func") return StateSpace::Param;
  return std::nullopt;
}

std::optional<SpecialReg> parse_special(std::string_view name, std::uint8_t& component) {
  component = 0;
  // Shared memory the system reserves per CTA (cooperative groups use it, nvcc -G names it).
  if (name.starts_with("%reserved_smem_offset_")) {
    const std::string_view which = name.substr(22);
    if (which == "begin") component = 0;
    else if (which == "end") component = 1;
    else if (which == "cap") component = 2;
    else if (which == "0" || which == "1") component = static_cast<std::uint8_t>(3 + (which[0] - '0'));
    else return std::nullopt;
    return SpecialReg::ReservedSmem;
  }
  std::string_view base = name;
  if (auto dot = name.find('.'); dot != std::string_view::npos) {
    base = name.substr(0, dot);
    const std::string_view c = name.substr(dot + 1);
    if (c == "x") component = 0;
    else if (c == "y") component = 1;
    else if (c == "z") component = 2;
    else return std::nullopt;
    if (base != "%tid" && base != "%ntid" && base != "%ctaid" && base != "%nctaid" && base != "%clusterid" &&
        base != "%nclusterid" && base != "%cluster_ctaid" && base != "%cluster_nctaid")
      return std::nullopt;
  }
  static const std::unordered_map<std::string_view, SpecialReg> kSpecial = {
      {"%tid", SpecialReg::Tid},
      {"%ntid", SpecialReg::Ntid},
      {"%ctaid", SpecialReg::Ctaid},
      {"%nctaid", SpecialReg::Nctaid},
      {"%laneid", SpecialReg::Laneid},
      {"%warpid", SpecialReg::Warpid},
      {"%nwarpid", SpecialReg::Nwarpid},
      {"%smid", SpecialReg::Smid},
      {"%nsmid", SpecialReg::Nsmid},
      {"%gridid", SpecialReg::Gridid},
      {"%clock", SpecialReg::Clock},
      {"%clock64", SpecialReg::Clock64},
      {"%globaltimer", SpecialReg::Globaltimer},
      {"%lanemask_eq", SpecialReg::LanemaskEq},
      {"%lanemask_lt", SpecialReg::LanemaskLt},
      {"%lanemask_le", SpecialReg::LanemaskLe},
      {"%lanemask_gt", SpecialReg::LanemaskGt},
      {"%lanemask_ge", SpecialReg::LanemaskGe},
      {"%dynamic_smem_size", SpecialReg::DynamicSmemSize},
      {"%total_smem_size", SpecialReg::TotalSmemSize},
      {"%clusterid", SpecialReg::Clusterid},
      {"%nclusterid", SpecialReg::Nclusterid},
      {"%cluster_ctaid", SpecialReg::ClusterCtaid},
      {"%cluster_nctaid", SpecialReg::ClusterNctaid},
      {"%cluster_ctarank", SpecialReg::ClusterCtarank},
      {"%cluster_nctarank", SpecialReg::ClusterNctarank},
      {"%is_explicit_cluster", SpecialReg::IsExplicitCluster}};
  auto it = kSpecial.find(base);
  if (it == kSpecial.end()) return std::nullopt;
  return it->second;
}

const std::unordered_map<std::string_view, Opcode>& opcode_table() {
  static const std::unordered_map<std::string_view, Opcode> kOps = {
      {"mov", Opcode::Mov},       {"ld", Opcode::Ld},         {"ldu", Opcode::Ld},          {"st", Opcode::St},
      {"cvta", Opcode::Cvta},     {"cvt", Opcode::Cvt},       {"add", Opcode::Add},         {"sub", Opcode::Sub},
      {"mul", Opcode::Mul},       {"mad", Opcode::Mad},       {"mul24", Opcode::Mul24},     {"mad24", Opcode::Mad24},
      {"div", Opcode::Div},       {"rem", Opcode::Rem},       {"abs", Opcode::Abs},         {"neg", Opcode::Neg},
      {"min", Opcode::Min},       {"max", Opcode::Max},       {"and", Opcode::And},         {"or", Opcode::Or},
      {"xor", Opcode::Xor},       {"not", Opcode::Not},       {"cnot", Opcode::Cnot},       {"shl", Opcode::Shl},
      {"shr", Opcode::Shr},       {"setp", Opcode::Setp}, {"set", Opcode::Set},     {"selp", Opcode::Selp},       {"slct", Opcode::Slct},
      {"bra", Opcode::Bra},       {"ret", Opcode::Ret},       {"exit", Opcode::Exit},       {"bar", Opcode::Bar},
      {"barrier", Opcode::Bar},   {"membar", Opcode::Nop},    {"fence", Opcode::Nop},       {"atom", Opcode::Atom},
      {"red", Opcode::Red},       {"shfl", Opcode::Shfl},     {"vote", Opcode::Vote},       {"activemask", Opcode::Activemask}, {"elect", Opcode::Elect},
      {"fma", Opcode::Fma},       {"rcp", Opcode::Rcp},       {"sqrt", Opcode::Sqrt},       {"rsqrt", Opcode::Rsqrt},
      {"ex2", Opcode::Ex2},       {"lg2", Opcode::Lg2},       {"sin", Opcode::Sin},         {"cos", Opcode::Cos},
      {"tanh", Opcode::Tanh},     {"popc", Opcode::Popc},     {"clz", Opcode::Clz}, {"bfind", Opcode::Bfind}, {"bmsk", Opcode::Bmsk},         {"brev", Opcode::Brev},
      {"bfe", Opcode::Bfe},       {"bfi", Opcode::Bfi},       {"prmt", Opcode::Prmt},       {"lop3", Opcode::Lop3},
      {"shf", Opcode::Shf},       {"copysign", Opcode::Copysign}, {"testp", Opcode::Testp}, {"call", Opcode::Call},
      {"sad", Opcode::Sad},       {"isspacep", Opcode::Isspacep}, {"trap", Opcode::Trap},   {"prefetch", Opcode::Nop},
      {"prefetchu", Opcode::Nop}, {"nanosleep", Opcode::Nop}, {"pmevent", Opcode::Nop},     {"dp4a", Opcode::Dp4a}, {"dp2a", Opcode::Dp2a}, {"fns", Opcode::Fns},
      {"griddepcontrol", Opcode::Nop}, {"redux", Opcode::Redux}, {"match", Opcode::Match},
      {"setmaxnreg", Opcode::Nop}};
  return kOps;
}

// How many of an instruction's leading operands it writes.
int dest_count(const Instruction& in) {
  switch (in.op) {
    case Opcode::St: case Opcode::Red: case Opcode::CpAsync: case Opcode::BulkCopy: case Opcode::TensorCopy: case Opcode::Stmatrix: case Opcode::WmmaStore: case Opcode::Bra:
    case Opcode::Ret: case Opcode::Exit: case Opcode::Nop:
    case Opcode::Trap: case Opcode::BarWarp: case Opcode::Call: case Opcode::Unsupported: case Opcode::BarCluster:
      return 0;
    case Opcode::Bar:
      return in.bar == BarMode::Sync || in.bar == BarMode::Arrive ? 0 : 1;
    case Opcode::Mbarrier:
      return mbar_writes(in.mbar) ? 1 : 0;
    case Opcode::Setp: case Opcode::Shfl: case Opcode::Match: case Opcode::Elect:
      return in.pair_dest ? 2 : 1;
    default:
      return 1;
  }
}

// The type an instruction reads source operand `i` (an index into operands) as.
Type source_type(const Instruction& in, std::size_t i, int dests) {
  const std::size_t s = i - static_cast<std::size_t>(dests);  // index among sources
  switch (in.op) {
    case Opcode::Cvt: return in.type2;
    case Opcode::Setp: return s == 2 ? Type::Pred : in.type;
    case Opcode::Set: return s == 2 ? Type::Pred : in.type2;
    case Opcode::Selp: return s == 2 ? Type::Pred : in.type;
    case Opcode::Slct: return s == 2 ? in.type2 : in.type;
    case Opcode::Shl: case Opcode::Shr: return s == 1 ? Type::U32 : in.type;
    case Opcode::Shf: return s == 2 ? Type::U32 : in.type;
    case Opcode::Bfe: return s >= 1 ? Type::U32 : in.type;
    case Opcode::Bfi: return s >= 2 ? Type::U32 : in.type;
    case Opcode::Mad:
      if (in.mul == MulMode::Wide && s == 2) {
        return is_signed(in.type) ? Type::S64 : Type::U64;
      }
      return in.type;
    case Opcode::Shfl: case Opcode::Prmt: case Opcode::Lop3: case Opcode::Activemask: case Opcode::Elect: return Type::B32;
    case Opcode::Redux: return s == 0 ? in.type : Type::B32;
    case Opcode::Match: return s == 0 ? in.type : Type::B32;
    case Opcode::Vote: return s == 0 ? Type::Pred : Type::B32;
    case Opcode::BarWarp: case Opcode::Bar: return Type::U32;
    case Opcode::St: return in.type;
    case Opcode::WmmaLoad: case Opcode::WmmaStore: return Type::U32;  // the stride (the fragments are vectors)
    case Opcode::BulkCopy: return Type::U32;  // the byte count
    case Opcode::Wgmma: return s <= 1 ? Type::B64 : s == 2 ? Type::Pred : Type::S32;  // descriptors, scale-d, imm-*
    case Opcode::Mapa: return s == 1 ? Type::U32 : in.type;  // the address, then the rank
    case Opcode::Fns: return s == 2 ? Type::S32 : Type::U32;  // mask, base, then a signed offset
    case Opcode::Mbarrier:  // a state token is 64 bits; counts, transaction bytes and parities 32
      return (in.mbar == MbarOp::PendingCount || ((in.mbar == MbarOp::TestWait || in.mbar == MbarOp::TryWait) && !in.mbar_parity && s == 1))
                 ? Type::B64
                 : Type::U32;
    default: return in.type;
  }
}

std::uint64_t literal_bits(const Number& n, Type t, bool& ok) {
  ok = true;
  if (t == Type::F32) {
    float f = 0;
    switch (n.kind) {
      case Literal::F32Bits: return n.bits;
      case Literal::F64Bits: f = static_cast<float>(std::bit_cast<double>(n.bits)); break;
      case Literal::Decimal: f = static_cast<float>(std::bit_cast<double>(n.bits)); break;
      case Literal::Int: f = static_cast<float>(static_cast<std::int64_t>(n.bits)); break;
    }
    return std::bit_cast<std::uint32_t>(f);
  }
  if (t == Type::F64) {
    switch (n.kind) {
      case Literal::F32Bits: return std::bit_cast<std::uint64_t>(static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(n.bits))));
      case Literal::F64Bits: case Literal::Decimal: return n.bits;
      case Literal::Int: return std::bit_cast<std::uint64_t>(static_cast<double>(static_cast<std::int64_t>(n.bits)));
    }
  }
  if (n.kind == Literal::Decimal) {
    ok = false;
    return 0;
  }
  const int bytes = type_bytes(t);
  if (bytes == 0 || bytes >= 8) return n.bits;
  return n.bits & ((std::uint64_t{1} << (bytes * 8)) - 1);
}

struct PendingLabel {
  std::size_t inst, operand;
  std::string name;
  std::uint32_t line;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& path) : path_(path), toks_(tokenize(text, path)) { m_.path = path; }

  Module run() {
    while (!at_end()) module_statement();
    for (auto& f : m_.functions)
      if (!f.is_extern && f.code.empty() && f.ptx_line == 0) f.is_extern = true;
    return std::move(m_);
  }

 private:
  const std::string& path_;
  std::vector<Token> toks_;
  std::size_t i_ = 0;
  Module m_;
  std::unordered_map<std::string, std::int32_t> module_symbols_;
  // Inside a function body: scopes of registers and symbols ({ ... } blocks), labels.
  std::vector<std::unordered_map<std::string, std::int32_t>> reg_scopes_, sym_scopes_;
  std::unordered_map<std::string, std::uint32_t> labels_;
  std::vector<PendingLabel> pending_;
  std::int32_t loc_file_ = -1;
  std::uint32_t loc_line_ = 0;

  // --- tokens
  const Token& peek(std::size_t k = 0) const { return toks_[std::min(i_ + k, toks_.size() - 1)]; }
  bool at_end() const { return peek().kind == TokenKind::End; }
  const Token& take() {
    const Token& t = toks_[i_];
    if (t.kind != TokenKind::End) ++i_;
    return t;
  }
  bool is_punct(char c, std::size_t k = 0) const {
    return peek(k).kind == TokenKind::Punct && peek(k).text[0] == c;
  }
  bool is_word(std::string_view w, std::size_t k = 0) const { return peek(k).kind == TokenKind::Word && peek(k).text == w; }
  [[noreturn]] void fail(const std::string& msg) const { fail_at(path_, peek().line, msg); }
  std::string found() const {
    const Token& t = peek();
    if (t.kind == TokenKind::End) return "the end of the file";
    return fmt::format("'{}'", t.text);
  }
  void expect(char c) {
    if (!is_punct(c)) fail(fmt::format("expected '{}', found {}", c, found()));
    take();
  }
  std::string_view word(const char* what) {
    if (peek().kind != TokenKind::Word) fail(fmt::format("expected {}, found {}", what, found()));
    return take().text;
  }
  std::uint64_t integer(const char* what) {
    const Token& t = peek();
    auto n = t.kind == TokenKind::Word ? parse_number(t.text) : std::nullopt;
    if (!n || n->kind != Literal::Int) fail(fmt::format("expected {}, found {}", what, found()));
    take();
    return n->bits;
  }
  void skip_to_semicolon() {
    while (!at_end() && !is_punct(';')) take();
    if (is_punct(';')) take();
  }
  // Skips a balanced { ... } starting at the current '{'.
  void skip_block() {
    int depth = 0;
    do {
      if (is_punct('{')) ++depth;
      if (is_punct('}')) --depth;
      take();
    } while (depth > 0 && !at_end());
  }

  // --- module level
  void module_statement() {
    const Token& t = peek();
    if (t.kind != TokenKind::Word) fail(fmt::format("expected a directive, found {}", found()));
    const std::string_view w = t.text;
    if (w == ".version") {
      take();
      m_.version = std::string(word("a PTX version"));
    } else if (w == ".target") {
      take();
      m_.target = std::string(word("a target such as sm_90"));
      while (is_punct(',')) {
        take();
        word("a target option");
      }
    } else if (w == ".address_size") {
      take();
      const auto n = integer("32 or 64");
      if (n != 64 && n != 32) fail(fmt::format("address size {}: expected 32 or 64", n));
      m_.address_size = static_cast<int>(n);
    } else if (w == ".file") {
      take();
      const auto index = integer("a file number");
      if (peek().kind != TokenKind::String) fail(fmt::format("expected a file name in quotes, found {}", found()));
      const std::string name(take().text);
      if (index > 100000) fail(fmt::format(".file {}: file number too large", index));
      if (m_.files.size() <= index) m_.files.resize(index + 1);
      m_.files[index] = name;
      while (is_punct(',')) {
        take();
        integer("a number");
      }
    } else if (w == ".section") {
      take();
      word("a section name");
      if (is_punct('{')) skip_block();
    } else if (w == ".visible" || w == ".extern" || w == ".weak" || w == ".common" || w == ".entry" || w == ".func" ||
               w == ".global" || w == ".const" || w == ".shared" || w == ".local" || w == ".tex" || w == ".texref" ||
               w == ".samplerref" || w == ".surfref") {
      linked_declaration();
    } else if (w == ".alias" || w == ".pragma") {
      take();
      skip_to_semicolon();
    } else {
      fail(fmt::format("unknown directive {}", found()));
    }
  }

  void linked_declaration() {
    bool is_extern = false;
    while (is_word(".visible") || is_word(".extern") || is_word(".weak") || is_word(".common")) {
      is_extern = is_extern || peek().text == ".extern";
      take();
    }
    if (is_word(".entry") || is_word(".func")) {
      function();
      return;
    }
    const std::string_view w = word("a declaration");
    auto space = parse_space(w.substr(1));
    if (!space || *space == StateSpace::Param || *space == StateSpace::Local) {
      // .tex, .surfref, ...: textures and surfaces are not interpreted; accept the declaration.
      if (w == ".tex" || w == ".texref" || w == ".samplerref" || w == ".surfref") {
        skip_to_semicolon();
        return;
      }
      fail(fmt::format("'{}' declarations at module level are not supported", w));
    }
    variable(*space, is_extern, -1);
  }

  // `[.align N] [.vN] .type name[dims] [= init];` after the state space.
  std::int32_t variable(StateSpace space, bool is_extern, std::int32_t owner, bool in_list = false) {
    Variable v;
    v.space = space;
    v.is_extern = is_extern;
    v.owner = owner;
    Type type = Type::None;
    int vec = 1;
    while (peek().kind == TokenKind::Word && peek().text.starts_with(".")) {
      const std::string_view mod = take().text.substr(1);
      if (mod == "align") {
        const auto a = integer("an alignment");
        if (a == 0 || a > 4096 || (a & (a - 1)) != 0) fail(fmt::format(".align {}: expected a power of two up to 4096", a));
        v.align = static_cast<std::uint32_t>(a);
      } else if (mod == "v2" || mod == "v4" || mod == "v8") {
        vec = mod[1] - '0';
      } else if (mod == "ptr" || mod == "global" || mod == "shared" || mod == "const" || mod == "local") {
        // kernel pointer parameter attributes (.ptr .global .align N): no effect here
      } else if (auto t = parse_type(mod)) {
        type = *t;
      } else {
        fail(fmt::format("unknown variable attribute '.{}'", mod));
      }
    }
    if (type == Type::None) fail(fmt::format("expected a type (.u32, .b8, ...) before {}", found()));
    v.type = vec == 1 ? type : Type::B8;
    const int elem = type_bytes(type) * vec;
    if (v.align < static_cast<std::uint32_t>(elem) && v.align == 1) v.align = static_cast<std::uint32_t>(std::min(elem, 16));
    v.name = std::string(word("a variable name"));
    std::uint64_t count = 1;
    bool unsized = false;
    while (is_punct('[')) {
      take();
      if (is_punct(']')) {
        unsized = true;
        count = 0;
      } else {
        const auto n = integer("an array size");
        if (n > (1ull << 34)) fail(fmt::format("array size {} is too large", n));
        count *= n;
      }
      expect(']');
    }
    v.size = unsized ? 0 : count * static_cast<std::uint64_t>(elem);
    if (v.size > (1ull << 34)) fail(fmt::format("variable {} is too large ({} bytes)", v.name, v.size));
    if (is_punct('=')) {
      take();
      initializer(v, type);
    }
    const auto index = static_cast<std::int32_t>(m_.symbols.size());
    if (owner < 0) {
      if (space == StateSpace::Const) {
        m_.const_bytes = (m_.const_bytes + v.align - 1) / v.align * v.align;
        v.offset = m_.const_bytes;
        m_.const_bytes += v.size;
      }
      module_symbols_[v.name] = index;
    } else {
      sym_scopes_.back()[v.name] = index;
    }
    m_.symbols.push_back(std::move(v));
    if (!in_list) {
      if (is_punct(',')) fail("declaring several variables in one statement is not supported");
      expect(';');
    }
    return index;
  }

  void initializer(Variable& v, Type type) {
    const int bytes = type_bytes(type);
    auto element = [&]() {
      bool negative = false;
      if (is_punct('-')) {
        take();
        negative = true;
      }
      const Token& t = peek();
      auto n = t.kind == TokenKind::Word ? parse_number(t.text) : std::nullopt;
      if (!n) {
        if (t.kind == TokenKind::Word && (t.text == "generic" || module_symbols_.count(std::string(t.text))))
          fail("initialising a variable with an address is not supported");
        fail(fmt::format("expected a number in the initialiser, found {}", found()));
      }
      take();
      if (negative) {
        if (n->kind == Literal::Int) n->bits = ~n->bits + 1;
        else if (n->kind == Literal::Decimal) n->bits ^= 1ull << 63;
        else n->bits ^= n->kind == Literal::F32Bits ? (1ull << 31) : (1ull << 63);
      }
      bool ok = true;
      const std::uint64_t bits = literal_bits(*n, type, ok);
      if (!ok) fail("a decimal number initialises an integer variable");
      for (int b = 0; b < bytes; ++b) v.init.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
    };
    std::function<void()> list = [&]() {
      if (is_punct('{')) {
        take();
        if (!is_punct('}')) {
          list();
          while (is_punct(',')) {
            take();
            list();
          }
        }
        expect('}');
      } else {
        element();
      }
    };
    list();
    if (v.size == 0 && !v.init.empty()) v.size = v.init.size();
    if (v.init.size() > v.size) fail(fmt::format("initialiser of {} has {} bytes, the variable {}", v.name, v.init.size(), v.size));
  }

  // --- functions
  void function() {
    const bool kernel = take().text == ".entry";
    Function f;
    f.is_kernel = kernel;
    f.ptx_line = 0;
    const auto index = static_cast<std::uint32_t>(m_.functions.size());
    sym_scopes_.assign(1, {});
    reg_scopes_.assign(1, {});
    labels_.clear();
    pending_.clear();
    std::vector<std::int32_t> returns;
    if (!kernel && is_punct('(')) returns = param_list(static_cast<std::int32_t>(index), f);
    const std::uint32_t line = peek().line;
    f.name = std::string(word("a function name"));
    std::vector<std::int32_t> params;
    if (is_punct('(')) params = param_list(static_cast<std::int32_t>(index), f);
    // Performance directives and attributes up to the body; the cluster's shape is kept.
    while (!at_end() && !is_punct('{') && !is_punct(';')) {
      if (is_word(".pragma")) {
        skip_to_semicolon();
        continue;
      }
      if (is_word(".reqnctapercluster")) {
        take();
        for (int d = 0; d < 3; ++d) {
          const auto n = integer("a cluster dimension");
          if (n == 0 || n > 32) fail(fmt::format(".reqnctapercluster: a dimension of {} (1 to 32)", n));
          f.cluster[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(n);
          if (!is_punct(',')) break;
          take();
        }
        for (auto& d : f.cluster) d = d == 0 ? 1 : d;
        continue;
      }
      if (is_word(".explicitcluster")) f.explicit_cluster = true;
      take();
    }
    f.params = params;
    f.returns = returns;
    // A declaration (.extern, or a prototype before the definition) may precede the definition.
    std::uint32_t slot = index;
    if (auto it = m_.function_index.find(f.name); it != m_.function_index.end()) slot = it->second;
    if (is_punct(';')) {
      take();
      f.is_extern = true;
      if (slot == index) {
        m_.function_index[f.name] = index;
        m_.functions.push_back(std::move(f));
      }
      return;
    }
    f.is_extern = false;
    f.ptx_line = line;
    if (slot == index) {
      m_.function_index[f.name] = index;
      m_.functions.push_back(Function{});
    } else if (!m_.functions[slot].is_extern) {
      fail(fmt::format("function {} is defined twice", f.name));
    }
    // Parameters were declared with the provisional index; a definition after a declaration keeps the first slot.
    for (auto s : f.params) m_.symbols[ix(s)].owner = static_cast<std::int32_t>(slot);
    for (auto s : f.returns) m_.symbols[ix(s)].owner = static_cast<std::int32_t>(slot);
    body(f, slot);
    m_.functions[slot] = std::move(f);
  }

  std::vector<std::int32_t> param_list(std::int32_t owner, Function& f) {
    expect('(');
    std::vector<std::int32_t> out;
    while (!is_punct(')')) {
      if (!is_word(".param") && !is_word(".reg")) fail(fmt::format("expected .param, found {}", found()));
      if (is_word(".reg")) fail("register parameters (.reg) are not supported");
      take();
      const auto s = variable(StateSpace::Param, false, owner, true);
      Variable& v = m_.symbols[ix(s)];
      f.param_bytes = (f.param_bytes + v.align - 1) / v.align * v.align;
      v.offset = f.param_bytes;
      f.param_bytes += v.size;
      out.push_back(s);
      if (is_punct(',')) take();
      else if (!is_punct(')')) fail(fmt::format("expected ',' or ')' in the parameter list, found {}", found()));
    }
    expect(')');
    return out;
  }

  std::int32_t find_reg(std::string_view name) const {
    for (auto it = reg_scopes_.rbegin(); it != reg_scopes_.rend(); ++it)
      if (auto r = it->find(std::string(name)); r != it->end()) return r->second;
    return -1;
  }
  std::int32_t find_symbol(std::string_view name) const {
    for (auto it = sym_scopes_.rbegin(); it != sym_scopes_.rend(); ++it)
      if (auto r = it->find(std::string(name)); r != it->end()) return r->second;
    if (auto r = module_symbols_.find(std::string(name)); r != module_symbols_.end()) return r->second;
    return -1;
  }

  void register_declaration(Function& f) {
    // `.reg .b16 h;`, or with the type attached as cuda_fp16.hpp's inline asm writes it: `.reg.b16 h;`.
    std::vector<std::string_view> mods;
    const std::string_view first = take().text;
    for (std::size_t at = 4; at < first.size();) {
      const std::size_t next = first.find('.', at + 1);
      mods.push_back(first.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1));
      at = next == std::string_view::npos ? first.size() : next;
    }
    while (peek().kind == TokenKind::Word && peek().text.starts_with(".")) mods.push_back(take().text.substr(1));
    Type type = Type::None;
    for (const std::string_view mod : mods) {
      if (auto t = parse_type(mod)) type = *t;
      else if (mod == "v2" || mod == "v4") fail("vector registers are not supported");
      else fail(fmt::format("unknown register attribute '.{}'", mod));
    }
    if (type == Type::None) fail(fmt::format("expected a register type, found {}", found()));
    while (true) {
      const std::string name(word("a register name"));
      if (is_punct('<')) {
        take();
        const auto n = integer("a register count");
        expect('>');
        if (n > (1u << 20)) fail(fmt::format("{} registers: too many", n));
        for (std::uint64_t k = 0; k < n; ++k) add_register(f, name + std::to_string(k), type);
      } else {
        add_register(f, name, type);
      }
      if (!is_punct(',')) break;
      take();
    }
    expect(';');
  }
  void add_register(Function& f, std::string name, Type type) {
    const auto r = static_cast<std::int32_t>(f.registers.size());
    reg_scopes_.back()[name] = r;
    f.registers.push_back({std::move(name), type});
  }

  void body(Function& f, std::uint32_t index) {
    expect('{');
    int depth = 1;
    while (depth > 0) {
      if (at_end()) fail(fmt::format("function {} is not closed: expected '}}'", f.name));
      const Token& t = peek();
      if (t.kind == TokenKind::Punct && t.text[0] == '{') {
        take();
        ++depth;
        reg_scopes_.emplace_back();
        sym_scopes_.emplace_back();
        continue;
      }
      if (t.kind == TokenKind::Punct && t.text[0] == '}') {
        take();
        if (--depth > 0) {
          reg_scopes_.pop_back();
          sym_scopes_.pop_back();
        }
        continue;
      }
      if (t.kind == TokenKind::Word && (t.text == ".reg" || t.text.starts_with(".reg."))) {
        register_declaration(f);
      } else if (t.kind == TokenKind::Word && (t.text == ".local" || t.text == ".shared" || t.text == ".param")) {
        const auto space = *parse_space(take().text.substr(1));
        const auto s = variable(space, false, static_cast<std::int32_t>(index));
        Variable& v = m_.symbols[ix(s)];
        if (space == StateSpace::Local) {
          f.local_bytes = (f.local_bytes + v.align - 1) / v.align * v.align;
          v.offset = f.local_bytes;
          f.local_bytes += v.size;
        } else if (space == StateSpace::Param) {
          f.param_bytes = (f.param_bytes + v.align - 1) / v.align * v.align;
          v.offset = f.param_bytes;
          f.param_bytes += v.size;
        }
      } else if (t.kind == TokenKind::Word && (t.text == ".global" || t.text == ".const")) {
        fail(fmt::format("'{}' variables inside a function are not supported", t.text));
      } else if (t.kind == TokenKind::Word && t.text == ".loc") {
        take();
        const std::uint32_t line = t.line;
        const auto file = integer("a file number");
        const auto src_line = integer("a line number");
        loc_file_ = file > 100000 ? -1 : static_cast<std::int32_t>(file);
        loc_line_ = static_cast<std::uint32_t>(std::min<std::uint64_t>(src_line, UINT32_MAX));
        while (!at_end() && peek().line == line) take();  // column, function_name, inlined_at ...
      } else if (t.kind == TokenKind::Word && (t.text == ".pragma" || t.text == ".maxnreg")) {
        skip_to_semicolon();
      } else if (t.kind == TokenKind::Word && is_punct(':', 1)) {
        const std::string name(take().text);
        take();
        if (is_word(".callprototype", 0)) {
          skip_to_semicolon();  // an indirect call's prototype: calls through it are unsupported
          continue;
        }
        if (!labels_.emplace(name, static_cast<std::uint32_t>(f.code.size())).second) fail(fmt::format("label {} is defined twice", name));
      } else {
        instruction(f);
      }
    }
    for (const auto& p : pending_) {
      auto it = labels_.find(p.name);
      if (it == labels_.end()) fail_at(path_, p.line, fmt::format("unknown label or name '{}'", p.name));
      f.code[p.inst].operands[p.operand].label = it->second;
    }
    atom_results(f);
    set_reconvergence(f);
  }

  // An atom whose destination no instruction reads: ptxas emits a reduction (RED) for it.
  static void atom_results(Function& f) {
    std::vector<std::uint32_t> reads(f.registers.size(), 0);
    for (const auto& in : f.code) {
      const int d = dest_count(in);
      for (std::size_t k = 0; k < in.operands.size(); ++k) {
        const Operand& o = in.operands[k];
        if (o.kind == OperandKind::Address && o.reg >= 0) ++reads[ix(o.reg)];
        if (o.kind == OperandKind::Address)
          for (std::size_t j = 0; j < o.count; ++j) ++reads[ix(o.regs[j])];
        if (static_cast<int>(k) < d) continue;
        if (o.kind == OperandKind::Reg) ++reads[ix(o.reg)];
        if (o.kind == OperandKind::Vector)
          for (std::size_t j = 0; j < o.count; ++j)
            if (o.regs[j] >= 0) ++reads[ix(o.regs[j])];
      }
      for (const std::int32_t r : in.fragment) ++reads[ix(r)];
      if (in.guard >= 0) ++reads[ix(in.guard)];
    }
    for (auto& in : f.code) {
      if (in.op != Opcode::Atom || in.operands.empty() || in.operands[0].kind != OperandKind::Reg || reads[ix(in.operands[0].reg)] != 0)
        continue;
      // Shared memory has no reduction instruction: ATOMS stays an atomic, and an add of 1 becomes
      // ATOMS.POPC.INC, which serves lanes on one address together (validation/ptx/realistic.run:
      // r_histogram256_shared_atomics' wavefronts match the H100 only so).
      if (in.space == StateSpace::Shared) {
        const Operand& x = in.operands.size() > 2 ? in.operands[2] : in.operands.back();
        if (in.atomic == AtomicOp::Add && (in.type == Type::U32 || in.type == Type::S32) && x.kind == OperandKind::Imm && x.imm == 1)
          in.atomic = AtomicOp::PopcInc;
        continue;
      }
      in.result_unused = true;
    }
  }

  void instruction(Function& f) {
    Instruction in;
    in.ptx_line = peek().line;
    in.loc_file = loc_file_;
    in.loc_line = loc_line_;
    if (is_punct('@')) {
      take();
      if (is_punct('!')) {
        take();
        in.guard_negated = true;
      }
      const std::string_view p = word("a predicate register");
      in.guard = find_reg(p);
      if (in.guard < 0) fail(fmt::format("unknown predicate register {}", p));
    }
    const std::string_view opword = word("an instruction");
    in.text = std::string(opword);
    decode_opcode(in, opword);
    if (in.op == Opcode::Call) {
      call_operands(in);
    } else if (in.op == Opcode::Unsupported) {
      // Its operands may take forms nothing else does (a tensor copy's [map, {x, y}]): skip to the ';'. The launch
      // of a kernel that reaches it is refused by name; the rest of the module runs.
      while (!is_punct(';')) {
        if (at_end()) fail(fmt::format("expected ';' after '{}'", in.text));
        take();
      }
    } else {
      bool pair = false;
      while (!is_punct(';')) {
        if (at_end()) fail(fmt::format("expected ';' after '{}'", in.text));
        in.operands.push_back(operand(f, in));
        if (is_punct('|')) {
          take();
          pair = true;
          in.operands.push_back(operand(f, in));
        }
        if (is_punct(',')) take();
        else if (!is_punct(';')) fail(fmt::format("expected ',' or ';' after an operand of '{}', found {}", in.text, found()));
      }
      in.pair_dest = pair;
    }
    take();  // ;
    check_operands(in);
    if ((in.op == Opcode::CpAsync || in.op == Opcode::BulkCopy || in.op == Opcode::TensorCopy) && in.cache_hint &&
        in.operands.size() > (in.op == Opcode::TensorCopy && in.space == StateSpace::Global ? 2u : 3u) + (in.multicast ? 1u : 0u))
      in.operands.pop_back();  // the cache policy: a hint to L2 that changes no count here
    if (in.op == Opcode::CpAsync && in.operands.size() > 3 && in.operands[3].kind == OperandKind::Reg &&
        f.registers[static_cast<std::size_t>(in.operands[3].reg)].type == Type::Pred)
      in.ignore_src = true;  // cp.async [d], [s], 16, p: p set reads nothing and fills zeros
    f.code.push_back(std::move(in));
  }

  void decode_opcode(Instruction& in, std::string_view w) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
      const std::size_t dot = w.find('.', start);
      parts.push_back(w.substr(start, dot - start));
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    const auto& table = opcode_table();
    if (parts[0] == "cp" && parts.size() > 1 && parts[1] == "async") {
      // cp.async (sm_80+): a global-to-shared copy; its groups and waits complete at once here.
      const auto has = [&](std::string_view m) { return std::find(parts.begin(), parts.end(), m) != parts.end(); };
      if (has("mbarrier") && has("arrive") && !has("bulk")) {
        decode_mbarrier(in, parts, 3);  // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]
        return;
      }
      if (has("bulk")) {
        decode_bulk_copy(in, parts);
        return;
      }
      if (has("commit_group") || has("wait_group") || has("wait_all")) {
        in.op = Opcode::Nop;
      } else if (has("mbarrier") || has("shared::cluster")) {
        in.op = Opcode::Unsupported;
      } else {
        in.op = Opcode::CpAsync;
        in.cache = has("cg") ? CacheOp::Cg : CacheOp::Ca;
        in.space = StateSpace::Shared;
        in.cache_hint = has("L2::cache_hint");  // its last operand is a cache policy, not a size
      }
      return;
    }
    if (parts[0] == "mbarrier") {
      decode_mbarrier(in, parts, 1);
      return;
    }
    if (parts[0] == "ldmatrix" || parts[0] == "stmatrix") {
      decode_matrix_move(in, parts);
      return;
    }
    if (parts[0] == "mma") {
      decode_mma(in, parts);
      return;
    }
    if (parts[0] == "wmma") {
      decode_wmma(in, parts);
      return;
    }
    if (parts[0] == "wgmma") {
      decode_wgmma(in, parts);
      return;
    }
    if (parts[0] == "barrier" && std::find(parts.begin(), parts.end(), "cluster") != parts.end()) {
      // barrier.cluster.arrive{.release,.relaxed}{.aligned} / barrier.cluster.wait{.acquire}{.aligned}
      in.op = Opcode::BarCluster;
      bool arrive = false, wait = false;
      for (std::size_t k = 1; k < parts.size(); ++k) {
        const std::string_view x = parts[k];
        if (x == "arrive") arrive = true;
        else if (x == "wait") wait = true;
        else if (x != "cluster" && x != "aligned" && x != "release" && x != "relaxed" && x != "acquire") in.op = Opcode::Unsupported;
      }
      if (arrive == wait) in.op = Opcode::Unsupported;
      in.bar = arrive ? BarMode::Arrive : BarMode::Sync;
      return;
    }
    if (parts[0] == "tex") {
      // tex.{1d,2d}.v4.{f32,u32,s32}.{s32,f32} d, [texobj, {coordinates}] (PTX ISA 9.7.10.3, unified mode: a texture
      // object's handle in a register); other geometries, .level/.grad, samplers and .texref are not run.
      in.op = Opcode::Unsupported;
      if (parts.size() != 5 || (parts[1] != "1d" && parts[1] != "2d") || parts[2] != "v4") return;
      const auto d = parse_type(parts[3]), c = parse_type(parts[4]);
      if (!d || (*d != Type::F32 && *d != Type::U32 && *d != Type::S32) || !c || (*c != Type::S32 && *c != Type::F32)) return;
      in.op = Opcode::Tex;
      in.vec = static_cast<std::uint8_t>(parts[1] == "1d" ? 1 : 2);
      in.type = *d;
      in.type2 = *c;
      return;
    }
    if (parts[0] == "mapa" || parts[0] == "getctarank") {
      // mapa{.shared::cluster}.u32/.u64 d, a, rank; getctarank{.shared::cluster}.u32/.u64 d, a
      in.op = parts[0] == "mapa" ? Opcode::Mapa : Opcode::Getctarank;
      for (std::size_t k = 1; k < parts.size(); ++k) {
        if (parts[k] == "shared::cluster") in.space = StateSpace::SharedCluster;
        else if (parts[k] == "u32" || parts[k] == "b32") in.type = Type::U32;
        else if (parts[k] == "u64" || parts[k] == "b64") in.type = Type::U64;
        else in.op = Opcode::Unsupported;
      }
      if (in.type == Type::None) in.op = Opcode::Unsupported;
      return;
    }
    auto it = table.find(parts[0]);
    if (it == table.end()) {
      in.op = Opcode::Unsupported;
      return;
    }
    in.op = it->second;
    // Fences order memory between threads and proxies (fence.proxy.async, fence.mbarrier_init, membar.gl): the
    // interpreter runs one thread at a time and finishes every copy at once, so each of them is a no-op.
    if (parts[0] == "fence" || parts[0] == "membar") return;
    // setmaxnreg.{inc,dec}.sync.aligned.u32 N (warp-specialized sm_90 kernels): a register budget, nothing here.
    if (parts[0] == "setmaxnreg") {
      in.type = Type::U32;
      return;
    }
    std::vector<Type> types;
    bool unsupported = false;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const std::string_view x = parts[k];
      if (auto t = parse_type(x)) {
        types.push_back(*t);
        continue;
      }
      if (x.starts_with("L1::") || x.starts_with("L2::") || x == "relaxed" || x == "acquire" || x == "release" ||
          x == "acq_rel" || x == "sc" || x == "weak" || x == "volatile" || x == "mmio" || x == "cta" || x == "gpu" ||
          x == "sys" || x == "cluster" || x == "gl" || x == "aligned" || x == "sync" || x == "to" || x == "noftz" ||
          x == "full" || x == "L2" || x == "L1" || x == "launch_dependents" || x == "wait") {
        if (x == "to") in.op = in.op == Opcode::Cvta ? Opcode::CvtaTo : in.op;
        if (x == "sync" && in.op == Opcode::Bar) in.bar = BarMode::Sync;
        continue;
      }
      if (in.op == Opcode::Bar) {
        if (x == "warp") in.op = Opcode::BarWarp;
        else if (x == "arrive") in.bar = BarMode::Arrive;
        else if (x == "red") in.bar = BarMode::RedPopc;
        else if (x == "popc") in.bar = BarMode::RedPopc;
        else if (x == "and") in.bar = BarMode::RedAnd;
        else if (x == "or") in.bar = BarMode::RedOr;
        else unsupported = true;
        continue;
      }
      if (auto s = parse_space(x)) {
        in.space = *s;
        continue;
      }
      if (in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::Atom || in.op == Opcode::Red) {
        // st.async / red.async (PTX ISA 9.7.9.12, 9.7.13.6): a store or reduction into a CTA of the cluster whose
        // bytes complete an mbarrier of that CTA.
        if ((in.op == Opcode::St || in.op == Opcode::Red) && x == "async") { in.async_tx = true; continue; }
        if (x == "mbarrier::complete_tx::bytes") { in.async_tx = in.async_tx || in.op == Opcode::St || in.op == Opcode::Red; continue; }
        if (x == "ca") { in.cache = CacheOp::Ca; continue; }
        if (x == "cg") { in.cache = CacheOp::Cg; continue; }
        if (x == "cs") { in.cache = CacheOp::Cs; continue; }
        if (x == "lu") { in.cache = CacheOp::Lu; continue; }
        if (x == "cv") { in.cache = CacheOp::Cv; continue; }
        if (x == "wb") { in.cache = CacheOp::Wb; continue; }
        if (x == "wt") { in.cache = CacheOp::Wt; continue; }
        if (x == "nc") { in.cache = CacheOp::Nc; continue; }
        if (x == "v2" || x == "v4" || x == "v8") { in.vec = static_cast<std::uint8_t>(x[1] - '0'); continue; }
        if (in.op == Opcode::Atom || in.op == Opcode::Red) {
          static const std::unordered_map<std::string_view, AtomicOp> kAtomic = {
              {"add", AtomicOp::Add}, {"min", AtomicOp::Min},   {"max", AtomicOp::Max}, {"inc", AtomicOp::Inc},
              {"dec", AtomicOp::Dec}, {"and", AtomicOp::And},   {"or", AtomicOp::Or},   {"xor", AtomicOp::Xor},
              {"exch", AtomicOp::Exch}, {"cas", AtomicOp::Cas}};
          if (auto a = kAtomic.find(x); a != kAtomic.end()) {
            in.atomic = a->second;
            continue;
          }
        }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Redux) {
        static const std::unordered_map<std::string_view, AtomicOp> kRedux = {
            {"add", AtomicOp::Add}, {"min", AtomicOp::Min}, {"max", AtomicOp::Max},
            {"and", AtomicOp::And}, {"or", AtomicOp::Or},   {"xor", AtomicOp::Xor}};
        if (auto a = kRedux.find(x); a != kRedux.end()) {
          in.atomic = a->second;
          continue;
        }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Match) {
        if (x == "any") { in.vote = VoteMode::Any; continue; }
        if (x == "all") { in.vote = VoteMode::All; continue; }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Setp || in.op == Opcode::Set) {
        static const std::unordered_map<std::string_view, CmpOp> kCmp = {
            {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},   {"gt", CmpOp::Gt},
            {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},   {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},
            {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu}, {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu},
            {"geu", CmpOp::Geu}, {"num", CmpOp::Num}, {"nan", CmpOp::Nan}};
        if (auto c = kCmp.find(x); c != kCmp.end()) {
          in.cmp = c->second;
          continue;
        }
        if (x == "and") { in.bool_op = BoolOp::And; continue; }
        if (x == "or") { in.bool_op = BoolOp::Or; continue; }
        if (x == "xor") { in.bool_op = BoolOp::Xor; continue; }
        if (x == "ftz") { in.ftz = true; continue; }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Shfl) {
        if (x == "up") { in.shfl = ShflMode::Up; continue; }
        if (x == "down") { in.shfl = ShflMode::Down; continue; }
        if (x == "bfly") { in.shfl = ShflMode::Bfly; continue; }
        if (x == "idx") { in.shfl = ShflMode::Idx; continue; }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Vote) {
        if (x == "all") { in.vote = VoteMode::All; continue; }
        if (x == "any") { in.vote = VoteMode::Any; continue; }
        if (x == "uni") { in.vote = VoteMode::Uni; continue; }
        if (x == "ballot") { in.vote = VoteMode::Ballot; continue; }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Testp) {
        static const std::unordered_map<std::string_view, std::uint8_t> kTest = {
            {"finite", 0}, {"infinite", 1}, {"number", 2}, {"notanumber", 3}, {"normal", 4}, {"subnormal", 5}};
        if (auto c = kTest.find(x); c != kTest.end()) {
          in.cmp = static_cast<CmpOp>(c->second);
          continue;
        }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Bmsk) {
        if (x == "clamp") { in.shift_clamp = true; continue; }
        if (x == "wrap") { in.shift_clamp = false; continue; }
        unsupported = true;
        continue;
      }
      if (in.op == Opcode::Shf) {
        if (x == "l") { in.shift_left = true; continue; }
        if (x == "r") { in.shift_left = false; continue; }
        if (x == "clamp") { in.shift_clamp = true; continue; }
        if (x == "wrap") { in.shift_clamp = false; continue; }
        unsupported = true;
        continue;
      }
      if (x == "lo") { in.mul = MulMode::Lo; continue; }
      if (x == "hi") { in.mul = MulMode::Hi; continue; }
      if (x == "wide") { in.mul = MulMode::Wide; continue; }
      if (x == "uni") { in.uniform = true; continue; }
      if (x == "ftz") { in.ftz = true; continue; }
      if (x == "sat") { in.sat = true; continue; }
      if (x == "approx") { in.approx = true; continue; }
      if (x == "shiftamt" && in.op == Opcode::Bfind) { in.shift_amount = true; continue; }
      static const std::unordered_map<std::string_view, Rounding> kRound = {
          {"rn", Rounding::Rn}, {"rz", Rounding::Rz}, {"rm", Rounding::Rm}, {"rp", Rounding::Rp},
          {"rni", Rounding::Rni}, {"rzi", Rounding::Rzi}, {"rmi", Rounding::Rmi}, {"rpi", Rounding::Rpi}};
      if (auto r = kRound.find(x); r != kRound.end()) {
        in.rounding = r->second;
        continue;
      }
      unsupported = true;
    }
    if (in.op == Opcode::Bra || in.op == Opcode::Call) in.uniform = false;  // .uni on bra/call: a hint only
    if (!types.empty()) in.type = types[0];
    if (types.size() > 1) in.type2 = types[1];
    if (in.op == Opcode::Setp && in.type == Type::None) unsupported = true;
    // set.cmp{.bool}.dtype.stype: u32/s32/f32 from a scalar, or .f16x2/.bf16x2 (or u32/s32) from a pair of halves.
    if (in.op == Opcode::Set) {
      const bool pair_src = in.type2 == Type::F16x2 || in.type2 == Type::BF16x2;
      const bool int_dst = in.type == Type::U32 || in.type == Type::S32;
      if (types.size() != 2 || is_half(in.type2) != pair_src || in.type2 == Type::B128 ||
          !(int_dst || (in.type == Type::F32 && !pair_src) || (pair_src && in.type == in.type2)))
        unsupported = true;
      in.type = types.size() == 2 ? types[0] : Type::None;
    }
    if (in.op == Opcode::Cvt && (types.size() != 2)) unsupported = true;
    // 16-bit floats: moved, converted, and (alone or in pairs) added, multiplied, fused, compared by min/max.
    const auto half_arith = [](Opcode op) {
      return op == Opcode::Add || op == Opcode::Sub || op == Opcode::Mul || op == Opcode::Fma || op == Opcode::Neg ||
             op == Opcode::Abs || op == Opcode::Min || op == Opcode::Max;
    };
    if ((is_half(in.type) || in.type == Type::B128) && in.op != Opcode::Ld && in.op != Opcode::St && in.op != Opcode::Mov &&
        in.op != Opcode::Cvt && in.op != Opcode::Set && !(is_half(in.type) && half_arith(in.op)))
      unsupported = true;
    if (in.op == Opcode::Cvt && (in.type == Type::B128 || in.type2 == Type::B128 || in.type2 == Type::F16x2 || in.type2 == Type::BF16x2))
      unsupported = true;
    if ((in.op == Opcode::Redux || in.op == Opcode::Match) && in.type != Type::U32 && in.type != Type::S32 && in.type != Type::B32 &&
        !(in.op == Opcode::Match && in.type == Type::B64))
      unsupported = true;
    if (unsupported) in.op = Opcode::Unsupported;
  }

  // ldmatrix / stmatrix .sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 (PTX ISA 9.7.14.5.15-16):
  // without .shared the row addresses are generic ones, which must fall in the shared window. Other shapes
  // and element types (sm_100's m16n16 .b8 ...) stay unsupported.
  static void decode_matrix_move(Instruction& in, const std::vector<std::string_view>& parts) {
    in.op = parts[0] == "ldmatrix" ? Opcode::Ldmatrix : Opcode::Stmatrix;
    in.space = StateSpace::Generic;
    in.type = Type::B16;
    bool shape = false, type = false, ok = true;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const std::string_view x = parts[k];
      if (x == "sync" || x == "aligned") continue;
      if (x == "shared" || x == "shared::cta") in.space = StateSpace::Shared;
      else if (x == "m8n8") shape = true;
      else if (x == "b16") type = true;
      else if (x == "trans") in.trans = true;
      else if (x == "x1" || x == "x2" || x == "x4") in.vec = static_cast<std::uint8_t>(x[1] - '0');
      else ok = false;
    }
    if (!shape || !type || !ok) in.op = Opcode::Unsupported;
  }

  // mbarrier.OP{.parity}{.sem}{.scope}{.shared{::cta}}.b64 and cp.async.mbarrier.arrive{.noinc}...b64 (PTX ISA
  // 9.7.13.15, 9.7.9.25.3.3); parts from `first` on are the operation and its qualifiers. The object lives in
  // this CTA's shared memory (.shared or a generic address); .shared::cluster (another CTA's) is not run.
  static void decode_mbarrier(Instruction& in, const std::vector<std::string_view>& parts, std::size_t first) {
    static const std::unordered_map<std::string_view, MbarOp> kOps = {
        {"init", MbarOp::Init},         {"arrive", MbarOp::Arrive},         {"arrive_drop", MbarOp::ArriveDrop},
        {"expect_tx", MbarOp::ExpectTx}, {"complete_tx", MbarOp::CompleteTx}, {"test_wait", MbarOp::TestWait},
        {"try_wait", MbarOp::TryWait},  {"pending_count", MbarOp::PendingCount}, {"inval", MbarOp::Inval}};
    in.op = Opcode::Mbarrier;
    in.space = StateSpace::Generic;
    bool named = false, ok = true, b64 = false;
    for (std::size_t k = first; k < parts.size(); ++k) {
      const std::string_view x = parts[k];
      if (first == 3) {  // cp.async.mbarrier.arrive
        if (x == "arrive") { in.mbar = MbarOp::CpAsyncArrive; named = true; continue; }
        if (x == "noinc") { in.mbar_noinc = true; continue; }
      } else if (auto o = kOps.find(x); o != kOps.end()) {
        if (!named) in.mbar = o->second;
        else if (in.mbar == MbarOp::Arrive && o->second == MbarOp::ExpectTx) in.mbar_expect_tx = true;  // arrive.expect_tx
        else if (in.mbar == MbarOp::ArriveDrop && o->second == MbarOp::ExpectTx) in.mbar_expect_tx = true;
        else ok = false;
        named = true;
        continue;
      }
      if (x == "parity") in.mbar_parity = true;
      else if (x == "b64") b64 = true;
      else if (x == "shared" || x == "shared::cta") in.space = StateSpace::Shared;
      else if (x == "shared::cluster") in.space = StateSpace::SharedCluster;  // another CTA's object (a remote arrive)
      else if (x == "relaxed" || x == "release" || x == "acquire" || x == "cta" || x == "cluster" || x == "noComplete") continue;
      else ok = false;  // unknown qualifiers
    }
    if (in.mbar_parity && in.mbar != MbarOp::TestWait && in.mbar != MbarOp::TryWait) ok = false;
    in.type = Type::B64;
    if (!named || !b64 || !ok) in.op = Opcode::Unsupported;
  }

  // cp.async.bulk (PTX ISA 9.7.9.25.4.1, sm_90): global -> shared::cluster or shared::cta completing on an mbarrier,
  // shared::cta -> global in a bulk group; their commit_group and wait_group are no-ops here (the copy is done at
  // once), and so is cp.async.bulk.prefetch.L2 (the H100 shows it in no counter: validation/h100/barrier_probe).
  // Tensor copies (cp.async.bulk.tensor.Nd, .tile mode: PTX ISA 9.7.9.25.5.1) are the same two directions with a
  // tensor map and coordinates for the global side; their prefetch to L2 is a no-op as the bulk one is.
  // Multicast, shared::cluster -> shared::cluster, .cp_mask, .im2col and the sm_100 gather/scatter modes are not run.
  static void decode_bulk_copy(Instruction& in, const std::vector<std::string_view>& parts) {
    const auto has = [&](std::string_view m) { return std::find(parts.begin(), parts.end(), m) != parts.end(); };
    in.op = Opcode::Unsupported;
    if (has("cp_mask")) return;
    in.multicast = has("multicast::cluster");
    if (has("commit_group") || has("wait_group") || has("prefetch")) {
      in.op = Opcode::Nop;
      return;
    }
    const bool tensor = has("tensor");
    unsigned rank = 0;
    std::vector<std::string_view> spaces;
    bool mbarrier = false, group = false, ok = true;
    for (std::size_t k = 3; k < parts.size(); ++k) {
      const std::string_view x = parts[k];
      if (x == "global" || x == "shared::cta" || x == "shared::cluster") spaces.push_back(x);
      else if (x == "mbarrier::complete_tx::bytes") mbarrier = true;
      else if (x == "bulk_group") group = true;
      else if (x == "L2::cache_hint") in.cache_hint = true;
      else if (x == "multicast::cluster") continue;
      else if (tensor && x == "tensor") continue;
      else if (tensor && x == "tile") continue;
      else if (tensor && x.size() == 2 && x[1] == 'd' && x[0] >= '1' && x[0] <= '5') rank = static_cast<unsigned>(x[0] - '0');
      else ok = false;
    }
    if (!ok || spaces.size() != 2 || (tensor && rank == 0)) return;
    if (spaces[1] == "global" && spaces[0] != "global" && mbarrier && !group) in.space = StateSpace::Shared;  // g2s
    else if (spaces[0] == "global" && spaces[1] == "shared::cta" && group && !mbarrier && !in.multicast) in.space = StateSpace::Global;  // s2g
    else return;
    in.op = tensor ? Opcode::TensorCopy : Opcode::BulkCopy;
    in.vec = static_cast<std::uint8_t>(tensor ? rank : 1);
  }

  // mMnNkK, the whole word, into in.mma_m/n/k; false when it is not one or does not fit the bytes they are
  // (m272n8k8 is not m16n8k8, m16n8k8x not m16n8k8).
  static bool parse_mma_shape(std::string_view x, Instruction& in) {
    unsigned m = 0, n = 0, k = 0;
    int used = 0;
    const std::string shape(x);
    if (std::sscanf(shape.c_str(), "m%un%uk%u%n", &m, &n, &k, &used) != 3 || static_cast<std::size_t>(used) != shape.size() || m > 255 ||
        n > 256 || k > 255)
      return false;
    in.mma_m = static_cast<std::uint8_t>(m);
    in.mma_n = static_cast<std::uint16_t>(n);
    in.mma_k = static_cast<std::uint8_t>(k);
    return true;
  }

  // A modifier of mma.sync or wmma.mma naming an element type (.tf32 taken as .f32 with in.tf32), appended
  // to `types`, or the shape, read into in.mma_m/n/k. False when it is neither, or a shape that does not fit.
  static bool matrix_type_or_shape(std::string_view x, Instruction& in, std::vector<Type>& types) {
    if (x == "tf32") {
      in.tf32 = true;
      types.push_back(Type::F32);
      return true;
    }
    if (auto t = parse_type(x)) {
      types.push_back(*t);
      return true;
    }
    return x.size() >= 6 && x[0] == 'm' && parse_mma_shape(x, in);
  }

  // mma.sync.aligned.SHAPE.row.col{.satfinite}.D.A.B.C (PTX ISA 9.7.14.5.14): the shapes and types of
  // sm_80's tensor cores that nvcc's kernels use: m16n8k8 and m16n8k16 (.f16, .bf16 -> .f32 or .f16;
  // .tf32 -> .f32 at k8), m16n8k16 and m16n8k32 (.s8/.u8 -> .s32), m8n8k4 (.f64). C has D's type.
  static void decode_mma(Instruction& in, const std::vector<std::string_view>& parts) {
    in.op = Opcode::Mma;
    std::vector<Type> types;
    bool row = false, col = false, ok = true;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const std::string_view x = parts[k];
      if (x == "sync" || x == "aligned") continue;
      if (x == "row") row = true;
      else if (x == "col") col = true;
      else if (x == "satfinite") in.satfinite = true;
      else if (!matrix_type_or_shape(x, in, types)) ok = false;
    }
    if (!row || !col || types.size() != 4 || types[3] != types[0]) ok = false;
    if (ok) {
      in.type = types[0];
      in.type2 = types[1];
      in.type3 = types[2];
      const Type d = in.type, a = in.type2, b = in.type3;
      const unsigned m = in.mma_m, n = in.mma_n, k = in.mma_k;
      const bool halves = (a == Type::F16 && b == Type::F16 && (d == Type::F32 || d == Type::F16)) ||
                          (a == Type::BF16 && b == Type::BF16 && d == Type::F32);
      const bool bytes = (a == Type::S8 || a == Type::U8) && (b == Type::S8 || b == Type::U8) && d == Type::S32;
      if (in.tf32) ok = a == Type::F32 && b == Type::F32 && d == Type::F32 && m == 16 && n == 8 && k == 8;
      else if (halves) ok = m == 16 && n == 8 && (k == 8 || k == 16);
      else if (bytes) ok = m == 16 && n == 8 && (k == 16 || k == 32);
      else ok = a == Type::F64 && b == Type::F64 && d == Type::F64 && m == 8 && n == 8 && k == 4;
      if (in.satfinite && !bytes) ok = false;
    }
    if (!ok) in.op = Opcode::Unsupported;
  }

  // wgmma.fence / .commit_group / .wait_group N (.sync.aligned): the interpreter finishes each wgmma.mma_async when
  // it runs, so they order nothing here. wgmma.mma_async.sync.aligned.m64nNkK{.satfinite}.D.A.B (PTX ISA
  // 9.7.15.5.2, sm_90a): .f16 -> .f32 or .f16 and .bf16 -> .f32 at k16, .tf32 -> .f32 at k8, .e4m3/.e5m2 -> .f32 or
  // .f16 at k32, .s8/.u8 -> .s32 at k32 (.satfinite); N a multiple of 8 up to 256. Sparse (.sp) and .b1 are not run.
  static void decode_wgmma(Instruction& in, const std::vector<std::string_view>& parts) {
    if (parts.size() > 1 && (parts[1] == "fence" || parts[1] == "commit_group" || parts[1] == "wait_group")) {
      in.op = Opcode::Nop;
      return;
    }
    in.op = Opcode::Wgmma;
    std::vector<Type> types;
    bool ok = parts.size() > 1 && parts[1] == "mma_async";
    for (std::size_t k = 2; k < parts.size() && ok; ++k) {
      const std::string_view x = parts[k];
      if (x == "sync" || x == "aligned") continue;
      if (x == "satfinite") in.satfinite = true;
      else if (x == "e4m3") types.push_back(Type::E4M3);
      else if (x == "e5m2") types.push_back(Type::E5M2);
      else if (!matrix_type_or_shape(x, in, types)) ok = false;
    }
    if (ok && types.size() == 3) {
      in.type = types[0];
      in.type2 = types[1];
      in.type3 = types[2];
      const Type d = in.type, a = in.type2, b = in.type3;
      const auto fp8 = [](Type t) { return t == Type::E4M3 || t == Type::E5M2; };
      const auto int8 = [](Type t) { return t == Type::S8 || t == Type::U8; };
      unsigned k = 0;
      if (in.tf32) k = a == Type::F32 && b == Type::F32 && d == Type::F32 ? 8 : 0;
      else if ((a == Type::F16 && b == Type::F16 && (d == Type::F32 || d == Type::F16)) || (a == Type::BF16 && b == Type::BF16 && d == Type::F32)) k = 16;
      else if (fp8(a) && fp8(b) && (d == Type::F32 || d == Type::F16)) k = 32;
      else if (int8(a) && int8(b) && d == Type::S32) k = 32;
      ok = k != 0 && in.mma_m == 64 && in.mma_k == k && in.mma_n % 8 == 0 && in.mma_n >= 8 && (d == Type::S32 || !in.satfinite);
    } else {
      ok = false;
    }
    if (!ok) in.op = Opcode::Unsupported;
  }

  // wmma.load.{a,b,c} / wmma.store.d .sync.aligned.{row,col}.SHAPE{.global,.shared{::cta}}.TYPE and
  // wmma.mma.sync.aligned.{row,col}.{row,col}.SHAPE.DTYPE{.ATYPE.BTYPE}.CTYPE{.satfinite}{.rn} (PTX ISA
  // 9.7.14.4-5): the shapes and types of sm_80's tensor cores whose fragment layouts
  // validation/h100/wmma_probe measured (wmma_layout.hpp): m16n16k16, m32n8k16, m8n32k16 with .f16,
  // .bf16, .s8, .u8; m16n16k8 .tf32; m8n8k4 .f64. Sub-byte and single-bit types stay unsupported.
  static void decode_wmma(Instruction& in, const std::vector<std::string_view>& parts) {
    bool ok = parts.size() > 2;
    std::vector<Type> types;
    int layouts = 0;
    for (std::size_t k = 1; ok && k < parts.size(); ++k) {
      const std::string_view x = parts[k];
      if (k == 1) {
        if (x == "load") in.op = Opcode::WmmaLoad;
        else if (x == "store") in.op = Opcode::WmmaStore;
        else if (x == "mma") in.op = Opcode::WmmaMma;
        else ok = false;
      } else if (k == 2 && in.op != Opcode::WmmaMma) {
        if (in.op == Opcode::WmmaLoad && (x == "a" || x == "b" || x == "c")) in.wmma_use = x[0];
        else if (in.op == Opcode::WmmaStore && x == "d") in.wmma_use = 'c';
        else ok = false;
      } else if (x == "sync" || x == "aligned") {
        continue;
      } else if (x == "row" || x == "col") {
        // load/store: the memory's layout; mma: A's and B's, which the fragments do not depend on
        if (in.op != Opcode::WmmaMma) in.col_major = x == "col";
        ++layouts;
      } else if (x == "global" || x == "shared" || x == "shared::cta") {
        if (in.op == Opcode::WmmaMma) ok = false;
        in.space = x == "global" ? StateSpace::Global : StateSpace::Shared;
      } else if (x == "satfinite") {
        in.satfinite = true;
      } else if (x == "rn") {
        continue;  // .f64: round to nearest, what the interpreter does
      } else if (!matrix_type_or_shape(x, in, types)) {
        ok = false;
      }
    }
    if (ok && in.op == Opcode::WmmaMma) {
      // .f16 A and B are implied: DTYPE.CTYPE; the others name all four types
      if (types.size() == 2) types = {types[0], Type::F16, Type::F16, types[1]};
      ok = layouts == 2 && types.size() == 4;
      if (ok) {
        in.type = types[0];
        in.type2 = types[1];
        in.type3 = types[2];
        in.type4 = types[3];
        const Type d = in.type, a = in.type2, b = in.type3, c = in.type4;
        const bool halves = a == Type::F16 && b == Type::F16 && (d == Type::F32 || d == Type::F16) && (c == Type::F32 || c == Type::F16);
        const bool bf16 = a == Type::BF16 && b == Type::BF16 && d == Type::F32 && c == Type::F32;
        const bool bytes = a == b && (a == Type::S8 || a == Type::U8) && d == Type::S32 && c == Type::S32;
        const bool tf32 = in.tf32 && a == Type::F32 && b == Type::F32 && d == Type::F32 && c == Type::F32;
        const bool f64 = a == Type::F64 && b == Type::F64 && d == Type::F64 && c == Type::F64;
        ok = (halves || bf16 || bytes || tf32 || f64) && (!in.satfinite || bytes) &&
             wmma_layout('a', in.mma_m, in.mma_n, in.mma_k, a, in.tf32) && wmma_layout('b', in.mma_m, in.mma_n, in.mma_k, b, in.tf32) &&
             wmma_layout('c', in.mma_m, in.mma_n, in.mma_k, c, false) && wmma_layout('c', in.mma_m, in.mma_n, in.mma_k, d, false);
      }
    } else if (ok) {
      ok = layouts == 1 && types.size() == 1 && !in.satfinite;
      if (ok) {
        in.type = types[0];
        ok = !(in.tf32 && in.wmma_use == 'c') && wmma_layout(in.wmma_use, in.mma_m, in.mma_n, in.mma_k, in.type, in.tf32).has_value();
      }
    }
    if (!ok) in.op = Opcode::Unsupported;
  }

  // {%r1, %r2, _}: registers (or the sink) into o.regs and o.count.
  void vector_registers(Operand& o) {
    take();  // {
    while (!is_punct('}')) {
      if (o.count == 8) fail("vectors of more than 8 registers are not supported");
      const std::string_view w = word("a register");
      if (w == "_") {
        o.regs[o.count++] = -1;
      } else {
        const auto r = find_reg(w);
        if (r < 0) fail_at(path_, peek().line, fmt::format("unknown register {}", w));
        o.regs[o.count++] = r;
      }
      if (is_punct(',')) take();
      else if (!is_punct('}')) fail(fmt::format("expected ',' or '}}' in a vector, found {}", found()));
    }
    take();
  }

  // {r0, r1, ...} of any length (wgmma's D: up to 128 registers); no sink.
  void fragment_registers(std::vector<std::int32_t>& regs) {
    take();  // {
    while (!is_punct('}')) {
      const std::string_view w = word("a register");
      const auto r = find_reg(w);
      if (r < 0) fail_at(path_, peek().line, fmt::format("unknown register {}", w));
      regs.push_back(r);
      if (is_punct(',')) take();
      else if (!is_punct('}')) fail(fmt::format("expected ',' or '}}' in a vector, found {}", found()));
    }
    take();
  }

  Operand operand(Function& f, Instruction& in) {
    Operand o;
    if (is_punct('[')) {
      take();
      o.kind = OperandKind::Address;
      if (peek().kind == TokenKind::Word) {
        const std::string_view w = peek().text;
        if (auto n = parse_number(w)) {
          take();
          if (n->kind != Literal::Int) fail("a floating-point address");
          o.offset = static_cast<std::int64_t>(n->bits);
        } else {
          take();
          // Registers may have any identifier as a name (inline asm: .reg .u64 addr;).
          o.reg = find_reg(w);
          if (o.reg < 0 && w.starts_with("%")) fail_at(path_, peek().line, fmt::format("unknown register {}", w));
          if (o.reg < 0) {
            o.symbol = find_symbol(w);
            if (o.symbol < 0) fail_at(path_, peek().line, fmt::format("unknown variable {}", w));
          }
        }
      } else {
        fail(fmt::format("expected an address, found {}", found()));
      }
      while (is_punct('+') || is_punct('-')) {
        bool negative = take().text[0] == '-';
        if (is_punct('-')) {
          take();
          negative = !negative;
        }
        const auto n = integer("an address offset");
        o.offset += negative ? -static_cast<std::int64_t>(n) : static_cast<std::int64_t>(n);
      }
      if (is_punct(',')) {  // [map, {x, y}]: a tensor copy's coordinates
        take();
        if (!is_punct('{')) fail(fmt::format("expected '{{' after ',' in an address, found {}", found()));
        vector_registers(o);
      }
      expect(']');
      return o;
    }
    if (is_punct('{')) {
      o.kind = OperandKind::Vector;
      if (in.op == Opcode::Wgmma && in.operands.empty()) fragment_registers(in.fragment);
      else vector_registers(o);
      return o;
    }
    if (is_punct('!')) {
      take();
      o = operand(f, in);
      o.negate = true;
      return o;
    }
    bool negative = false;
    if (is_punct('-')) {
      take();
      negative = true;
    }
    const Token& t = peek();
    if (t.kind != TokenKind::Word) fail(fmt::format("expected an operand of '{}', found {}", in.text, found()));
    const std::string_view w = t.text;
    const std::uint32_t line = t.line;
    take();
    if (auto n = parse_number(w)) {
      o.kind = OperandKind::Imm;
      if (negative) {
        if (n->kind == Literal::Int) n->bits = ~n->bits + 1;
        else if (n->kind == Literal::F32Bits) n->bits ^= 1ull << 31;
        else n->bits ^= 1ull << 63;
      }
      o.imm = n->bits;
      o.component = static_cast<std::uint8_t>(n->kind);  // the literal kind until check_operands types it
      return o;
    }
    if (negative) fail_at(path_, line, fmt::format("'-' before {}: only a number can be negated", w));
    if (w.starts_with("%")) {
      if (auto r = find_reg(w); r >= 0) {
        o.kind = OperandKind::Reg;
        o.reg = r;
        return o;
      }
      std::uint8_t component = 0;
      if (auto s = parse_special(w, component)) {
        o.kind = OperandKind::Special;
        o.special = *s;
        o.component = component;
        return o;
      }
      fail_at(path_, line, fmt::format("unknown register {}", w));
    }
    if (w == "_") {
      o.kind = OperandKind::Sink;
      return o;
    }
    if (auto r = find_reg(w); r >= 0) {
      o.kind = OperandKind::Reg;
      o.reg = r;
      return o;
    }
    if (auto s = find_symbol(w); s >= 0) {
      o.kind = OperandKind::Symbol;
      o.symbol = s;
      return o;
    }
    if (m_.function_index.count(std::string(w))) fail_at(path_, line, "function addresses (indirect calls) are not supported");
    o.kind = OperandKind::Label;
    pending_.push_back({f.code.size(), in.operands.size(), std::string(w), line});
    return o;
  }

  // call[.uni] [(ret),] func[, (args)];
  void call_operands(Instruction& in) {
    std::vector<std::int32_t> rets, args;
    auto param_names = [&](std::vector<std::int32_t>& out) {
      expect('(');
      while (!is_punct(')')) {
        const std::string_view w = word("a parameter");
        const auto s = find_symbol(w);
        if (s < 0) fail(fmt::format("unknown parameter {}", w));
        out.push_back(s);
        if (is_punct(',')) take();
      }
      expect(')');
    };
    if (is_punct('(')) {
      param_names(rets);
      expect(',');
    }
    const std::string_view name = word("a function name");
    auto it = m_.function_index.find(std::string(name));
    if (it == m_.function_index.end()) {
      if (name.starts_with("%")) {
        in.op = Opcode::Unsupported;  // an indirect call through a register
        in.text += " (indirect)";
        while (!at_end() && !is_punct(';')) take();  // the ';' ends the statement in instruction()
        return;
      }
      fail(fmt::format("call of an undeclared function {}", name));
    }
    in.callee = it->second;
    if (is_punct(',')) {
      take();
      param_names(args);
    }
    if (is_punct(',')) fail("calls with a prototype (indirect calls) are not supported");
    Operand o;
    o.kind = OperandKind::Symbol;
    for (auto s : rets) {
      o.symbol = s;
      o.negate = true;  // marks a return parameter
      in.operands.push_back(o);
    }
    for (auto s : args) {
      o.symbol = s;
      o.negate = false;
      in.operands.push_back(o);
    }
    if (!is_punct(';')) fail(fmt::format("expected ';' after the call, found {}", found()));
  }

  // st.async / red.async: [address], value, [mbarrier], all in .shared::cluster (the default for them); the
  // mbarrier is the written CTA's.
  void async_operands(Instruction& in) {
    if (in.operands.size() != 3 || in.operands[2].kind != OperandKind::Address)
      fail_at(path_, in.ptx_line, fmt::format("'{}': expected [address], value, [mbarrier]", in.text));
    if (in.space == StateSpace::Generic) in.space = StateSpace::SharedCluster;
    if (in.space != StateSpace::SharedCluster)
      fail_at(path_, in.ptx_line, fmt::format("'{}': st.async and red.async write .shared::cluster", in.text));
  }

  // Types the immediates and checks the operand count and kinds the interpreter relies on.
  void check_operands(Instruction& in) {
    if (in.op == Opcode::Unsupported || in.op == Opcode::Call) return;
    const int dests = dest_count(in);
    for (std::size_t k = 0; k < in.operands.size(); ++k) {
      Operand& o = in.operands[k];
      if (o.kind == OperandKind::Address && o.count != 0 && in.op != Opcode::TensorCopy && in.op != Opcode::Tex)
        fail_at(path_, in.ptx_line, fmt::format("'{}': coordinates {{..}} in an address of an instruction that is not a tensor copy", in.text));
      if (o.kind != OperandKind::Imm) continue;
      if (static_cast<int>(k) < dests) fail_at(path_, in.ptx_line, fmt::format("'{}' writes to a number", in.text));
      const Number n{static_cast<Literal>(o.component), o.imm};
      Type t = source_type(in, k, dests);
      bool ok = true;
      o.imm = literal_bits(n, t == Type::Pred ? Type::U32 : t, ok);
      if (!ok) fail_at(path_, in.ptx_line, fmt::format("'{}': a decimal number where an integer is read", in.text));
      o.component = 0;
    }
    const auto need = [&](std::size_t n) {
      if (in.operands.size() < n)
        fail_at(path_, in.ptx_line, fmt::format("'{}' takes {} operands, found {}", in.text, n, in.operands.size()));
    };
    switch (in.op) {
      case Opcode::Ld:
        need(2);
        if (in.operands[1].kind != OperandKind::Address) fail_at(path_, in.ptx_line, fmt::format("'{}': expected an address [..] as the second operand", in.text));
        break;
      case Opcode::St:
        need(in.async_tx ? 3 : 2);
        if (in.operands[0].kind != OperandKind::Address) fail_at(path_, in.ptx_line, fmt::format("'{}': expected an address [..] as the first operand", in.text));
        if (in.async_tx) async_operands(in);
        break;
      case Opcode::Atom:
        need(3);
        if (in.operands[1].kind != OperandKind::Address) fail_at(path_, in.ptx_line, fmt::format("'{}': expected an address [..] as the second operand", in.text));
        break;
      case Opcode::Red:
        need(in.async_tx ? 3 : 2);
        if (in.operands[0].kind != OperandKind::Address) fail_at(path_, in.ptx_line, fmt::format("'{}': expected an address [..] as the first operand", in.text));
        if (in.async_tx) async_operands(in);
        break;
      case Opcode::Bra:
        need(1);
        if (in.operands[0].kind != OperandKind::Label) fail_at(path_, in.ptx_line, fmt::format("'{}': expected a label", in.text));
        break;
      case Opcode::Mad: case Opcode::Mad24: case Opcode::Fma: case Opcode::Selp: case Opcode::Slct: case Opcode::Bfe:
      case Opcode::Prmt: case Opcode::Sad: case Opcode::Dp4a: case Opcode::Dp2a: case Opcode::Fns:
        need(4);
        break;
      case Opcode::Bfi: need(5); break;
      case Opcode::CpAsync:
        need(3);
        if (in.operands[0].kind != OperandKind::Address || in.operands[1].kind != OperandKind::Address)
          fail_at(path_, in.ptx_line, fmt::format("'{}': expected [shared address], [global address], bytes", in.text));
        if (in.operands[2].kind != OperandKind::Imm || (in.operands[2].imm != 4 && in.operands[2].imm != 8 && in.operands[2].imm != 16))
          fail_at(path_, in.ptx_line, fmt::format("'{}': the copy size must be 4, 8 or 16", in.text));
        break;
      case Opcode::Lop3: need(5); break;
      case Opcode::BulkCopy: {
        const bool to_shared = in.space == StateSpace::Shared;
        const std::size_t n = (to_shared ? 4u : 3u) + (in.multicast ? 1u : 0u);
        need(n);
        if (in.operands[0].kind != OperandKind::Address || in.operands[1].kind != OperandKind::Address ||
            (to_shared && in.operands[3].kind != OperandKind::Address))
          fail_at(path_, in.ptx_line,
                  fmt::format("'{}': expected [destination], [source], bytes{}{}", in.text, to_shared ? ", [mbarrier]" : "",
                              in.multicast ? ", ctaMask" : ""));
        if (in.operands.size() > n)
          fail_at(path_, in.ptx_line, fmt::format("'{}': more operands than a bulk copy takes", in.text));
        break;
      }
      case Opcode::TensorCopy: {
        const bool to_shared = in.space == StateSpace::Shared;
        const std::size_t map = to_shared ? 1 : 0;
        need((to_shared ? 3u : 2u) + (in.multicast ? 1u : 0u));
        if (in.operands.size() > (to_shared ? 3u : 2u) + (in.multicast ? 1u : 0u) || in.operands[0].kind != OperandKind::Address ||
            in.operands[1].kind != OperandKind::Address || (to_shared && in.operands[2].kind != OperandKind::Address))
          fail_at(path_, in.ptx_line,
                  fmt::format("'{}': expected {}", in.text, to_shared ? "[destination], [map, {coordinates}], [mbarrier]" : "[map, {coordinates}], [source]"));
        const Operand& m = in.operands[map];
        if (m.count != in.vec)
          fail_at(path_, in.ptx_line, fmt::format("'{}': a {}-d copy takes {} coordinates, found {}", in.text, in.vec, in.vec, m.count));
        for (std::size_t j = 0; j < m.count; ++j)
          if (m.regs[j] < 0) fail_at(path_, in.ptx_line, fmt::format("'{}': a coordinate is '_'", in.text));
        for (std::size_t k = 0; k < in.operands.size(); ++k)
          if (k != map && in.operands[k].count != 0) fail_at(path_, in.ptx_line, fmt::format("'{}': coordinates in operand {}", in.text, k + 1));
        break;
      }
      case Opcode::Mbarrier: {
        // Where the object's address is: after the destination, or first when there is none.
        const bool no_address = in.mbar == MbarOp::PendingCount;
        const std::size_t a = static_cast<std::size_t>(dests);
        const bool two_sources = in.mbar == MbarOp::Init || in.mbar == MbarOp::ExpectTx || in.mbar == MbarOp::CompleteTx ||
                                 in.mbar == MbarOp::TestWait || in.mbar == MbarOp::TryWait || in.mbar_expect_tx;
        need(no_address ? 2 : a + (two_sources ? 2 : 1));
        if (!no_address && in.operands[a].kind != OperandKind::Address)
          fail_at(path_, in.ptx_line, fmt::format("'{}': expected the mbarrier's address [..] as operand {}", in.text, a + 1));
        break;
      }
      case Opcode::Ldmatrix: case Opcode::Stmatrix: {
        need(2);
        const Operand& addr = in.operands[in.op == Opcode::Ldmatrix ? 1 : 0];
        const Operand& regs = in.operands[in.op == Opcode::Ldmatrix ? 0 : 1];
        if (addr.kind != OperandKind::Address)
          fail_at(path_, in.ptx_line, fmt::format("'{}': expected an address [..] for the rows", in.text));
        if (regs.kind != OperandKind::Vector || regs.count != in.vec)
          fail_at(path_, in.ptx_line, fmt::format("'{}': expected a vector of {} registers", in.text, in.vec));
        break;
      }
      case Opcode::Mma: {
        need(4);
        const auto frag = mma_fragment_registers(in);
        for (std::size_t k = 0; k < 4; ++k)
          if (in.operands[k].kind != OperandKind::Vector || in.operands[k].count != frag[k])
            fail_at(path_, in.ptx_line, fmt::format("'{}': operand {} must be a vector of {} registers", in.text, k + 1, frag[k]));
        break;
      }
      case Opcode::WmmaLoad: case Opcode::WmmaStore: {
        need(2);
        const bool load = in.op == Opcode::WmmaLoad;
        const Operand& addr = in.operands[load ? 1 : 0];
        const Operand& regs = in.operands[load ? 0 : 1];
        const auto layout = wmma_layout(in.wmma_use, in.mma_m, in.mma_n, in.mma_k, in.type, in.tf32);
        if (addr.kind != OperandKind::Address)
          fail_at(path_, in.ptx_line, fmt::format("'{}': expected an address [..] for the matrix", in.text));
        if (regs.kind != OperandKind::Vector || regs.count != layout->registers)
          fail_at(path_, in.ptx_line, fmt::format("'{}': expected a vector of {} registers", in.text, layout->registers));
        if (in.operands.size() > 3 || (in.operands.size() == 3 && in.operands[2].kind != OperandKind::Reg && in.operands[2].kind != OperandKind::Imm))
          fail_at(path_, in.ptx_line, fmt::format("'{}': the stride must be a register or a number", in.text));
        break;
      }
      case Opcode::WmmaMma: {
        need(4);
        const std::array<std::optional<WmmaLayout>, 4> frag = {
            wmma_layout('c', in.mma_m, in.mma_n, in.mma_k, in.type, false), wmma_layout('a', in.mma_m, in.mma_n, in.mma_k, in.type2, in.tf32),
            wmma_layout('b', in.mma_m, in.mma_n, in.mma_k, in.type3, in.tf32), wmma_layout('c', in.mma_m, in.mma_n, in.mma_k, in.type4, false)};
        for (std::size_t k = 0; k < 4; ++k)
          if (in.operands[k].kind != OperandKind::Vector || in.operands[k].count != frag[k]->registers)
            fail_at(path_, in.ptx_line, fmt::format("'{}': operand {} must be a vector of {} registers", in.text, k + 1, frag[k]->registers));
        break;
      }
      case Opcode::Wgmma: {
        // d, a-desc | {a}, b-desc, scale-d, then imm-scale-a, imm-scale-b (not for integers), imm-trans-a (an A
        // descriptor) and imm-trans-b (16-bit floats only).
        const bool a_regs = in.operands.size() > 1 && in.operands[1].kind == OperandKind::Vector;
        const bool halves = in.type2 == Type::F16 || in.type2 == Type::BF16;
        const std::size_t n = in.type == Type::S32 ? 4 : !halves ? 6 : a_regs ? 7 : 8;
        const std::size_t d_regs = std::size_t{in.mma_n} / (in.type == Type::F16 ? 4u : 2u);
        const auto bad = [&](const std::string& what) { fail_at(path_, in.ptx_line, fmt::format("'{}': {}", in.text, what)); };
        if (in.operands.size() != n) bad(fmt::format("takes {} operands, found {}", n, in.operands.size()));
        if (in.operands[0].kind != OperandKind::Vector || in.fragment.size() != d_regs)
          bad(fmt::format("operand 1 must be a vector of {} registers", d_regs));
        if (a_regs ? in.operands[1].count != 4 : in.operands[1].kind != OperandKind::Reg)
          bad("operand 2 must be a descriptor register or a vector of 4 registers");
        if (in.operands[2].kind != OperandKind::Reg) bad("operand 3 must be a descriptor register");
        if (in.operands[3].kind != OperandKind::Reg && in.operands[3].kind != OperandKind::Imm) bad("operand 4 (scale-d) must be a predicate");
        for (std::size_t k = 4; k < n; ++k) {
          const auto v = static_cast<std::int32_t>(in.operands[k].imm);
          if (in.operands[k].kind != OperandKind::Imm || (k < 6 ? v != 1 && v != -1 : v != 0 && v != 1))
            bad(fmt::format("operand {} must be {}", k + 1, k < 6 ? "1 or -1" : "0 or 1"));
        }
        break;
      }
      case Opcode::Shf: need(4); break;
      case Opcode::Setp: need(3); break;
      case Opcode::Set: need(in.bool_op == BoolOp::None ? 3 : 4); break;
      case Opcode::Shfl: need(5); break;
      case Opcode::Vote: case Opcode::Redux: need(3); break;
      case Opcode::Match: need(in.pair_dest ? 4 : 3); break;
      case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mul24: case Opcode::Div: case Opcode::Rem:
      case Opcode::Min: case Opcode::Max: case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Shl:
      case Opcode::Shr: case Opcode::Copysign: case Opcode::Bmsk:
        need(3);
        break;
      case Opcode::Mov: case Opcode::Cvt: case Opcode::Cvta: case Opcode::CvtaTo: case Opcode::Abs: case Opcode::Neg:
      case Opcode::Not: case Opcode::Cnot: case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Ex2:
      case Opcode::Lg2: case Opcode::Sin: case Opcode::Cos: case Opcode::Tanh: case Opcode::Popc: case Opcode::Clz:
      case Opcode::Brev: case Opcode::Testp: case Opcode::Isspacep: case Opcode::Bfind:
        need(2);
        break;
      case Opcode::Activemask: need(1); break;
      case Opcode::Mapa: need(3); break;
      case Opcode::Getctarank: need(2); break;
      case Opcode::Tex: {
        need(2);
        const Operand& d = in.operands[0];
        const Operand& a = in.operands[1];
        if (in.operands.size() != 2 || d.kind != OperandKind::Vector || d.count != 4 || a.kind != OperandKind::Address)
          fail_at(path_, in.ptx_line, fmt::format("'{}': expected {{d0, d1, d2, d3}}, [texture, {{coordinates}}]", in.text));
        if (a.count != in.vec)
          fail_at(path_, in.ptx_line, fmt::format("'{}': a {}d fetch takes {} coordinate{}, found {}", in.text, in.vec, in.vec,
                                                  in.vec == 1 ? "" : "s", a.count));
        for (std::size_t j = 0; j < a.count; ++j)
          if (a.regs[j] < 0) fail_at(path_, in.ptx_line, fmt::format("'{}': a coordinate is '_'", in.text));
        if (a.reg < 0 || a.offset != 0) in.op = Opcode::Unsupported;  // a .texref or sampler by name: not run
        break;
      }
      case Opcode::Elect:
        need(3);
        if (!in.pair_dest) fail_at(path_, in.ptx_line, fmt::format("'{}': expected d|p, membermask", in.text));
        break;
      case Opcode::Bar:
        need(1);
        break;
      default: break;
    }
    if (in.op == Opcode::Ld || in.op == Opcode::St) {
      const Operand& v = in.operands[in.op == Opcode::Ld ? 0 : 1];
      if (in.vec > 1 && !(v.kind == OperandKind::Vector && v.count == in.vec))
        fail_at(path_, in.ptx_line, fmt::format("'{}': expected a vector of {} registers", in.text, in.vec));
      if (in.vec == 1 && v.kind == OperandKind::Vector)
        fail_at(path_, in.ptx_line, fmt::format("'{}': a vector operand without .v2/.v4", in.text));
      // Accesses wider than 16 bytes a lane (sm_100's 256-bit loads) are not in the record's sizes.
      if (type_bytes(in.type) * in.vec > 16 || type_bytes(in.type) == 0) in.op = Opcode::Unsupported;
    }
    if ((in.op == Opcode::Atom || in.op == Opcode::Red) && in.vec != 1) in.op = Opcode::Unsupported;
    // Writes go to registers (or the sink) only.
    for (int k = 0; k < dests && k < static_cast<int>(in.operands.size()); ++k) {
      const auto kind = in.operands[static_cast<std::size_t>(k)].kind;
      if (kind != OperandKind::Reg && kind != OperandKind::Vector && kind != OperandKind::Sink)
        fail_at(path_, in.ptx_line, fmt::format("'{}': operand {} must be a register", in.text, k + 1));
    }
  }
};

}  // namespace

Module parse_module(std::string_view text, const std::string& path) { return Parser(text, path).run(); }

}  // namespace warpscope::ptx
