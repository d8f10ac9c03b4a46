#include "warpscope/gpu_models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <toml++/toml.h>

#include "arch/arch_file.hpp"
#include "core/toml_integer.hpp"
#include "warpscope/arch.hpp"
#include "warpscope/error.hpp"

namespace warpscope {

std::vector<GpuModel> load_gpu_models(const std::filesystem::path& file) {
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}:{}: {}", file.string(), e.source().begin.line, e.source().begin.column,
                                 e.description()));
  }
  for (const auto& [k, v] : table)
    if (k.str() != "gpu") throw InputError(fmt::format("{}: unknown top-level key \"{}\" (expected [[gpu]] entries)", file.string(), k.str()));
  std::vector<GpuModel> out;
  const auto* list = table["gpu"].as_array();
  if (!list) return out;
  static const std::set<std::string, std::less<>> kKeys = {"key", "name", "arch", "sms", "l2_size", "source"};
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto* t = list->get(i)->as_table();
    const std::string where = fmt::format("{}: [[gpu]] #{}", file.string(), i + 1);
    if (!t) throw InputError(where + ": expected a table");
    for (const auto& [k, v] : *t)
      if (!kKeys.count(k.str()))
        throw InputError(fmt::format("{}: unknown key \"{}\" (known: key, name, arch, sms, l2_size, source)", where, k.str()));
    GpuModel g;
    auto text = [&](const char* key) {
      auto v = (*t)[key].value<std::string>();
      if (!v || v->empty()) throw InputError(fmt::format("{}: missing string \"{}\"", where, key));
      return *v;
    };
    g.key = text("key");
    g.name = text("name");
    g.arch = text("arch");
    g.source = text("source");
    const auto sms = (*t)["sms"].node() ? toml_integer(*(*t)["sms"].node()) : std::nullopt;
    if (!sms || *sms < 1 || *sms > 4096) throw InputError(fmt::format("{}: \"sms\" must be an integer 1..4096", where));
    g.sms = static_cast<int>(*sms);
    if (!t->contains("l2_size")) throw InputError(fmt::format("{}: missing \"l2_size\"", where));
    g.l2_size = arch::parse_bytes(*t->get("l2_size"), file, g.key + ".l2_size");
    if (parse_arch_name(g.arch) < 0) throw InputError(fmt::format("{}: arch \"{}\" is not an architecture name", where, g.arch));
    out.push_back(std::move(g));
  }
  return out;
}

namespace {

// gpus.toml lives beside the architecture folder (data/gpus next to data/arch;
// share/warpscope/gpus when installed): the first folder of the database's
// search path that has one, so a binary copied away from its build finds
// both through WARPSCOPE_ARCH_PATH.
std::filesystem::path gpu_models_file() {
  std::string tried;
  for (const auto& dir : ArchDatabase::default_search_path()) {
    const auto file = (dir / ".." / "gpus" / "gpus.toml").lexically_normal();
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec)) return file;
    tried += (tried.empty() ? "" : ", ") + file.string();
  }
  throw InputError(fmt::format("no list of GPU models: looked for {} (set WARPSCOPE_ARCH_PATH to a data/arch folder "
                               "with data/gpus/gpus.toml beside it)",
                               tried));
}

}  // namespace

const std::vector<GpuModel>& builtin_gpu_models() {
  static const std::vector<GpuModel> models = load_gpu_models(gpu_models_file());
  return models;
}

const GpuModel& find_gpu_model(std::string_view key) {
  std::string lower;
  for (char c : key) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& g : builtin_gpu_models())
    if (g.key == lower) return g;
  std::string known;
  for (const auto& g : builtin_gpu_models()) known += (known.empty() ? "" : ", ") + g.key;
  throw InputError(fmt::format("unknown GPU \"{}\" (known: {})", key, known));
}

}  // namespace warpscope
