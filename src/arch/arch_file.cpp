// Reads architecture files: TOML, strict schema, single inheritance.
#include "arch/arch_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <set>
#include <utility>
#include <toml++/toml.h>

#include "arch/arch_schema.hpp"
#include "core/toml_integer.hpp"
#include "warpscope/error.hpp"

namespace warpscope::arch {
namespace {

const std::set<std::string, std::less<>> kTopLevelKeys = {"name", "cc", "family", "description", "rules", "inherits"};

std::string known_sections() {
  std::set<std::string> s;
  for (const auto& d : param_defs()) s.insert(d.section);
  std::string out;
  for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

std::string known_keys_of(std::string_view section) {
  std::string out;
  for (const auto& d : param_defs())
    if (section == d.section) out += (out.empty() ? "" : ", ") + std::string(d.name);
  return out;
}

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw InputError(fmt::format("{}: {}", file.string(), what));
}

}  // namespace

// "48K", "1.5M", "64KB", 49152 -> bytes.
std::int64_t parse_bytes(const toml::node& n, const std::filesystem::path& file, const std::string& key) {
  // No memory of a GPU is near 1 TB; the bound keeps every product of sizes in range.
  constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;
  if (auto i = toml_integer(n)) {
    if (*i < 0 || *i > kMaxBytes) fail(file, fmt::format("{}: {} bytes is out of range (0..1T)", key, *i));
    return *i;
  }
  auto s = n.value<std::string>();
  if (!s) fail(file, fmt::format("{}: expected a byte size (integer or string such as \"48K\")", key));
  std::string t = *s;
  double mult = 1;
  auto strip = [&](std::string_view suf, double m) {
    if (t.size() > suf.size() && t.compare(t.size() - suf.size(), suf.size(), suf) == 0) {
      t.resize(t.size() - suf.size());
      mult = m;
      return true;
    }
    return false;
  };
  strip("KB", 1024) || strip("K", 1024) || strip("MB", 1024.0 * 1024) || strip("M", 1024.0 * 1024) ||
      strip("B", 1);
  double v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size() || !(v >= 0))
    fail(file, fmt::format("{}: \"{}\" is not a byte size (examples: 49152, \"48K\", \"1.5M\")", key, *s));
  if (v * mult > static_cast<double>(kMaxBytes)) fail(file, fmt::format("{}: \"{}\" is out of range (0..1T)", key, *s));
  return static_cast<std::int64_t>(v * mult);
}

