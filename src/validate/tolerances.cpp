#include "validate/tolerances.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <toml++/toml.h>

#include "core/toml_integer.hpp"
#include "validate/model_counters.hpp"
#include "validate/text_file.hpp"
#include "warpscope/error.hpp"

namespace warpscope::validate {
namespace {

class Reader {
 public:
  explicit Reader(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const toml::node& n, const std::string& what) const {
    throw InputError(fmt::format("{}:{}:{}: {}", file_, n.source().begin.line, n.source().begin.column, what));
  }

  void known_keys(const toml::table& t, const std::set<std::string, std::less<>>& keys, const char* where) const {
    for (const auto& [k, v] : t)
      if (!keys.count(k.str())) {
        std::string list;
        for (const auto& x : keys) list += (list.empty() ? "" : ", ") + x;
        fail(v, fmt::format("unknown key \"{}\" in {} (known: {})", k.str(), where, list));
      }
  }

  std::string counter(const toml::node& n, const char* key) const {
    const auto s = n.value<std::string>();
    if (!s) fail(n, fmt::format("\"{}\" must be a string", key));
    if (!is_model_counter(*s))
      fail(n, fmt::format("\"{}\" = \"{}\": not a counter the model has (an Nsight Compute name of "
                          "`warpscope analyze --all-metrics`, with its suffix, e.g. \".sum\")", key, *s));
    return *s;
  }

  std::optional<double> number(const toml::table& t, const char* key) const {
    const toml::node* n = t.get(key);
    if (!n) return std::nullopt;
    const auto v = n->value<double>();
    if (!v || !std::isfinite(*v) || *v < 0) fail(*n, fmt::format("\"{}\" must be a finite number >= 0", key));
    return v;
  }

  // The check a [[tolerance]] or [[kernel]] table states; nullopt when it states none.
  std::optional<Check> check(const toml::table& t, const Check* base) const {
    Check c;
    c.line = static_cast<int>(t.source().begin.line);
    const auto points = number(t, "points"), percent = number(t, "percent"), slack = number(t, "slack");
    if (t.get("exact") && !t.get("exact")->value<bool>()) fail(*t.get("exact"), "\"exact\" must be true or false");
    const bool exact = t.get("exact") && *t.get("exact")->value<bool>();
    if (t.get("rate_of")) c.rate_of = counter(*t.get("rate_of"), "rate_of");
    else if (base && base->kind == CheckKind::Rate) c.rate_of = base->rate_of;
    if (exact + (points.has_value()) + (percent || slack) > 1)
      fail(t, "give one of: exact = true, points (with rate_of), percent/slack");
    if (exact) return Check{CheckKind::Exact, 0, 0, "", c.line};
    if (points) {
      if (c.rate_of.empty()) fail(t, "\"points\" needs \"rate_of\": the column the counter is a rate of");
      c.kind = CheckKind::Rate;
      c.limit = *points;
      return c;
    }
    if (percent || slack) {
      if (t.get("rate_of")) fail(t, "\"rate_of\" goes with \"points\", not with \"percent\"/\"slack\"");
      const bool relative_base = base && base->kind == CheckKind::Relative;
      c.kind = CheckKind::Relative;
      c.rate_of.clear();
      c.limit = percent.value_or(relative_base ? base->limit : 0);
      c.slack = slack.value_or(relative_base ? base->slack : 0);
      return c;
    }
    if (t.get("rate_of") && !base) fail(t, "\"rate_of\" without \"points\"");
    return std::nullopt;
  }

