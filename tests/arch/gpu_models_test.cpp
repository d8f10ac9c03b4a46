// GPU models (data/gpus/gpus.toml): the H100 entry against what this project's
// H100 reported (validation/h100/occupancy/device_props.txt), strictness of the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "validation/csv_table.hpp"
#include "warpscope/error.hpp"
#include "warpscope/gpu_models.hpp"

namespace warpscope::test {
namespace {

TEST(GpuModels, H100MatchesTheMeasuredDevice) {
  std::ifstream f(WARPSCOPE_SOURCE_DIR "/validation/h100/occupancy/device_props.txt");
  std::string line;
  long sms = 0, l2 = 0;
  while (std::getline(f, line)) {
    if (line.rfind("multiProcessorCount=", 0) == 0) sms = std::stol(line.substr(20));
    if (line.rfind("l2CacheSize=", 0) == 0) l2 = std::stol(line.substr(12));
  }
  const GpuModel& h100 = find_gpu_model("H100-SXM");
  EXPECT_EQ(h100.sms, sms);
  EXPECT_EQ(h100.l2_size, l2);
  EXPECT_EQ(h100.arch, "sm_90");
  EXPECT_EQ(find_gpu_model("h200").l2_size, 60 * 1024 * 1024);  // issue 3: 60 MB on the H200
  EXPECT_THROW(find_gpu_model("h300"), InputError);
}

TEST(GpuModels, EveryEntryHasASourceAndAKnownArch) {
  for (const auto& g : builtin_gpu_models()) {
    EXPECT_FALSE(g.source.empty()) << g.key;
    EXPECT_GT(g.sms, 0) << g.key;
  }
}

TEST(GpuModels, StrictFile) {
  const auto path = std::filesystem::temp_directory_path() / ("warpscope_gpus_" + std::to_string(::getpid()) + ".toml");
  std::ofstream(path) << "[[gpu]]\nkey = \"x\"\nname = \"X\"\narch = \"sm_90\"\nsms = 10\nl2_size = \"1M\"\nsource = \"s\"\ncolor = 1\n";
  try {
    load_gpu_models(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown key \"color\""), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

// sms as a float: 1e24 is rejected with the range message (it used to reach
// toml++'s unchecked float-to-int cast), 12.0 is read as 12.
TEST(GpuModels, FloatSmCount) {
  const auto path = std::filesystem::temp_directory_path() / ("warpscope_gpus_f_" + std::to_string(::getpid()) + ".toml");
  const auto file_with = [&](const char* sms) {
    std::ofstream(path) << "[[gpu]]\nkey = \"x\"\nname = \"X\"\narch = \"sm_90\"\nsms = " << sms
                        << "\nl2_size = \"1M\"\nsource = \"s\"\n";
  };
  file_with("1e24");
  try {
    load_gpu_models(path);
    ADD_FAILURE() << "1e24 SMs accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"sms\" must be an integer 1..4096"), std::string::npos) << e.what();
  }
  file_with("12.0");
  const auto models = load_gpu_models(path);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models.front().sms, 12);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace warpscope::test
