// The HTML reports' pieces: escaping, the line and bank pictures' geometry
// (worked out by hand from the seeds' scenarios, and checked against the rules
// engine's counts of the same access), and well-formed markup.
#include "report/access_picture.hpp"

#include <gtest/gtest.h>

#include "report/html.hpp"
#include "report/html_check.hpp"
#include "report/svg_chart.hpp"
#include "test_support.hpp"

namespace warpscope::test {
namespace {

using report::lines_touched;

TEST(HtmlEscape, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(report::html_escape("void f<int>(float*&, 'a', \"b\")"),
            "void f&lt;int&gt;(float*&amp;, &#39;a&#39;, &quot;b&quot;)");
  EXPECT_EQ(report::html_escape("plain"), "plain");
}

TEST(HtmlEscape, GroupsDigitsOfLongWholeNumbers) {
  EXPECT_EQ(report::group_digits("16585728 B"), "16,585,728 B");
  EXPECT_EQ(report::group_digits("123456"), "123,456");
  EXPECT_EQ(report::group_digits("4096"), "4096");
  EXPECT_EQ(report::group_digits("17.999"), "17.999");
  EXPECT_EQ(report::group_digits("12.5%"), "12.5%");
  EXPECT_EQ(report::group_digits("-"), "-");
}

TEST(HtmlCheck, CatchesWhatItIsFor) {  // the checker itself, so that its silence means something
  EXPECT_EQ(html_problem(report::html_page("t", "<p>a &amp; b</p>\n")), "");
  EXPECT_NE(html_problem(report::html_page("t", "<p>a & b</p>\n")), "");
  EXPECT_NE(html_problem(report::html_page("t", "<p><b>x</p></b>\n")), "");
  EXPECT_NE(html_problem(report::html_page("t", "<p>x\n")), "");
  EXPECT_NE(html_problem(report::html_page("t", "<p>1 > 0</p>\n")), "");
}

// seed001 "misaligned by 4 B": lanes read base + 4 (i + 1); the warp touches
// bytes 4-127 of one line and 0-3 of the next: five 32 B sectors.
TEST(LinesTouched, OneWordMisalignedWarpTouchesTwoLinesAndFiveSectors) {
  const WarpAccess w = make({}, [](int l) { return kBase + 4 * static_cast<std::uint64_t>(l + 1); });
  const auto lines = lines_touched(w, 128);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].address, kBase);
  EXPECT_EQ(lines[1].address, kBase + 128);
  EXPECT_EQ(lines[0].bytes.touched(32).count() + lines[1].bytes.touched(32).count(), 5);
  EXPECT_EQ(lines[0].bytes.w[0], ~0ull << 4);  // bytes 4-63
  EXPECT_EQ(lines[0].bytes.w[1], ~0ull);       // bytes 64-127
  EXPECT_EQ(lines[1].bytes.w[0], 0xfull);      // bytes 0-3
  EXPECT_EQ(lines[0].lanes, 0x7fffffffu);
  EXPECT_EQ(lines[1].lanes, 0x80000000u);
  // The counts printed beside the picture agree with it (the rules engine, sm_90).
  EXPECT_EQ(analyze(w, arch("sm_90")).sectors, 5u);
}

TEST(LinesTouched, AddressesRoundDownToTheAccessSizeAndInactiveLanesTouchNothing) {
  Access a;
  a.size = 8;
  a.mask = 0x1u;
  const WarpAccess w = make(a, [](int l) { return kBase + 0x45 + 1000 * static_cast<std::uint64_t>(l); });
  const auto lines = lines_touched(w, 128);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].address, kBase);
  EXPECT_EQ(lines[0].bytes.w[0], 0u);       // 0x45 rounds down to 0x40 for an 8-byte access:
  EXPECT_EQ(lines[0].bytes.w[1], 0xffull);  // bytes 64-71
  EXPECT_EQ(lines[0].lanes, 1u);
}

// The last line of the address space ends at 2^64: its bytes are drawn, nothing wraps to 0.
TEST(LinesTouched, TheTopOfTheAddressSpace) {
  Access a;
  a.size = 16;
  a.mask = 0x1u;
  const auto lines = lines_touched(make(a, [](int) { return ~std::uint64_t{0} - 15; }), 128);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].address, ~std::uint64_t{0} - 127);
  EXPECT_EQ(lines[0].bytes.w[1], 0xffffull << 48);  // bytes 112-127
  const auto small = lines_touched(make(a, [](int) { return ~std::uint64_t{0} - 15; }), 8);
  ASSERT_EQ(small.size(), 2u);  // a 16-byte access in 8-byte lines: the last two
  EXPECT_EQ(small[1].address, ~std::uint64_t{0} - 7);
  EXPECT_EQ(small[1].bytes.w[0], 0xffull);
}

TEST(LinesTouched, ScatteredLanesHaveALineEach) {
  const WarpAccess w = make({}, [](int l) { return kBase + 4096 * static_cast<std::uint64_t>(31 - l); });
  const auto lines = lines_touched(w, 128);
  ASSERT_EQ(lines.size(), 32u);
  for (std::size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(lines[i].address, kBase + 4096 * i);  // by address, not by lane
    EXPECT_EQ(lines[i].lanes, 1u << (31 - i));
  }
}

