// Text names of the vocabulary types, as the command line and reports spell them.
#include <array>
#include <utility>

#include "warpscope/counts.hpp"
#include "warpscope/types.hpp"

namespace warpscope {
namespace {

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view text) {
  for (const auto& [name, value] : table)
    if (name == text) return value;
  return std::nullopt;
}

constexpr std::array<std::pair<std::string_view, Space>, 8> kSpaces{{
    {"global", Space::Global}, {"local", Space::Local}, {"shared", Space::Shared},
    {"const", Space::Const}, {"constant", Space::Const}, {"texture", Space::Texture}, {"dshared", Space::DShared},
    {"texture_pitch", Space::TexturePitch}}};
constexpr std::array<std::pair<std::string_view, Op>, 15> kOps{{
    {"ld", Op::Load}, {"load", Op::Load}, {"st", Op::Store}, {"store", Op::Store},
    {"atom", Op::Atomic}, {"red", Op::Reduction}, {"ldsm", Op::LoadMatrix}, {"stsm", Op::StoreMatrix},
    {"ldgsts", Op::AsyncCopy}, {"tma_ld", Op::BulkLoad}, {"tma_st", Op::BulkStore}, {"gmma", Op::GmmaRead},
    {"tex", Op::TexSample}, {"texels", Op::TexTexels}, {"stas", Op::StoreAsync}}};
constexpr std::array<std::pair<std::string_view, CacheOp>, 10> kCacheOps{{
    {"default", CacheOp::Default}, {"ca", CacheOp::Ca}, {"cg", CacheOp::Cg}, {"cs", CacheOp::Cs},
    {"lu", CacheOp::Lu}, {"cv", CacheOp::Cv}, {"nc", CacheOp::Nc}, {"ldg", CacheOp::Nc},
    {"wb", CacheOp::Wb}, {"wt", CacheOp::Wt}}};

constexpr std::array<std::pair<std::string_view, AtomicOp>, kAtomicOpCount> kAtomicOps{{
    {"unknown", AtomicOp::Unknown}, {"add", AtomicOp::Add}, {"min", AtomicOp::Min}, {"max", AtomicOp::Max},
    {"inc", AtomicOp::Inc}, {"dec", AtomicOp::Dec}, {"and", AtomicOp::And}, {"or", AtomicOp::Or},
    {"xor", AtomicOp::Xor}, {"exch", AtomicOp::Exch}, {"cas", AtomicOp::Cas}, {"popc.inc", AtomicOp::PopcInc},
    {"other", AtomicOp::Other}}};

}  // namespace

std::string_view to_string(AtomicOp a) {
  for (const auto& [name, value] : kAtomicOps)
    if (value == a) return name;
  return "?";
}

std::string_view to_string(Space s) {
  switch (s) {
    case Space::Global: return "global";
    case Space::Local: return "local";
    case Space::Shared: return "shared";
    case Space::Const: return "const";
    case Space::Texture: return "texture";
    case Space::DShared: return "dshared";
    case Space::TexturePitch: return "texture_pitch";
  }
  return "?";
}

std::string_view to_string(Op o) {
  switch (o) {
    case Op::Load: return "ld";
    case Op::Store: return "st";
    case Op::Atomic: return "atom";
    case Op::Reduction: return "red";
    case Op::LoadMatrix: return "ldsm";
    case Op::StoreMatrix: return "stsm";
    case Op::AsyncCopy: return "ldgsts";
    case Op::BulkLoad: return "tma_ld";
    case Op::BulkStore: return "tma_st";
    case Op::GmmaRead: return "gmma";
    case Op::TexSample: return "tex";
    case Op::TexTexels: return "texels";
    case Op::StoreAsync: return "stas";
  }
  return "?";
}

std::string_view to_string(CacheOp c) {
  switch (c) {
    case CacheOp::Default: return "default";
    case CacheOp::Ca: return "ca";
    case CacheOp::Cg: return "cg";
    case CacheOp::Cs: return "cs";
    case CacheOp::Lu: return "lu";
    case CacheOp::Cv: return "cv";
    case CacheOp::Nc: return "nc";
    case CacheOp::Wb: return "wb";
    case CacheOp::Wt: return "wt";
  }
  return "?";
}

std::string_view to_string(MemoryPath p) {
  switch (p) {
    case MemoryPath::Dram: return "DRAM";
    case MemoryPath::L1: return "L1";
    case MemoryPath::L2: return "L2";
    case MemoryPath::ReadOnly: return "read-only";
    case MemoryPath::Shared: return "shared";
    case MemoryPath::Constant: return "constant";
    case MemoryPath::DShared: return "distributed shared";
  }
  return "?";
}

std::optional<Space> parse_space(std::string_view t) { return lookup(kSpaces, t); }
std::optional<Op> parse_op(std::string_view t) { return lookup(kOps, t); }
std::optional<CacheOp> parse_cache_op(std::string_view t) { return lookup(kCacheOps, t); }
std::optional<AtomicOp> parse_atomic_op(std::string_view t) { return lookup(kAtomicOps, t); }

}  // namespace warpscope
