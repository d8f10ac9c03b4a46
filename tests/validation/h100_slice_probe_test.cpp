// The facts validation/h100/slice_probe/README.md states (recorded on the
// H100): how many L2 slices Nsight Compute's lts__ rollups span, and which
// addresses one SM's reads send to the same slice. A launch reads each of its
// lines R times; lts__t_sectors_srcunit_tex_op_read.max is R times the most
// lines that share one slice.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "validation/csv_table.hpp"

namespace warpscope::test {
namespace {

constexpr const char* kMetric = "lts__t_sectors_srcunit_tex_op_read";

struct Launch {
  std::vector<std::uint64_t> offsets;  // bytes
  double sum = 0, max = 0, avg = 0;
};

// config ("one:R:OFF+OFF..." or "lines:R:...") -> its launch, in list `list`.
std::vector<Launch> launches(const std::string& list) {
  const CsvTable t = read_csv(WARPSCOPE_SOURCE_DIR "/validation/h100/slice_probe/" + list + "/summary.csv");
  const int config = t.column("config");
  const int sum = t.column(std::string(kMetric) + ".sum"), max = t.column(std::string(kMetric) + ".max"),
            avg = t.column(std::string(kMetric) + ".avg");
  std::vector<Launch> out;
  for (const auto& row : t.rows) {
    Launch l;
    const std::string& c = row[static_cast<std::size_t>(config)];
    const std::size_t at = c.find(':', c.find(':') + 1) + 1;
    for (std::size_t from = at; from < c.size();) {
      std::size_t plus = c.find('+', from);
      if (plus == std::string::npos) plus = c.size();
      l.offsets.push_back(std::stoull(c.substr(from, plus - from)));
      from = plus + 1;
    }
    l.sum = std::stod(row[static_cast<std::size_t>(sum)]);
    l.max = std::stod(row[static_cast<std::size_t>(max)]);
    l.avg = std::stod(row[static_cast<std::size_t>(avg)]);
    out.push_back(l);
  }
  return out;
}

// How many lines share the fullest slice: max = n x R + (0 .. the launch's other reads).
int lines_in_fullest(const Launch& l, double r) {
  const double other = l.sum - r * static_cast<double>(l.offsets.size());
  EXPECT_GE(other, 0);
  EXPECT_LE(other, static_cast<double>(l.offsets.size()) / 4 + 1);
  const auto n = static_cast<int>(l.max / r);
  EXPECT_LE(l.max - n * r, other) << "max " << l.max << " is not a multiple of " << r << " reads";
  return n;
}

// Of the two-line launches: the second offset -> whether both lines share a slice.
std::map<std::uint64_t, bool> pairs_with(const std::vector<Launch>& ls, std::uint64_t first, double r) {
  std::map<std::uint64_t, bool> out;
  for (const auto& l : ls)
    if (l.offsets.size() == 2 && l.offsets[0] == first) out[l.offsets[1]] = lines_in_fullest(l, r) == 2;
  return out;
}

TEST(H100SliceProbe, EightyL2SlicesAndEveryReadOfALineInOne) {
  for (const char* list : {"a", "b", "c"})
    for (const auto& l : launches(list)) {
      // sum / avg: the number of lts instances (slices) the rollup averages over.
      EXPECT_NEAR(l.sum / l.avg, 80.0, 0.05) << list;
    }
  const auto a = launches("a");
  for (const auto& l : a) {
    if (l.offsets.size() != 1) continue;
    EXPECT_EQ(lines_in_fullest(l, 2000), 1) << l.offsets[0];  // all 2,000 reads in one slice
  }
}

TEST(H100SliceProbe, LineZerosSliceAmongTheFirst1024LinesIsALinearSubspace) {
  const auto b = launches("b");
  const auto same = pairs_with(b, 0, 1000);
  ASSERT_EQ(same.size(), 1023u + 13u);
  // The lines (index = offset / 128) measured in line 0's slice.
  std::set<std::uint64_t> measured = {0};
  for (const auto& [off, s] : same)
    if (s && off < 1024 * 128) measured.insert(off / 128);
  // The span of five line indices: lines 1 (address bit 7), 4 (bit 9),
  // 48 (bits 11 + 12), 328 (bits 10 + 13 + 15) and 530 (bits 8 + 11 + 16).
  std::set<std::uint64_t> span = {0};
  for (std::uint64_t g : {1u, 4u, 48u, 328u, 530u}) {
    std::set<std::uint64_t> more = span;
    for (std::uint64_t x : span) more.insert(x ^ g);
    span = more;
  }
  EXPECT_EQ(span.size(), 32u);
  EXPECT_EQ(measured, span);
  // Above the first 128 KB, of bits 17..29 alone only bit 17 keeps line 0's slice.
  for (int bit = 17; bit <= 29; ++bit) EXPECT_EQ(same.at(std::uint64_t{1} << bit), bit == 17) << "bit " << bit;
  // 256 consecutive lines, or 256 lines 4 KB apart: at most 8 in one slice
  // (the 1,000 reads of each line, + up to 16 from elsewhere).
  for (const auto& l : b) {
    if (l.offsets.size() != 256) continue;
    EXPECT_EQ(lines_in_fullest(l, 1000), 8);
  }
}

TEST(H100SliceProbe, HighAddressBitsMostlyXorIntoTheLowBitsSlices) {
  // Each high address against one line of each of the 32 slices lines 0-1023 use.
  const auto c = launches("c");
  std::map<std::uint64_t, std::vector<std::uint64_t>> match;  // high offset -> lines sharing its slice
  for (const auto& l : c) {
    if (l.offsets.size() != 2) continue;
    auto& m = match[l.offsets[0]];
    if (lines_in_fullest(l, 1000) == 2) m.push_back(l.offsets[1] / 128);
  }
  auto at = [&](std::initializer_list<int> bits) {
    std::uint64_t off = 0;
    for (int b : bits) off |= std::uint64_t{1} << b;
    const auto& m = match.at(off);
    EXPECT_LE(m.size(), 1u);
    return m.empty() ? -1 : static_cast<int>(m.front());
  };
  // Bits 18-23, 26 and 27 each land in one of the 32 slices; 24, 25, 28 and 29 in none of them.
  const std::map<int, int> single = {{18, 136}, {19, 208}, {20, 74}, {21, 82}, {22, 192}, {23, 72},
                                     {24, -1},  {25, -1},  {26, 74}, {27, 192}, {28, -1}, {29, -1}};
  for (const auto& [bit, line] : single) EXPECT_EQ(at({bit}), line) << "bit " << bit;
  // XOR-linear for three pairs of bits (the lines' indices XOR)...
  EXPECT_EQ(at({18, 20}), 136 ^ 74);
  EXPECT_EQ(at({19, 20}), 208 ^ 74);
  EXPECT_EQ(at({20, 21}), 74 ^ 82);
  // ... but not for bits 18 + 19 (88 expected, 90 measured), nor 18 + 19 + 20.
  EXPECT_EQ(at({18, 19}), 90);
  EXPECT_EQ(at({18, 19, 20}), -1);
  // 1,024 lines 1 MB apart: 33 at most in one slice (25.6 if spread evenly over 40).
  for (const auto& l : c) {
    if (l.offsets.size() != 1024) continue;
    EXPECT_EQ(lines_in_fullest(l, 1000), 33);
  }
}

}  // namespace
}  // namespace warpscope::test