 private:
  const std::string& file_;
};

const toml::array* array_of(const toml::table& root, const char* key, const Reader& r) {
  const toml::node* n = root.get(key);
  if (!n) return nullptr;
  if (!n->as_array()) r.fail(*n, fmt::format("\"{}\" must be an array", key));
  return n->as_array();
}

}  // namespace

Rule Tolerances::lookup(std::string_view app, std::string_view kernel, std::string_view counter) const {
  Rule r;
  if (auto it = counters.find(counter); it != counters.end()) r.check = it->second;
  const KernelRule* best = nullptr;
  for (const auto& k : kernels)
    if (k.counter == counter && k.kernel == kernel && (k.app.empty() || k.app == app) && (!best || best->app.empty()))
      best = &k;
  if (best) {
    if (best->check) r.check = best->check;
    r.known = best->known;
    r.kernel_rule = best;
  }
  return r;
}

Tolerances parse_tolerances(std::string_view text, const std::string& file) {
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}:{}: {}", file, e.source().begin.line, e.source().begin.column, e.description()));
  }
  const Reader r(file);
  r.known_keys(root, {"version", "exact", "tolerance", "kernel"}, "the top level");
  const toml::node* version = root.get("version");
  if (!version) throw InputError(fmt::format("{}: missing \"version = 1\"", file));
  if (toml_integer(*version) != 1) r.fail(*version, "\"version\" must be 1");

  Tolerances out;
  out.file = file;
  const auto add = [&](const toml::node& where, const std::string& name, const Check& c) {
    if (auto it = out.counters.find(name); it != out.counters.end())
      r.fail(where, fmt::format("\"{}\" is already given on line {}", name, it->second.line));
    out.counters.emplace(name, c);
  };
  if (const auto* exact = array_of(root, "exact", r))
    for (const toml::node& n : *exact)
      add(n, r.counter(n, "exact"), Check{CheckKind::Exact, 0, 0, "", static_cast<int>(n.source().begin.line)});
  if (const auto* list = array_of(root, "tolerance", r))
    for (const toml::node& n : *list) {
      const auto* t = n.as_table();
      if (!t) r.fail(n, "[[tolerance]] entries must be tables");
      r.known_keys(*t, {"counter", "points", "percent", "slack", "rate_of"}, "[[tolerance]]");
      if (!t->get("counter")) r.fail(*t, "[[tolerance]] needs \"counter\"");
      const auto c = r.check(*t, nullptr);
      if (!c || c->kind == CheckKind::Exact) r.fail(*t, "[[tolerance]] needs \"points\" (with \"rate_of\") or \"percent\"/\"slack\"");
      add(*t, r.counter(*t->get("counter"), "counter"), *c);
    }
  if (const auto* list = array_of(root, "kernel", r))
    for (const toml::node& n : *list) {
      const auto* t = n.as_table();
      if (!t) r.fail(n, "[[kernel]] entries must be tables");
      r.known_keys(*t, {"name", "app", "counter", "exact", "points", "percent", "slack", "rate_of", "known"}, "[[kernel]]");
      KernelRule k;
      k.line = static_cast<int>(t->source().begin.line);
      k.kernel = t->get("name") ? t->get("name")->value<std::string>().value_or("") : "";
      k.app = t->get("app") ? t->get("app")->value<std::string>().value_or("") : "";
      k.known = t->get("known") ? t->get("known")->value<std::string>().value_or("") : "";
      if (k.kernel.empty()) r.fail(*t, "[[kernel]] needs \"name\": the kernel's function name, e.g. \"gather\"");
      if (!t->get("counter")) r.fail(*t, "[[kernel]] needs \"counter\"");
      if (t->get("known") && k.known.empty()) r.fail(*t->get("known"), "\"known\" must be a non-empty reason");
      k.counter = r.counter(*t->get("counter"), "counter");
      const auto base = out.counters.find(k.counter);
      k.check = r.check(*t, base == out.counters.end() ? nullptr : &base->second);
      if (!k.check && k.known.empty()) r.fail(*t, "[[kernel]] changes nothing: give a tolerance or \"known\"");
      for (const auto& other : out.kernels)
        if (other.kernel == k.kernel && other.app == k.app && other.counter == k.counter)
          r.fail(*t, fmt::format("kernel \"{}\" counter \"{}\" is already given on line {}", k.kernel, k.counter, other.line));
      out.kernels.push_back(std::move(k));
    }
  return out;
}

Tolerances load_tolerances(const std::filesystem::path& path) {
  return parse_tolerances(read_text_file(path), path.string());
}

}  // namespace warpscope::validate
