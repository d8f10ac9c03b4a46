// `warpscope archs` lists the architecture database; `warpscope arch NAME`
// prints one architecture with the source of every value.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "report/text_table.hpp"
#include "warpscope/error.hpp"

namespace warpscope::cli {
namespace {

std::string kb(std::int64_t bytes) {
  if (bytes == 0) return "-";
  if (bytes >= 1024 * 1024) {
    std::string s = fmt::format("{:.1f}", static_cast<double>(bytes) / (1024.0 * 1024.0));
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s + " MB";
  }
  return fmt::format("{} KB", bytes / 1024);
}

std::string default_load_path(const ArchSpec& a) {
  switch (a.rules) {
    case RulesFamily::TeslaStrict:
    case RulesFamily::TeslaRelaxed: return "DRAM";
    default: return a.l1_caches_global ? "L1+L2" : "L2";
  }
}

// A list value as the text table shows it: long ones (sm_90's 132-entry
// l2.sm_partitions) cut to their first entries and a count, so that the
// table stays readable; --json prints every value whole.
std::string table_value(const std::string& v) {
  constexpr std::size_t kWidth = 48;
  if (v.size() <= kWidth || v.front() != '[') return v;
  const auto values = 1 + std::count(v.begin(), v.end(), ',');
  const std::size_t cut = v.rfind(',', kWidth - 16);
  if (cut == std::string::npos) return v;
  return fmt::format("{}, ... {} values]", v.substr(0, cut), values);
}

nlohmann::json entry_json(const ArchEntry& e, bool with_params) {
  const ArchSpec& a = e.spec;
  nlohmann::json j = {{"name", a.name}, {"cc", a.cc()}, {"family", a.family}, {"description", a.description},
                      {"rules", std::string(to_string(a.rules))}, {"file", e.file.string()}};
  if (with_params) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& p : e.params)
      params[p.key] = {{"value", p.value}, {"unit", p.unit}, {"source", p.source}};
    j["params"] = params;
  } else {
    j["max_warps_per_sm"] = a.max_warps_per_sm;
    j["max_shared_per_sm"] = a.max_shared_per_sm;
    j["l1_size"] = a.l1_size;
    j["l2_max_size"] = a.l2_max_size;
    j["shared_banks"] = a.shared_banks;
    j["default_global_load_path"] = default_load_path(a);
  }
  return j;
}

}  // namespace

Action add_archs_commands(CLI::App& app, const GlobalOptions& g, Action& arch_action) {
  auto* list = app.add_subcommand("archs", "list the architectures in the database");
  auto json_list = std::make_shared<bool>(false);
  list->add_flag("--json", *json_list, "print JSON");

  auto* one = app.add_subcommand("arch", "print one architecture with the source of every value");
  auto name = std::make_shared<std::string>();
  auto json_one = std::make_shared<bool>(false);
  auto schema = std::make_shared<bool>(false);
  one->add_option("name", *name, "sm_35, 3.5, 35 or sm35");
  one->add_flag("--json", *json_one, "print JSON");
  one->add_flag("--schema", *schema, "list every key an architecture file may hold");

  arch_action = [&g, name, json_one, schema]() {
    if (*schema) {
      report::TextTable t({"key", "type", "unit", "meaning"}, {report::TextTable::Align::Left, report::TextTable::Align::Left,
                                                              report::TextTable::Align::Left, report::TextTable::Align::Left});
      for (const auto& k : arch_schema()) t.add_row({k.key, k.type, k.unit, k.description});
      fmt::print("{}", t.render());
      return 0;
    }
    if (name->empty()) throw InputError("arch: give an architecture name, e.g. 'warpscope arch sm_35' (or --schema)");
    const ArchEntry& e = database(g).get(*name);
    if (*json_one) {
      fmt::print("{}\n", entry_json(e, true).dump(2));
      return 0;
    }
    const ArchSpec& a = e.spec;
    fmt::print("{} — compute capability {} ({})\n{}\nrules: {}    file: {}\n\n", a.name, a.cc(), a.family, a.description,
               to_string(a.rules), e.file.string());
    using A = report::TextTable::Align;
    report::TextTable t({"parameter", "value", "unit", "source"}, {A::Left, A::Right, A::Left, A::Left});
    std::string section;
    for (const auto& p : e.params) {
      std::string sec = p.key.substr(0, p.key.find('.'));
      if (!section.empty() && sec != section) t.add_separator();
      section = sec;
      t.add_row({p.key, table_value(p.value), p.unit == "bytes" ? "" : p.unit, p.source});
    }
    fmt::print("{}", t.render());
    return 0;
  };

  return [&g, json_list]() {
    const auto all = database(g).all();
    if (*json_list) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto* e : all) j.push_back(entry_json(*e, false));
      fmt::print("{}\n", nlohmann::json{{"architectures", j}}.dump(2));
      return 0;
    }
    using A = report::TextTable::Align;
    report::TextTable t({"arch", "cc", "family", "rules", "warps/SM", "shared/SM", "L1", "L2 (max)", "banks",
                         "global loads", "example GPUs"},
                        {A::Left, A::Right, A::Left, A::Left, A::Right, A::Right, A::Right, A::Right, A::Right,
                         A::Left, A::Left});
    for (const auto* e : all) {
      const ArchSpec& a = e->spec;
      t.add_row({a.name, a.cc(), a.family, std::string(to_string(a.rules)), std::to_string(a.max_warps_per_sm),
                 kb(a.max_shared_per_sm), kb(a.l1_size), kb(a.l2_max_size), std::to_string(a.shared_banks),
                 default_load_path(a), a.description});
    }
    fmt::print("{}", t.render());
    return 0;
  };
}

}  // namespace warpscope::cli
