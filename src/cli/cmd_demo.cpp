// `warpscope demo`: the seeds' access scenarios across five GPU generations in
// one table — what `make demo` shows.
#include <fmt/format.h>

#include "cli/cli.hpp"
#include "pattern/pattern.hpp"
#include "report/access_picture.hpp"
#include "report/counts_report.hpp"
#include "report/html.hpp"
#include "report/output_file.hpp"
#include "report/text_table.hpp"
#include "warpscope/rules.hpp"

namespace warpscope::cli {
namespace {

struct Scenario {
  const char* name;
  const char* source;  // where the scenario comes from
  PatternSpec spec;
};

PatternSpec global(const char* index, unsigned size = 4, std::uint64_t base = 0) {
  PatternSpec s;
  s.index = index;
  s.size = size;
  s.base = base;
  return s;
}
PatternSpec shared(const char* index, unsigned size = 4) {
  PatternSpec s = global(index, size);
  s.space = Space::Shared;
  return s;
}

const std::vector<Scenario>& global_scenarios() {
  static const std::vector<Scenario> s = {
      {"aligned, consecutive", "seed001", global("lane")},
      {"permuted within 128 B", "seed001", global("perm(7)")},
      {"misaligned by 4 B", "seed001", global("lane + 1")},
      {"broadcast (one word)", "seed001", global("0")},
      {"scattered (32 lines)", "seed001", global("rand(1, 1 << 20)")},
      {"stride 2 words", "seed001", global("lane * 2")},
      {"12-byte struct, .x", "seed001", global("lane * 3")},
      {"8-byte words", "seed000/004", global("lane", 8)},
      {"16-byte words", "seed000/004", global("lane", 16)},
  };
  return s;
}

const std::vector<Scenario>& shared_scenarios() {
  static const std::vector<Scenario> s = {
      {"stride 1 word", "seed000", shared("lane")},
      {"stride 2 words", "seed000", shared("lane * 2")},
      {"stride 3 (struct of 3 floats)", "seed000", shared("lane * 3")},
      {"column of 32x32 tile", "seed002", shared("lane * 32")},
      {"column of padded 32x33 tile", "seed002", shared("lane * 33")},
      {"broadcast", "seed000", shared("0")},
      {"char array", "seed000", shared("lane", 1)},
      {"64-bit words", "seed000", shared("lane", 8)},
      {"128-bit words", "seed000", shared("lane", 16)},
  };
  return s;
}

std::string global_cell(const InstructionCounts& c) {
  return fmt::format("{} tx {:>4} B {:>6}", c.transactions, c.bytes_moved, report::percent(c.bus_utilization()));
}

std::string shared_cell(const InstructionCounts& c) {
  return c.bank_conflicts == 0 ? fmt::format("{}", c.wavefronts)
                               : fmt::format("{} ({}-way)", c.wavefronts,
                                             (c.wavefronts + c.ideal_wavefronts - 1) / c.ideal_wavefronts);
}

std::string table(const std::vector<Scenario>& scenarios, const std::vector<const ArchEntry*>& archs,
                  std::string (*cell)(const InstructionCounts&)) {
  std::vector<std::string> header{"scenario", "from"};
  for (const auto* a : archs) header.push_back(fmt::format("{} ({})", a->spec.name, a->spec.family));
  std::vector<report::TextTable::Align> align(header.size(), report::TextTable::Align::Right);
  align[0] = align[1] = report::TextTable::Align::Left;
  report::TextTable t(header, align);
  for (const auto& s : scenarios) {
    const WarpAccess w = build_pattern(s.spec);
    std::vector<std::string> row{s.name, s.source};
    for (const auto* a : archs) row.push_back(cell(analyze(w, a->spec)));
    t.add_row(row);
  }
  return t.render();
}

// Every scenario drawn (lines and sectors, or banks) with its counts on each architecture.
std::string demo_page(const std::vector<const ArchEntry*>& archs) {
  std::vector<const ArchSpec*> specs;
  for (const auto* a : archs) specs.push_back(&a->spec);
  std::string body =
      "<h1>warpscope demo</h1>\n<p>One warp (32 lanes) executing one memory instruction, as the seeds describe "
      "it: what the lanes touch, and what each generation makes of it.</p>\n";
  const std::pair<const char*, const std::vector<Scenario>*> parts[] = {
      {"Global loads", &global_scenarios()}, {"Shared-memory loads", &shared_scenarios()}};
  for (const auto& [title, scenarios] : parts) {
    body += fmt::format("<h2>{}</h2>\n", title);
    for (const auto& s : *scenarios) {
      const WarpAccess w = build_pattern(s.spec);
      body += fmt::format("<h3>{} <span class=\"muted\">({})</span></h3>\n<p class=\"mono\">{}</p>\n",
                          report::html_escape(s.name), report::html_escape(s.source),
                          report::html_escape(describe(s.spec)));
      std::vector<report::ArchResult> results;
      for (const ArchSpec* a : specs) results.push_back({a, analyze(w, *a)});
      body += report::access_figure(w, specs) + report::html_table(report::counts_grid(results), 1);
    }
  }
  return report::html_page("warpscope demo", body);
}

}  // namespace

Action add_demo_command(CLI::App& app, const GlobalOptions& g) {
  auto archs = std::make_shared<std::string>("sm_13,sm_20,sm_35,sm_61,sm_90");
  auto* cmd = app.add_subcommand("demo", "the seeds' access scenarios across five GPU generations");
  auto html = std::make_shared<std::string>();
  cmd->add_option("--arch", *archs, "architectures to compare")->capture_default_str();
  cmd->add_option("--html", *html, "also draw every scenario, with its counts, as an HTML page in FILE");
  return [&g, archs, html]() {
    const auto list = database(g).get_list(*archs);
    if (!html->empty()) report::write_file_atomically(*html, demo_page(list));
    fmt::print("warpscope demo: one warp (32 lanes) executing one memory instruction.\n\n");
    fmt::print("Global loads, 4 B per lane unless stated, default caching of each generation\n");
    fmt::print("(transactions, bytes moved on a miss, bus utilization = bytes needed / bytes moved):\n\n");
    fmt::print("{}\n", table(global_scenarios(), list, global_cell));
    fmt::print("Shared-memory loads, 4 B per lane unless stated (wavefronts = passes through the banks):\n\n");
    fmt::print("{}\n", table(shared_scenarios(), list, shared_cell));
    if (!html->empty()) fmt::print("The scenarios drawn, lines and sectors or banks: {}\n\n", *html);
    fmt::print("Try: warpscope pattern --arch sm_20,sm_35,sm_90 --index 'lane*2' --size 8 --html pattern.html\n"
               "     warpscope archs     warpscope arch sm_35\n");
    return 0;
  };
}

}  // namespace warpscope::cli
