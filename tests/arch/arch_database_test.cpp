// The architecture database: names, strict files, inheritance, and values that
// the seeds state (each expectation cites the sentence it checks).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "test_support.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

TEST(ArchNames, EverySpellingResolves) {
  EXPECT_EQ(parse_arch_name("sm_35"), 35);
  EXPECT_EQ(parse_arch_name("3.5"), 35);
  EXPECT_EQ(parse_arch_name("35"), 35);
  EXPECT_EQ(parse_arch_name("sm35"), 35);
  EXPECT_EQ(parse_arch_name("sm_120"), 120);
  EXPECT_EQ(parse_arch_name("12.0"), 120);
  EXPECT_EQ(parse_arch_name("10.3"), 103);
  EXPECT_EQ(parse_arch_name("sm_10"), 10);
  EXPECT_EQ(parse_arch_name("sm_3x"), -1);
  EXPECT_EQ(parse_arch_name(""), -1);
  EXPECT_EQ(parse_arch_name("3.55"), -1);
  EXPECT_EQ(parse_arch_name("sm_"), -1);
  // The feature-set suffixes (PTX ISA "Target ISA notes": sm_90a, sm_100a, sm_100f) name the same capability.
  EXPECT_EQ(parse_arch_name("sm_90a"), 90);
  EXPECT_EQ(parse_arch_name("sm_100f"), 100);
  EXPECT_EQ(parse_arch_name("compute_120a"), 120);
  EXPECT_EQ(parse_arch_name("sm_9a"), -1);
  EXPECT_EQ(parse_arch_name("sm_90b"), -1);
  EXPECT_EQ(parse_arch_name("9.0a"), -1);
}

TEST(ArchDatabase, HasEveryComputeCapabilityOfTheIssue) {
  for (const char* cc : {"1.0", "1.1", "1.2", "1.3", "2.0", "2.1", "3.0", "3.2", "3.5", "3.7", "5.0", "5.2", "5.3",
                         "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6", "8.7", "8.9", "9.0", "10.0", "10.3",
                         "12.0", "12.1"})
    EXPECT_NE(db().find(cc), nullptr) << cc;
}

TEST(ArchDatabase, EveryParameterHasASource) {
  for (const auto* e : db().all()) {
    EXPECT_EQ(e->params.size(), arch_schema().size()) << e->spec.name;
    for (const auto& p : e->params) EXPECT_FALSE(p.source.empty()) << e->spec.name << " " << p.key;
  }
}

TEST(ArchDatabase, UnknownNameListsKnownOnes) {
  try {
    db().get("sm_42");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sm_35"), std::string::npos);
  }
}

TEST(ArchDatabase, ListsKeepTheOrderGivenAndNameEachArchitectureOnce) {
  auto names = [](const std::vector<const ArchEntry*>& list) {
    std::vector<std::string> out;
    for (const auto* e : list) out.push_back(e->spec.name);
    return out;
  };
  EXPECT_EQ(names(db().get_list("sm_90, 3.5,70")), (std::vector<std::string>{"sm_90", "sm_35", "sm_70"}));
  EXPECT_EQ(names(db().get_list("sm_90,9.0,90,sm_35,sm_90")), (std::vector<std::string>{"sm_90", "sm_35"}));
  const auto all = db().get_list("all");
  EXPECT_EQ(all.size(), db().all().size());
  const auto again = db().get_list("sm_90,all,sm_35");
  ASSERT_EQ(again.size(), all.size());
  EXPECT_EQ(again.front()->spec.name, "sm_90");
  EXPECT_THROW(db().get_list("sm_90,,sm_35"), InputError);
}

TEST(ArchDatabase, RuleSetsFollowTheGenerations) {
  EXPECT_EQ(arch("sm_11").rules, RulesFamily::TeslaStrict);
  EXPECT_EQ(arch("sm_12").rules, RulesFamily::TeslaRelaxed);
  EXPECT_EQ(arch("sm_21").rules, RulesFamily::Fermi);
  EXPECT_EQ(arch("sm_37").rules, RulesFamily::Kepler);
  EXPECT_EQ(arch("sm_62").rules, RulesFamily::Maxwell);
  EXPECT_EQ(arch("sm_70").rules, RulesFamily::Volta);
  EXPECT_EQ(arch("sm_121").rules, RulesFamily::Volta);
}

