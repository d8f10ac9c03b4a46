#include "validate/environment.hpp"

#include <fmt/format.h>

#include "validate/text_file.hpp"
#include "warpscope/error.hpp"

namespace warpscope::validate {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string Environment::get(std::string_view key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return v;
  return "";
}

std::string Environment::require(std::string_view key) const {
  std::string v = get(key);
  if (v.empty()) throw InputError(fmt::format("{}: no \"{}: ...\" line", file, key));
  return v;
}

int Environment::line_of(std::string_view key) const {
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].first == key) return lines[i];
  return 0;
}

Environment parse_environment(std::string_view text, const std::string& file) {
  Environment env;
  env.file = file;
  int line_number = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || trim(line.substr(0, colon)).empty())
      throw InputError(fmt::format("{}:{}: expected \"key: value\"", file, line_number));
    const std::string key(trim(line.substr(0, colon)));
    if (env.line_of(key) != 0)
      throw InputError(fmt::format("{}:{}: \"{}\" given twice (first on line {})", file, line_number, key, env.line_of(key)));
    env.entries.emplace_back(key, std::string(trim(line.substr(colon + 1))));
    env.lines.push_back(line_number);
  }
  return env;
}

Environment read_environment(const std::filesystem::path& path) {
  return parse_environment(read_text_file(path), path.string());
}

}  // namespace warpscope::validate
