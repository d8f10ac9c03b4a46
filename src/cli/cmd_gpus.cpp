// `warpscope gpus`: the GPU models analyze --gpu knows.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "report/text_table.hpp"
#include "warpscope/gpu_models.hpp"

namespace warpscope::cli {

Action add_gpus_command(CLI::App& app, const GlobalOptions&) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("gpus", "list the GPU models (SM count, L2 size) for analyze --gpu");
  cmd->add_flag("--json", *json, "print JSON");
  return [json]() {
    const auto& models = builtin_gpu_models();
    if (*json) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& g : models)
        j.push_back({{"key", g.key}, {"name", g.name}, {"arch", g.arch}, {"sms", g.sms}, {"l2_size", g.l2_size}, {"source", g.source}});
      fmt::print("{}\n", nlohmann::json{{"gpus", j}}.dump(2));
      return 0;
    }
    using A = report::TextTable::Align;
    report::TextTable t({"key", "name", "arch", "SMs", "L2", "source"}, {A::Left, A::Left, A::Left, A::Right, A::Right, A::Left});
    for (const auto& g : models)
      t.add_row({g.key, g.name, g.arch, std::to_string(g.sms),
                 g.l2_size >= (1 << 20) ? fmt::format("{:g} MB", static_cast<double>(g.l2_size) / (1 << 20))
                                        : fmt::format("{} KB", g.l2_size / 1024),
                 g.source});
    fmt::print("{}", t.render());
    return 0;
  };
}

}  // namespace warpscope::cli
