#include "validate/ncu_csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "validate/csv_line.hpp"
#include "validate/text_file.hpp"
#include "warpscope/error.hpp"

namespace warpscope::validate {

std::optional<double> parse_ncu_number(std::string_view text) {
  std::string digits;
  for (char c : text)
    if (c != ',') digits += c;
  if (digits.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  if (!std::isfinite(v)) return std::nullopt;  // from_chars reads "nan" and "inf"; no counter is either
  return v;
}

std::optional<double> NcuLaunch::number(std::string_view column) const {
  const auto it = values.find(column);
  if (it == values.end()) return std::nullopt;
  return parse_ncu_number(it->second);
}

NcuReport parse_ncu_csv(std::string_view text, const std::string& file) {
  NcuReport out;
  out.file = file;
  std::vector<std::string> header;
  std::size_t id_col = 0, name_col = 0, block_start = 0;
  bool expect_units = false;
  int line_number = 0;
  const auto close_block = [&] {
    std::stable_sort(out.launches.begin() + static_cast<std::ptrdiff_t>(block_start), out.launches.end(),
                     [](const NcuLaunch& a, const NcuLaunch& b) { return a.id < b.id; });
    block_start = out.launches.size();
  };
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.empty() || line.front() != '"') {  // ==PROF==, ==WARNING==, program output, blank
      out.skipped_lines += line.empty() || line == "\r" ? 0 : 1;
      continue;
    }
    std::vector<std::string> fields = split_csv_line(line, file, line_number);
    if (fields.front() == "ID") {
      close_block();
      header = std::move(fields);
      const auto col = [&](const char* name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) throw InputError(fmt::format("{}:{}: header has no \"{}\" column", file, line_number, name));
        return static_cast<std::size_t>(it - header.begin());
      };
      id_col = col("ID");
      name_col = col("Kernel Name");
      expect_units = true;
      continue;
    }
    if (header.empty())
      throw InputError(fmt::format("{}:{}: a row before the first header row (\"ID\",...,\"Kernel Name\",...)", file, line_number));
    if (fields.size() != header.size())
      throw InputError(fmt::format("{}:{}: {} fields, the header has {}", file, line_number, fields.size(), header.size()));
    if (expect_units && fields[id_col].empty()) {  // the units row
      for (std::size_t i = 0; i < header.size(); ++i) out.units[header[i]] = fields[i];
      expect_units = false;
      continue;
    }
    expect_units = false;
    NcuLaunch launch;
    const auto id = parse_ncu_number(fields[id_col]);
    if (!id || *id < 0 || *id != static_cast<double>(static_cast<std::uint64_t>(*id)))
      throw InputError(fmt::format("{}:{}: ID \"{}\" is not a launch number", file, line_number, fields[id_col]));
    launch.id = static_cast<std::uint64_t>(*id);
    launch.kernel = fields[name_col];
    launch.line = line_number;
    for (std::size_t i = 0; i < header.size(); ++i) launch.values[header[i]] = std::move(fields[i]);
    out.launches.push_back(std::move(launch));
  }
  close_block();
  if (header.empty()) throw InputError(fmt::format("{}: no ncu CSV header row (\"ID\",...,\"Kernel Name\",...)", file));
  return out;
}

NcuReport read_ncu_csv(const std::filesystem::path& path) { return parse_ncu_csv(read_text_file(path), path.string()); }

}  // namespace warpscope::validate
