// `warpscope validate` end to end on a directory built from validation/h100/cache:
// the deterministic counters match exactly, a corrupted hardware value fails
// with exit code 1, bad input gives exit code 2 and no output file.
#include <gtest/gtest.h>

#include "cli/run_cli.hpp"
#include "test_support.hpp"
#include "validate/input_error.hpp"
#include "validate/suite_fixture.hpp"
#include "warpscope/error.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const ValidationReport& cache_report() {
  static const ValidationReport r = validate_directory(make_suite_dir("report"), db());
  return r;
}

TEST(ValidateDir, PairsTheSixLaunchesWithTheTraceKernels) {
  const auto& r = cache_report();
  ASSERT_EQ(r.kernels.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(r.kernels[i].name, kCacheKernels[i]);
    EXPECT_EQ(r.kernels[i].trace_name, kCacheKernels[i]);
    EXPECT_EQ(r.kernels[i].ncu_id, i);
  }
  EXPECT_EQ(r.gpu_model, "h100-sxm");
  EXPECT_EQ(r.arch, "sm_90");
  // The memory system is described as the recorded GPU model, not as "custom sm_90".
  EXPECT_EQ(r.memory.rfind("GPU: NVIDIA H100 SXM5 80GB HBM3 (sm_90), 132 SMs\n", 0), 0u) << r.memory;
}

TEST(ValidateDir, ExactCountersMatchAndCacheCountersAreWithinTolerance) {
  const auto& r = cache_report();
  const ValidationSummary s = summarize(r);
  EXPECT_EQ(s.exact, 6u * 13u);  // every exact counter of the fixture's tolerances, every kernel
  EXPECT_EQ(s.exact_matched, s.exact);
  EXPECT_EQ(s.toleranced, 6u * 4u);
  EXPECT_EQ(s.within, s.toleranced);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  // The L2 read hit rate of gather: 13.93% on the H100, the model about 3.7 points lower.
  for (const auto& c : r.kernels[3].counters)
    if (c.counter == "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum") {
      EXPECT_NEAR(*c.hardware_rate, 13.93, 0.01);
      EXPECT_EQ(c.unit, ErrorUnit::Points);
      EXPECT_LT(c.error, 5.0);
    }
}

// The accuracy target's launch count: a launch meets it when each of its hit
// rates and DRAM byte counts is within tolerance; a known mismatch does not.
TEST(ValidateDir, LaunchesMeetingTheAccuracyTarget) {
  auto counter = [](const char* name, ErrorUnit unit, Verdict v) {
    CounterComparison c;
    c.counter = name;
    c.unit = unit;
    c.verdict = v;
    return c;
  };
  ValidationReport r;
  KernelValidation a, b, c, d;
  a.counters = {counter("l1tex__hit", ErrorUnit::Points, Verdict::Within),
                counter("dram__bytes_read.sum", ErrorUnit::Percent, Verdict::Within)};
  b.counters = {counter("l1tex__hit", ErrorUnit::Points, Verdict::Known)};           // outside
  c.counters = {counter("dram__bytes_write.sum", ErrorUnit::Percent, Verdict::KnownPasses),
                counter("lts__t_requests", ErrorUnit::Percent, Verdict::Known),      // not a target counter
                counter("smsp__inst", ErrorUnit::Count, Verdict::Fail)};             // nor an exact one
  d.counters = {counter("lts__t_sectors", ErrorUnit::Percent, Verdict::Within)};    // no target counter
  r.kernels = {a, b, c, d};
  const ValidationSummary s = summarize(r);
  EXPECT_EQ(s.kernels_toleranced, 3u);
  EXPECT_EQ(s.kernels_within, 2u);
  EXPECT_EQ(summarize(cache_report()).kernels_within, 6u);
}

