// `warpscope analyze TRACE --arch ...`: one pass over a trace through the
// memory system of every requested architecture; per-kernel counters named as
// each generation's profiler names them, and the instructions that waste the
// most bytes.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "analyze/analyzer.hpp"
#include "cli/analysis.hpp"
#include "cli/cli.hpp"
#include "core/parse_number.hpp"
#include "report/analyze_html.hpp"
#include "report/counts_report.hpp"
#include "report/output_file.hpp"
#include "report/progress.hpp"
#include "report/text_table.hpp"
#include "rules/atomic_passes.hpp"
#include "validate/text_file.hpp"
#include "warpscope/error.hpp"
#include "warpscope/gpu_models.hpp"
#include "warpscope/metric_names.hpp"

namespace warpscope::cli {
namespace {

using report::dim_text;
using report::source_text;

// Kernel table: our counter keys down, architectures across.
std::string kernel_table(const AnalyzeResult& r, std::size_t k, bool all) {
  std::vector<std::string> header{"counter", "from", "profiler name"};
  for (const auto& a : r.archs) header.push_back(a.arch->name);
  std::vector<report::TextTable::Align> align(header.size(), report::TextTable::Align::Right);
  align[0] = align[1] = align[2] = report::TextTable::Align::Left;
  report::TextTable t(header, align);
  for (const auto& row : report::kernel_metric_rows(r, k, all)) {
    std::vector<std::string> cells{row.our_key, std::string(basis_name(row.depends_on_caches)), row.profiler_names};
    for (const auto& v : row.values) cells.push_back(v ? report::format_metric_value(v->value, v->unit) : "-");
    t.add_row(cells);
  }
  return t.render();
}

std::string top_table(const AnalyzeResult& r, const TraceSource& trace, int top) {
  if (r.archs.empty() || top <= 0) return "";
  // Ranked by bytes wasted on the first architecture.
  const auto& first = r.archs.front();
  const auto order = rank_by_bytes_wasted(first.pcs, static_cast<std::size_t>(top));
  std::vector<std::string> header{"#", "kernel", "pc", "source", "access", "executions"};
  for (const auto& a : r.archs) header.push_back(a.arch->name + " wasted");
  for (const auto& a : r.archs) header.push_back(a.arch->name + " util");
  std::vector<report::TextTable::Align> align(header.size(), report::TextTable::Align::Right);
  align[1] = align[3] = align[4] = report::TextTable::Align::Left;
  report::TextTable t(header, align);
  int rank = 0;
  for (std::size_t i : order) {
    const PcCounters& p = first.pcs[i];
    const KernelInfo* k = trace.kernel(p.kernel);
    std::vector<std::string> row{std::to_string(++rank), k ? k->name : std::to_string(p.kernel), fmt::format("{:#x}", p.pc),
                                 source_text(k, p.pc), report::access_text(p),
                                 std::to_string(p.executions)};
    // Same PC on the other architectures: the pcs vectors are filled in the same order.
    for (const auto& a : r.archs) row.push_back(fmt::format("{}", a.pcs[i].bytes_wasted()));
    for (const auto& a : r.archs) {
      const auto& q = a.pcs[i];
      row.push_back(q.bytes_moved ? report::percent(static_cast<double>(q.bytes_needed) / static_cast<double>(q.bytes_moved)) : "-");
    }
    t.add_row(row);
  }
  return t.render();
}

// The name of trace kernel `id` ("" when the trace does not declare it).
std::string kernel_name(const TraceSource& trace, std::uint32_t id) {
  const KernelInfo* k = trace.kernel(id);
  return k ? k->name : std::string();
}

// One line per kernel whose records resume after another kernel's: what the
// counters then mean.
std::string resumed_warning(const TraceSource& trace, const ResumedKernel& k) {
  return fmt::format(
      "kernel {} '{}': its records resume after another kernel's (trace record {}); each run of a kernel's "
      "consecutive records is replayed as a launch of its own, from empty caches, and its counters are their sum",
      k.kernel, kernel_name(trace, k.kernel), k.record);
}

nlohmann::json result_json(const AnalyzeResult& r, const TraceSource& trace, const std::string& path, int top) {
  nlohmann::json j;
  // docs/OUTPUT.md describes this document; format_version changes when a key changes meaning or goes.
  j["format"] = "warpscope-analyze";
  j["format_version"] = 1;
  j["warpscope_version"] = WARPSCOPE_VERSION;
  j["trace"] = path;
  j["records_read"] = r.records_read;
  j["records_analyzed"] = r.records_analyzed;
  j["atomics_without_operation"] = r.atomics_without_operation;
  j["warnings"] = nlohmann::json::array();
  for (const auto& k : r.resumed) j["warnings"].push_back(resumed_warning(trace, k));
  j["archs"] = nlohmann::json::array();
  for (const auto& a : r.archs) {
    nlohmann::json ja{{"arch", a.arch->name}, {"memory", a.memory_description}};
    // Per metric name: "rules" (the access pattern alone) or "caches" (the modelled cache state);
    // metric_info adds the architecture-independent key and the unit.
    nlohmann::json from = nlohmann::json::object(), info = nlohmann::json::object();
    for (const auto& m : metrics(Counters{}, *a.arch)) {
      from[m.name] = basis_name(m.depends_on_caches);
      info[m.name] = {{"key", m.our_key}, {"unit", m.unit}, {"from", basis_name(m.depends_on_caches)}};
    }
    ja["metric_from"] = from;
    ja["metric_info"] = info;
    ja["kernels"] = nlohmann::json::array();
    for (const auto& k : a.kernels) {
      nlohmann::json jk{{"id", k.info.id}, {"name", k.info.name}, {"grid", dim_text(k.info.grid)},
                        {"block", dim_text(k.info.block)}, {"records", k.records}, {"l1_bytes", k.l1_bytes},
                        {"shared_capacity", k.shared_capacity}, {"code_bytes", k.code_bytes},
                        {"launch_dram_read_bytes", k.launch_dram_read_bytes}};
      nlohmann::json m = nlohmann::json::object();
      for (const auto& x : metrics(k.counters, *a.arch)) m[x.name] = x.value;
      jk["metrics"] = m;
      ja["kernels"].push_back(jk);
    }
    std::vector<const PcCounters*> pcs;
    for (std::size_t i : rank_by_bytes_wasted(a.pcs, static_cast<std::size_t>(std::max(top, 0)))) pcs.push_back(&a.pcs[i]);
    ja["top"] = nlohmann::json::array();
    for (const auto* p : pcs) {
      const KernelInfo* k = trace.kernel(p->kernel);
      ja["top"].push_back({{"kernel", p->kernel}, {"pc", p->pc}, {"source", source_text(k, p->pc)},
                           {"space", std::string(to_string(p->space))}, {"op", std::string(to_string(p->op))},
                           {"atomic_op", p->op == Op::Atomic || p->op == Op::Reduction
                                             ? nlohmann::json(std::string(to_string(p->atomic_op)))
                                             : nlohmann::json(nullptr)},
                           {"size", p->size}, {"executions", p->executions}, {"bytes_needed", p->bytes_needed},
                           {"bytes_moved", p->bytes_moved}, {"bytes_wasted", p->bytes_wasted()}});
    }
    j["archs"].push_back(ja);
  }
  return j;
}

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string result_csv(const AnalyzeResult& r) {
  std::string out = "arch,kernel_id,kernel,metric,our_key,value,unit,from\n";
  for (const auto& a : r.archs)
    for (const auto& k : a.kernels)
      for (const auto& m : metrics(k.counters, *a.arch))
        out += fmt::format("{},{},{},{},{},{},{},{}\n", a.arch->name, k.info.id, csv_escape(k.info.name), m.name,
                           m.our_key, m.value, m.unit, basis_name(m.depends_on_caches));
  return out;
}

}  // namespace

void add_analysis_options(CLI::App* cmd, AnalysisArgs& analysis) {
  auto* args = &analysis;
  cmd->add_option("--arch", args->archs, "comma-separated architectures ('all' for every one)")->capture_default_str();
  cmd->add_option("--kernel", args->kernel, "only kernels whose name matches this regular expression");
  cmd->add_option("--json", args->json_file, "write the results as JSON to FILE ('-': to standard output, instead of the tables)");
  cmd->add_option("--csv", args->csv_file, "write per-kernel metrics as CSV to FILE ('-': to standard output, instead of the tables)");
  cmd->add_option("--html", args->html_file,
                  "write a report as one HTML page to FILE: charts and every metric per kernel, and pictures of what "
                  "the --top instructions touch ('-': to standard output, instead of the tables)");
  cmd->add_option("--top", args->top, "instructions to list by bytes wasted")->capture_default_str()->check(CLI::Range(0, 100000));
  cmd->add_option("--gpu", args->gpu, "a GPU model (SM count, L2 size): h100-sxm, h200, a100, ... ('warpscope gpus')");
  cmd->add_option("--sms", args->num_sms, "number of SMs (default: the architecture's default GPU)")->check(CLI::Range(1, 1024));
  cmd->add_option("--l2-size", args->l2_size, "L2 size, e.g. 50M (default: the architecture's default GPU)");
  cmd->add_option("--carveout", args->carveout, "7.0+: preferred shared-memory carveout, percent")->check(CLI::Range(0, 100));
  cmd->add_option("--l1-config", args->shared_capacity,
                  "2.x/3.x: shared-memory size of the L1/shared split, e.g. 16K or 48K (prefer-L1 / prefer-shared)");
  cmd->add_flag("--flush-dirty", args->flush_dirty, "count the write-back of L2 lines left dirty at kernel end");
  cmd->add_flag("--no-interleave", args->no_interleave,
                "replay records in trace order instead of interleaving the warps of co-resident CTAs");
  cmd->add_option("--sass", args->sass,
                  "a SASS listing of the traced program (nvdisasm -c or cuobjdump -sass): the operation of each "
                  "atomic (a compare-and-swap, ATOMS.POPC.INC, ...) for kernels whose trace does not record it, and "
                  "each kernel's code size: on architectures that model a launch's own DRAM reads (sm_90: its code "
                  "and 2,304 B) dram.read_bytes then includes them, as Nsight Compute's dram__bytes_read does");
  cmd->add_flag("--all-metrics", args->all_metrics, "also print counters that are zero everywhere");
  cmd->add_option("--threads", args->threads,
                  "threads for the models: one per architecture; with two per architecture to spare each "
                  "model's L2 side on one more; with four or more, the launches shared over up to 8 copies of "
                  "each model (0: by the cores; 1: none); the results do not depend on it")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));

}

