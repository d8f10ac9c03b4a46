// What the GPU tracer needs from a kernel's SASS: per memory instruction, its
// opcode, the operation and the cache operator. The Sanitizer API's access
// callbacks report neither the cache operator nor atomic-vs-reduction
// (reference/tracing_and_ptx.md §1.3: __ldg, __ldcg and __ldcs all give flags
// 0x1), so the tracer reads them from the disassembly of the module's cubin
// (`nvdisasm -c -gi`), keyed by the instruction's offset in its function.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "warpscope/trace.hpp"
#include "warpscope/types.hpp"

namespace warpscope::tracer {

struct SassInstruction {
  std::string opcode;  // with modifiers, e.g. "LDG.E.128.CONSTANT"
  Space space = Space::Global;  // from the opcode (LD/ST/ATOM/RED: generic, reported as Global)
  Op op = Op::Load;
  CacheOp cache = CacheOp::Default;
  AtomicOp atomic_op = AtomicOp::Unknown;  // atomics and reductions: from the opcode's modifiers
  bool generic = false;    // LD/ST/ATOM/RED without G/S/L: the address decides the space
  bool predicated = false;  // guarded by @P / @!P
  std::optional<SourceLocation> line;  // from //## File lines (built with -lineinfo)
};

struct SassFunction {
  std::string name;  // mangled, as in .text.<name>
  std::map<std::uint64_t, SassInstruction> memory;  // offset in the function -> instruction
  // Bytes of the function's code as listed: one instruction past the highest offset (with
  // the padding the listing shows; 7.0+ instructions are 16 B). 0 when it lists none.
  std::uint64_t code_bytes = 0;
  // Memory instructions no Sanitizer callback the tracer patches reports, by base opcode, with how many the
  // listing has: the TMA's tensor copies (UTMALDG, UTMASTG, UTMAREDG) and bulk reductions (UBLKRED).
  std::map<std::string, unsigned, std::less<>> unrecorded;
  const SassInstruction* at(std::uint64_t offset) const {
    auto it = memory.find(offset);
    return it == memory.end() ? nullptr : &it->second;
  }
};

struct SassListing {
  std::string arch;  // "sm_90", from ".target" ("" if absent)
  std::map<std::string, SassFunction, std::less<>> functions;
  const SassFunction* function(std::string_view name) const {
    auto it = functions.find(name);
    return it == functions.end() ? nullptr : &it->second;
  }
};

// Parses `nvdisasm -c [-g]` output, or `cuobjdump -sass` output (functions
// introduced by "Function : NAME"). Throws InputError naming the line when an
// instruction line cannot be read.
SassListing parse_sass_listing(std::string_view text);

// The memory instruction an opcode (with modifiers) names, or nullopt when it
// is not a load/store/atomic/reduction or cp.async (LDGSTS: Op::AsyncCopy, ca or cg) the access
// callbacks report (LDC, LDSM, ... are not).
std::optional<SassInstruction> classify_memory_opcode(std::string_view opcode);

// The PTX cache operator behind an opcode's modifiers, as ptxas encodes them:
// measured with nvdisasm 13.0 on sm_75-sm_120 (tests/tracer/data/cacheops_*.sass):
//   .CONSTANT -> nc (__ldg), .EF -> cs, .LU -> lu, .STRONG.GPU -> cg,
//   .STRONG.SYS -> cv on loads, wt on stores, .STRONG.SM / .STRONG.CTA -> ca;
//   and the explicit .CI/.CG/.CS/.LU/.CV/.CA/.WT/.WB of older SASS.
CacheOp cache_op_from_modifiers(std::string_view opcode, Op op);

// The operation an atomic or reduction opcode names: ATOMG.E.CAS -> cas, ATOMS.CAST.SPIN -> cas,
// ATOMS.POPC.INC -> popc.inc, REDG.E.ADD.F32.FTZ.RN -> add, ATOM.E.EXCH -> exch, ...; other for an
// atomic whose operation modifier is none of these.
AtomicOp atomic_op_from_modifiers(std::string_view opcode);

// `cuobjdump -res-usage` per function: registers, static shared memory, local.
struct ResourceUsage {
  std::uint32_t registers = 0;
  std::uint32_t shared = 0;  // static, bytes
  std::uint32_t local = 0;   // bytes per thread
  std::uint32_t stack = 0;
};
std::map<std::string, ResourceUsage, std::less<>> parse_resource_usage(std::string_view text);

}  // namespace warpscope::tracer
