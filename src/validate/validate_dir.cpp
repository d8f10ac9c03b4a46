// validate_directory(): reads DIR, pairs each application's ncu launches with
// its trace's kernels, replays the trace through the recorded GPU's model
// (analyze_trace: SM placement, warp interleaving, per-kernel counters; caches
// flushed between kernels as ncu does; no write-back of what stays dirty) and
// compares.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analyze/analyzer.hpp"
#include "validate/compare.hpp"
#include "validate/environment.hpp"
#include "validate/kernel_name.hpp"
#include "validate/ncu_csv.hpp"
#include "validate/text_file.hpp"
#include "validate/tolerances.hpp"
#include "warpscope/error.hpp"
#include "warpscope/gpu_models.hpp"
#include "warpscope/ptx.hpp"
#include "warpscope/trace.hpp"
#include "warpscope/validate.hpp"

namespace warpscope {
namespace {

namespace fs = std::filesystem;
using validate::NcuLaunch;

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Application names: every <app>.ncu.csv, each with its <app>.wst.
std::vector<std::string> applications(const fs::path& dir) {
  std::set<std::string> csv, wst;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (ends_with(f, ".ncu.csv")) csv.insert(f.substr(0, f.size() - 8));
    if (ends_with(f, ".wst")) wst.insert(f.substr(0, f.size() - 4));
  }
  for (const auto& a : csv)
    if (!wst.count(a)) throw InputError(fmt::format("{}: no trace {}.wst for {}.ncu.csv", dir.string(), a, a));
  for (const auto& a : wst)
    if (!csv.count(a)) throw InputError(fmt::format("{}: no {}.ncu.csv for the trace {}.wst", dir.string(), a, a));
  if (csv.empty()) throw InputError(fmt::format("{}: no <app>.ncu.csv + <app>.wst pair", dir.string()));
  return {csv.begin(), csv.end()};
}

const GpuModel& recorded_gpu(const validate::Environment& env) {
  const std::string key = env.require("gpu_model");
  const GpuModel* gpu = nullptr;
  try {
    gpu = &find_gpu_model(key);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}:{}: {}", env.file, env.line_of("gpu_model"), e.what()));
  }
  const std::string arch = env.get("arch");
  if (!arch.empty() && parse_arch_name(arch) != parse_arch_name(gpu->arch))
    throw InputError(fmt::format("{}:{}: arch {} disagrees with gpu_model {} ({})", env.file, env.line_of("arch"), arch,
                                 gpu->key, gpu->arch));
  return *gpu;
}

// Pairs launch i with kernel i; InputError saying which differs.
void check_pairing(const validate::NcuReport& ncu, const std::vector<KernelInfo>& kernels, const std::string& wst,
                   const GpuModel& gpu) {
  if (ncu.launches.size() != kernels.size())
    throw InputError(fmt::format("{} has {} kernel launches but {} has {} kernels: they must be the same launches",
                                 ncu.file, ncu.launches.size(), wst, kernels.size()));
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const NcuLaunch& l = ncu.launches[i];
    if (!validate::same_kernel(l.kernel, kernels[i].name))
      throw InputError(fmt::format("{}:{}: launch {} (ID {}) is \"{}\" but kernel {} of {} is \"{}\"", ncu.file, l.line, i,
                                   l.id, l.kernel, i, wst, kernels[i].name));
    if (!kernels[i].arch.empty() && parse_arch_name(kernels[i].arch) != parse_arch_name(gpu.arch))
      throw InputError(fmt::format("{}: kernel {} \"{}\" was recorded on {}, environment.txt says {} ({})", wst, i,
                                   kernels[i].name, kernels[i].arch, gpu.key, gpu.arch));
  }
}


// With --ptx: the applications of dir that ptx_dir has a program and a script for.
std::vector<std::string> ptx_applications(const fs::path& dir, const fs::path& ptx_dir, std::vector<std::string>& skipped) {
  if (!fs::is_directory(ptx_dir)) throw InputError(fmt::format("{}: not a directory", ptx_dir.string()));
  std::vector<std::string> apps;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (!ends_with(f, ".ncu.csv")) continue;
    const std::string app = f.substr(0, f.size() - 8);
    if (fs::exists(ptx_dir / (app + ".ptx")) && fs::exists(ptx_dir / (app + ".run"))) apps.push_back(app);
    else skipped.push_back(app);
  }
  std::sort(apps.begin(), apps.end());
  std::sort(skipped.begin(), skipped.end());
  if (apps.empty())
    throw InputError(fmt::format("{}: no <app>.ptx + <app>.run for any <app>.ncu.csv of {}", ptx_dir.string(), dir.string()));
  return apps;
}

std::unique_ptr<TraceSource> interpreted(const fs::path& ptx_dir, const std::string& app) {
  const fs::path script = ptx_dir / (app + ".run"), program = ptx_dir / (app + ".ptx");
  const PtxScript s = parse_ptx_script(validate::read_text_file(script), script.string());
  return run_ptx(validate::read_text_file(program), program.string(), s.buffers, s.launches);
}

}  // namespace

