// `analyze --html` and `pattern --html` through the command line: the page is
// well formed, its numbers are the ones --json writes, names are escaped, and
// a bad destination is one clear error with no file left behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <algorithm>
#include <cstdio>

#include "cli/run_cli.hpp"
#include "report/html_check.hpp"

namespace warpscope::test {
namespace {

const std::string kTrace = WARPSCOPE_SOURCE_DIR "/validation/h100/cache/stencil2d.wstrace";

std::string fmt_hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return buf;
}

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("warpscope_html_" + std::to_string(::getpid()) + "_" + name);
}

// The cells after the one holding `key` in its table row (the first such row in `section`), without markup.
std::vector<std::string> row_cells(const std::string& section, const std::string& key) {
  const std::size_t at = section.find(">" + key + "</td>");
  if (at == std::string::npos) return {};
  const std::size_t end = section.find("</tr>", at);
  const std::string row = section.substr(at, end - at);
  std::vector<std::string> cells;
  static const std::regex cell("<td[^>]*>(.*?)</td>");
  for (auto it = std::sregex_iterator(row.begin(), row.end(), cell); it != std::sregex_iterator(); ++it) {
    std::string text = std::regex_replace((*it)[1].str(), std::regex("<[^>]*>"), "");
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    cells.push_back(text);
  }
  return cells;
}

TEST(CliHtml, AnalyzeReportCarriesTheJsonNumbers) {
  const auto html = temp("stencil.html"), json = temp("stencil.json");
  auto r = run_cli("analyze " + kTrace + " --arch sm_35,sm_90 --top 2 --html " + html.string() + " --json " +
                   json.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("kernel 0 'stencil2d'"), std::string::npos) << "the tables still print";
  const std::string page = slurp(html);
  EXPECT_EQ(html_problem(page), "");
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  // Every metric of the kernel's table, on both architectures, is the JSON's value.
  const std::string section = page.substr(page.find("<h2 id=\"k0\">"));
  std::size_t checked = 0;
  for (std::size_t a = 0; a < 2; ++a)
    for (const auto& [name, info] : j["archs"][a]["metric_info"].items()) {
      const auto cells = row_cells(section, info["key"].get<std::string>());
      if (cells.empty()) continue;  // zero everywhere: not shown
      ASSERT_EQ(cells.size(), 2u + 2u) << info["key"];  // from, profiler name, sm_35, sm_90
      const double value = j["archs"][a]["kernels"][0]["metrics"][name].get<double>();
      const std::string& shown = cells[2 + a];
      if (info["unit"] == "%") EXPECT_NEAR(std::stod(shown), value, 0.001) << name;
      else if (value == static_cast<double>(static_cast<std::uint64_t>(value)))
        EXPECT_EQ(shown, std::to_string(static_cast<std::uint64_t>(value))) << name;
      else EXPECT_NEAR(std::stod(shown), value, 0.0005) << name;
      ++checked;
    }
  EXPECT_GT(checked, 40u);
  // The top instructions, as --json ranks them on the first architecture, each with its picture.
  const auto& top = j["archs"][0]["top"];
  ASSERT_EQ(top.size(), 2u);
  for (int rank = 1; rank <= 2; ++rank) {
    const std::size_t at = page.find("<h3 id=\"pc-" + std::to_string(rank) + "\">");
    ASSERT_NE(at, std::string::npos) << rank;
    const std::string pc = fmt_hex(top[rank - 1]["pc"].get<std::uint64_t>());
    EXPECT_NE(page.find(pc, at), std::string::npos) << rank;
  }
  EXPECT_EQ(occurrences(page, "class=\"lines-picture\""), 2u);
  std::filesystem::remove(html);
  std::filesystem::remove(json);
}

