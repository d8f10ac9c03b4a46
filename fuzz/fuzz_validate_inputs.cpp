// libFuzzer target for the files `warpscope validate` reads from a suite
// directory: Nsight Compute CSVs, tolerances.toml and environment.txt. The
// first byte picks the file (0: CSV, 1: tolerances, 2: environment); the rest
// is its text. What parses is then used as validate uses it: every launch of a
// CSV compared with model counters under fixed tolerances, fixed CSV launches
// under parsed tolerances. InputError is the only exception allowed out; a
// number that is not finite, a check that cannot fail or cannot pass, or a
// comparison row that contradicts its check is a bug too.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "validate/compare.hpp"
#include "validate/environment.hpp"
#include "validate/kernel_name.hpp"
#include "validate/ncu_csv.hpp"
#include "validate/tolerances.hpp"
#include "warpscope/error.hpp"

namespace {

using namespace warpscope;
using namespace warpscope::validate;

constexpr std::string_view kTolerances = R"(version = 1
exact = ["smsp__inst_executed_op_global_ld.sum", "lts__t_sectors_srcunit_tex_op_read.sum"]
[[tolerance]]
counter = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
rate_of = "lts__t_sectors_srcunit_tex_op_read.sum"
points = 5
[[tolerance]]
counter = "dram__bytes_read.sum"
percent = 10
slack = 8192
[[kernel]]
name = "k"
counter = "dram__bytes_read.sum"
known = "a reason"
)";

constexpr std::string_view kCsv =
    "==PROF== Connected to process\n"
    "\"ID\",\"Kernel Name\",\"smsp__inst_executed_op_global_ld.sum\",\"lts__t_sectors_srcunit_tex_op_read.sum\","
    "\"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n"
    "\"\",\"\",\"inst\",\"sector\",\"sector\",\"byte\",\"byte\"\n"
    "\"0\",\"k(float *)\",\"1,024\",\"4096\",\"2,048\",\"65,536\",\"0\"\n"
    "\"1\",\"other(int)\",\"0\",\"0\",\"0\",\"n/a\",\"12.5\"\n";

const Tolerances& fixed_tolerances() {
  static const Tolerances t = parse_tolerances(kTolerances, "fixed.toml");
  return t;
}

const NcuReport& fixed_csv() {
  static const NcuReport r = parse_ncu_csv(kCsv, "fixed.csv");
  return r;
}

// Model counters: all zero, and some of every kind.
Counters model(int which) {
  Counters c;
  if (which == 0) return c;
  c.global_ld = L1Traffic{1024, 1024, 4096, 4096, 1000, 16384, 16384};
  c.l2_read_requests = 1024;
  c.l2_read_sectors = 4096;
  c.l2_read_sector_hits = 1000;
  c.dram_read_bytes = 100000;
  return c;
}

void check_rows(const NcuLaunch& launch, const Tolerances& tol, const std::string& csv_file) {
  for (int which = 0; which < 2; ++which) {
    LaunchContext ctx;
    ctx.app = "app";
    const std::string base = kernel_identifier(launch.kernel);  // as validate_dir names it
    ctx.kernel = base;
    ctx.csv_file = &csv_file;
    try {
      for (const CounterComparison& row : compare_launch(launch, model(which), tol, ctx)) {
        if (!std::isfinite(row.hardware) || !std::isfinite(row.model) || !std::isfinite(row.error) || row.error < 0)
          std::abort();
        if (row.hardware_rate && !std::isfinite(*row.hardware_rate)) std::abort();
        if (row.model_rate && !std::isfinite(*row.model_rate)) std::abort();
        if (row.verdict == Verdict::Exact && row.hardware != row.model) std::abort();
        if (row.verdict == Verdict::Within && row.error > row.limit + 1e-6 &&
            std::abs(row.model - row.hardware) > row.slack + 1e-6)
          std::abort();
      }
    } catch (const InputError&) {
      // a rate check whose rate_of column this launch lacks
    }
  }
}

void fuzz_csv(std::string_view text) {
  const std::string file = "fuzz.csv";
  NcuReport report;
  try {
    report = parse_ncu_csv(text, file);
  } catch (const InputError&) {
    return;
  }
  for (const NcuLaunch& launch : report.launches) {
    if (launch.line < 1) std::abort();
    for (const auto& [column, value] : launch.values) {
      const auto n = launch.number(column);
      if (n && !std::isfinite(*n)) std::abort();  // a counter is never NaN or infinite
    }
    check_rows(launch, fixed_tolerances(), file);
  }
}

void fuzz_tolerances(std::string_view text) {
  Tolerances tol;
  try {
    tol = parse_tolerances(text, "fuzz.toml");
  } catch (const InputError&) {
    return;
  }
  const auto sane = [](const Check& c) {
    if (!std::isfinite(c.limit) || !std::isfinite(c.slack) || c.limit < 0 || c.slack < 0) std::abort();
    if (c.kind == CheckKind::Rate && c.rate_of.empty()) std::abort();
  };
  for (const auto& [name, check] : tol.counters) sane(check);
  for (const KernelRule& k : tol.kernels)
    if (k.check) sane(*k.check);
  for (const NcuLaunch& launch : fixed_csv().launches) check_rows(launch, tol, fixed_csv().file);
}

void fuzz_environment(std::string_view text) {
  Environment env;
  try {
    env = parse_environment(text, "fuzz.txt");
  } catch (const InputError&) {
    return;
  }
  if (env.entries.size() != env.lines.size()) std::abort();
  for (const auto& [key, value] : env.entries) {
    if (env.get(key) != value || env.line_of(key) < 1) std::abort();
    try {
      (void)env.require(key);
    } catch (const InputError&) {
      if (!value.empty()) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 3) {
      case 0: fuzz_csv(text); break;
      case 1: fuzz_tolerances(text); break;
      default: fuzz_environment(text); break;
    }
  } catch (const InputError&) {
  }
  return 0;
}
