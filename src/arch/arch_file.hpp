#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <toml++/toml.h>

#include "warpscope/arch.hpp"

namespace warpscope::arch {

struct RawArchFile {
  std::filesystem::path file;
  toml::table table;
  std::string name;
  std::string inherits;
};

// "48K", "1.5M", 49152 -> bytes; InputError naming file and key otherwise.
std::int64_t parse_bytes(const toml::node& n, const std::filesystem::path& file, const std::string& key);

// Parses and checks the shape of one file (unknown keys, missing sources).
RawArchFile read_arch_file(const std::filesystem::path& file);
// Applies inheritance and the typed schema; every required key must be present.
ArchEntry resolve_arch(const RawArchFile& raw, const std::map<std::string, const RawArchFile*>& by_name);

}  // namespace warpscope::arch
