// The facts validation/h100/write_probe/README.md states from its list d
// (recorded on the H100): which address bit, always 0 in the stored lines,
// keeps 32K partially written lines from being written back during the
// kernel. Numbers are sectors (dram__bytes_write / 32).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "validation/csv_table.hpp"

namespace warpscope::test {
namespace {

// config -> sectors written back, every run of it in list `list`.
std::map<std::string, std::vector<double>> written_back(const std::string& list = "d") {
  const CsvTable t = read_csv(WARPSCOPE_SOURCE_DIR "/validation/h100/write_probe/" + list + "/summary.csv");
  const int config = t.column("config"), write = t.column("dram__bytes_write.sum");
  std::map<std::string, std::vector<double>> out;
  for (const auto& row : t.rows) out[row[static_cast<std::size_t>(config)]].push_back(std::stod(row[static_cast<std::size_t>(write)]) / 32);
  return out;
}

TEST(H100WriteProbe, OnlyBitSevenLeftOutKeepsThirtyTwoThousandPartialLines) {
  const auto wb = written_back();
  // Consecutive lines: ~2,500 written back (two runs).
  ASSERT_EQ(wb.at("spread:4:128:32768").size(), 2u);
  for (double v : wb.at("spread:4:128:32768")) EXPECT_GE(v, 2500);
  // Bit 7 always 0 (line stride 2): none, twice.
  ASSERT_EQ(wb.at("skip:4:7:32768").size(), 2u);
  for (double v : wb.at("skip:4:7:32768")) EXPECT_LE(v, 16);
  // Any other bit 8..24 left out: 200 or more, and bit 13 the fewest of them.
  double fewest = 1e9;
  int fewest_bit = 0;
  for (int bit = 8; bit <= 24; ++bit) {
    const double v = wb.at("skip:4:" + std::to_string(bit) + ":32768").front();
    EXPECT_GE(v, 200) << "bit " << bit;
    if (v < fewest) {
      fewest = v;
      fewest_bit = bit;
    }
  }
  EXPECT_EQ(fewest_bit, 13);
  // At 64K lines bit 7 is no longer enough, but still among the fewest.
  EXPECT_GT(wb.at("skip:4:7:65536").front(), 8000);
  EXPECT_LT(wb.at("skip:4:7:65536").front(), wb.at("spread:4:128:65536").front());
}

// List e: bit 7 and one more left out. Bit 7 is not enough by itself.
TEST(H100WriteProbe, BitSevenAndOneMoreLeftOutWriteBackAgainForMostBits) {
  const auto wb = written_back("e");
  EXPECT_LE(wb.at("skip:4:7:32768").front(), 16);
  EXPECT_GE(wb.at("spread:4:128:32768").front(), 2500);
  int back = 0;
  for (int bit = 8; bit <= 22; ++bit) {
    const double v = wb.at("skip2:4:7:" + std::to_string(bit) + ":32768").front();
    if (bit == 9 || bit == 16 || bit == 22) EXPECT_LE(v, 16) << "bit " << bit;
    else back += v >= 150 ? 1 : 0;
  }
  EXPECT_EQ(back, 12);  // every other bit of 8..22
  // The stride-2 onset: growing with the line count, below consecutive lines at 40K.
  EXPECT_LT(wb.at("skip:4:7:40960").front(), wb.at("skip:4:7:49152").front());
  EXPECT_LT(wb.at("skip:4:7:49152").front(), wb.at("skip:4:7:57344").front());
  EXPECT_LT(wb.at("skip:4:7:40960").front(), 4496);  // list b, consecutive lines at 40,960
}

}  // namespace
}  // namespace warpscope::test
