// The pieces of Accel-Sim's trace text that both of its readers use
// (accelsim_reader.cpp: a kernel file; accelsim_list_reader.cpp: a kernelslist):
// splitting lines, numbers, and what a SASS memory opcode becomes
// (docs/TRACE_FORMAT.md "Accel-Sim traces").
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/types.hpp"

namespace warpscope::trace::accelsim {

// The generic windows of shared and local memory start at the header's base
// addresses (NVBit's nvbit_get_shmem_base_addr / _local_mem_base_addr); a generic
// LD/ST/ATOM whose first active lane falls within this many bytes of one is
// taken as that space, at the offset within it.
inline constexpr std::uint64_t kWindowBytes = 16u << 20;

// The space-separated words of `line` into `out` (reused: no allocation per line).
void words(std::string_view line, std::vector<std::string_view>& out);

inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A whole word as a number in `base` (16: an optional 0x); nullopt otherwise.
template <class T>
std::optional<T> number(std::string_view text, int base) {
  if (base == 16 && (starts_with(text, "0x") || starts_with(text, "0X"))) text.remove_prefix(2);
  T v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc{} || p != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

// Bytes per lane the opcode's modifiers name: .8/.16/.32/.64/.128, or a typed
// .U8/.S8/.U16/.S16/.F16/.F64..., else 4 (a word). Accel-Sim's tracer writes its
// own mem_width, which reads S16 and F64 as 4; this one does not.
unsigned access_bytes(std::string_view opcode);

// A memory instruction as warpscope models it, from its opcode.
struct Kind {
  Space space = Space::Global;
  Op op = Op::Load;
  CacheOp cache = CacheOp::Default;
  AtomicOp atomic_op = AtomicOp::Unknown;
  bool generic = false;
};
// LDG/STG/LDS/STS/LDL/STL/LD/ST, ATOM*/RED* (the GPU tracer's SASS table),
// LDGSTS and LDSM/STSM; nullopt for every other opcode.
std::optional<Kind> memory_kind(std::string_view opcode);
// The 8x8 matrices an LDSM / STSM moves: .4, .2, else 1 (the x1 form has no count).
unsigned matrix_count(std::string_view opcode);

// Memory instructions read but not turned into records, by base opcode.
using SkipCounts = std::map<std::string, std::uint64_t>;
// "12 memory instructions of kinds warpscope does not model skipped (LDSM 8, UTMALDG 4)", or "".
std::string skipped_note(const SkipCounts& skipped);

}  // namespace warpscope::trace::accelsim
