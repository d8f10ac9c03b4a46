// Nsight Compute's raw CSV: quoted fields, thousands separators, units rows,
// several blocks, ==PROF== lines; errors name the line and column.
#include <gtest/gtest.h>

#include "validate/csv_line.hpp"
#include "validate/input_error.hpp"
#include "validate/ncu_csv.hpp"
#include "validate/suite_fixture.hpp"
#include "warpscope/error.hpp"

namespace warpscope::validate {
namespace {

std::string error_of(std::string_view text) {
  return test::input_error_of([&] { parse_ncu_csv(text, "x.csv"); });
}

TEST(CsvLine, QuotedFieldsWithCommasAndQuotes) {
  EXPECT_EQ(split_csv_line(R"("a","b, c","say ""hi""",plain,,"")", "f", 1),
            (std::vector<std::string>{"a", "b, c", "say \"hi\"", "plain", "", ""}));
  EXPECT_EQ(split_csv_line("\"x\"\r", "f", 1), std::vector<std::string>{"x"});
}

TEST(CsvLine, ErrorsNameLineAndColumn) {
  EXPECT_EQ(test::input_error_of([] { split_csv_line(R"("a","unterminated)", "f.csv", 7); }),
            "f.csv:7:5: unterminated quoted field");
  EXPECT_THROW(split_csv_line(R"("a"x,"b")", "f.csv", 1), InputError);
}

TEST(NcuNumber, ThousandsSeparatorsAndDecimals) {
  EXPECT_EQ(parse_ncu_number("1,051,392"), 1051392.0);
  EXPECT_EQ(parse_ncu_number("26,284.80"), 26284.8);
  EXPECT_EQ(parse_ncu_number("0"), 0.0);
  EXPECT_FALSE(parse_ncu_number("n/a"));
  EXPECT_FALSE(parse_ncu_number(""));
  EXPECT_FALSE(parse_ncu_number("(32, 8, 1)"));
  // std::from_chars reads these; a counter is never one of them (found by fuzz_validate_inputs).
  EXPECT_FALSE(parse_ncu_number("nan"));
  EXPECT_FALSE(parse_ncu_number("inf"));
  EXPECT_FALSE(parse_ncu_number("-infinity"));
}

const char* kTwoBlocks =
    "==PROF== Connected to process 1234 (./app)\n"
    "kernel gather ms=0.1\n"
    "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"x__y.sum\"\n"
    "\"\",\"\",\"byte\",\"\"\n"
    "\"1\",\"b(int)\",\"2,048\",\"n/a\"\n"
    "\"0\",\"a(float *, int)\",\"1,024\",\"3\"\n"
    "==WARNING== something\n"
    "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n"
    "\"\",\"\",\"byte\"\n"
    "\"0\",\"c()\",\"7\"\r\n";

TEST(NcuCsv, BlocksInFileOrderLaunchesByIdWithinEach) {
  const NcuReport r = parse_ncu_csv(kTwoBlocks, "x.csv");
  ASSERT_EQ(r.launches.size(), 3u);
  EXPECT_EQ(r.launches[0].kernel, "a(float *, int)");
  EXPECT_EQ(r.launches[0].line, 6);
  EXPECT_EQ(r.launches[1].kernel, "b(int)");
  EXPECT_EQ(r.launches[2].kernel, "c()");
  EXPECT_EQ(r.launches[0].number("dram__bytes_read.sum"), 1024.0);
  EXPECT_EQ(r.launches[1].number("dram__bytes_read.sum"), 2048.0);
  EXPECT_FALSE(r.launches[1].number("x__y.sum"));  // n/a
  EXPECT_FALSE(r.launches[2].number("x__y.sum"));  // not in the second block
  EXPECT_EQ(r.units.at("dram__bytes_read.sum"), "byte");
  EXPECT_EQ(r.skipped_lines, 3);
}

TEST(NcuCsv, TheCommittedH100File) {
  const NcuReport r = read_ncu_csv(test::kCacheDir + "ncu_raw.csv");
  ASSERT_EQ(r.launches.size(), 6u);
  EXPECT_EQ(r.launches[0].kernel, "stencil2d(const float *, float *, int)");
  EXPECT_EQ(r.launches[0].number("dram__bytes_read.sum"), 1051392.0);
  EXPECT_EQ(r.launches[3].number("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"), 20437.0);
  EXPECT_EQ(r.units.at("dram__bytes_read.sum"), "byte");
}

TEST(NcuCsv, MalformedTablesNameTheLine) {
  EXPECT_EQ(error_of("\"ID\",\"Kernel Name\"\n\"0\",\"a\",\"extra\"\n"), "x.csv:2: 3 fields, the header has 2");
  EXPECT_EQ(error_of("\"0\",\"a\"\n"), "x.csv:1: a row before the first header row (\"ID\",...,\"Kernel Name\",...)");
  EXPECT_EQ(error_of("\"ID\",\"Name\"\n"), "x.csv:1: header has no \"Kernel Name\" column");
  EXPECT_EQ(error_of("\"ID\",\"Kernel Name\"\n\"\",\"\"\n\"x1\",\"a\"\n"), "x.csv:3: ID \"x1\" is not a launch number");
  EXPECT_EQ(error_of("==PROF== nothing profiled\n"), "x.csv: no ncu CSV header row (\"ID\",...,\"Kernel Name\",...)");
  EXPECT_EQ(error_of("\"ID\",\"Kernel Name\"\n\"0\",\"a(\"b\n"), "x.csv:2:9: expected ',' after a quoted field");
}

}  // namespace
}  // namespace warpscope::validate
