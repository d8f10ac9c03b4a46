// Whole-tool tests through the command line: outputs, JSON shape, and that bad
// input anywhere gives one clear error line and exit code 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace warpscope::test {
namespace {

TEST(CliArchs, ListsEveryComputeCapability) {
  auto r = run_cli("archs --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& a : j["architectures"]) names.push_back(a["name"]);
  const std::vector<std::string> expected = {"sm_10", "sm_11", "sm_12", "sm_13", "sm_20", "sm_21", "sm_30",
                                             "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60",
                                             "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86",
                                             "sm_87", "sm_89", "sm_90", "sm_100", "sm_103", "sm_120", "sm_121"};
  EXPECT_EQ(names, expected);
  auto text = run_cli("archs");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("sm_120"), std::string::npos);
}

TEST(CliArch, AcceptsEverySpellingOfAName) {
  auto ref = run_cli("arch sm_35 --json");
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  for (const char* spelling : {"3.5", "35", "sm35", "SM_35", "compute_35"}) {
    auto r = run_cli(std::string("arch ") + spelling + " --json");
    EXPECT_EQ(r.exit_code, 0) << spelling << ": " << r.err;
    EXPECT_EQ(r.out, ref.out) << spelling;
  }
  auto j = nlohmann::json::parse(ref.out);
  EXPECT_EQ(j["cc"], "3.5");
  EXPECT_EQ(j["params"]["shared.banks"]["value"], "32");
  EXPECT_NE(j["params"]["shared.banks"]["source"].get<std::string>().find("seed000"), std::string::npos);
}

TEST(CliArch, TextShowsEverySource) {
  auto r = run_cli("arch sm_90");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("limits.max_shared_per_block_optin"), std::string::npos);
  EXPECT_NE(r.out.find("227 KB"), std::string::npos);
  EXPECT_NE(r.out.find("seed001 20.8.3"), std::string::npos);
}

// sm_90's l2.sm_partitions has 132 entries: the table shows the first and a
// count (its rows were over 1,000 characters wide); --json keeps them all.
TEST(CliArch, LongListsAreCutInTheTable) {
  auto r = run_cli("arch sm_90");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("[0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, ... 132 values]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[12, 13, 16, 17, 19]"), std::string::npos);  // l2.home_bits: short, whole
  // The source column starts where the widest value leaves it (past column 450 with the whole list).
  const std::size_t header = r.out.find("parameter");
  ASSERT_NE(header, std::string::npos);
  const std::string header_line = r.out.substr(header, r.out.find('\n', header) - header);
  EXPECT_LT(header_line.find("source"), 120u) << header_line;
  auto j = nlohmann::json::parse(run_cli("arch sm_90 --json").out);
  const std::string whole = j["params"]["l2.sm_partitions"]["value"].get<std::string>();
  EXPECT_EQ(std::count(whole.begin(), whole.end(), ','), 131);
}

TEST(CliArch, UnknownNameListsTheKnownOnes) {
  auto r = run_cli("arch sm_99");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(count_lines(r.err), 1);
  EXPECT_NE(r.err.find("unknown architecture \"sm_99\""), std::string::npos);
  EXPECT_NE(r.err.find("sm_10, sm_11"), std::string::npos);
}

