// Printers for per-instruction counts: text rows side by side and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/counts.hpp"

namespace warpscope::report {

struct ArchResult {
  const ArchSpec* arch;
  InstructionCounts counts;
};

// The cells of that table: a header row ("counter", then the architectures),
// then a row per counter that some architecture has (the text table and the
// HTML reports print the same grid).
std::vector<std::vector<std::string>> counts_grid(const std::vector<ArchResult>& results);
// One table: counters down, architectures across. Rows no architecture has are left out.
std::string counts_table(const std::vector<ArchResult>& results);
// {"arch": "sm_35", "path": "L2", "requests": 1, ...}; keys that do not apply are omitted.
nlohmann::json counts_json(const ArchResult& result);
// "87.5%"
std::string percent(double ratio);

}  // namespace warpscope::report