ValidationReport validate_directory(const fs::path& dir, const ArchDatabase& db, const ValidateOptions& options) {
  if (!fs::is_directory(dir)) throw InputError(fmt::format("{}: not a directory", dir.string()));
  const auto env = validate::read_environment(dir / "environment.txt");
  const GpuModel& gpu = recorded_gpu(env);
  const ArchSpec& arch = db.get(gpu.arch).spec;
  auto tol = validate::load_tolerances(dir / "tolerances.toml");
  const bool from_ptx = !options.ptx_dir.empty();
  // PTX runs differ from the hardware where ptxas rewrote memory instructions (merged, re-unrolled):
  // ptx_dir/known.toml lists those as known mismatches ([[kernel]] entries), replacing the trace's entries.
  if (from_ptx && fs::exists(options.ptx_dir / "known.toml")) {
    const auto extra = validate::load_tolerances(options.ptx_dir / "known.toml");
    if (!extra.counters.empty())
      throw InputError(fmt::format("{}: only [[kernel]] entries belong here (known mismatches of PTX runs)", extra.file));
    for (const auto& k : extra.kernels) {
      std::erase_if(tol.kernels, [&](const validate::KernelRule& r) { return r.kernel == k.kernel && r.app == k.app && r.counter == k.counter; });
      tol.kernels.push_back(k);
    }
  }
  std::vector<std::string> skipped;
  const auto apps = from_ptx ? ptx_applications(dir, options.ptx_dir, skipped) : applications(dir);

  ValidationReport report;
  report.dir = dir.string();
  report.environment = env.entries;
  report.gpu_model = gpu.key;
  report.gpu_name = gpu.name;
  report.arch = arch.name;
  report.from_ptx = from_ptx;
  std::set<const validate::KernelRule*> used;
  std::set<std::string> seen;
  for (const std::string& app : apps) {
    const auto ncu = validate::read_ncu_csv(dir / (app + ".ncu.csv"));
    const std::string wst = from_ptx ? (options.ptx_dir / (app + ".run")).string() : (dir / (app + ".wst")).string();
    auto trace = from_ptx ? interpreted(options.ptx_dir, app) : open_trace(wst);
    AnalyzeOptions ao;
    ao.memory.num_sms = gpu.sms;
    ao.memory.l2_size = gpu.l2_size;
    ao.memory.gpu_name = gpu.name;
    ao.flush_dirty_at_kernel_end = false;  // ncu does not count the write-back of what stays dirty
    ao.interleave_warps = options.interleave_warps;
    // The SASS listing beside a trace names its atomics' operations where the trace does not
    // (traces recorded before warpscope trace stored them), and each kernel's code size (the
    // launch's own DRAM reads, memory/launch_reads.hpp).
    if (const fs::path sass = dir / (app + ".sass"); fs::exists(sass)) {
      try {
        take_from_sass(validate::read_text_file(sass), ao);
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", sass.string(), e.what()));
      }
    }
    const AnalyzeResult r = analyze_trace(*trace, {&arch}, ao);
    report.memory = r.archs.at(0).memory_description;
    const std::vector<KernelInfo>& kernels = trace->kernels();
    check_pairing(ncu, kernels, wst, gpu);
    std::map<std::string, int> repeats;
    for (std::size_t i = 0; i < kernels.size(); ++i) repeats[validate::kernel_identifier(kernels[i].name)]++;
    std::map<std::string, int> occurrence;
    std::unordered_map<std::uint32_t, const Counters*> modelled;  // kernel id -> its counters
    for (const auto& kr : r.archs.at(0).kernels) modelled[kr.info.id] = &kr.counters;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      KernelValidation k;
      k.app = app;
      k.launch = i;
      k.ncu_id = ncu.launches[i].id;
      k.ncu_name = ncu.launches[i].kernel;
      k.trace_name = kernels[i].name;
      k.name = validate::kernel_identifier(k.ncu_name);
      k.label = (apps.size() > 1 ? app + "/" : "") + k.name;
      const int n = ++occurrence[k.name];
      if (repeats[k.name] > 1) k.label += fmt::format("#{}", n);
      Counters model;  // a kernel without records counts nothing
      if (const auto it = modelled.find(kernels[i].id); it != modelled.end()) model = *it->second;
      const validate::LaunchContext ctx{app, k.name, &ncu.file, &used, &seen};
      k.counters = validate::compare_launch(ncu.launches[i], model, tol, ctx);
      if (from_ptx)
        for (auto& c : k.counters)
          if (c.unit != ErrorUnit::Count && c.verdict == Verdict::Fail) {
            c.verdict = Verdict::Known;
            c.known = "from the PTX interpreter: cache state without the GPU's SM placement and timing (shown, not enforced)";
          }
      report.kernels.push_back(std::move(k));
    }
  }
  if (from_ptx) {
    report.notes.push_back(fmt::format("records from the PTX interpreter ({}/<app>.ptx, .run), not from the traces", options.ptx_dir.string()));
    if (!skipped.empty())
      report.notes.push_back(fmt::format("no PTX program and script for {}: left out", fmt::join(skipped, ", ")));
  }
  for (const auto& rule : tol.kernels)
    if (!used.count(&rule) && !from_ptx)
      report.notes.push_back(fmt::format("{} line {}: [[kernel]] {} {}{} matched no launch", tol.file, rule.line, rule.kernel,
                                         rule.counter, rule.app.empty() ? "" : " in " + rule.app));
  std::vector<std::string> unseen;
  for (const auto& entry : tol.counters)
    if (!seen.count(entry.first)) unseen.push_back(entry.first);
  if (!unseen.empty())
    report.notes.push_back(fmt::format("{} of the {} counters {} names are in no ncu CSV (not collected): {}", unseen.size(),
                                       tol.counters.size(), tol.file, fmt::join(unseen, ", ")));
  return report;
}

}  // namespace warpscope