namespace {

std::string format_bytes(std::int64_t b) {
  if (b >= 1024 * 1024 && b % (1024 * 1024) == 0) return fmt::format("{} MB", b / (1024 * 1024));
  if (b >= 1024 * 1024 && (b * 10) % (1024 * 1024) == 0)
    return fmt::format("{:.1f} MB", static_cast<double>(b) / (1024.0 * 1024.0));
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KB", b / 1024);
  return fmt::format("{} B", b);
}

int expect_int(const toml::node& n, const std::filesystem::path& file, const std::string& key) {
  auto v = toml_integer(n);
  if (!v) fail(file, fmt::format("{}: expected an integer", key));
  if (*v < 0 || *v > (1LL << 31)) fail(file, fmt::format("{}: {} is out of range", key, *v));
  return static_cast<int>(*v);
}

const toml::array& expect_array(const toml::node& n, const std::filesystem::path& file, const std::string& key) {
  const auto* a = n.as_array();
  if (!a) fail(file, fmt::format("{}: expected a list", key));
  return *a;
}

// Stores one value into spec and returns its printed form.
std::string apply(ArchSpec& spec, const ParamDef& d, const toml::node& v, const std::filesystem::path& file,
                  const std::string& key) {
  switch (d.type) {
    case ParamType::Int: {
      int x = expect_int(v, file, key);
      spec.*std::get<int ArchSpec::*>(d.member) = x;
      return std::to_string(x);
    }
    case ParamType::Bytes: {
      auto x = parse_bytes(v, file, key);
      spec.*std::get<std::int64_t ArchSpec::*>(d.member) = x;
      return format_bytes(x);
    }
    case ParamType::Bool: {
      auto x = v.value<bool>();
      if (!x) fail(file, fmt::format("{}: expected true or false", key));
      spec.*std::get<bool ArchSpec::*>(d.member) = *x;
      return *x ? "true" : "false";
    }
    case ParamType::Text: {
      auto x = v.value<std::string>();
      if (!x) fail(file, fmt::format("{}: expected a string", key));
      spec.*std::get<std::string ArchSpec::*>(d.member) = *x;
      return *x;
    }
    case ParamType::IntList: {
      std::vector<int> out;
      std::string text;
      for (const auto& e : expect_array(v, file, key)) {
        out.push_back(expect_int(e, file, key));
        text += (text.empty() ? "" : ", ") + std::to_string(out.back());
      }
      spec.*std::get<std::vector<int> ArchSpec::*>(d.member) = out;
      return "[" + text + "]";
    }
    case ParamType::BytesList: {
      std::vector<std::int64_t> out;
      std::string text;
      for (const auto& e : expect_array(v, file, key)) {
        out.push_back(parse_bytes(e, file, key));
        text += (text.empty() ? "" : ", ") + format_bytes(out.back());
      }
      spec.*std::get<std::vector<std::int64_t> ArchSpec::*>(d.member) = out;
      return "[" + text + "]";
    }
    case ParamType::PerSize: {
      const auto& a = expect_array(v, file, key);
      if (a.size() != 5) fail(file, fmt::format("{}: expected 5 integers (for 1, 2, 4, 8, 16-byte accesses), got {}", key, a.size()));
      PerSize out{};
      std::string text;
      for (std::size_t i = 0; i < 5; ++i) {
        out[i] = expect_int(*a.get(i), file, key);
        text += (i ? ", " : "") + std::to_string(out[i]);
      }
      spec.*std::get<PerSize ArchSpec::*>(d.member) = out;
      return "[" + text + "]";
    }
    case ParamType::BroadcastKind: {
      auto x = v.value<std::string>();
      if (!x || (*x != "single-word" && *x != "any-words"))
        fail(file, fmt::format("{}: expected \"single-word\" or \"any-words\"", key));
      spec.*std::get<Broadcast ArchSpec::*>(d.member) = *x == "single-word" ? Broadcast::SingleWord : Broadcast::AnyWords;
      return *x;
    }
  }
  return {};
}

// What the rules engine relies on (32-lane warps, lane groups that tile the
// warp, bank geometry it can index): a file may say anything the schema
// types allow, so these are checked once here, naming the key.
void check_rules_parameters(const ArchSpec& s, const std::filesystem::path& file) {
  auto lanes_ok = [](int v) { return v >= 1 && v <= 32 && std::has_single_bit(static_cast<unsigned>(v)); };
  if (s.warp_size != 32) fail(file, fmt::format("sm.warp_size: {} lanes; warpscope models 32-lane warps", s.warp_size));
  const std::pair<const char*, const PerSize*> per_size[] = {{"global.request_lanes", &s.request_lanes},
                                                             {"shared.group_lanes", &s.shared_group_lanes},
                                                             {"shared.load_merge_lanes", &s.shared_load_merge_lanes}};
  for (const auto& [key, values] : per_size)
    for (const int v : *values)
      if (!lanes_ok(v)) fail(file, fmt::format("{}: {} lanes is not a power of two in 1..32", key, v));
  if (!lanes_ok(s.constant_request_lanes))
    fail(file, fmt::format("constant.request_lanes: {} lanes is not a power of two in 1..32", s.constant_request_lanes));
  if (s.constant_dram_fetch_bytes != 0 && (s.constant_dram_fetch_bytes < 4 || s.constant_dram_fetch_bytes > 65536 ||
                                           !std::has_single_bit(static_cast<unsigned>(s.constant_dram_fetch_bytes))))
    fail(file, fmt::format("constant.dram_fetch_bytes: {} B is not 0 or a power of two in 4..65536",
                           s.constant_dram_fetch_bytes));
  for (const int v : s.segment_bytes)
    if (v < 32 || v > 128 || !std::has_single_bit(static_cast<unsigned>(v)))
      fail(file, fmt::format("global.segment_bytes: {} is not 32, 64 or 128", v));
  if (s.l2_segment < 1 || s.l2_segment > 128 || !std::has_single_bit(static_cast<unsigned>(s.l2_segment)))
    fail(file, fmt::format("global.l2_segment: {} is not a power of two in 1..128", s.l2_segment));
  // Lines of at most 128 B in 1..8 sectors: the rules keep a line's bytes in two 64-bit words.
  const std::pair<const char*, std::pair<int, int>> lines[] = {{"l1", {s.l1_line, s.l1_sector}},
                                                               {"l2", {s.l2_line, s.l2_sector}}};
  for (const auto& [level, geometry] : lines) {
    const auto [line, sector] = geometry;
    if (line < 8 || line > 128 || !std::has_single_bit(static_cast<unsigned>(line)))
      fail(file, fmt::format("{}.line_size: {} B is not a power of two in 8..128", level, line));
    if (sector < 1 || !std::has_single_bit(static_cast<unsigned>(sector)) || sector > line || line / sector > 8)
      fail(file, fmt::format("{}.sector_size: {} B does not divide a {} B line into 1..8 sectors", level, sector, line));
  }
  if (s.global_cas_access_bytes != 0 &&
      (s.global_cas_access_bytes < s.l1_sector || s.global_cas_access_bytes > s.l1_line ||
       !std::has_single_bit(static_cast<unsigned>(s.global_cas_access_bytes))))
    fail(file, fmt::format("global.cas_access_bytes: {} B is not 0 or a power of two from the {} B sector to the {} B line",
                           s.global_cas_access_bytes, s.l1_sector, s.l1_line));
  if (s.global_atomic_word_groups.size() > 4)
    fail(file, fmt::format("global.atomic_word_groups: {} masks (at most 4: 16 groups)", s.global_atomic_word_groups.size()));
  for (int m : s.global_atomic_word_groups)
    if (m <= 0) fail(file, fmt::format("global.atomic_word_groups: mask {} is not a positive bit mask", m));
  if (s.shared_cas_wavefronts < 1 || s.shared_cas_wavefronts > 4)
    fail(file, fmt::format("shared.cas_wavefronts: {} is not 1 to 4", s.shared_cas_wavefronts));
  if (s.readonly_threads_per_query != 0 && !lanes_ok(s.readonly_threads_per_query))
    fail(file, fmt::format("readonly.threads_per_query: {} lanes is not 0 or a power of two in 1..32",
                           s.readonly_threads_per_query));
  // The line size of the separate read-only cache (3.5/3.7), a Cache line.
  if (s.readonly_query_bytes < 8 || s.readonly_query_bytes > 128 ||
      !std::has_single_bit(static_cast<unsigned>(s.readonly_query_bytes)))
    fail(file, fmt::format("readonly.query_bytes: {} B is not a power of two in 8..128", s.readonly_query_bytes));
  // The occupancy calculator divides by these.
  const std::pair<const char*, int> at_least_one[] = {{"allocation.warp_granularity", s.warp_allocation_granularity},
                                                      {"limits.max_warps_per_sm", s.max_warps_per_sm},
                                                      {"limits.max_blocks_per_sm", s.max_blocks_per_sm},
                                                      {"limits.max_threads_per_block", s.max_threads_per_block}};
  for (const auto& [key, v] : at_least_one)
    if (v < 1) fail(file, fmt::format("{}: {} must be at least 1", key, v));
  if (s.shared_banks < 1 || s.shared_banks > 64) fail(file, fmt::format("shared.banks: {} is not in 1..64", s.shared_banks));
  auto width_ok = [](int v) { return v == 4 || v == 8 || v == 16; };
  if (!width_ok(s.bank_width)) fail(file, fmt::format("shared.bank_width: {} bytes is not 4, 8 or 16", s.bank_width));
  for (const int v : s.bank_width_modes)
    if (!width_ok(v)) fail(file, fmt::format("shared.bank_width_modes: {} bytes is not 4, 8 or 16", v));
}

RulesFamily parse_rules(std::string_view s, const std::filesystem::path& file) {
  static const std::pair<std::string_view, RulesFamily> kRules[] = {
      {"tesla-strict", RulesFamily::TeslaStrict}, {"tesla-relaxed", RulesFamily::TeslaRelaxed},
      {"fermi", RulesFamily::Fermi},             {"kepler", RulesFamily::Kepler},
      {"maxwell", RulesFamily::Maxwell},         {"volta", RulesFamily::Volta}};
  for (auto [n, r] : kRules)
    if (s == n) return r;
  fail(file, fmt::format("rules: unknown rule set \"{}\" (known: tesla-strict, tesla-relaxed, fermi, kepler, maxwell, volta)", s));
}

}  // namespace

