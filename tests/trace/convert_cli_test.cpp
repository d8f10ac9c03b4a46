// `warpscope convert` through the command line: text -> native -> text gives
// the same text back, the extension or --to picks the format, and bad input
// is one error line, exit code 2 and no output file.
#include <gtest/gtest.h>

#include "cli/run_cli.hpp"
#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

const char* const kText =
    "wstrace 1\n"
    "kernel 0 name=transpose grid=64,64,1 block=32,8,1 dyn_smem=0 static_smem=4224 regs=32 arch=sm_90 "
    "gpu=\"NVIDIA H100 80GB HBM3\" source=synthetic\n"
    "loc k=0 pc=0x1a0 file=transpose.cu line=42\n"
    "rec k=0 pc=0x1a0 cta=5 warp=1 sm=-1 global ld 4 default mask=ffffffff addr=0x7f0000000000+4\n"
    "rec k=0 pc=0x1b0 cta=5 warp=1 sm=7 shared st 8 wb mask=80000001 addr=0x10,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,"
    "-,-,-,-,-,-,-,-,-,-,-,-,0x8\n"
    "kernel 1 name=\"\" grid=1,1,1 block=1,1,1 dyn_smem=0 static_smem=0 regs=0 arch=\"\" gpu=\"\" source=\"\"\n"
    "rec k=1 pc=0x0 cta=0 warp=0 sm=-1 global atom 16 cg mask=00000000\n"
    "rec k=0 pc=0x1a0 cta=6 warp=1 sm=-1 global ld 4 default mask=ffffffff addr=0x7f0000000080+4\n";

std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

TEST(CliConvert, TextToNativeAndBack) {
  const auto dir = scratch_dir();
  write_bytes(dir / "in.txt", kText);
  auto r = run_cli("convert " + q(dir / "in.txt") + " " + q(dir / "mid.wst") + " --level 19");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, (dir / "in.txt").string() + " -> " + (dir / "mid.wst").string() +
                       " (native): 4 records, 2 kernels\n");
  EXPECT_EQ(read_bytes(dir / "mid.wst").substr(0, 4), "\x89WST");
  r = run_cli("convert " + q(dir / "mid.wst") + " " + q(dir / "out.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_bytes(dir / "out.txt"), kText);
  // --to overrides the extension.
  r = run_cli("convert " + q(dir / "mid.wst") + " " + q(dir / "out2.wst") + " --to text");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_bytes(dir / "out2.wst"), kText);
  r = run_cli("convert " + q(dir / "in.txt") + " " + q(dir / "out3.txt") + " --to native --records-per-chunk 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_bytes(dir / "out3.txt").substr(0, 4), "\x89WST");
  EXPECT_EQ(read_all(dir / "out3.txt").records.size(), 4u);
}

TEST(CliConvert, DashIsStandardOutput) {
  const auto dir = scratch_dir();
  write_bytes(dir / "in.txt", kText);
  ASSERT_EQ(run_cli("convert " + q(dir / "in.txt") + " " + q(dir / "in.wst")).exit_code, 0);
  const auto r = run_cli("convert " + q(dir / "in.wst") + " -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kText);  // the text form, and nothing else, on standard output
  EXPECT_NE(r.err.find(" -> - (text): 4 records, 2 kernels"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists("-"));
  EXPECT_FALSE(std::filesystem::exists("-.partial"));
}

TEST(CliConvert, BadInputIsOneLineExit2AndNoOutput) {
  const auto dir = scratch_dir();
  write_bytes(dir / "good.txt", kText);
  ASSERT_EQ(run_cli("convert " + q(dir / "good.txt") + " " + q(dir / "good.wst")).exit_code, 0);
  const std::string native = read_bytes(dir / "good.wst");
  write_bytes(dir / "cut.wst", native.substr(0, native.size() - 40));  // no footer

  struct Case {
    std::string args, error;
  };
  const std::string bad_text = std::string(kText) + "rec k=0 global ld 4 mask=1 addr=4,8\n";
  write_bytes(dir / "bad.txt", bad_text);
  write_bytes(dir / "misaligned.txt", std::string(kText) + "rec k=0 global st 8 addr=0x1000+12\n");
  const Case cases[] = {
      {"convert " + q(dir / "cut.wst") + " " + q(dir / "o1.txt"), "missing footer at byte"},
      {"convert " + q(dir / "bad.txt") + " " + q(dir / "o2.wst"), "bad.txt:9:35: lane 1 is not in mask=00000001"},
      {"convert " + q(dir / "misaligned.txt") + " " + q(dir / "o6.wst"),
       "misaligned.txt:9:26: lane 1 address 0x100c is not a multiple of the record's size, 8 bytes"},
      {"convert " + q(dir / "nope.wst") + " " + q(dir / "o3.wst"), "cannot open"},
      {"convert " + q(dir / "good.txt") + " " + q(dir / "o4.wst") + " --level 99", "zstd level 99 is out of range"},
      {"convert " + q(dir / "good.txt") + " " + q(dir / "o5.wst") + " --to json", "--to"},
  };
  for (const auto& c : cases) {
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("warpscope: error: ", 0), 0u) << r.err;
    if (c.args.find("--to json") == std::string::npos) {
      EXPECT_EQ(count_lines(r.err), 1) << r.err;
    }
  }
  for (const char* name : {"o1.txt", "o2.wst", "o3.wst", "o4.wst", "o5.wst", "o6.wst"}) {
    EXPECT_FALSE(std::filesystem::exists(dir / name)) << name;
    EXPECT_FALSE(std::filesystem::exists(dir / (std::string(name) + ".partial"))) << name;
  }
}

TEST(CliConvert, RecoversAPartialTrace) {
  const auto dir = scratch_dir();
  write_bytes(dir / "p.txt", kText);
  ASSERT_EQ(run_cli("convert " + q(dir / "p.txt") + " " + q(dir / "p.wst")).exit_code, 0);
  const std::string native = read_bytes(dir / "p.wst");
  write_bytes(dir / "p2.wst", native.substr(0, native.size() - 40));  // footer gone
  auto r = run_cli("convert --recover " + q(dir / "p2.wst") + " " + q(dir / "p2.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warpscope: note: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no footer: recovered 4 records of 2 kernels"), std::string::npos) << r.err;
  EXPECT_EQ(read_bytes(dir / "p2.txt"), kText);
}

}  // namespace
}  // namespace warpscope::test