int analyze_and_report(const GlobalOptions& g, AnalysisArgs& analysis, const std::function<std::unique_ptr<TraceSource>()>& open_trace_fn,
                       const std::string& input_name) {
  auto* args = &analysis;
  const bool json_out = report::is_stdout(args->json_file), csv_out = report::is_stdout(args->csv_file),
             html_out = report::is_stdout(args->html_file);
  if (int(json_out) + int(csv_out) + int(html_out) > 1)
    throw InputError("--json -, --csv - and --html -: only one of them can write to standard output");
  AnalyzeOptions options;
  if (!args->kernel.empty()) {
    try {
      options.kernel_filter = std::regex(args->kernel);
    } catch (const std::regex_error& e) {
      throw InputError(fmt::format("--kernel '{}': not a regular expression ({})", args->kernel, e.what()));
    }
    options.kernel_pattern = args->kernel;
  }
  if (!args->gpu.empty()) {
    const GpuModel& gpu = find_gpu_model(args->gpu);
    if (args->archs == AnalysisArgs{}.archs) args->archs = gpu.arch;
    for (const auto* e : database(g).get_list(args->archs))
      if (parse_arch_name(e->spec.name) != parse_arch_name(gpu.arch))
        throw InputError(fmt::format("--gpu {} is a {} GPU; --arch {} names another architecture", gpu.key, gpu.arch, e->spec.name));
    options.memory.num_sms = gpu.sms;
    options.memory.l2_size = gpu.l2_size;
    options.memory.gpu_name = gpu.name;
  }
  // --sms or --l2-size on top of --gpu: no longer that model.
  if (args->num_sms > 0 || !args->l2_size.empty()) options.memory.gpu_name.clear();
  if (args->num_sms > 0) options.memory.num_sms = args->num_sms;
  options.memory.carveout_percent = args->carveout;
  if (!args->l2_size.empty()) {
    auto v = parse_u64(args->l2_size);
    if (!v || *v == 0 || *v > (1ull << 34)) throw InputError(fmt::format("--l2-size {}: expected a size such as 50M", args->l2_size));
    options.memory.l2_size = static_cast<std::int64_t>(*v);
  }
  if (!args->shared_capacity.empty()) {
    auto v = parse_u64(args->shared_capacity);
    if (!v || *v > (1ull << 30)) throw InputError(fmt::format("--l1-config {}: expected a shared-memory size such as 16K or 48K", args->shared_capacity));
    options.memory.shared_capacity = static_cast<std::int64_t>(*v);
  }
  options.flush_dirty_at_kernel_end = args->flush_dirty;
  options.interleave_warps = !args->no_interleave;
  options.threads = args->threads;
  if (!args->sass.empty()) {
    try {
      take_from_sass(validate::read_text_file(args->sass), options);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--sass {}: {}", args->sass, e.what()));
    }
  }
  const auto archs = database(g).get_list(args->archs);
  std::vector<const ArchSpec*> specs;
  for (const auto* e : archs) specs.push_back(&e->spec);
  // An L1 option that some of the architectures have no use for: say so
  // rather than ignore it silently.
  std::string no_carveout, no_split;
  for (const ArchSpec* a : specs) {
    if (args->carveout >= 0 && !(a->rules == RulesFamily::Volta && a->unified_l1_shared > 0))
      no_carveout += (no_carveout.empty() ? "" : ", ") + a->name;
    if (!args->shared_capacity.empty() && a->unified_l1_shared <= 0)
      no_split += (no_split.empty() ? "" : ", ") + a->name;
  }
  if (!no_carveout.empty())
    fmt::print(stderr, "warpscope: note: --carveout has no effect on {} (a shared-memory carveout exists from 7.0 on)\n",
               no_carveout);
  if (!no_split.empty())
    fmt::print(stderr, "warpscope: note: --l1-config has no effect on {} (L1 and shared memory are separate there)\n",
               no_split);

  auto trace = open_trace_fn();
  report::ProgressBar bar(args->progress_label, trace->file_size(), args->progress_threshold);
  const AnalyzeResult r = analyze_trace(*trace, specs, options, [&](std::uint64_t done, std::uint64_t) {
    bar.update(done, 0);
  });
  bar.finish();
  std::vector<std::string> notes;  // what stderr says, repeated in the HTML report
  // What the reader dropped: a recovered .partial's last block, another tool's instructions not modelled.
  if (const std::string note = trace->summary().note; !note.empty()) {
    notes.push_back(fmt::format("{}: {}", input_name, note));
    fmt::print(stderr, "warpscope: note: {}\n", notes.back());
  }
  // Atomics whose operation is unknown where the operation changes the counts: say how they were counted.
  std::vector<std::string> by_operation;
  for (const ArchSpec* a : specs)
    if (rules::atomic_counts_depend_on_operation(*a)) by_operation.push_back(a->name);
  if (r.atomics_without_operation > 0 && !by_operation.empty()) {
    notes.push_back(fmt::format(
        "{} atomic records name no operation (their trace does not record it); on {} a compare-and-swap and shared "
        "atomics other than ATOMS.POPC.INC are served differently, so these count as a global add and a shared "
        "ATOMS.POPC.INC: --sass LISTING names them",
        r.atomics_without_operation, fmt::join(by_operation, ", ")));
    fmt::print(stderr, "warpscope: note: {}\n", notes.back());
  }
  if (!args->sass.empty()) {
    // A listing of another program names none of these kernels: say so rather than count nothing.
    bool matched = false;
    for (const auto& k : r.archs.at(0).kernels)
      matched = matched || options.atomics_by_kernel.count(k.info.name) > 0 ||
                options.code_bytes_by_kernel.count(k.info.name) > 0;
    if (!matched)
      fmt::print(stderr,
                 "warpscope: warning: --sass {}: no function there is a kernel of this trace, so neither atomic "
                 "operations nor code sizes come from it\n",
                 args->sass);
  }
  constexpr std::size_t kWarnings = 10;
  for (std::size_t i = 0; i < r.resumed.size() && i < kWarnings; ++i)
    fmt::print(stderr, "warpscope: warning: {}\n", resumed_warning(*trace, r.resumed[i]));
  if (r.resumed.size() > kWarnings)
    fmt::print(stderr, "warpscope: warning: {} more kernels resume after other kernels' records (--json lists them)\n",
               r.resumed.size() - kWarnings);

  // Files first: a failure to write them is an error before anything is printed.
  // JSON or CSV on standard output takes the place of the tables.
  if (!args->json_file.empty() && !json_out)
    report::write_file_atomically(args->json_file, result_json(r, *trace, input_name, args->top).dump(2) + "\n");
  if (!args->csv_file.empty() && !csv_out) report::write_file_atomically(args->csv_file, result_csv(r));
  if (!args->html_file.empty()) {
    report::AnalyzeHtmlOptions html;
    html.trace_path = input_name;
    html.top = args->top;
    html.all_metrics = args->all_metrics;
    if (!args->gpu.empty()) html.gpu_note = "GPU model: " + find_gpu_model(args->gpu).name + ".";
    html.notes = notes;
    for (const auto& k : r.resumed) html.notes.push_back("warning: " + resumed_warning(*trace, k));
    const std::string page = report::analyze_html(r, *trace, html);
    if (html_out) report::write_stdout(page);
    else report::write_file_atomically(args->html_file, page);
  }
  if (json_out) report::write_stdout(result_json(r, *trace, input_name, args->top).dump(2) + "\n");
  if (csv_out) report::write_stdout(result_csv(r));
  if (json_out || csv_out || html_out) return 0;

  fmt::print("trace {}: {} records, {} analysed in {:.2f} s\n", input_name, r.records_read, r.records_analyzed, r.seconds);
  if (!args->gpu.empty())
    fmt::print("  GPU model: {}{}\n", find_gpu_model(args->gpu).name,
               options.memory.gpu_name.empty() ? " (its SM count or L2 size replaced by --sms / --l2-size)" : "");
  for (const auto& a : r.archs) {
    std::string desc = a.memory_description;
    while (!desc.empty() && desc.back() == '\n') desc.pop_back();
    std::string indented;
    for (char c : desc) indented += c == '\n' ? std::string("\n      ") : std::string(1, c);
    fmt::print("  {}: {}\n", a.arch->name, indented);
  }
  if (r.archs.empty() || r.archs.front().kernels.empty()) {
    fmt::print("\nno kernel{}\n", options.kernel_filter ? " matches --kernel " + args->kernel : "");
    return 0;
  }
  fmt::print(
      "\nfrom: rules = fixed by the access pattern (coalescing, banks), as the hardware counts it where that is "
      "deterministic; caches = the modelled cache state (hits, L2, DRAM), an estimate (docs/VALIDATION.md: its error "
      "on the H100)\n");
  for (std::size_t k = 0; k < r.archs.front().kernels.size(); ++k) {
    const auto& info = r.archs.front().kernels[k].info;
    fmt::print("\nkernel {} '{}'  grid {}  block {}  ({} records)\n", info.id, info.name, dim_text(info.grid), dim_text(info.block),
               r.archs.front().kernels[k].records);
    // The L1 each architecture gave the kernel where the carveout leaves it a share.
    std::string l1;
    for (const auto& a : r.archs)
      if (a.arch->unified_l1_shared > 0 && k < a.kernels.size())
        l1 += fmt::format("{}{} {} KB ({} KB shared)", l1.empty() ? "" : ", ", a.arch->name,
                          a.kernels[k].l1_bytes / 1024, a.kernels[k].shared_capacity / 1024);
    if (!l1.empty()) fmt::print("L1 per SM: {}\n", l1);
    // The launch's own reads (memory/launch_reads.hpp), part of dram.read_bytes and of no instruction's.
    std::string launch;
    for (const auto& a : r.archs)
      if (k < a.kernels.size() && a.kernels[k].launch_dram_read_bytes > 0)
        launch += fmt::format("{}{} {} B", launch.empty() ? "" : ", ", a.arch->name, a.kernels[k].launch_dram_read_bytes);
    if (!launch.empty())
      fmt::print("DRAM reads of the launch itself ({} B of code + launch data), counted in dram.read_bytes: {}\n",
                 r.archs.front().kernels[k].code_bytes, launch);
    fmt::print("{}", kernel_table(r, k, args->all_metrics));
  }
  if (args->top > 0) fmt::print("\ntop {} instructions by bytes wasted on {}:\n{}", args->top, r.archs.front().arch->name,
                                top_table(r, *trace, args->top));
  return 0;
}

Action add_analyze_command(CLI::App& app, const GlobalOptions& g) {
  auto args = std::make_shared<AnalysisArgs>();
  auto trace = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("analyze", "run a trace through the memory system of several architectures");
  cmd->add_option("trace", *trace,
                  "trace file (native, text, or Accel-Sim: a kernel-N.traceg or kernelslist.g; '-': standard input)")
      ->required();
  add_analysis_options(cmd, *args);
  return [&g, args, trace]() { return analyze_and_report(g, *args, [&] { return open_input_trace(*trace); }, *trace); };
}

}  // namespace warpscope::cli