TEST(LaneRanges, RunsOfLanes) {
  EXPECT_EQ(report::lane_ranges(0xffffffffu), "0-31");
  EXPECT_EQ(report::lane_ranges(0x80000001u), "0, 31");
  EXPECT_EQ(report::lane_ranges(0xbu), "0-1, 3");
  EXPECT_EQ(report::lane_ranges(0), "none");
}

// The picture of the misaligned warp, rectangle by rectangle: line 0 has bytes
// 0-3 moved and four runs used; line 1 a used run (0-3), the rest of sector 0
// moved, three sectors idle. Eight sector outlines.
TEST(LinePicture, DrawsUsedMovedAndIdleBytes) {
  const WarpAccess w = make({}, [](int l) { return kBase + 4 * static_cast<std::uint64_t>(l + 1); });
  const std::string svg = report::svg_line_picture(w, 128, 32);
  EXPECT_EQ(occurrences(svg, "class=\"used\""), 5u);
  EXPECT_EQ(occurrences(svg, "class=\"moved\""), 2u);
  EXPECT_EQ(occurrences(svg, "class=\"idle\""), 3u);
  EXPECT_EQ(occurrences(svg, "class=\"sector\""), 8u);
  EXPECT_NE(svg.find("lanes 0-30"), std::string::npos);
  EXPECT_NE(svg.find("lanes 31"), std::string::npos);
  EXPECT_EQ(html_problem(report::html_page("t", svg)), "");
}

// seed000: a stride of two 4-byte words puts lanes l and l + 16 in bank 2l mod 32,
// in two rows: 16 banks with two rows each, a 2-way conflict (2 wavefronts).
TEST(BankCells, StrideTwoWordsFillsEvenBanksWithTwoRows) {
  Access a;
  a.space = Space::Shared;
  const WarpAccess w = make(a, [](int l) { return 8 * static_cast<std::uint64_t>(l); });
  const auto cells = report::bank_cells(w, 32, 4);
  ASSERT_EQ(cells.size(), 32u);
  std::vector<int> rows(32, 0);
  for (const auto& c : cells) {
    EXPECT_EQ(c.bank % 2, 0);
    EXPECT_EQ(c.lanes, 1);
    ++rows[static_cast<std::size_t>(c.bank)];
  }
  for (int b = 0; b < 32; b += 2) EXPECT_EQ(rows[static_cast<std::size_t>(b)], 2) << b;
  EXPECT_EQ(analyze(w, arch("sm_90")).wavefronts, 2u);
  const std::string svg = report::svg_bank_picture(w, 32, 4);
  EXPECT_EQ(occurrences(svg, "class=\"word conflict\""), 32u);
  EXPECT_EQ(html_problem(report::html_page("t", svg)), "");
}

TEST(BankCells, BroadcastIsOneWordWithEveryLane) {
  Access a;
  a.space = Space::Shared;
  const auto cells = report::bank_cells(make(a, [](int) { return 0x84u; }), 32, 4);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].bank, 1);
  EXPECT_EQ(cells[0].row, 1u);
  EXPECT_EQ(cells[0].lanes, 32);
}

