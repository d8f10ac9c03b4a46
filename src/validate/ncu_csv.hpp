// Nsight Compute's raw page as CSV (`ncu --csv --page raw --print-units base`):
// a header row ("ID", ..., "Kernel Name", ..., metric columns), a units row,
// then one row per kernel launch. Several header + units blocks may follow one
// another (one per ncu run); lines that are not CSV rows (==PROF==, ==WARNING==,
// the application's own output) are skipped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::validate {

struct NcuLaunch {
  std::uint64_t id = 0;  // ncu's "ID" (restarts at 0 in each block)
  std::string kernel;    // "Kernel Name" as printed, e.g. "stencil2d(const float *, float *, int)"
  int line = 0;          // 1-based line of the row
  std::map<std::string, std::string, std::less<>> values;  // column -> text as printed
  // The number in a column ("1,051,392" -> 1051392); nullopt when the column is
  // missing or does not hold a number ("n/a", "").
  std::optional<double> number(std::string_view column) const;
};

struct NcuReport {
  std::string file;
  std::vector<NcuLaunch> launches;  // blocks in file order, each block by ID
  std::map<std::string, std::string, std::less<>> units;  // column -> unit ("" when none)
  int skipped_lines = 0;            // ==PROF== and other non-CSV lines
};

// "1,051,392" -> 1051392, "26,284.80" -> 26284.8; nullopt otherwise (also for
// "nan" and "inf", which from_chars would read).
std::optional<double> parse_ncu_number(std::string_view text);

// InputError naming the file and line on a malformed table.
NcuReport parse_ncu_csv(std::string_view text, const std::string& file);
NcuReport read_ncu_csv(const std::filesystem::path& path);

}  // namespace warpscope::validate