TEST(CliHtml, NamesAreEscapedAndSharedAccessesGetBanks) {
  const auto trace = temp("names.wst.txt"), html = temp("names.html");
  {
    std::ofstream f(trace);
    f << "wstrace 1\n"
         "kernel 0 name=\"void tile<float, 32>(float const*&, int)\" grid=1 block=32 source=synthetic\n"
         "loc k=0 pc=0x10 file=\"a&b<c>.cu\" line=7\n"
         "rec k=0 pc=0x10 shared ld 4 addr=0x0+128\n";
  }
  auto r = run_cli("analyze " + trace.string() + " --arch sm_90 --html " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = slurp(html);
  EXPECT_EQ(html_problem(page), "");
  EXPECT_NE(page.find("void tile&lt;float, 32&gt;(float const*&amp;, int)"), std::string::npos);
  EXPECT_NE(page.find("a&amp;b&lt;c&gt;.cu:7"), std::string::npos);
  EXPECT_EQ(page.find("tile<float"), std::string::npos);
  // A column of a 32 x 32 tile (seed002): 32 lanes in bank 0, 32 rows: a 32-way conflict.
  EXPECT_EQ(occurrences(page, "class=\"word conflict\""), 32u);
  EXPECT_NE(page.find("32 (ideal 1)"), std::string::npos);
  std::filesystem::remove(trace);
  std::filesystem::remove(html);
}

TEST(CliHtml, ToStandardOutputInsteadOfTheTables) {
  auto r = run_cli("analyze " + kTrace + " --arch sm_90 --top 1 --html -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html_problem(r.out), "");
  EXPECT_EQ(r.out.find("kernel 0 'stencil2d'"), std::string::npos);
  auto both = run_cli("analyze " + kTrace + " --arch sm_90 --html - --json -");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(count_lines(both.err), 1);
  EXPECT_NE(both.err.find("only one of them can write to standard output"), std::string::npos) << both.err;
}

TEST(CliHtml, UnwritableDestinationIsOneErrorAndNoFile) {
  const std::string dest = "/nonexistent-dir/report.html";
  auto r = run_cli("analyze " + kTrace + " --arch sm_90 --html " + dest);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("cannot write " + dest), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dest));
  // A bad trace: no report at all.
  const auto html = temp("bad.html"), bad = temp("bad.wst");
  {
    std::ofstream f(bad);
    f << "wstrace 1\nrec k=0 pc=0 global ld 4 addr=0x0+4\n";
  }
  auto b = run_cli("analyze " + bad.string() + " --html " + html.string());
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(html));
  EXPECT_FALSE(std::filesystem::exists(html.string() + ".tmp"));
  std::filesystem::remove(bad);
}

