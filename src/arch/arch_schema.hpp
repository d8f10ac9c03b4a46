// The typed schema of an architecture file: every key, its type, unit,
// description and where in ArchSpec it lands. Unknown keys are errors.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "warpscope/arch.hpp"

namespace warpscope::arch {

enum class ParamType { Int, Bytes, Bool, Text, IntList, BytesList, PerSize, BroadcastKind };

using Member = std::variant<int ArchSpec::*, std::int64_t ArchSpec::*, bool ArchSpec::*,
                            std::string ArchSpec::*, std::vector<int> ArchSpec::*,
                            std::vector<std::int64_t> ArchSpec::*, PerSize ArchSpec::*,
                            Broadcast ArchSpec::*>;

struct ParamDef {
  const char* section;
  const char* name;
  ParamType type;
  const char* unit;
  const char* description;
  Member member;
  bool required = true;
};

const std::vector<ParamDef>& param_defs();
std::string type_name(ParamType t);

}  // namespace warpscope::arch
