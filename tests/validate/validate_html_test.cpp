// `warpscope validate --html`: the page of a validation of the H100 cache kernels
// (the suite fixture): it nests, carries the summary and every launch, draws one
// dot per checked rate and per relative counter as the JSON lists them, and a
// failing counter shows as a failure.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"
#include "report/html_check.hpp"
#include "validate/suite_fixture.hpp"

namespace warpscope::test {
namespace {

TEST(ValidateHtml, OnePageWithEveryLaunchAndADotPerCheckedCounter) {
  const auto dir = make_suite_dir("html");
  const auto r = run_cli("validate " + dir.string() + " --html " + (dir / "v.html").string() + " --json " +
                         (dir / "v.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::string page = read_text(dir / "v.html");
  EXPECT_EQ(html_problem(page), "");
  EXPECT_NE(page.find("exact counters: 78 of 78 match"), std::string::npos);
  EXPECT_NE(page.find("result: PASS"), std::string::npos);
  const auto j = nlohmann::json::parse(read_text(dir / "v.json"));
  std::size_t rates = 0, relative = 0;
  for (const auto& k : j["kernels"])
    for (const auto& c : k["counters"]) {
      if (c["verdict"] == "-") continue;
      if (c["unit"] == "points") ++rates;
      if (c["unit"] == "percent" && c["hardware"].get<double>() > 0) ++relative;
    }
  EXPECT_EQ(rates, 6u * 2u);  // L1 and L2 hit rates of six launches
  EXPECT_GT(relative, 0u);
  EXPECT_EQ(occurrences(page, "<circle class=\"point"), rates + relative);
  for (int k = 0; k < 6; ++k) {
    EXPECT_NE(page.find("href=\"#l" + std::to_string(k) + "\""), std::string::npos) << k;
    EXPECT_NE(page.find("<details id=\"l" + std::to_string(k) + "\""), std::string::npos) << k;
  }
  EXPECT_EQ(occurrences(page, "<tr class=\"fail\">"), 0u);
}

TEST(ValidateHtml, AFailureStandsOut) {
  const auto dir = make_suite_dir("html_fail");
  ASSERT_TRUE(corrupt_stencil_sectors(dir));
  const auto r = run_cli("validate " + dir.string() + " --html -");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(html_problem(r.out), "");
  EXPECT_NE(r.out.find("result: FAIL, 1 counter outside tolerance"), std::string::npos);
  // The launch's row and the counter's row marked, the launch's counters open.
  EXPECT_EQ(occurrences(r.out, "<tr class=\"fail\">"), 2u);
  EXPECT_NE(r.out.find("<details id=\"l0\" open>"), std::string::npos);
  auto both = run_cli("validate " + dir.string() + " --html - --json -");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("only one of them can write to standard output"), std::string::npos) << both.err;
}

}  // namespace
}  // namespace warpscope::test
