#include "trace/accelsim_format.hpp"

#include <fmt/format.h>

#include "tracer/sass_listing.hpp"

namespace warpscope::trace::accelsim {

void words(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
}

unsigned access_bytes(std::string_view opcode) {
  std::size_t start = opcode.find('.');
  while (start != std::string_view::npos) {
    const std::size_t end = opcode.find('.', start + 1);
    std::string_view m = opcode.substr(start + 1, end == std::string_view::npos ? std::string_view::npos : end - start - 1);
    if (!m.empty() && (m[0] == 'U' || m[0] == 'S' || m[0] == 'F')) m.remove_prefix(1);
    if (const auto bits = number<unsigned>(m, 10); bits && (*bits == 8 || *bits == 16 || *bits == 32 || *bits == 64 ||
                                                             *bits == 128))
      return *bits / 8;
    start = end;
  }
  return 4;
}

unsigned matrix_count(std::string_view opcode) {
  if (opcode.ends_with(".4")) return 4;
  if (opcode.ends_with(".2")) return 2;
  return 1;
}

std::optional<Kind> memory_kind(std::string_view opcode) {
  // ldmatrix / stmatrix: shared rows of 16 bytes (LDSM.16.M88.4, LDSM.16.MT88.2, STSM.16.M88.4 ...).
  if (starts_with(opcode, "LDSM") || starts_with(opcode, "STSM")) {
    Kind k;
    k.space = Space::Shared;
    k.op = opcode[0] == 'L' ? Op::LoadMatrix : Op::StoreMatrix;
    return k;
  }
  // LDGSTS (cp.async) is classified with the others: the post-processed trace keeps its global side only.
  const auto ins = tracer::classify_memory_opcode(opcode);
  if (!ins) return std::nullopt;
  return Kind{ins->space, ins->op, ins->cache, ins->atomic_op, ins->generic};
}

std::string skipped_note(const SkipCounts& skipped) {
  std::string list;
  std::uint64_t total = 0;
  for (const auto& [op, n] : skipped) {
    list += fmt::format("{}{} {}", list.empty() ? "" : ", ", op, n);
    total += n;
  }
  if (total == 0) return "";
  return fmt::format("{} memory instruction{} of kinds warpscope does not model skipped ({})", total,
                     total == 1 ? "" : "s", list);
}

}  // namespace warpscope::trace::accelsim