TEST(ValidateDir, CorruptedHardwareValueFailsWithExitCode1) {
  const auto dir = make_suite_dir("corrupt");
  ASSERT_TRUE(corrupt_stencil_sectors(dir));
  const auto r = run_cli("validate " + dir.string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("result: FAIL, 1 counter outside tolerance"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stencil2d l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum: hardware 178501, model 178500"),
            std::string::npos)
      << r.out;
}

TEST(ValidateDir, CliWritesJsonMarkdownAndTheDocSection) {
  const auto dir = make_suite_dir("cli");
  write_text(dir / "doc.md", "# Doc\n\n<!-- BEGIN GENERATED: warpscope validate " + dir.string() +
                                 " -->\nold text\n<!-- END GENERATED -->\n\nafter\n");
  const auto r = run_cli("validate " + dir.string() + "/ --json " + (dir / "v.json").string() + " --markdown " +
                         (dir / "v.md").string() + " --update-doc " + (dir / "doc.md").string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("exact counters: 78 of 78 match"), std::string::npos) << r.out;
  const auto json = nlohmann::json::parse(read_text(dir / "v.json"));
  EXPECT_TRUE(json["summary"]["passed"].get<bool>());
  EXPECT_EQ(json["kernels"].size(), 6u);
  const std::string md = read_text(dir / "v.md");
  EXPECT_NE(md.find("| stencil2d | smsp__inst_executed_op_global_ld.sum | 40800 | 40800 | 0 | exact | exact |"),
            std::string::npos)
      << md;
  const std::string doc = read_text(dir / "doc.md");
  EXPECT_EQ(doc.find("old text"), std::string::npos);
  EXPECT_NE(doc.find(md), std::string::npos);
  EXPECT_EQ(doc.substr(doc.size() - 7), "\nafter\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "doc.md.tmp"));
}

// '-' puts the JSON or Markdown on standard output in place of the table, the
// same content as the file; one of them at most, and never the doc.
TEST(ValidateDir, CliWritesJsonOrMarkdownToStandardOutput) {
  const auto dir = make_suite_dir("stdout");
  const auto to_file = run_cli("validate " + dir.string() + " --json " + (dir / "v.json").string() + " --markdown " +
                               (dir / "v.md").string());
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  const auto json = run_cli("validate " + dir.string() + " --json -");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, read_text(dir / "v.json"));
  EXPECT_TRUE(nlohmann::json::parse(json.out)["summary"]["passed"].get<bool>());
  const auto md = run_cli("validate " + dir.string() + " --markdown - --json " + (dir / "w.json").string());
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out, read_text(dir / "v.md"));
  EXPECT_EQ(read_text(dir / "w.json"), read_text(dir / "v.json"));
  for (const std::string bad : {" --json - --markdown -", " --update-doc -"}) {
    const auto r = run_cli("validate " + dir.string() + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists("-"));
}

TEST(ValidateDir, FewerTraceKernelsThanLaunchesIsAnInputError) {
  const auto dir = make_suite_dir("count", {"stencil2d", "transpose_naive"});
  const auto r = run_cli("validate " + dir.string() + " --json " + (dir / "out.json").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cache_kernels.ncu.csv has 6 kernel launches but"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cache_kernels.wst has 2 kernels"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
}

TEST(ValidateDir, KernelsInAnotherOrderAreAnInputErrorNamingTheLine) {
  auto order = kCacheKernels;
  std::swap(order[0], order[1]);
  const auto dir = make_suite_dir("order", order);
  const std::string e = input_error_of([&] { validate_directory(dir, db()); });
  EXPECT_NE(e.find("cache_kernels.ncu.csv:3: launch 0 (ID 0) is \"stencil2d(const float *, float *, int)\" but kernel 0 of"),
            std::string::npos)
      << e;
}

TEST(ValidateDir, MissingFilesAndUnknownGpuModelAreInputErrors) {
  const auto dir = make_suite_dir("missing");
  std::filesystem::remove(dir / "cache_kernels.wst");
  EXPECT_THROW(validate_directory(dir, db()), InputError);
  const auto dir2 = make_suite_dir("gpu");
  write_text(dir2 / "environment.txt", "gpu: X\n\ngpu_model: no-such-gpu\n");
  const std::string e = input_error_of([&] { validate_directory(dir2, db()); });
  EXPECT_NE(e.find("environment.txt:3: unknown GPU \"no-such-gpu\""), std::string::npos) << e;
}

}  // namespace
}  // namespace warpscope::test