RawArchFile read_arch_file(const std::filesystem::path& file) {
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw InputError(fmt::format("{}:{}:{}: {}", file.string(), where.line, where.column, e.description()));
  }
  RawArchFile raw{file, std::move(table), {}, {}};
  for (const auto& [k, v] : raw.table) {
    std::string key(k.str());
    if (kTopLevelKeys.count(key)) {
      if (!v.is_string()) fail(file, fmt::format("{}: expected a string", key));
      continue;
    }
    if (!v.is_table())
      fail(file, fmt::format("unknown key \"{}\" (top-level keys: name, cc, family, description, rules, inherits; sections: {})",
                             key, known_sections()));
    bool section_known = std::any_of(param_defs().begin(), param_defs().end(),
                                     [&](const ParamDef& d) { return key == d.section; });
    if (!section_known) fail(file, fmt::format("unknown section [{}] (known sections: {})", key, known_sections()));
    for (const auto& [pk, pv] : *v.as_table()) {
      std::string pname(pk.str());
      bool known = std::any_of(param_defs().begin(), param_defs().end(),
                               [&](const ParamDef& d) { return key == d.section && pname == d.name; });
      if (!known)
        fail(file, fmt::format("unknown key \"{}.{}\" (known keys of [{}]: {})", key, pname, key, known_keys_of(key)));
      const auto* entry = pv.as_table();
      if (!entry || !entry->contains("value") || !entry->contains("source"))
        fail(file, fmt::format("{}.{}: expected {{ value = ..., source = \"...\" }}", key, pname));
      for (const auto& [ek, ev] : *entry) {
        if (ek.str() != "value" && ek.str() != "source")
          fail(file, fmt::format("{}.{}: unknown field \"{}\" (expected value and source)", key, pname, ek.str()));
      }
      auto src = (*entry)["source"].value<std::string>();
      if (!src || src->empty()) fail(file, fmt::format("{}.{}: source must be a non-empty string", key, pname));
    }
  }
  raw.name = raw.table["name"].value_or(std::string{});
  raw.inherits = raw.table["inherits"].value_or(std::string{});
  if (raw.name.empty()) fail(file, "missing top-level key \"name\" (e.g. name = \"sm_35\")");
  return raw;
}

