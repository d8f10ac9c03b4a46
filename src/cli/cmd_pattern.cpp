// `warpscope pattern`: one warp access, described on the command line, on
// several architectures side by side.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "core/parse_number.hpp"
#include "pattern/pattern.hpp"
#include "report/counts_report.hpp"
#include "report/output_file.hpp"
#include "report/pattern_html.hpp"
#include "rules/atomic_passes.hpp"
#include "warpscope/error.hpp"
#include "warpscope/rules.hpp"

namespace warpscope::cli {
namespace {

struct PatternArgs {
  std::string archs = "sm_13,sm_20,sm_35,sm_61,sm_90";
  std::string space = "global", op = "ld", index = "lane", base = "0", cache = "default", mask = "ffffffff";
  std::string atomic = "unknown";
  unsigned size = 4;
  int bank_width = 0;
  bool json = false;
  bool lanes = false;
  std::string html_file;
};

PatternSpec to_spec(const PatternArgs& a) {
  PatternSpec s;
  auto space = parse_space(a.space);
  if (!space) throw InputError(fmt::format("--space {}: expected global, shared, const, local or texture", a.space));
  auto op = parse_op(a.op);
  if (!op) throw InputError(fmt::format("--op {}: expected ld, st, atom, red, ldsm or stsm", a.op));
  auto cache = parse_cache_op(a.cache);
  if (!cache) throw InputError(fmt::format("--cache {}: expected ca, cg, cs, lu, cv, nc (ldg), wb or wt", a.cache));
  auto base = parse_u64(a.base);
  if (!base) throw InputError(fmt::format("--base {}: expected an address such as 4096, 0x1000 or 48K", a.base));
  auto atomic = parse_atomic_op(a.atomic);
  if (!atomic)
    throw InputError(fmt::format("--atomic {}: expected add, min, max, inc, dec, and, or, xor, exch, cas, popc.inc, "
                                 "other or unknown", a.atomic));
  auto mask = parse_hex_mask(a.mask);
  if (!mask) throw InputError(fmt::format("--mask {}: expected up to 8 hex digits, e.g. ffff0000", a.mask));
  s.space = *space;
  s.op = *op;
  s.cache = *cache;
  s.base = *base;
  s.mask = *mask;
  s.size = a.size;
  s.index = a.index;
  s.atomic_op = *atomic;
  return s;
}

std::string lane_map(const WarpAccess& w) {
  std::string out;
  for (int l = 0; l < kWarpSize; ++l) {
    if (l % 8 == 0) out += fmt::format("  lanes {:2}-{:2}:", l, l + 7);
    out += w.active.test(l) ? fmt::format(" {:#8x}", w.addr[static_cast<unsigned>(l)]) : std::string("        -");
    if (l % 8 == 7) out += "\n";
  }
  return out;
}

}  // namespace

Action add_pattern_command(CLI::App& app, const GlobalOptions& g) {
  auto args = std::make_shared<PatternArgs>();
  auto* cmd = app.add_subcommand("pattern", "one warp access on several architectures side by side");
  cmd->footer(
      "EXPR: integers, lane (or tid), + - * / % << >> & | ^ ~, parentheses, min(a,b), max(a,b),\n"
      "      rand(seed, n) (deterministic, 0..n-1 per lane) and perm(seed) (a permutation of 0..31).\n"
      "Example: warpscope pattern --arch sm_20,sm_35,sm_90 --space shared --size 4 --index 'lane*33'");
  cmd->add_option("--arch", args->archs, "comma-separated architectures (sm_35, 3.5, 35; 'all')")->capture_default_str();
  cmd->add_option("--space", args->space, "global | shared | const | local | texture")->capture_default_str();
  cmd->add_option("--op", args->op, "ld | st | atom | red | ldsm | stsm (ldmatrix / stmatrix: --space shared --size 16, lanes 0-7 give matrix 0's rows, 8-15 matrix 1's, ...; --mask ff, ffff or ffffffff for .x1, .x2, .x4)")->capture_default_str();
  cmd->add_option("--size", args->size, "bytes per lane: 1, 2, 4, 8 or 16")->capture_default_str();
  cmd->add_option("--index", args->index, "lane i accesses base + size * EXPR(i)")->capture_default_str();
  cmd->add_option("--base", args->base, "base byte address (decimal, 0x hex, K/M suffix)")->capture_default_str();
  cmd->add_option("--cache", args->cache, "PTX cache operator: ca cg cs lu cv nc (loads), wb cg cs wt (stores)")
      ->capture_default_str();
  cmd->add_option("--atomic", args->atomic,
                  "atomics: the operation, as the SASS opcode names it (add min max inc dec and or xor exch cas "
                  "popc.inc other; unknown: as a trace that does not record it)")
      ->capture_default_str();
  cmd->add_option("--mask", args->mask, "active lanes, hex (bit i = lane i)")->capture_default_str();
  cmd->add_option("--bank-width", args->bank_width, "shared bank width in bytes, 4 or 8 (Kepler modes)")
      ->check(CLI::IsMember({0, 4, 8}));
  cmd->add_flag("--json", args->json, "print JSON");
  cmd->add_flag("--lanes", args->lanes, "also print every lane's address");
  cmd->add_option("--html", args->html_file,
                  "also write the access as an HTML page to FILE: a picture of the lines and sectors (or banks) it "
                  "touches and the counts ('-': to standard output, instead of the table)");

  return [&g, args]() {
    const PatternSpec spec = to_spec(*args);
    const WarpAccess access = build_pattern(spec);
    const auto archs = database(g).get_list(args->archs);
    RulesOptions options;
    options.bank_width = args->bank_width;
    std::vector<report::ArchResult> results;
    for (const auto* e : archs) results.push_back({&e->spec, analyze(access, e->spec, options)});
    if (!args->html_file.empty()) {
      if (args->json && report::is_stdout(args->html_file))
        throw InputError("--json and --html -: only one of them can write to standard output");
      const std::string page = report::pattern_html(describe(spec), access, results, args->bank_width);
      if (report::is_stdout(args->html_file)) {
        report::write_stdout(page);
        return 0;
      }
      report::write_file_atomically(args->html_file, page);
    }

    if (args->json) {
      nlohmann::json out;
      out["pattern"] = {{"space", std::string(to_string(spec.space))}, {"op", std::string(to_string(spec.op))},
                        {"size", spec.size}, {"index", spec.index}, {"base", spec.base},
                        {"cache", std::string(to_string(spec.cache))}, {"mask", fmt::format("{:08x}", spec.mask)}};
      out["results"] = nlohmann::json::array();
      for (const auto& r : results) out["results"].push_back(report::counts_json(r));
      fmt::print("{}\n", out.dump(2));
      return 0;
    }
    fmt::print("{}\n", describe(spec));
    if (args->lanes) fmt::print("{}", lane_map(access));
    fmt::print("\n{}", report::counts_table(results));
    // Why an atomic's transactions jump on some generations: it is served in passes there.
    std::vector<std::string> in_passes;
    int passes = 0;
    bool cas = false;
    for (const auto& r : results) {
      const int n = rules::atomic_passes_on(access, *r.arch).count;
      if (n <= 1) continue;
      in_passes.push_back(r.arch->name);
      passes = n;
      cas = cas || rules::splits_cas_blocks(access, *r.arch);
    }
    if (!in_passes.empty())
      fmt::print("\nnote: on {} this atomic is served in {} passes ({}; validation/h100/atomics_probe),\n"
                 "      every pass with its own transactions and sectors\n",
                 fmt::join(in_passes, ", "), passes,
                 cas ? "lanes on one address one pass each, a compare-and-swap per block of a line"
                     : "lanes on one address one pass each");
    return 0;
  };
}

}  // namespace warpscope::cli
