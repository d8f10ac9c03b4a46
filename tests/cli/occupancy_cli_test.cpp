// `warpscope occupancy` through the command line: JSON keys, every architecture
// side by side, the sweep, and one clear error line (exit 2) for every
// impossible configuration, naming the limit it breaks.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace warpscope::test {
namespace {

TEST(CliOccupancy, JsonHasTheIssueKeys) {
  auto r = run_cli("occupancy --arch sm_86 --block 256 --regs 64 --smem 48K --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["input"]["threads"], 256);
  EXPECT_EQ(j["input"]["smem"], 49152);
  ASSERT_EQ(j["results"].size(), 1u);
  const auto& res = j["results"][0];
  EXPECT_EQ(res["arch"], "sm_86");
  EXPECT_EQ(res["blocks_per_sm"], 2);
  EXPECT_EQ(res["warps_per_sm"], 16);
  EXPECT_EQ(res["threads_per_sm"], 512);
  EXPECT_DOUBLE_EQ(res["occupancy"].get<double>(), 16.0 / 48.0);
  EXPECT_EQ(res["limiter"], nlohmann::json::array({"shared_memory"}));
  EXPECT_EQ(res["block_limits"]["warps"], 6);
  EXPECT_EQ(res["block_limits"]["registers"], 4);
  EXPECT_EQ(res["block_limits"]["shared_memory"], 2);
  EXPECT_EQ(res["block_limits"]["blocks"], 16);
  EXPECT_EQ(res["allocated"]["registers_per_block"], 16384);
  EXPECT_EQ(res["allocated"]["shared_per_block"], 50176);
  EXPECT_EQ(res["allocated"]["shared_per_sm"], 102400);
  EXPECT_EQ(res["raise"]["shared_per_block"]["at_most"], 33024);
  EXPECT_TRUE(res["raise"]["registers_per_thread"]["at_most"].is_null());
  EXPECT_EQ(res["raise"]["registers_per_thread"]["blocked_by"], nlohmann::json::array({"shared_memory"}));
}

TEST(CliOccupancy, NumbersInEverySpelling) {
  auto ref = run_cli("occupancy --arch sm_90 --block 128 --regs 32 --smem 49152 --json");
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  for (const char* smem : {"48K", "48k", "0xC000", "0xc000"}) {
    auto r = run_cli(std::string("occupancy --arch sm_90 --block 128 --regs 32 --smem ") + smem + " --json");
    EXPECT_EQ(r.exit_code, 0) << smem << ": " << r.err;
    EXPECT_EQ(r.out, ref.out) << smem;
  }
}

TEST(CliOccupancy, DefaultShowsEveryArchitectureAndMarksTheImpossibleOnes) {
  auto r = run_cli("occupancy --block 256 --regs 64 --smem 48K --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 28u);
  EXPECT_EQ(j["results"][0]["arch"], "sm_10");
  // 1.x cannot hold 64 registers x 256 threads or 48 KB; 2.x allows 63 registers per thread.
  EXPECT_NE(j["results"][0]["error"].get<std::string>().find("max_registers_per_block"), std::string::npos);
  EXPECT_NE(j["results"][4]["error"].get<std::string>().find("max_registers_per_thread"), std::string::npos);
  EXPECT_EQ(j["results"][27]["arch"], "sm_121");
  EXPECT_TRUE(j["results"][27].contains("blocks_per_sm"));

  auto text = run_cli("occupancy --block 256 --regs 64 --smem 48K");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("impossible: 64 registers per thread exceed max_registers_per_thread = 63"),
            std::string::npos);
  EXPECT_NE(text.out.find("sm_121"), std::string::npos);
  EXPECT_NE(text.out.find("limited by"), std::string::npos);
}

TEST(CliOccupancy, CarveoutAndL1Config) {
  auto r = run_cli("occupancy --arch sm_90 --block 128 --regs 10 --smem 16K --carveout 25 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["results"][0]["blocks_per_sm"], 3);  // validation/h100/README.md
  r = run_cli("occupancy --arch sm_35 --block 128 --regs 32 --smem 12K --l1-config l1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["results"][0]["blocks_per_sm"], 1);
}

TEST(CliOccupancy, SweepOverBlockSizes) {
  auto r = run_cli("occupancy --arch sm_86 --regs 32 --sweep --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["axis"], "block");
  const auto& points = j["sweep"][0]["points"];
  ASSERT_EQ(points.size(), 32u);
  EXPECT_EQ(points[0]["threads"], 32);
  EXPECT_EQ(points[31]["threads"], 1024);
  EXPECT_TRUE(points[3].contains("limiter"));

  auto text = run_cli("occupancy --arch sm_86 --block 256 --regs 32 --sweep");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("|##################################################|"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\n*      256"), std::string::npos) << text.out;  // the given block size is marked
  EXPECT_GE(count_lines(text.out), 34);

  for (const char* axis : {"regs", "smem"}) {
    auto s = run_cli(std::string("occupancy --arch sm_20,sm_90 --block 128 --regs 32 --sweep ") + axis + " --json");
    ASSERT_EQ(s.exit_code, 0) << axis << ": " << s.err;
    const auto js = nlohmann::json::parse(s.out);
    EXPECT_EQ(js["axis"], axis);
    EXPECT_EQ(js["sweep"].size(), 2u);
    EXPECT_TRUE(js["sweep"][1]["points"][0].contains(axis));
  }
}

// One line on stderr, exit code 2, naming what is wrong.
TEST(CliOccupancy, ImpossibleConfigurationsAreOneLineNamingTheLimit) {
  const std::pair<const char*, const char*> cases[] = {
      {"occupancy --arch sm_90 --block 2048 --regs 32", "max_threads_per_block = 1024"},
      {"occupancy --arch sm_90 --block 256 --regs 300", "max_registers_per_thread = 255"},
      {"occupancy --arch sm_90 --block 1024 --regs 65", "max_registers_per_block = 65536"},
      {"occupancy --arch sm_86 --block 128 --regs 32 --smem 100K", "max_shared_per_block_optin = 99 KB"},
      {"occupancy --arch sm_90 --block 0 --regs 32", "at least 1 thread"},
      {"occupancy --arch sm_90 --block abc --regs 32", "--block abc"},
      {"occupancy --arch sm_90 --block -5 --regs 32", "--block -5"},
      {"occupancy --arch sm_90 --block 128 --regs x", "--regs x"},
      {"occupancy --arch sm_90 --block 128 --regs 32 --smem 12Q", "--smem 12Q"},
      {"occupancy --arch sm_90 --block 128 --regs 32 --carveout 150", "--carveout 150"},
      {"occupancy --arch sm_90 --block 128 --regs 32 --l1-config big", "--l1-config big"},
      {"occupancy --arch sm_90 --block 128 --regs 32 --sweep threads", "--sweep threads"},
      {"occupancy --arch sm_90 --regs 32", "--block"},
      {"occupancy --arch sm_90 --block 128", "--regs"},
      {"occupancy --arch sm_42 --block 128 --regs 32", "unknown architecture"},
      // impossible on every architecture shown: the first reason, and how many
      {"occupancy --block 2048 --regs 32", "max_threads_per_block"},
      {"occupancy --arch sm_13,sm_20 --block 128 --regs 200", "impossible on all 2 architectures"},
  };
  for (const auto& [args, what] : cases) {
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args << "\n" << r.out;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("warpscope: error: ", 0), 0u) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << args << "\n" << r.err;
  }
}

}  // namespace
}  // namespace warpscope::test
