// `warpscope occupancy`: resident blocks, warps and threads per SM of one kernel
// configuration on every architecture of the database side by side, the limiting
// resource and what would fit one more block; --sweep draws the classic
// calculator's graphs as text.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "core/parse_number.hpp"
#include "report/occupancy_html.hpp"
#include "report/output_file.hpp"
#include "report/text_table.hpp"
#include "warpscope/error.hpp"
#include "warpscope/occupancy.hpp"

namespace warpscope::cli {
namespace {

struct OccupancyArgs {
  std::string archs = "all";
  std::string block, regs, smem = "0", carveout, l1_config = "none";
  std::string sweep;  // "" (block), "block", "regs" or "smem" when --sweep was given
  bool json = false;
  std::string html_file;  // --sweep's graph as an HTML page
};

std::int64_t parse_count(const std::string& flag, const std::string& text, const char* what, std::int64_t max) {
  auto v = parse_u64(text);
  if (!v) throw InputError(fmt::format("{} {}: expected {}", flag, text, what));
  if (*v > static_cast<std::uint64_t>(max))
    throw InputError(fmt::format("{} {}: too large (at most {})", flag, text, max));
  return static_cast<std::int64_t>(*v);
}

std::string bytes(std::int64_t b) {
  return b % 1024 == 0 ? fmt::format("{} KB", b / 1024) : fmt::format("{} B", b);
}
std::string limit(int n) {
  return n == kUnlimited ? "-" : std::to_string(n);
}
nlohmann::json limit_json(int n) {
  return n == kUnlimited ? nlohmann::json(nullptr) : nlohmann::json(n);
}

// Short names for the table: warps, regs, smem, blocks.
std::string limiter_text(unsigned limiters) {
  std::string out;
  for (const auto& name : limiter_names(limiters)) {
    if (!out.empty()) out += ", ";
    out += name == "registers" ? "regs" : name == "shared_memory" ? "smem" : name;
  }
  return out;
}

std::string hint_text(const RaiseHint& h, bool is_bytes) {
  if (h.at_most) return "<= " + (is_bytes ? bytes(*h.at_most) : std::to_string(*h.at_most));
  return h.blocked_by ? "cannot (" + limiter_text(h.blocked_by) + ")" : "cannot";
}

nlohmann::json hint_json(const RaiseHint& h) {
  return {{"at_most", h.at_most ? nlohmann::json(*h.at_most) : nlohmann::json(nullptr)},
          {"blocked_by", limiter_names(h.blocked_by)}};
}

struct Config {
  OccupancyInput input;
  bool has_block = false;
};

Config to_config(const OccupancyArgs& a, bool sweeping_blocks) {
  Config c;
  if (!a.block.empty()) {
    c.input.threads =
        static_cast<int>(parse_count("--block", a.block, "a number of threads per block, e.g. 256", 1 << 20));
    if (c.input.threads == 0) throw InputError("--block 0: a block needs at least 1 thread");
    c.has_block = true;
  } else if (sweeping_blocks) {
    c.input.threads = 256;
  } else {
    throw InputError("occupancy: give the block size, e.g. --block 256 (and --regs, --smem)");
  }
  if (a.regs.empty()) throw InputError("occupancy: give the registers per thread, e.g. --regs 32");
  c.input.regs = static_cast<int>(parse_count("--regs", a.regs, "a number of registers per thread, e.g. 64", 1 << 20));
  c.input.smem = parse_count("--smem", a.smem, "bytes of shared memory per block, e.g. 48K, 49152 or 0xC000",
                             std::int64_t{1} << 40);
  if (!a.carveout.empty()) {
    std::string t = a.carveout;
    if (t.back() == '%') t.pop_back();
    c.input.carveout_pct = static_cast<int>(parse_count("--carveout", t, "a percentage 0..100", 1000));
    if (*c.input.carveout_pct > 100)
      throw InputError(fmt::format("--carveout {}: expected a percentage 0..100", a.carveout));
  }
  auto cache = parse_cache_preference(a.l1_config);
  if (!cache) throw InputError(fmt::format("--l1-config {}: expected none, shared, l1 or equal", a.l1_config));
  c.input.cache = *cache;
  return c;
}

nlohmann::json input_json(const OccupancyInput& in) {
  return {{"threads", in.threads},
          {"regs", in.regs},
          {"smem", in.smem},
          {"carveout_pct", in.carveout_pct ? nlohmann::json(*in.carveout_pct) : nlohmann::json(nullptr)},
          {"l1_config", std::string(to_string(in.cache))}};
}

nlohmann::json result_json(const OccupancyResult& r) {
  return {{"blocks_per_sm", r.blocks_per_sm},
          {"warps_per_sm", r.warps_per_sm},
          {"threads_per_sm", r.threads_per_sm},
          {"occupancy", r.occupancy},
          {"limiter", limiter_names(r.limiters)},
          {"warps_per_block", r.warps_per_block},
          {"block_limits",
           {{"warps", limit_json(r.limit_warps)},
            {"registers", limit_json(r.limit_registers)},
            {"shared_memory", limit_json(r.limit_shared)},
            {"blocks", limit_json(r.limit_blocks)}}},
          {"allocated",
           {{"registers_per_warp", r.registers_per_warp},
            {"registers_per_block", r.registers_per_block},
            {"shared_per_block", r.shared_per_block},
            {"shared_per_sm", r.shared_per_sm}}},
          {"needs_optin", r.needs_optin},
          {"raise",
           {{"registers_per_thread", hint_json(r.raise_registers)}, {"shared_per_block", hint_json(r.raise_shared)}}}};
}

// The input in words; `except` leaves out the quantity a sweep varies.
std::string describe(const OccupancyInput& in, std::optional<SweepAxis> except = std::nullopt) {
  std::vector<std::string> parts;
  if (except != SweepAxis::BlockSize) parts.push_back(fmt::format("{} threads/block", in.threads));
  if (except != SweepAxis::Registers) parts.push_back(fmt::format("{} registers/thread", in.regs));
  if (except != SweepAxis::SharedMemory)
    parts.push_back(fmt::format("{} shared/block (static + dynamic)", bytes(in.smem)));
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  if (in.carveout_pct) s += fmt::format(", carveout {} %", *in.carveout_pct);
  if (in.cache != CachePreference::None) s += fmt::format(", L1 preference {}", to_string(in.cache));
  return s;
}

std::string note(const ArchSpec& a, const OccupancyInput& in, const OccupancyResult& r) {
  std::vector<std::string> notes;
  if (r.needs_optin) notes.push_back(fmt::format("over {}: needs the opt-in attribute", bytes(a.max_shared_per_block)));
  if (in.carveout_pct && a.cc_major < 7) notes.emplace_back("carveout: 7.0+ only");
  if (!a.register_allocation_per_warp) notes.emplace_back("registers allocated per block");
  std::string out;
  for (const auto& n : notes) out += (out.empty() ? "" : "; ") + n;
  return out;
}

int print_table(const std::vector<const ArchEntry*>& archs, const OccupancyInput& in, bool json) {
  nlohmann::json results = nlohmann::json::array();
  using A = report::TextTable::Align;
  report::TextTable t(
      {"arch", "cc", "blocks", "warps", "threads", "occupancy", "limited by", "by warps", "by regs", "by smem",
       "by max", "regs/block", "smem/block", "smem/SM", "+1 block: regs", "+1 block: smem", "note"},
      {A::Left, A::Right, A::Right, A::Right, A::Right, A::Right, A::Left, A::Right, A::Right, A::Right, A::Right,
       A::Right, A::Right, A::Right, A::Left, A::Left, A::Left});
  std::vector<std::string> errors;
  for (const auto* e : archs) {
    const ArchSpec& a = e->spec;
    try {
      const OccupancyResult r = compute_occupancy(a, in);
      nlohmann::json j = {{"arch", a.name}, {"cc", a.cc()}};
      j.update(result_json(r));
      results.push_back(j);
      t.add_row({a.name, a.cc(), std::to_string(r.blocks_per_sm), std::to_string(r.warps_per_sm),
                 std::to_string(r.threads_per_sm), fmt::format("{:.1f}%", 100.0 * r.occupancy),
                 limiter_text(r.limiters), limit(r.limit_warps), limit(r.limit_registers), limit(r.limit_shared),
                 limit(r.limit_blocks), std::to_string(r.registers_per_block), bytes(r.shared_per_block),
                 bytes(r.shared_per_sm), hint_text(r.raise_registers, false), hint_text(r.raise_shared, true),
                 note(a, in, r)});
    } catch (const InputError& err) {
      errors.push_back(a.name + ": " + err.what());
      results.push_back({{"arch", a.name}, {"cc", a.cc()}, {"error", err.what()}});
      t.add_row({a.name, a.cc(), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
                 std::string("impossible: ") + err.what()});
    }
  }
  if (errors.size() == archs.size()) {
    if (errors.size() == 1) throw InputError(errors.front());
    throw InputError(fmt::format("{} (impossible on all {} architectures shown)", errors.front(), errors.size()));
  }
  if (json) {
    fmt::print("{}\n", nlohmann::json{{"input", input_json(in)}, {"results", results}}.dump(2));
    return 0;
  }
  fmt::print("occupancy of {}\n", describe(in));
  fmt::print(
      "blocks, warps, threads: resident per SM; by X: blocks per SM that X alone allows (- = no limit;\n"
      "max = resident blocks per SM); +1 block: registers per thread or shared memory per block at or below\n"
      "which one more block fits\n\n{}",
      t.render());
  return 0;
}

std::string axis_key(SweepAxis axis) {
  return axis == SweepAxis::BlockSize ? "threads" : axis == SweepAxis::Registers ? "regs" : "smem";
}

// The sweep's graph and numbers as an HTML page (--html).
std::string sweep_html(const std::vector<const ArchEntry*>& archs, const std::vector<std::vector<SweepPoint>>& sweeps,
                       const Config& c, SweepAxis axis) {
  report::LineChart chart;
  chart.x_label = axis == SweepAxis::BlockSize   ? "threads per block"
                  : axis == SweepAxis::Registers ? "registers per thread"
                                                 : "shared memory per block (KB)";
  chart.y_label = "occupancy (%)";
  const auto x_of = [&](std::int64_t v) {
    return axis == SweepAxis::SharedMemory ? static_cast<double>(v) / 1024.0 : static_cast<double>(v);
  };
  // Rows: every value any architecture sweeps; columns: the architectures.
  std::map<std::int64_t, std::vector<std::string>> rows;
  std::vector<std::string> header{chart.x_label};
  for (std::size_t i = 0; i < archs.size(); ++i) {
    header.push_back(archs[i]->spec.name);
    report::LineSeries s{archs[i]->spec.name, {}, i};
    for (const auto& p : sweeps[i]) {
      auto& row = rows[p.value];
      row.resize(archs.size(), "-");
      if (!p.result) continue;
      s.points.emplace_back(x_of(p.value), 100.0 * p.result->occupancy);
      row[i] = fmt::format("{:.1f}% ({} warps)", 100.0 * p.result->occupancy, p.result->warps_per_sm);
    }
    chart.series.push_back(std::move(s));
  }
  std::vector<std::vector<std::string>> grid{header};
  for (auto& [value, cells] : rows) {
    if (axis == SweepAxis::BlockSize ? value % 128 == 0 : true) chart.x_ticks.push_back(x_of(value));
    std::vector<std::string> line{axis == SweepAxis::SharedMemory ? fmt::format("{:g}", x_of(value))
                                                                  : std::to_string(value)};
    line.insert(line.end(), cells.begin(), cells.end());
    grid.push_back(std::move(line));
  }
  if (axis == SweepAxis::SharedMemory && chart.x_ticks.size() > 12) chart.x_ticks.clear();  // first and last only
  return report::occupancy_sweep_html(describe(c.input, axis), chart, grid);
}

int print_sweep(const std::vector<const ArchEntry*>& archs, const Config& c, SweepAxis axis, bool json,
                const std::string& html_file) {
  const std::string key = axis_key(axis);
  nlohmann::json out = nlohmann::json::array();
  std::string text;
  std::vector<std::vector<SweepPoint>> sweeps;
  for (const auto* e : archs) {
    const ArchSpec& a = e->spec;
    sweeps.push_back(sweep_occupancy(a, c.input, axis));
    const auto& points = sweeps.back();
    nlohmann::json jp = nlohmann::json::array();
    const char* what = axis == SweepAxis::BlockSize   ? "block size"
                       : axis == SweepAxis::Registers ? "registers per thread"
                                                      : "shared memory per block";
    text += fmt::format("{} (cc {}): occupancy by {}; {}\n", a.name, a.cc(), what, describe(c.input, axis));
    report::TextTable t(
        {"", key, "blocks", "warps", "occupancy", "", "limited by"},
        {report::TextTable::Align::Left, report::TextTable::Align::Right, report::TextTable::Align::Right,
         report::TextTable::Align::Right, report::TextTable::Align::Right, report::TextTable::Align::Left,
         report::TextTable::Align::Left});
    const std::int64_t current = axis == SweepAxis::BlockSize   ? (c.has_block ? c.input.threads : -1)
                                 : axis == SweepAxis::Registers ? c.input.regs
                                                                : c.input.smem;
    for (const auto& p : points) {
      const std::string value = axis == SweepAxis::SharedMemory
                                    ? fmt::format("{:g} KB", static_cast<double>(p.value) / 1024.0)
                                    : std::to_string(p.value);
      const std::string mark = p.value == current ? "*" : "";
      if (!p.result) {
        jp.push_back({{key, p.value}, {"error", p.error}});
        t.add_row({mark, value, "-", "-", "-", "", "impossible: " + p.error});
        continue;
      }
      const OccupancyResult& r = *p.result;
      jp.push_back({{key, p.value},
                    {"blocks_per_sm", r.blocks_per_sm},
                    {"warps_per_sm", r.warps_per_sm},
                    {"threads_per_sm", r.threads_per_sm},
                    {"occupancy", r.occupancy},
                    {"limiter", limiter_names(r.limiters)}});
      const auto bar = static_cast<std::size_t>(std::lround(r.occupancy * 50.0));
      t.add_row({mark, value, std::to_string(r.blocks_per_sm), std::to_string(r.warps_per_sm),
                 fmt::format("{:.1f}%", 100.0 * r.occupancy),
                 "|" + std::string(bar, '#') + std::string(50 - bar, ' ') + "|", limiter_text(r.limiters)});
    }
    text += t.render() + "\n";
    out.push_back({{"arch", a.name}, {"cc", a.cc()}, {"points", jp}});
  }
  if (!html_file.empty()) {
    const std::string page = sweep_html(archs, sweeps, c, axis);
    if (report::is_stdout(html_file)) {
      report::write_stdout(page);
      return 0;
    }
    report::write_file_atomically(html_file, page);
  }
  if (json) {
    nlohmann::json j = {{"input", input_json(c.input)}, {"axis", std::string(to_string(axis))}, {"sweep", out}};
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("{}", text);
  }
  return 0;
}

}  // namespace

Action add_occupancy_command(CLI::App& app, const GlobalOptions& g) {
  auto args = std::make_shared<OccupancyArgs>();
  auto* cmd = app.add_subcommand("occupancy", "resident blocks, warps and occupancy per SM, and what limits them");
  cmd->footer(
      "The rules of cuda_occupancy.h (CC 1.x: the legacy CUDA Occupancy Calculator), from the architecture\n"
      "database's limits and allocation granularities; docs/OCCUPANCY.md gives the formula.\n"
      "Example: warpscope occupancy --arch sm_86 --block 256 --regs 64 --smem 48K");
  cmd->add_option("--arch", args->archs, "comma-separated architectures (sm_86, 8.6, 86) or 'all'")
      ->capture_default_str();
  cmd->add_option("--block", args->block, "threads per block");
  cmd->add_option("--regs", args->regs, "registers per thread (as ptxas -v or cuobjdump report them)");
  cmd->add_option("--smem", args->smem, "shared memory per block, static + dynamic (48K, 49152, 0xC000)")
      ->capture_default_str();
  cmd->add_option("--carveout", args->carveout,
                  "7.0+: preferred shared-memory carveout in percent (0..100); default: none set");
  cmd->add_option("--l1-config", args->l1_config,
                  "cache preference none|shared|l1|equal (2.x/3.x split; 7.0+ carveout)")
      ->capture_default_str();
  auto* sweep = cmd->add_option("--sweep", args->sweep, "draw occupancy over block sizes (default), 'regs' or 'smem'")
                    ->expected(0, 1);
  cmd->add_flag("--json", args->json, "print JSON");
  cmd->add_option("--html", args->html_file,
                  "with --sweep: also write the graph, a line per architecture, as an HTML page to FILE ('-': to "
                  "standard output, instead of the tables)");

  return [&g, args, sweep]() {
    const bool sweeping = sweep->count() > 0;
    SweepAxis axis = SweepAxis::BlockSize;
    if (sweeping) {
      if (args->sweep == "regs")
        axis = SweepAxis::Registers;
      else if (args->sweep == "smem")
        axis = SweepAxis::SharedMemory;
      else if (!args->sweep.empty() && args->sweep != "block")
        throw InputError(fmt::format("--sweep {}: expected block, regs or smem", args->sweep));
    }
    if (!args->html_file.empty() && !sweeping)
      throw InputError("--html draws the graph of a sweep: give --sweep (block, regs or smem) too");
    if (args->json && report::is_stdout(args->html_file))
      throw InputError("--json and --html -: only one of them can write to standard output");
    const Config c = to_config(*args, sweeping && axis == SweepAxis::BlockSize);
    const auto archs = database(g).get_list(args->archs);
    if (sweeping) return print_sweep(archs, c, axis, args->json, args->html_file);
    return print_table(archs, c.input, args->json);
  };
}

}  // namespace warpscope::cli
