#include "tracer/sass_listing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <utility>
#include <vector>

#include "warpscope/error.hpp"

namespace warpscope::tracer {
namespace {

// 90 for "sm_90" (or "sm_90a"); 0 when the target names no number.
int sm_of(std::string_view target) {
  if (target.starts_with("sm_")) target.remove_prefix(3);
  int v = 0;
  std::from_chars(target.data(), target.data() + target.size(), v);
  return v;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

struct BaseOpcode {
  std::string_view name;
  Space space;
  Op op;
  bool generic;
};

// The SASS opcodes the global/shared/local access callbacks fire on.
constexpr std::array kMemoryOpcodes{
    BaseOpcode{"LDG", Space::Global, Op::Load, false},    BaseOpcode{"STG", Space::Global, Op::Store, false},
    BaseOpcode{"LDS", Space::Shared, Op::Load, false},    BaseOpcode{"STS", Space::Shared, Op::Store, false},
    BaseOpcode{"LDL", Space::Local, Op::Load, false},     BaseOpcode{"STL", Space::Local, Op::Store, false},
    BaseOpcode{"LD", Space::Global, Op::Load, true},      BaseOpcode{"ST", Space::Global, Op::Store, true},
    BaseOpcode{"ATOMG", Space::Global, Op::Atomic, false}, BaseOpcode{"ATOMS", Space::Shared, Op::Atomic, false},
    BaseOpcode{"ATOM", Space::Global, Op::Atomic, true},  BaseOpcode{"REDG", Space::Global, Op::Reduction, false},
    BaseOpcode{"RED", Space::Global, Op::Reduction, true},
    // cp.async: the global side (the memcpy-async callback also gives the shared destination)
    BaseOpcode{"LDGSTS", Space::Global, Op::AsyncCopy, false},
};

bool has(const std::vector<std::string_view>& mods, std::string_view m) {
  for (auto x : mods)
    if (x == m) return true;
  return false;
}

// "//## File "path", line 12", or with nvdisasm -gi
// "//## File "header.hpp", line 134 inlined at "user.cu", line 5": the
// outermost call site is the user's line. The path is made lexically normal.
std::optional<SourceLocation> parse_file_line(std::string_view comment) {
  if (auto at = comment.rfind("inlined at "); at != std::string_view::npos) comment = comment.substr(at);
  auto q1 = comment.find('"');
  if (q1 == std::string_view::npos) return std::nullopt;
  auto q2 = comment.find('"', q1 + 1);
  if (q2 == std::string_view::npos) return std::nullopt;
  auto l = comment.find("line ", q2);
  if (l == std::string_view::npos) return std::nullopt;
  std::uint32_t line = 0;
  auto digits = comment.substr(l + 5);
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
  if (ec != std::errc{} || p == digits.data()) return std::nullopt;
  // nvcc keeps the path as the include spelled it ("suite/../common.cuh"): report the file once, as one path.
  const std::filesystem::path file(comment.substr(q1 + 1, q2 - q1 - 1));
  return SourceLocation{file.lexically_normal().string(), line};
}

std::uint32_t parse_u32_after(std::string_view text, std::string_view key) {
  auto k = text.find(key);
  if (k == std::string_view::npos) return 0;
  auto digits = text.substr(k + key.size());
  std::uint32_t v = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), v);
  return v;
}

}  // namespace

CacheOp cache_op_from_modifiers(std::string_view opcode, Op op) {
  const auto mods = split_dots(opcode);
  if (has(mods, "CONSTANT") || has(mods, "CI")) return CacheOp::Nc;
  if (has(mods, "EF") || has(mods, "CS")) return CacheOp::Cs;
  if (has(mods, "LU")) return CacheOp::Lu;
  if (has(mods, "CV")) return CacheOp::Cv;
  if (has(mods, "WT")) return CacheOp::Wt;
  if (has(mods, "WB")) return CacheOp::Wb;
  if (has(mods, "CG")) return CacheOp::Cg;
  if (has(mods, "CA")) return CacheOp::Ca;
  for (std::size_t i = 0; i + 1 < mods.size(); ++i) {
    if (mods[i] != "STRONG") continue;
    const auto scope = mods[i + 1];
    if (op == Op::Atomic || op == Op::Reduction) return CacheOp::Default;  // scope of the atomic, not a cache hint
    if (scope == "GPU") return CacheOp::Cg;
    if (scope == "SYS") return op == Op::Store ? CacheOp::Wt : CacheOp::Cv;
    if (scope == "SM" || scope == "CTA") return CacheOp::Ca;
  }
  return CacheOp::Default;
}

AtomicOp atomic_op_from_modifiers(std::string_view opcode) {
  const auto mods = split_dots(opcode);
  if (has(mods, "POPC") && has(mods, "INC")) return AtomicOp::PopcInc;
  if (has(mods, "CAS") || has(mods, "CAST")) return AtomicOp::Cas;  // CAST.SPIN: the shared CAS of sm_5x-6x
  static constexpr std::pair<std::string_view, AtomicOp> kOps[] = {
      {"ADD", AtomicOp::Add}, {"FADD", AtomicOp::Add}, {"MIN", AtomicOp::Min}, {"FMIN", AtomicOp::Min},
      {"MAX", AtomicOp::Max}, {"FMAX", AtomicOp::Max}, {"INC", AtomicOp::Inc}, {"DEC", AtomicOp::Dec},
      {"AND", AtomicOp::And}, {"OR", AtomicOp::Or},    {"XOR", AtomicOp::Xor},  {"EXCH", AtomicOp::Exch}};
  for (const auto& [name, op] : kOps)
    if (has(mods, name)) return op;
  return AtomicOp::Other;
}

