#include "pattern/pattern.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "warpscope/error.hpp"
#include "warpscope/lane_expr.hpp"

namespace warpscope {
namespace {

void check_cache_op(const PatternSpec& s) {
  if (s.cache == CacheOp::Default) return;
  if (s.space != Space::Global && s.space != Space::Local)
    throw InputError(fmt::format("--cache {} applies to global and local accesses, not {}", to_string(s.cache),
                                 to_string(s.space)));
  const bool load_op = s.cache == CacheOp::Ca || s.cache == CacheOp::Cg || s.cache == CacheOp::Cs ||
                       s.cache == CacheOp::Lu || s.cache == CacheOp::Cv || s.cache == CacheOp::Nc;
  const bool store_op = s.cache == CacheOp::Wb || s.cache == CacheOp::Cg || s.cache == CacheOp::Cs ||
                        s.cache == CacheOp::Wt;
  if (s.op == Op::Load && !load_op)
    throw InputError(fmt::format("--cache {} is a store operator; loads take ca, cg, cs, lu, cv or nc", to_string(s.cache)));
  if (s.op == Op::Store && !store_op)
    throw InputError(fmt::format("--cache {} is a load operator; stores take wb, cg, cs or wt", to_string(s.cache)));
  if (s.op == Op::Atomic || s.op == Op::Reduction)
    throw InputError("--cache does not apply to atomics");
  // PTX ISA, ld: the non-coherent read-only path exists for .global only (ld.global.nc).
  if (s.cache == CacheOp::Nc && s.space != Space::Global)
    throw InputError(fmt::format("--cache nc (ld.global.nc, the read-only data path) applies to global loads, not {}",
                                 to_string(s.space)));
}

}  // namespace

WarpAccess build_pattern(const PatternSpec& s) {
  if (s.size != 1 && s.size != 2 && s.size != 4 && s.size != 8 && s.size != 16)
    throw InputError(fmt::format("--size {}: must be 1, 2, 4, 8 or 16 bytes", s.size));
  // ldmatrix / stmatrix: lanes 8m..8m+7 give the 16-byte rows of matrix m (types.hpp).
  if (is_matrix(s.op) && (s.space != Space::Shared || s.size != 16))
    throw InputError(fmt::format("--op {} ({}) moves rows of 16 bytes of shared memory: it needs --space shared "
                                 "--size 16",
                                 to_string(s.op), s.op == Op::LoadMatrix ? "ldmatrix" : "stmatrix"));
  // A cp.async is two records, its read and its write, whose wavefronts depend on both (rules/async_copy.hpp).
  if (s.op == Op::AsyncCopy)
    throw InputError("--op ldgsts: a cp.async is a global read and a shared write whose wavefronts depend on both; "
                     "write the two records in a text trace (docs/TRACE_FORMAT.md, \"cp.async\") and run analyze on it");
  // A bulk copy is one thread's block, not a warp's lanes (types.hpp Op::BulkLoad).
  if (is_bulk(s.op))
    throw InputError(fmt::format("--op {}: a bulk copy (cp.async.bulk) is one thread's block of bytes, not a pattern of "
                                 "lanes; write it as a text-trace record (docs/TRACE_FORMAT.md, \"Bulk copies\") and run "
                                 "analyze on it",
                                 to_string(s.op)));
  if (s.op == Op::GmmaRead)
    throw InputError("--op gmma: a wgmma's shared-memory read is the tensor cores' (one record a warp of bytes read), not "
                     "a pattern of lanes; run the kernel's PTX with warpscope run (docs/PTX.md)");
  if (s.space == Space::Const && s.op != Op::Load)
    throw InputError(fmt::format("--space const is read-only: --op {} is not possible", to_string(s.op)));
  if (is_texture(s.space) && s.op != Op::Load && s.op != Op::TexSample)
    throw InputError(fmt::format("--space texture is read-only: --op ld (a texel fetch, SASS TLD) or tex (a sample, SASS "
                                 "TEX), not {}", to_string(s.op)));
  if (is_texture_sample(s.op) && !is_texture(s.space))
    throw InputError(fmt::format("--op {} is a texture sample: it needs --space texture", to_string(s.op)));
  if (s.op == Op::TexTexels)
    throw InputError("--op texels: a sample's further texels belong to the tex record before them; write both in a text "
                     "trace (docs/TRACE_FORMAT.md, \"Textures\") and run analyze on it");
  if (s.base % s.size != 0)
    throw InputError(fmt::format("--base {:#x} is not a multiple of --size {}: GPUs require naturally aligned accesses",
                                 s.base, s.size));
  if (s.base > static_cast<std::uint64_t>(INT64_MAX)) throw InputError(fmt::format("--base {:#x} is too large", s.base));
  check_cache_op(s);
  if (s.atomic_op != AtomicOp::Unknown && s.op != Op::Atomic && s.op != Op::Reduction)
    throw InputError(fmt::format("--atomic {} applies to --op atom or red, not {}", to_string(s.atomic_op), to_string(s.op)));
  const LaneExpr expr = LaneExpr::parse(s.index);

  WarpAccess a;
  a.space = s.space;
  a.op = s.op;
  a.size = static_cast<std::uint8_t>(s.size);
  a.cache = s.cache;
  a.atomic_op = s.atomic_op;
  a.active = LaneMask(s.mask);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!a.active.test(lane)) continue;
    const std::int64_t index = expr.eval(lane);
    // base + size * index, checked: negative or past 2^63 is an error, not a wrap.
    std::int64_t offset = 0, addr = 0;
    if (__builtin_mul_overflow(static_cast<std::int64_t>(s.size), index, &offset) ||
        __builtin_add_overflow(static_cast<std::int64_t>(s.base), offset, &addr) || addr < 0)
      throw InputError(fmt::format("lane {}: index {} puts the address outside 0 .. 2^63-1 (base {:#x}, size {})", lane,
                                   index, s.base, s.size));
    a.addr[static_cast<unsigned>(lane)] = static_cast<std::uint64_t>(addr);
  }
  return a;
}

std::string describe(const PatternSpec& s) {
  std::string out = fmt::format("{} {} {} B per lane, lane i -> base + {} * ({}), base {:#x}", to_string(s.space),
                                to_string(s.op), s.size, s.size, s.index, s.base);
  if (s.mask != 0xffffffffu) out += fmt::format(", mask {:#010x}", s.mask);
  if (s.cache != CacheOp::Default) out += fmt::format(", cache .{}", to_string(s.cache));
  if (s.atomic_op != AtomicOp::Unknown) out += fmt::format(", operation {}", to_string(s.atomic_op));
  return out;
}

}  // namespace warpscope