TEST(CliPattern, JsonMatchesTheSeedScenario) {
  // seed001 non-caching misaligned load: 5 segments, 160 B, 80%.
  auto r = run_cli("pattern --arch sm_20,sm_35,sm_90 --index 'lane+1' --cache cg --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 3u);
  for (const auto& res : j["results"]) {
    EXPECT_EQ(res["sectors"], 5) << res["arch"];
    EXPECT_EQ(res["bytes_needed"], 128);
    EXPECT_EQ(res["bytes_moved"], 160);
    EXPECT_DOUBLE_EQ(res["bus_utilization"].get<double>(), 0.8);
    EXPECT_EQ(res["requests"], 1);
  }
  EXPECT_EQ(j["results"][0]["arch"], "sm_20");
  EXPECT_EQ(j["results"][0]["replays"], 1);
  EXPECT_FALSE(j["results"][2].contains("replays"));
}

TEST(CliPattern, SharedJsonHasWavefrontsAndConflicts) {
  auto r = run_cli("pattern --arch sm_90 --space shared --index 'lane*32' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto res = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(res["wavefronts"], 32);
  EXPECT_EQ(res["bank_conflicts"], 31);
  EXPECT_FALSE(res.contains("sectors"));
}

// ldmatrix x2 with rows 128 B apart: each matrix's 8 rows on banks 0-3, 8 wavefronts a matrix
// (validation/h100/matrix_probe; rules/shared_banks.cpp).
TEST(CliPattern, LdmatrixRowsServedPerMatrix) {
  auto r = run_cli("pattern --arch sm_90 --space shared --size 16 --op ldsm --mask ffff --index 'lane*8' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto res = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(res["wavefronts"], 16);
  EXPECT_EQ(res["bank_conflicts"], 14);
}

// A cp.async's wavefronts need both of its records: pattern, which builds one, says to use a trace.
TEST(CliPattern, AsyncCopyIsRefusedWithWhereToGo) {
  auto r = run_cli("pattern --arch sm_90 --op ldgsts --cache cg --size 16");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--op ldgsts: a cp.async is a global read and a shared write"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("docs/TRACE_FORMAT.md"), std::string::npos) << r.err;
}

// A bulk copy is one thread's block, described by one record, not a pattern of lanes.
TEST(CliPattern, BulkCopyIsRefusedWithWhereToGo) {
  for (const char* op : {"tma_ld", "tma_st"}) {
    auto r = run_cli(std::string("pattern --arch sm_90 --op ") + op + " --size 16");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(std::string("--op ") + op + ": a bulk copy (cp.async.bulk) is one thread's block"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("docs/TRACE_FORMAT.md"), std::string::npos) << r.err;
  }
}

TEST(CliPattern, TextTableSideBySide) {
  auto r = run_cli("pattern --arch sm_13,sm_20,sm_35,sm_90 --index 'lane+1'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("sm_13  sm_20  sm_35  sm_90"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bus utilization"), std::string::npos);
  // No active lane moves nothing: no utilization to show (it used to read 100%),
  // so the row, empty on every architecture, is left out.
  auto none = run_cli("pattern --arch sm_35,sm_90 --mask 0");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("bytes moved         0      0\n"), std::string::npos) << none.out;
  EXPECT_EQ(none.out.find("bus utilization"), std::string::npos) << none.out;
}

// An atomic with lanes on one address: 8 passes on sm_90 (measured), one access on sm_70 (not
// measured there), and a note that says why the columns differ.
TEST(CliPattern, AtomicPassesAreExplained) {
  auto r = run_cli("pattern --arch sm_70,sm_90 --op atom --index 'lane%4'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("transactions         1      8\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: on sm_90 this atomic is served in 8 passes (lanes on one address one pass each;"),
            std::string::npos)
      << r.out;
  auto distinct = run_cli("pattern --arch sm_90 --op atom --index lane");
  ASSERT_EQ(distinct.exit_code, 0) << distinct.err;
  EXPECT_EQ(distinct.out.find("note:"), std::string::npos) << distinct.out;
  // A coalesced compare-and-swap: two 64-byte halves (validation/h100/atomics_probe, cas4:coalesced).
  auto cas = run_cli("pattern --arch sm_90 --op atom --atomic cas --index lane");
  ASSERT_EQ(cas.exit_code, 0) << cas.err;
  EXPECT_NE(cas.out.find("operation cas"), std::string::npos) << cas.out;
  EXPECT_NE(cas.out.find("transactions         2\n"), std::string::npos) << cas.out;
  EXPECT_NE(cas.out.find("served in 2 passes (lanes on one address one pass each, a compare-and-swap per block"),
            std::string::npos)
      << cas.out;
  // Shared: ATOMS.ADD serializes lanes on one address, ATOMS.POPC.INC and an unrecorded operation merge them.
  auto add = run_cli("pattern --arch sm_90 --space shared --op atom --atomic add --index 'lane%4'");
  ASSERT_EQ(add.exit_code, 0) << add.err;
  EXPECT_NE(add.out.find("served in 8 passes"), std::string::npos) << add.out;
  for (const char* merging : {"popc.inc", "unknown"}) {
    auto m = run_cli(std::string("pattern --arch sm_90 --space shared --op atom --index 'lane%4' --atomic ") + merging);
    ASSERT_EQ(m.exit_code, 0) << m.err;
    EXPECT_EQ(m.out.find("note:"), std::string::npos) << merging << "\n" << m.out;
  }
  auto bad = run_cli("pattern --op ld --atomic cas");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--atomic cas applies to --op atom or red, not ld"), std::string::npos) << bad.err;
  auto unknown = run_cli("pattern --op atom --atomic swap");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--atomic swap: expected add"), std::string::npos) << unknown.err;
}

TEST(CliPattern, ExpressionErrorHasACaret) {
  auto r = run_cli("pattern --index 'lane * (2 +'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("lane * (2 +\n           ^"), std::string::npos) << r.err;
}

TEST(CliPattern, BadInputIsOneLineAndExitTwo) {
  const char* bad[] = {
      "pattern --size 3",          "pattern --size 0",          "pattern --size -4",
      "pattern --size abc",        "pattern --space heap",      "pattern --op mov",
      "pattern --cache xx",        "pattern --mask 1ffffffff",  "pattern --mask zz",
      "pattern --base 0x3",        "pattern --base -1",         "pattern --base 99999999999999999999999",
      "pattern --arch sm_42",      "pattern --arch ''",         "pattern --arch sm_20,,sm_35",
      "pattern --index 'lane-1'",  "pattern --space const --op st",
      "pattern --op st --cache nc", "pattern --op ld --cache wt", "pattern --space shared --cache cg",
      "pattern --space local --cache nc",
      "pattern --bank-width 6",    "pattern --bogus",           "pattern extra-positional",
      "arch",                      "frobnicate",                "",
      "pattern --index 'lane*0x7fffffffffffffff'",
      "pattern --op ldsm --space global --size 16", "pattern --op stsm --space shared --size 4",
  };
  for (const char* args : bad) {
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_GE(count_lines(r.err), 1) << args;
    EXPECT_LE(count_lines(r.err), 2) << args << "\n" << r.err;  // message (+ a usage hint)
    EXPECT_EQ(r.err.rfind("warpscope: error: ", 0), 0u) << args << "\n" << r.err;
  }
}

TEST(CliDemo, ShowsEveryScenarioOnFiveGenerations) {
  auto r = run_cli("demo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"aligned, consecutive", "permuted", "misaligned", "broadcast", "scattered", "12-byte struct",
                        "stride 2 words", "padded 32x33 tile", "64-bit words", "128-bit words", "char array"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  for (const char* a : {"sm_13", "sm_20", "sm_35", "sm_61", "sm_90"}) EXPECT_NE(r.out.find(a), std::string::npos) << a;
}

TEST(CliArchDir, UserFileAddsAnArchitectureWithoutRecompiling) {
  const auto dir = std::filesystem::temp_directory_path() / ("warpscope_archdir_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir / "sm_88.toml");
    f << "name = \"sm_88\"\ncc = \"8.8\"\nfamily = \"Ampere\"\ndescription = \"a made-up GPU\"\ninherits = \"sm_86\"\n"
         "[limits]\nmax_blocks_per_sm = { value = 24, source = \"test\" }\n";
  }
  auto r = run_cli("--arch-dir " + dir.string() + " arch 8.8 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["params"]["limits.max_blocks_per_sm"]["value"], "24");
  EXPECT_NE(j["params"]["shared.banks"]["source"].get<std::string>().find("inherited from sm_"), std::string::npos);
  auto env = run_cli("arch sm_88", "WARPSCOPE_ARCH_PATH=" + dir.string());
  EXPECT_EQ(env.exit_code, 0) << env.err;
  {
    std::ofstream f(dir / "sm_88.toml");
    f << "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_86\"\n[limits]\nmax_blocks = { value = 24, source = \"x\" }\n";
  }
  auto bad = run_cli("--arch-dir " + dir.string() + " archs");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("sm_88.toml"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("limits.max_blocks"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("max_blocks_per_sm"), std::string::npos) << bad.err;  // lists the known keys
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace warpscope::test