std::optional<SassInstruction> classify_memory_opcode(std::string_view opcode) {
  const auto base = opcode.substr(0, opcode.find('.'));
  for (const auto& b : kMemoryOpcodes) {
    if (base != b.name) continue;
    SassInstruction ins;
    ins.opcode = std::string(opcode);
    ins.space = b.space;
    ins.op = b.op;
    ins.generic = b.generic;
    // LDGSTS.E.BYPASS is cp.async.cg; every other LDGSTS goes through L1 (.ca).
    ins.cache = b.op == Op::AsyncCopy ? (has(split_dots(opcode), "BYPASS") ? CacheOp::Cg : CacheOp::Ca)
                                      : cache_op_from_modifiers(opcode, b.op);
    if (b.op == Op::Atomic || b.op == Op::Reduction) ins.atomic_op = atomic_op_from_modifiers(opcode);
    return ins;
  }
  return std::nullopt;
}

SassListing parse_sass_listing(std::string_view text) {
  SassListing listing;
  // Bytes per instruction, for SassFunction::code_bytes: 16 from 7.0 on, 8 before (where every fourth
  // slot is a control word); set by .target.
  std::uint64_t width = 16;
  SassFunction* current = nullptr;
  std::optional<SourceLocation> line_info;
  std::size_t line_no = 0;
  while (!text.empty()) {
    auto nl = text.find('\n');
    auto raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    auto s = trim(raw);
    if (s.empty()) continue;
    if (s.starts_with(".target")) {
      listing.arch = std::string(trim(s.substr(7)));
      const int sm = sm_of(listing.arch);
      width = sm == 0 || sm >= 70 ? 16 : 8;
      continue;
    }
    if (s.starts_with(".text.") && s.back() == ':') {
      auto name = s.substr(6, s.size() - 7);
      current = &listing.functions[std::string(name)];
      current->name = std::string(name);
      line_info.reset();
      continue;
    }
    // cuobjdump -sass: "Function : _Z5plainPKfPf"
    if (s.starts_with("Function :")) {
      auto name = trim(s.substr(10));
      current = &listing.functions[std::string(name)];
      current->name = std::string(name);
      line_info.reset();
      continue;
    }
    if (s.starts_with("//## File")) {
      line_info = parse_file_line(s);
      continue;
    }
    if (!s.starts_with("/*") || current == nullptr) continue;
    // "/*0060*/   @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;"
    auto close = s.find("*/");
    if (close == std::string_view::npos) continue;
    std::uint64_t offset = 0;
    auto hex = s.substr(2, close - 2);
    auto [p, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), offset, 16);
    if (ec != std::errc{} || p != hex.data() + hex.size()) continue;  // a hex-encoding comment, not an offset
    auto body = trim(s.substr(close + 2));
    if (body.starts_with("{")) body = trim(body.substr(1));
    current->code_bytes = std::max(current->code_bytes, offset + width);
    bool predicated = false;
    if (body.starts_with("@")) {
      predicated = true;
      auto sp = body.find_first_of(" \t");
      if (sp == std::string_view::npos) throw InputError(fmt::format("SASS listing line {}: a predicate with no instruction", line_no));
      body = trim(body.substr(sp));
    }
    auto opcode = body.substr(0, body.find_first_of(" \t;"));
    if (opcode.empty()) throw InputError(fmt::format("SASS listing line {}: no opcode after the offset", line_no));
    const std::string_view base = opcode.substr(0, opcode.find('.'));
    if (base == "UTMALDG" || base == "UTMASTG" || base == "UTMAREDG" || base == "UBLKRED") ++current->unrecorded[std::string(base)];
    auto ins = classify_memory_opcode(opcode);
    if (!ins) continue;
    ins->predicated = predicated;
    ins->line = line_info;
    current->memory.emplace(offset, std::move(*ins));
  }
  return listing;
}

std::map<std::string, ResourceUsage, std::less<>> parse_resource_usage(std::string_view text) {
  // " Function _Z5plainPKfPf:\n  REG:10 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:544 ..."
  std::map<std::string, ResourceUsage, std::less<>> out;
  std::string function;
  while (!text.empty()) {
    auto nl = text.find('\n');
    auto s = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (s.starts_with("Function ") && s.back() == ':') {
      function = std::string(trim(s.substr(9, s.size() - 10)));
      continue;
    }
    if (!function.empty() && s.starts_with("REG:")) {
      ResourceUsage u;
      u.registers = parse_u32_after(s, "REG:");
      u.stack = parse_u32_after(s, "STACK:");
      u.shared = parse_u32_after(s, "SHARED:");
      u.local = parse_u32_after(s, "LOCAL:");
      out[function] = u;
      function.clear();
    }
  }
  return out;
}

}  // namespace warpscope::tracer