TEST(ArchDatabase, SeedStatedValues) {
  // seed000 G.3.1: "The maximum L2 cache size is 768 KB" (2.x); G.4.1: 1.5 MB (3.x)
  EXPECT_EQ(arch("sm_20").l2_max_size, 768 * 1024);
  EXPECT_EQ(arch("sm_35").l2_max_size, 1536 * 1024);
  // seed000 G.3.1: 2.0 has 32 cores and 4 SFUs, 2.1 48 cores and 8 SFUs
  EXPECT_EQ(arch("sm_20").fp32_cores, 32);
  EXPECT_EQ(arch("sm_21").sfus, 8);
  // seed000 G.4.1: 3.7 adds 64 KB: 112/96/80 KB shared; per block stays 48 KB
  EXPECT_EQ(arch("sm_37").max_shared_per_sm, 112 * 1024);
  EXPECT_EQ(arch("sm_37").max_shared_per_block, 48 * 1024);
  // seed000 G.5.1: 64 KB shared for 5.0, 96 KB for 5.2; 24 KB unified L1/texture
  EXPECT_EQ(arch("sm_50").max_shared_per_sm, 64 * 1024);
  EXPECT_EQ(arch("sm_52").max_shared_per_sm, 96 * 1024);
  EXPECT_EQ(arch("sm_52").l1_size, 24 * 1024);
  // seed000 G.5.2: 5.0 cannot cache non-read-only global data in L1; 5.2 can opt in
  EXPECT_FALSE(arch("sm_50").l1_global_opt_in);
  EXPECT_TRUE(arch("sm_52").l1_global_opt_in);
  // seed000 G.4.3: Kepler's two bank modes
  EXPECT_EQ(arch("sm_35").bank_width_modes, (std::vector<int>{4, 8}));
  // seed001 20.7.3: 8.0 shared capacities up to 164 KB, 163 KB per block; 8.6 100/99 KB
  EXPECT_EQ(arch("sm_80").max_shared_per_sm, 164 * 1024);
  EXPECT_EQ(arch("sm_80").max_shared_per_block_optin, 163 * 1024);
  EXPECT_EQ(arch("sm_86").max_shared_per_block_optin, 99 * 1024);
  EXPECT_EQ(arch("sm_86").reserved_shared_per_block, 1024);
  // seed001 20.6.4: Volta shared capacities 0, 8, 16, 32, 64, 96 KB; Turing 32 or 64 KB
  EXPECT_EQ(arch("sm_70").shared_capacities,
            (std::vector<std::int64_t>{0, 8 * 1024, 16 * 1024, 32 * 1024, 64 * 1024, 96 * 1024}));
  EXPECT_EQ(arch("sm_75").shared_capacities, (std::vector<std::int64_t>{32 * 1024, 64 * 1024}));
  // seed001 20.8.3 / 20.9.3: 9.0 and 10.0 up to 228 KB, 227 KB per block
  EXPECT_EQ(arch("sm_100").max_shared_per_sm, 228 * 1024);
  EXPECT_EQ(arch("sm_120").max_shared_per_block_optin, 99 * 1024);
  // seed003 tech-spec table: resident warps 64 for 3.x-7.0, 32 for 7.5
  EXPECT_EQ(arch("sm_30").max_warps_per_sm, 64);
  EXPECT_EQ(arch("sm_75").max_warps_per_sm, 32);
  EXPECT_EQ(arch("sm_61").max_blocks_per_sm, 32);
  // seed002 8.1.4 footnote 4: SM 1.x had 16 banks
  EXPECT_EQ(arch("sm_13").shared_banks, 16);
}

