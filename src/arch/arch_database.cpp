#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "arch/arch_file.hpp"
#include "warpscope/arch.hpp"
#include "warpscope/error.hpp"

namespace warpscope {

std::string_view to_string(RulesFamily f) {
  switch (f) {
    case RulesFamily::TeslaStrict: return "tesla-strict";
    case RulesFamily::TeslaRelaxed: return "tesla-relaxed";
    case RulesFamily::Fermi: return "fermi";
    case RulesFamily::Kepler: return "kepler";
    case RulesFamily::Maxwell: return "maxwell";
    case RulesFamily::Volta: return "volta";
  }
  return "?";
}

int parse_arch_name(std::string_view name) {
  std::string s;
  for (char c : name) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view prefix : {"sm_", "sm", "compute_", "cc"})
    if (s.rfind(prefix, 0) == 0) {
      s.erase(0, prefix.size());
      break;
    }
  // sm_90a, sm_100f: the architecture-specific and family-specific feature sets (wgmma, tcgen05) of a compute
  // capability, whose memory system is that capability's.
  if (s.size() > 2 && (s.back() == 'a' || s.back() == 'f') && s.find('.') == std::string::npos) s.pop_back();
  if (s.empty() || s.size() > 4) return -1;
  auto digits = [](std::string_view t) {
    return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (auto dot = s.find('.'); dot != std::string::npos) {
    std::string_view maj(s.data(), dot), min(s.data() + dot + 1, s.size() - dot - 1);
    if (!digits(maj) || !digits(min) || min.size() != 1) return -1;
    return std::stoi(std::string(maj)) * 10 + (min[0] - '0');
  }
  if (!digits(s) || s.size() < 2 || s.size() > 3) return -1;
  // "35" -> 3.5, "120" -> 12.0, "100" -> 10.0, "103" -> 10.3
  return std::stoi(s);
}

ArchDatabase ArchDatabase::load(const std::vector<std::filesystem::path>& dirs) {
  std::vector<arch::RawArchFile> raws;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().extension() == ".toml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      auto raw = arch::read_arch_file(f);
      // A later directory replaces an earlier definition of the same name.
      std::erase_if(raws, [&](const arch::RawArchFile& r) { return r.name == raw.name; });
      raws.push_back(std::move(raw));
    }
  }
  std::map<std::string, const arch::RawArchFile*> by_name;
  for (const auto& r : raws) by_name[r.name] = &r;

  ArchDatabase db;
  for (const auto& r : raws) {
    ArchEntry entry = arch::resolve_arch(r, by_name);
    int key = entry.spec.cc_major * 10 + entry.spec.cc_minor;
    if (parse_arch_name(entry.spec.name) != key)
      throw InputError(fmt::format("{}: name \"{}\" does not match cc = \"{}\"", r.file.string(), entry.spec.name,
                                   entry.spec.cc()));
    db.by_cc_[key] = std::move(entry);
  }
  if (db.by_cc_.empty()) {
    std::string where;
    for (const auto& d : dirs) where += (where.empty() ? "" : ", ") + d.string();
    throw InputError(fmt::format("no architecture files (*.toml) found in: {} (set WARPSCOPE_ARCH_PATH)", where));
  }
  return db;
}

std::vector<std::filesystem::path> ArchDatabase::default_search_path() {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::filesystem::path installed = ec ? std::filesystem::path{} : exe.parent_path() / ".." / "share" / "warpscope" / "arch";
  if (!installed.empty() && std::filesystem::is_directory(installed, ec))
    dirs.push_back(installed);
  else
    dirs.emplace_back(WARPSCOPE_ARCH_SOURCE_DIR);
  if (const char* env = std::getenv("WARPSCOPE_ARCH_PATH")) {
    std::string_view rest(env);
    while (!rest.empty()) {
      auto colon = rest.find(':');
      auto part = rest.substr(0, colon);
      if (!part.empty()) dirs.emplace_back(std::string(part));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  return dirs;
}

const ArchDatabase& ArchDatabase::builtin() {
  static const ArchDatabase db = load(default_search_path());
  return db;
}

const ArchEntry* ArchDatabase::find(std::string_view name) const {
  int key = parse_arch_name(name);
  auto it = by_cc_.find(key);
  return it == by_cc_.end() ? nullptr : &it->second;
}

const ArchEntry& ArchDatabase::get(std::string_view name) const {
  if (const auto* e = find(name)) return *e;
  std::string known;
  for (const auto& [k, e] : by_cc_) known += (known.empty() ? "" : ", ") + e.spec.name;
  throw InputError(fmt::format("unknown architecture \"{}\" (known: {})", name, known));
}

std::vector<const ArchEntry*> ArchDatabase::get_list(std::string_view names) const {
  std::vector<const ArchEntry*> out;
  std::string_view rest = names;
  while (true) {
    auto comma = rest.find(',');
    auto part = rest.substr(0, comma);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (part.empty()) throw InputError(fmt::format("empty architecture name in \"{}\"", names));
    // A name given twice (sm_90,9.0 or all,sm_90) would only repeat a column.
    auto add = [&out](const ArchEntry* e) {
      if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
    };
    if (part == "all") {
      for (const auto* e : all()) add(e);
    } else {
      add(&get(part));
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<const ArchEntry*> ArchDatabase::all() const {
  std::vector<const ArchEntry*> out;
  for (const auto& [k, e] : by_cc_) out.push_back(&e);
  return out;
}

}  // namespace warpscope