// A trace of many launches: the page keeps to what a browser opens (sections for 500
// kernels, 50 pictures), says what it left out, and every link has its target.
TEST(CliHtml, ManyKernelsStayReadable) {
  const auto trace = temp("many.txt"), html = temp("many.html");
  {
    std::ofstream f(trace);
    f << "wstrace 1\n";
    for (int k = 0; k < 501; ++k)
      f << "kernel " << k << " name=k" << k << " grid=1 block=32\nrec k=" << k << " pc=0x10 global ld 4 addr="
        << 0x10000 + 4096 * k << "+" << 4 * (1 + k % 8) << "\n";
  }
  auto r = run_cli("analyze " + trace.string() + " --arch sm_90 --top 60 --html " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = slurp(html);
  EXPECT_EQ(html_problem(page), "");
  EXPECT_EQ(occurrences(page, "<h2 id=\"k"), 500u);
  EXPECT_NE(page.find("for the first 500 of 501 kernels"), std::string::npos);
  EXPECT_EQ(occurrences(page, "class=\"lines-picture\""), 50u);
  EXPECT_NE(page.find("Pictures of the first 50 of these 60 instructions."), std::string::npos);
  // Every in-page link has its anchor.
  for (std::size_t at = page.find("href=\"#"); at != std::string::npos; at = page.find("href=\"#", at + 1)) {
    const std::string id = page.substr(at + 7, page.find('"', at + 7) - at - 7);
    EXPECT_NE(page.find("id=\"" + id + "\""), std::string::npos) << id;
  }
  std::filesystem::remove(trace);
  std::filesystem::remove(html);
}

// seed001's misaligned warp drawn by `pattern --html`: two lines, five sectors touched
// (five used runs, two moved runs, three idle sectors), and the counts of every architecture.
TEST(CliHtml, PatternPageDrawsTheAccess) {
  const auto html = temp("pattern.html");
  auto r = run_cli("pattern --arch sm_20,sm_90 --index 'lane+1' --html " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("counter"), std::string::npos) << "the table still prints";
  const std::string page = slurp(html);
  EXPECT_EQ(html_problem(page), "");
  EXPECT_EQ(occurrences(page, "class=\"used\""), 5u);
  EXPECT_EQ(occurrences(page, "class=\"moved\""), 2u);
  EXPECT_EQ(occurrences(page, "class=\"idle\""), 3u);
  const auto sectors = row_cells(page, "sectors (32 B)");
  ASSERT_EQ(sectors.size(), 2u);
  EXPECT_EQ(sectors[1], "5");  // sm_90
  auto out = run_cli("pattern --index lane --html - --json");
  EXPECT_EQ(out.exit_code, 2);
  EXPECT_NE(out.err.find("only one of them can write to standard output"), std::string::npos) << out.err;
  std::filesystem::remove(html);
}

// `make demo`'s page: every scenario of the seeds drawn once (global: lines; shared: banks,
// once for sm_13's 16 banks and once for the 32 of the others) with its counts.
TEST(CliHtml, DemoPageDrawsEveryScenario) {
  const auto html = temp("demo.html");
  auto r = run_cli("demo --html " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("The scenarios drawn, lines and sectors or banks: " + html.string()), std::string::npos);
  const std::string page = slurp(html);
  EXPECT_EQ(html_problem(page), "");
  EXPECT_EQ(occurrences(page, "<h3>"), 18u);
  EXPECT_EQ(occurrences(page, "class=\"lines-picture\""), 9u);
  EXPECT_EQ(occurrences(page, "class=\"banks-picture\""), 18u);
  // seed002's padded 32x33 tile is among them (the description is escaped).
  EXPECT_NE(page.find("lane i -&gt; base + 4 * (lane * 33)"), std::string::npos);
  std::filesystem::remove(html);
  auto bad = run_cli("demo --html /nonexistent-dir/demo.html");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty()) << "nothing printed before the error";
}

// The occupancy calculator's graph (issue 6: "as text and in the HTML report"): a
// point per block size the sweep computes, the table under it equal to --json's.
TEST(CliHtml, OccupancySweepGraph) {
  const auto html = temp("occupancy.html");
  const std::string args = "occupancy --arch sm_86,sm_90 --regs 64 --sweep";
  auto r = run_cli(args + " --html " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = slurp(html);
  EXPECT_EQ(html_problem(page), "");
  const auto j = nlohmann::json::parse(run_cli(args + " --json").out);
  ASSERT_EQ(j["sweep"].size(), 2u);
  std::size_t points = 0;
  for (const auto& arch : j["sweep"])
    for (const auto& p : arch["points"]) points += p.contains("occupancy") ? 1 : 0;
  EXPECT_EQ(points, 2u * 32u);  // 32 .. 1024 threads in warps, both run everywhere
  EXPECT_EQ(occurrences(page, "<circle"), points);
  // The row of 256 threads: sm_86 then sm_90, as the JSON computes them.
  const auto row = row_cells(page, "256");
  ASSERT_EQ(row.size(), 2u);
  for (std::size_t a = 0; a < 2; ++a) {
    const auto& p = j["sweep"][a]["points"][7];
    ASSERT_EQ(p["threads"], 256);
    char want[64];
    std::snprintf(want, sizeof want, "%.1f%% (%d warps)", 100.0 * p["occupancy"].get<double>(),
                  p["warps_per_sm"].get<int>());
    EXPECT_EQ(row[a], want) << a;
  }
  auto no_sweep = run_cli("occupancy --arch sm_90 --block 256 --regs 32 --html " + html.string() + ".2");
  EXPECT_EQ(no_sweep.exit_code, 2);
  EXPECT_NE(no_sweep.err.find("--html draws the graph of a sweep"), std::string::npos) << no_sweep.err;
  EXPECT_FALSE(std::filesystem::exists(html.string() + ".2"));
  std::filesystem::remove(html);
}

}  // namespace
}  // namespace warpscope::test