TEST(BankCells, SixteenByteAccessesCoverFourBanks) {
  Access a;
  a.space = Space::Shared;
  a.size = 16;
  a.mask = 0x3u;
  const auto cells = report::bank_cells(make(a, [](int l) { return 16 * static_cast<std::uint64_t>(l); }), 32, 4);
  ASSERT_EQ(cells.size(), 8u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(cells[static_cast<std::size_t>(i)].bank, i);
}

// Local memory is drawn as the hardware lays it out (rules/local_layout.hpp, the CUDA
// guide's word interleaving): 32 lanes at one 16-byte offset are 4 word accesses, each
// one whole line of 128 bytes (the H100's LDL.128: 4 requests, 16 sectors).
TEST(AccessFigure, LocalAccessesAtTheirInterleavedAddresses) {
  Access a;
  a.space = Space::Local;
  a.size = 16;
  const WarpAccess w = make(a, [](int) { return 0x40u; });
  const std::string fig = report::access_figure(w, {&arch("sm_90")});
  EXPECT_EQ(occurrences(fig, "class=\"lines-picture\""), 4u);
  EXPECT_EQ(occurrences(fig, "class=\"used\""), 4u * 4u);  // each line used whole, sector by sector
  EXPECT_EQ(occurrences(fig, "class=\"moved\""), 0u);
  EXPECT_NE(fig.find("word access 4 of 4 of this 16-byte access"), std::string::npos);
  EXPECT_EQ(analyze(w, arch("sm_90")).sectors, 16u);
  EXPECT_EQ(html_problem(report::html_page("t", fig)), "");
}

// A tensor copy's first row (types.hpp kTensorRowMask) is named as one: 56 bytes 16 into a line are four 16-byte
// chunks, the last in part, drawn on one line.
TEST(AccessFigure, TensorRowsAreNamedAsTheFirstRowOfACopy) {
  WarpAccess w;
  w.space = Space::Global;
  w.op = Op::BulkStore;
  w.size = 16;
  w.active = LaneMask(kTensorRowMask);
  w.addr[0] = 0x7f0000000010;
  w.addr[1] = 0x400;
  w.addr[2] = 56;
  const std::string fig = report::access_figure(w, {&arch("sm_90")});
  EXPECT_NE(fig.find("the first row (56 bytes) of a tensor copy"), std::string::npos) << fig;
  EXPECT_EQ(occurrences(fig, "class=\"lines-picture\""), 1u);
  EXPECT_EQ(html_problem(report::html_page("t", fig)), "");
  w.op = Op::BulkLoad;
  w.addr[3] = kTensorRowOutside;
  EXPECT_NE(report::access_figure(w, {&arch("sm_90")}).find("out of bounds: not read"), std::string::npos);
}

// Distributed shared memory (types.hpp Space::DShared) is drawn as global memory is, by lines and sectors: words 4 B
// off touch 2 lines and 5 sectors; a wgmma's gmma record, an address and a byte count, is described, not drawn.
TEST(AccessFigure, DistributedSharedAndGmmaRecords) {
  WarpAccess w;
  w.space = Space::DShared;
  w.op = Op::Load;
  w.size = 4;
  w.active = LaneMask::full();
  for (unsigned l = 0; l < 32; ++l) w.addr[l] = 0x404 + 4 * l;
  const std::string fig = report::access_figure(w, {&arch("sm_90")});
  EXPECT_NE(fig.find("Another CTA's shared memory"), std::string::npos) << fig;
  EXPECT_EQ(occurrences(fig, "class=\"used\""), 5u);  // the 5 sectors the lanes touch
  EXPECT_EQ(html_problem(report::html_page("t", fig)), "");
  WarpAccess g;
  g.space = Space::Shared;
  g.op = Op::GmmaRead;
  g.size = 16;
  g.active = LaneMask(kGmmaMask);
  g.addr[0] = 0x400;
  g.addr[1] = 4608;
  const std::string gf = report::access_figure(g, {&arch("sm_90")});
  EXPECT_NE(gf.find("4608 bytes from shared 0x400, read by the tensor cores in 36 wavefronts"), std::string::npos) << gf;
  EXPECT_EQ(html_problem(report::html_page("t", gf)), "");
}

TEST(SvgCharts, BarsScaleWithinTheirGroup) {
  report::BarGroup hits{"L1 hit rate", 100, {{"sm_35", 50, "50%", 0}, {"sm_90", 100, "100%", 1}}};
  report::BarGroup bytes{"DRAM bytes", 0, {{"sm_35", 4096, "4096 B", 0}, {"sm_90", 1024, "1024 B", 1}}};
  const std::string svg = report::svg_bar_chart({hits, bytes});
  EXPECT_EQ(occurrences(svg, "class=\"bar\""), 4u);
  // 360 px is full scale: 50% of 100 -> 180; 1024 of the group's largest 4096 -> 90.
  EXPECT_NE(svg.find("width=\"180.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("width=\"90.0\""), std::string::npos) << svg;
  EXPECT_EQ(occurrences(svg, "width=\"360.0\""), 2u);
  EXPECT_EQ(html_problem(report::html_page("t", svg)), "");

  report::LineChart chart{"threads per block", "occupancy (%)", 100, {}, {{"sm_90", {{32, 50}, {1024, 100}}, 0}}};
  const std::string lines = report::svg_line_chart(chart);
  EXPECT_EQ(occurrences(lines, "<circle"), 2u);
  EXPECT_EQ(html_problem(report::html_page("t", lines)), "");
}

// Validation's picture: points on logarithmic axes land where the decades are, points
// beyond the axes sit on the edge, and series colours can be chosen.
TEST(SvgCharts, ScatterPlacesPointsOnTheirAxes) {
  report::ScatterChart c;
  c.log_x = c.log_y = true;
  c.x_min = 1;
  c.x_max = 100;
  c.y_min = 0.5;
  c.y_max = 2;
  c.x_ticks = {1, 10, 100};
  c.series_labels = {"within", "failing"};
  c.series_colours = {"#111111", "#222222"};
  c.points = {{10, 1, 0, "a"}, {1000, 8, 1, "b"}};
  const std::string svg = report::svg_scatter(c);
  // 320 px square from x = 56, y = 10: x = 10 is half way (216), y = 1 half way up (170).
  EXPECT_NE(svg.find("cx=\"216.0\" cy=\"170.0\" r=\"3\" fill=\"#111111\""), std::string::npos) << svg;
  // Beyond both axes: the top right corner.
  EXPECT_NE(svg.find("cx=\"376.0\" cy=\"10.0\" r=\"3\" fill=\"#222222\""), std::string::npos) << svg;
  EXPECT_NE(svg.find(">100</text>"), std::string::npos);
  EXPECT_NE(svg.find("within (1)"), std::string::npos);
  EXPECT_EQ(html_problem(report::html_page("t", svg)), "");
}

}  // namespace
}  // namespace warpscope::test