class TempDir {
 public:
  TempDir() : path_(std::filesystem::temp_directory_path() / ("warpscope_arch_" + std::to_string(::getpid()) + "_" +
                                                                std::to_string(counter_++))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  void write(const char* name, const std::string& text) const { std::ofstream(path_ / name) << text; }
  const std::filesystem::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

std::string load_error(const TempDir& d) {
  try {
    ArchDatabase::load({WARPSCOPE_SOURCE_DIR "/data/arch", d.path()});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ArchFile, StrictAboutShapeAndSources) {
  TempDir d;
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_86\"\n[limits]\nmax_blocks_per_sm = 24\n");
  EXPECT_NE(load_error(d).find("limits.max_blocks_per_sm: expected { value = ..., source = \"...\" }"), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_86\"\n[limits]\nmax_blocks_per_sm = { value = 24, source = \"\" }\n");
  EXPECT_NE(load_error(d).find("source must be a non-empty string"), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_86\"\n[cache]\nx = 1\n");
  EXPECT_NE(load_error(d).find("unknown section [cache]"), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_99\"\n");
  EXPECT_NE(load_error(d).find("inherits = \"sm_99\""), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\nrules = \"volta\"\n");
  EXPECT_NE(load_error(d).find("missing key sm.warp_size"), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.7\"\ninherits = \"sm_86\"\n");
  EXPECT_NE(load_error(d).find("does not match"), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_86\"\n[l1]\nsize = { value = \"lots\", source = \"s\" }\n");
  EXPECT_NE(load_error(d).find("\"lots\" is not a byte size"), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_86\"\n[global]\nrequest_lanes = { value = [1,2], source = \"s\" }\n");
  EXPECT_NE(load_error(d).find("expected 5 integers"), std::string::npos);
  d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\n[[[");
  const std::string syntax = load_error(d);
  EXPECT_NE(syntax.find("x.toml:3:"), std::string::npos) << syntax;
}

TEST(ArchFile, LaterDirectoryOverridesAndInherits) {
  TempDir d;
  // sm_121 replaced by a user file that inherits sm_120 and changes one value
  d.write("sm_121.toml", "name = \"sm_121\"\ncc = \"12.1\"\ninherits = \"sm_120\"\ndescription = \"override\"\n"
                         "[l2]\nmax_size = { value = \"3M\", source = \"test\" }\n");
  auto db2 = ArchDatabase::load({WARPSCOPE_SOURCE_DIR "/data/arch", d.path()});
  const auto& e = db2.get("sm_121");
  EXPECT_EQ(e.spec.description, "override");
  EXPECT_EQ(e.spec.l2_max_size, 3 * 1024 * 1024);
  EXPECT_EQ(e.spec.fp32_cores, arch("sm_120").fp32_cores);  // inherited
}

// Values the schema's types allow but the rules engine cannot use: each a
// clear error naming the key, not a division by zero or a lane past 31 later
// (found by fuzz/fuzz_arch_file once it ran the rules on what it loaded).
TEST(ArchFile, RejectsWhatTheRulesCannotModel) {
  TempDir d;
  auto error_of = [&](const std::string& section, const std::string& line) {
    d.write("x.toml", "name = \"sm_88\"\ncc = \"8.8\"\ninherits = \"sm_86\"\n[" + section + "]\n" + line + "\n");
    return load_error(d);
  };
  const struct {
    const char* section;
    const char* line;
    const char* message;
  } cases[] = {
      {"shared", "banks = { value = 0, source = \"s\" }", "shared.banks: 0 is not in 1..64"},
      {"shared", "banks = { value = 128, source = \"s\" }", "shared.banks: 128 is not in 1..64"},
      {"shared", "bank_width = { value = 2, source = \"s\" }", "shared.bank_width: 2 bytes is not 4, 8 or 16"},
      {"shared", "bank_width_modes = { value = [4, 0], source = \"s\" }", "shared.bank_width_modes: 0 bytes"},
      {"shared", "group_lanes = { value = [32, 32, 32, 16, 0], source = \"s\" }", "shared.group_lanes: 0 lanes"},
      {"shared", "load_merge_lanes = { value = [33, 32, 32, 16, 8], source = \"s\" }", "shared.load_merge_lanes: 33 lanes"},
      {"global", "request_lanes = { value = [32, 32, 24, 32, 32], source = \"s\" }", "global.request_lanes: 24 lanes"},
      {"global", "segment_bytes = { value = [16, 32, 64, 128, 128], source = \"s\" }", "global.segment_bytes: 16 is not"},
      {"l1", "line_size = { value = 256, source = \"s\" }", "l1.line_size: 256 B"},
      {"l1", "sector_size = { value = 8, source = \"s\" }", "l1.sector_size: 8 B does not divide a 128 B line"},
      {"sm", "warp_size = { value = 64, source = \"s\" }", "sm.warp_size: 64 lanes"},
      // The read-only cache's line: 2 B passed and reached Cache's constructor (fuzz_arch_file, session 16).
      {"readonly", "query_bytes = { value = 2, source = \"s\" }", "readonly.query_bytes: 2 B is not a power of two in 8..128"},
      {"constant", "dram_fetch_bytes = { value = 100, source = \"s\" }", "constant.dram_fetch_bytes: 100 B is not 0 or a power of two"},
      {"constant", "dram_fetch_bytes = { value = 2, source = \"s\" }", "constant.dram_fetch_bytes: 2 B is not 0 or a power of two in 4..65536"},
      {"allocation", "warp_granularity = { value = 0, source = \"s\" }", "allocation.warp_granularity: 0 must be at least 1"},
      {"l2", "max_size = { value = -1, source = \"s\" }", "l2.max_size: -1 bytes is out of range"},
      {"l2", "max_size = { value = \"1e30M\", source = \"s\" }", "l2.max_size: \"1e30M\" is out of range"},
      // A float where an integer goes: exact ones are read (48.0), others rejected; 1e24 used to
      // reach toml++'s float-to-int cast before its range check (fuzz_arch_file, UBSan).
      {"l1", "sets = { value = 1e24, source = \"s\" }", "l1.sets: expected an integer"},
      {"l1", "sets = { value = 32.5, source = \"s\" }", "l1.sets: expected an integer"},
      {"l2", "max_size = { value = -1e300, source = \"s\" }", "l2.max_size: expected a byte size"},
  };
  for (const auto& c : cases) {
    const std::string e = error_of(c.section, c.line);
    EXPECT_NE(e.find(c.message), std::string::npos) << c.line << "\n -> " << e;
    EXPECT_NE(e.find("x.toml"), std::string::npos) << e;
  }
}

// The fuzzer's seeds must stay loadable as the schema grows, or it mutates
// files that fail before reaching anything but the reader.
TEST(ArchFile, FuzzSeedsLoad) {
  for (const auto& f : std::filesystem::directory_iterator(WARPSCOPE_SOURCE_DIR "/fuzz/corpus/arch_file")) {
    TempDir d;
    std::ifstream in(f.path());
    d.write("seed.toml", std::string(std::istreambuf_iterator<char>(in), {}));
    EXPECT_NO_THROW(ArchDatabase::load({d.path()})) << f.path();
  }
}

}  // namespace
}  // namespace warpscope::test