ArchEntry resolve_arch(const RawArchFile& raw, const std::map<std::string, const RawArchFile*>& by_name) {
  // Chain: this file, its parent, the parent's parent, ... (nearest wins).
  std::vector<const RawArchFile*> chain{&raw};
  std::set<std::string> seen{raw.name};
  while (!chain.back()->inherits.empty()) {
    const auto& parent = chain.back()->inherits;
    auto it = by_name.find(parent);
    if (it == by_name.end())
      fail(chain.back()->file, fmt::format("inherits = \"{}\": no architecture file defines that name", parent));
    if (!seen.insert(parent).second) fail(raw.file, fmt::format("inheritance cycle through \"{}\"", parent));
    chain.push_back(it->second);
  }
  auto lookup_top = [&](const char* key) -> std::string {
    for (const auto* f : chain)
      if (auto v = f->table[key].value<std::string>()) return *v;
    return {};
  };

  ArchEntry entry;
  entry.file = raw.file;
  ArchSpec& spec = entry.spec;
  spec.name = raw.name;
  const std::string cc = lookup_top("cc");
  if (raw.table["cc"].value<std::string>().value_or("").empty())
    fail(raw.file, "missing top-level key \"cc\" (e.g. cc = \"3.5\")");
  int major = -1, minor = -1;
  if (std::sscanf(cc.c_str(), "%d.%d", &major, &minor) != 2 || major < 1 || minor < 0 || minor > 9)
    fail(raw.file, fmt::format("cc: \"{}\" is not a compute capability such as \"3.5\"", cc));
  spec.cc_major = major;
  spec.cc_minor = minor;
  spec.family = lookup_top("family");
  spec.description = lookup_top("description");
  const std::string rules = lookup_top("rules");
  if (rules.empty()) fail(raw.file, "missing top-level key \"rules\" (and no inherited one)");
  spec.rules = parse_rules(rules, raw.file);

  for (const auto& d : param_defs()) {
    const std::string key = std::string(d.section) + "." + d.name;
    const RawArchFile* owner = nullptr;
    const toml::table* entry_table = nullptr;
    for (const auto* f : chain) {
      if (const auto* sec = f->table[d.section].as_table())
        if (const auto* e = (*sec)[d.name].as_table()) {
          owner = f;
          entry_table = e;
          break;
        }
    }
    if (!entry_table) {
      if (d.required) fail(raw.file, fmt::format("missing key {} ({}: {})", key, type_name(d.type), d.description));
      continue;
    }
    std::string printed = apply(spec, d, *entry_table->get("value"), owner->file, key);
    std::string source = (*entry_table)["source"].value_or(std::string{});
    if (owner != &raw) source += fmt::format(" (inherited from {})", owner->name);
    entry.params.push_back({key, printed, d.unit, d.description, source});
  }
  check_rules_parameters(spec, raw.file);
  return entry;
}

}  // namespace warpscope::arch
