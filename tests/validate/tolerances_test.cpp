// The tolerances.toml schema: a good file, per-kernel lookups, and errors that
// name the line.
#include <gtest/gtest.h>

#include "validate/input_error.hpp"
#include "validate/tolerances.hpp"
#include "warpscope/error.hpp"

namespace warpscope::validate {
namespace {

const char* kGood = R"(version = 1
exact = ["smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_atom+red.sum"]

[[tolerance]]
counter = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
rate_of = "lts__t_sectors_srcunit_tex_op_read.sum"
points = 5

[[tolerance]]
counter = "dram__bytes_read.sum"
percent = 10
slack = 1024

[[kernel]]
name = "gather"
counter = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
points = 8

[[kernel]]
name = "gather"
app = "other"
counter = "dram__bytes_read.sum"
known = "reason"

[[kernel]]
name = "gather"
counter = "dram__bytes_read.sum"
percent = 20
)";

std::string error_of(const std::string& text) {
  return test::input_error_of([&] { parse_tolerances(text, "t.toml"); });
}

TEST(Tolerances, GoodFile) {
  const Tolerances t = parse_tolerances(kGood, "t.toml");
  ASSERT_EQ(t.counters.size(), 4u);
  EXPECT_EQ(t.counters.at("smsp__inst_executed_op_global_ld.sum").kind, CheckKind::Exact);
  EXPECT_EQ(t.counters.at("smsp__inst_executed_op_global_ld.sum").line, 2);
  const Check& hit = t.counters.at("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum");
  EXPECT_EQ(hit.kind, CheckKind::Rate);
  EXPECT_EQ(hit.limit, 5);
  EXPECT_EQ(hit.rate_of, "lts__t_sectors_srcunit_tex_op_read.sum");
  EXPECT_EQ(hit.line, 4);
  const Check& dram = t.counters.at("dram__bytes_read.sum");
  EXPECT_EQ(dram.kind, CheckKind::Relative);
  EXPECT_EQ(dram.limit, 10);
  EXPECT_EQ(dram.slack, 1024);
  EXPECT_EQ(t.kernels.size(), 3u);
}

TEST(Tolerances, KernelOverridesAndKnownMismatches) {
  const Tolerances t = parse_tolerances(kGood, "t.toml");
  // Override inherits rate_of from the counter's check.
  Rule r = t.lookup("app", "gather", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum");
  EXPECT_EQ(r.check->limit, 8);
  EXPECT_EQ(r.check->rate_of, "lts__t_sectors_srcunit_tex_op_read.sum");
  EXPECT_EQ(t.lookup("app", "stencil2d", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum").check->limit, 5);
  // The generic override keeps the counter's slack; the app-specific rule wins in its app.
  r = t.lookup("app", "gather", "dram__bytes_read.sum");
  EXPECT_EQ(r.check->limit, 20);
  EXPECT_EQ(r.check->slack, 1024);
  EXPECT_TRUE(r.known.empty());
  r = t.lookup("other", "gather", "dram__bytes_read.sum");
  EXPECT_EQ(r.known, "reason");
  EXPECT_EQ(r.check->limit, 10);
  EXPECT_FALSE(t.lookup("app", "gather", "dram__bytes_write.sum").check);  // unchecked
}

TEST(Tolerances, ErrorsNameTheLine) {
  EXPECT_EQ(error_of("exact = []\n"), "t.toml: missing \"version = 1\"");
  EXPECT_EQ(error_of("version = 2\n"), "t.toml:1:11: \"version\" must be 1");
  EXPECT_EQ(error_of("version = 1e24\n"), "t.toml:1:11: \"version\" must be 1");  // no float-to-int overflow
  EXPECT_EQ(error_of("version = 1\nexact = [\"dram__bytes_read.avg\"]\n"),
            "t.toml:2:10: \"exact\" = \"dram__bytes_read.avg\": not a counter the model has (an Nsight Compute name "
            "of `warpscope analyze --all-metrics`, with its suffix, e.g. \".sum\")");
  EXPECT_EQ(error_of("version = 1\ncolour = 3\n"),
            "t.toml:2:10: unknown key \"colour\" in the top level (known: exact, kernel, tolerance, version)");
  EXPECT_EQ(error_of("version = 1\n[[tolerance]]\ncounter = \"dram__bytes_read.sum\"\npercnt = 3\n"),
            "t.toml:4:10: unknown key \"percnt\" in [[tolerance]] (known: counter, percent, points, rate_of, slack)");
  EXPECT_EQ(error_of("version = 1\n[[tolerance]]\ncounter = \"dram__bytes_read.sum\"\npoints = 3\n"),
            "t.toml:2:1: \"points\" needs \"rate_of\": the column the counter is a rate of");
  EXPECT_EQ(error_of("version = 1\nexact = [\"dram__bytes_read.sum\"]\n[[tolerance]]\ncounter = \"dram__bytes_read.sum\"\n"
                     "percent = 1\n"),
            "t.toml:3:1: \"dram__bytes_read.sum\" is already given on line 2");
  EXPECT_EQ(error_of("version = 1\n[[tolerance]]\ncounter = \"dram__bytes_read.sum\"\npercent = -1\n"),
            "t.toml:4:11: \"percent\" must be a finite number >= 0");
  // TOML has nan and inf; a tolerance of either would never fail or never pass (found by fuzz_validate_inputs).
  EXPECT_EQ(error_of("version = 1\n[[tolerance]]\ncounter = \"dram__bytes_read.sum\"\npercent = inf\n"),
            "t.toml:4:11: \"percent\" must be a finite number >= 0");
  EXPECT_EQ(error_of("version = 1\n[[tolerance]]\ncounter = \"dram__bytes_read.sum\"\npercent = 5\nslack = nan\n"),
            "t.toml:5:9: \"slack\" must be a finite number >= 0");
  EXPECT_EQ(error_of("version = 1\n[[kernel]]\nname = \"k\"\ncounter = \"dram__bytes_read.sum\"\n"),
            "t.toml:2:1: [[kernel]] changes nothing: give a tolerance or \"known\"");
  EXPECT_EQ(error_of("version = 1\n[[kernel]]\ncounter = \"dram__bytes_read.sum\"\nknown = \"x\"\n"),
            "t.toml:2:1: [[kernel]] needs \"name\": the kernel's function name, e.g. \"gather\"");
  const std::string syntax = error_of("version = 1\nexact = [\n");
  EXPECT_EQ(syntax.rfind("t.toml:", 0), 0u) << syntax;
}

}  // namespace
}  // namespace warpscope::validate
