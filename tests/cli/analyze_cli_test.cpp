// `warpscope analyze` through the command line: side-by-side output, JSON and
// CSV files, kernel filter, and one clear error (exit 2, no output file) for a
// bad trace.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace warpscope::test {
namespace {

const std::string kTrace = WARPSCOPE_SOURCE_DIR "/validation/h100/cache/stencil2d.wstrace";

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("warpscope_analyze_" + std::to_string(::getpid()) + "_" + name);
}

TEST(CliAnalyze, SideBySideWithProfilerNames) {
  auto r = run_cli("analyze " + kTrace + " --arch sm_35,sm_90 --top 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("kernel 0 'stencil2d'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos);  // ncu name (sm_90)
  EXPECT_NE(r.out.find("gld_transactions"), std::string::npos);                              // nvprof name (sm_35)
  EXPECT_NE(r.out.find("top 3 instructions by bytes wasted"), std::string::npos);
  EXPECT_TRUE(r.err.empty()) << "no progress bar when stderr is not a terminal: " << r.err;
}

// The atomics' operations: from the trace (the probe traced on the H100 records them) or from a
// SASS listing (--sass) for a trace that does not; shown in the top list and in JSON.
TEST(CliAnalyze, AtomicOperationsFromTheTraceOrASassListing) {
  const std::string probe = WARPSCOPE_SOURCE_DIR "/validation/h100/atomics_probe/atomics_probe.wst";
  const auto json = temp("atomics.json");
  auto r = run_cli("analyze " + probe + " --arch sm_90 --kernel cas4 --top 1 --json " + json.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  ASSERT_EQ(j["archs"][0]["top"].size(), 1u);
  EXPECT_EQ(j["archs"][0]["top"][0]["atomic_op"], "cas");
  EXPECT_EQ(j["atomics_without_operation"], 0);  // the tracer recorded every one
  auto text = run_cli("analyze " + probe + " --arch sm_90 --kernel cas4 --top 1");
  EXPECT_NE(text.out.find("global atom.cas 4 B"), std::string::npos) << text.out;
  std::filesystem::remove(json);

  // A trace without the table: the suite's global_rules, with and without its listing.
  const std::string suite = WARPSCOPE_SOURCE_DIR "/validation/h100/suite/";
  const std::string cas = " --arch sm_90 --kernel g_atom_cas4 --top 1";
  auto bare = run_cli("analyze " + suite + "global_rules.wst" + cas);
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_NE(bare.out.find("global atom 4 B"), std::string::npos) << bare.out;
  EXPECT_NE(bare.err.find("warpscope: note: 2048 atomic records name no operation (their trace does not record it); "
                          "on sm_90"),
            std::string::npos)
      << bare.err;
  auto older = run_cli("analyze " + suite + "global_rules.wst --arch sm_70 --kernel g_atom_cas4");
  EXPECT_TRUE(older.err.empty()) << "sm_70 does not tell operations apart: " << older.err;
  auto listed = run_cli("analyze " + suite + "global_rules.wst" + cas + " --sass " + suite + "global_rules.sass");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("global atom.cas 4 B"), std::string::npos) << listed.out;
  EXPECT_TRUE(listed.err.empty()) << listed.err;
  // The listing of another program: said, not silently ignored.
  auto other = run_cli("analyze " + suite + "global_rules.wst" + cas + " --sass " + suite + "realistic.sass");
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_NE(other.err.find("--sass " + suite + "realistic.sass: no function there is a kernel of this trace, so "
                            "neither atomic operations nor code sizes come from it"),
            std::string::npos)
      << other.err;
  // A kernel without atomics still takes its code size from the listing, for its launch reads: no warning.
  auto store = run_cli("analyze " + suite + "global_rules.wst --arch sm_90 --kernel g_st4_coalesced --sass " + suite +
                       "global_rules.sass");
  ASSERT_EQ(store.exit_code, 0) << store.err;
  EXPECT_TRUE(store.err.empty()) << store.err;
  EXPECT_NE(store.out.find("DRAM reads of the launch itself (384 B of code + launch data), counted in "
                           "dram.read_bytes: sm_90 2816 B"),
            std::string::npos)
      << store.out;
  auto missing = run_cli("analyze " + suite + "global_rules.wst" + cas + " --sass /nonexistent/x.sass");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--sass /nonexistent/x.sass: "), std::string::npos) << missing.err;
}

TEST(CliAnalyze, JsonAndCsvFiles) {
  const auto json = temp("out.json"), csv = temp("out.csv");
  auto r = run_cli("analyze " + kTrace + " --arch sm_90 --json " + json.string() + " --csv " + csv.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(slurp(json));
  const auto& m = j["archs"][0]["kernels"][0]["metrics"];
  // seed-free facts of the stencil: 5 loads per interior thread, 4.375 sectors per request
  EXPECT_EQ(m["smsp__inst_executed_op_global_ld.sum"], 40800);
  EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 178500);
  EXPECT_EQ(j["records_read"], 48960);
  const std::string text = slurp(csv);
  EXPECT_EQ(text.rfind("arch,kernel_id,kernel,metric,our_key,value,unit,from\n", 0), 0u);
  EXPECT_NE(text.find("sm_90,0,stencil2d,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,global_ld.sectors,178500,"
                      "sectors,rules\n"),
            std::string::npos);
  // Hits rest on the modelled caches, sectors on the access pattern alone.
  EXPECT_NE(text.find("sm_90,0,stencil2d,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
                      "global_ld.sector_hits,122368,sectors,caches\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(j["archs"][0]["metric_from"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], "rules");
  EXPECT_EQ(j["archs"][0]["metric_from"]["dram__bytes_read.sum"], "caches");
  EXPECT_EQ(j["archs"][0]["metric_from"]["lts__t_sectors_srcunit_tex_op_read.sum"], "caches");
  std::filesystem::remove(json);
  std::filesystem::remove(csv);
}

// '-' reads the trace from standard input and puts JSON or CSV on standard
// output in place of the tables: the same bytes as the files.
TEST(CliAnalyze, StandardInputAndOutput) {
  const auto json = temp("file.json"), csv = temp("file.csv");
  ASSERT_EQ(run_cli("analyze " + kTrace + " --arch sm_90 --json " + json.string() + " --csv " + csv.string()).exit_code, 0);
  const auto j = run_cli("analyze - --arch sm_90 --json - < " + kTrace);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_TRUE(j.err.empty()) << j.err;  // the "reading from the terminal" note is for terminals only
  auto from_stdin = nlohmann::json::parse(j.out), from_file = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(from_stdin["trace"], "-");
  from_stdin.erase("trace");
  from_file.erase("trace");
  EXPECT_EQ(from_stdin, from_file);
  EXPECT_EQ(from_stdin["archs"][0]["kernels"][0]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 178500);
  const auto c = run_cli("analyze " + kTrace + " --arch sm_90 --csv -");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out, slurp(csv));
  // One of them at most; a bad trace on standard input names it.
  const auto both = run_cli("analyze " + kTrace + " --json - --csv -");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_TRUE(both.out.empty());
  const auto bad_text = temp("bad.txt");
  std::ofstream(bad_text) << "wstrace 1\nkernel 0\nrec glob ld 4 addr=0\n";
  const auto bad = run_cli("analyze - < " + bad_text.string());
  std::filesystem::remove(bad_text);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "warpscope: error: <stdin>:3:5: expected an address space (global, local, shared, const, texture), found glob\n");
  EXPECT_FALSE(std::filesystem::exists("-"));
  std::filesystem::remove(json);
  std::filesystem::remove(csv);
}

// Records of a kernel that resume after another kernel's: one warning line
// on stderr and in the JSON, and the output still complete.
TEST(CliAnalyze, WarnsWhenAKernelsRecordsResume) {
  const auto trace = temp("resume.txt"), json = temp("resume.json");
  {
    std::ofstream f(trace);
    f << "wstrace 1\nkernel 0 name=a grid=1,1,1 block=32,1,1\nkernel 1 name=b grid=1,1,1 block=32,1,1\n";
    for (int k : {0, 1, 0}) f << "rec k=" << k << " global ld 4 mask=ffffffff addr=0x1000+4\n";
  }
  auto r = run_cli("analyze " + trace.string() + " --arch sm_90 --json " + json.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warpscope: warning: kernel 0 'a': its records resume after another kernel's (trace record 2)"), 0u)
      << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.out.find("kernel 1 'b'"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(j["warnings"].size(), 1u);
  EXPECT_EQ(j["warnings"][0].get<std::string>().rfind("kernel 0 'a'", 0), 0u);
  auto serial = run_cli("analyze " + kTrace + " --arch sm_90 --json " + json.string());
  EXPECT_TRUE(serial.err.empty()) << serial.err;
  EXPECT_TRUE(nlohmann::json::parse(slurp(json))["warnings"].empty());
  std::filesystem::remove(trace);
  std::filesystem::remove(json);
}

TEST(CliAnalyze, L1ConfigChoosesTheFermiSplit) {
  // seed000 G.3.1: 48 KB shared + 16 KB L1 (default) or 16 KB shared + 48 KB L1
  auto def = run_cli("analyze " + kTrace + " --arch sm_20 --top 0");
  auto big = run_cli("analyze " + kTrace + " --arch sm_20 --top 0 --l1-config 16K");
  ASSERT_EQ(def.exit_code, 0) << def.err;
  ASSERT_EQ(big.exit_code, 0) << big.err;
  EXPECT_NE(def.out.find("L1: 16 KB"), std::string::npos) << def.out;
  EXPECT_NE(big.out.find("L1: 48 KB"), std::string::npos) << big.out;
  // An option an architecture has no use for gets a note, not silence.
  auto mixed = run_cli("analyze " + kTrace + " --arch sm_13,sm_52,sm_35,sm_90 --top 0 --carveout 50");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_EQ(mixed.err, "warpscope: note: --carveout has no effect on sm_13, sm_52, sm_35 (a shared-memory carveout "
                       "exists from 7.0 on)\n");
  auto split = run_cli("analyze " + kTrace + " --arch sm_52,sm_20 --top 0 --l1-config 16K");
  ASSERT_EQ(split.exit_code, 0) << split.err;
  EXPECT_EQ(split.err, "warpscope: note: --l1-config has no effect on sm_52 (L1 and shared memory are separate there)\n");
  EXPECT_NE(split.out.find("L1: 48 KB"), std::string::npos) << split.out;  // sm_20 took it
  EXPECT_TRUE(big.err.empty()) << big.err;
  auto bad = run_cli("analyze " + kTrace + " --arch sm_20 --l1-config 20K");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("16 KB, 48 KB"), std::string::npos) << bad.err;
}

// --gpu picks a GPU model of the architecture (data/gpus/gpus.toml): its SM count and L2 size,
// and its name in the description (the H200: 132 SMs, 60 MB of L2 in two partitions).
TEST(CliAnalyze, GpuModelNamesTheModelledGpu) {
  auto r = run_cli("analyze " + kTrace + " --gpu h200 --top 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("GPU model: NVIDIA H200 141GB HBM3e\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sm_90: GPU: NVIDIA H200 141GB HBM3e (sm_90), 132 SMs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("L2: 30 MB,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 such partitions (60 MB)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("custom"), std::string::npos) << r.out;

  // Another SM count is no longer that model.
  r = run_cli("analyze " + kTrace + " --gpu h200 --sms 100 --top 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("GPU model: NVIDIA H200 141GB HBM3e (its SM count or L2 size replaced"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sm_90: GPU: custom sm_90 (sm_90), 100 SMs"), std::string::npos) << r.out;

  r = run_cli("analyze " + kTrace + " --gpu a100 --arch sm_90");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--gpu a100 is a sm_80 GPU; --arch sm_90 names another architecture"), std::string::npos) << r.err;
}

TEST(CliAnalyze, KernelFilter) {
  auto r = run_cli("analyze " + kTrace + " --arch sm_90 --kernel '^transpose'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no kernel matches --kernel ^transpose"), std::string::npos) << r.out;
  auto bad = run_cli("analyze " + kTrace + " --kernel '('");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("not a regular expression"), std::string::npos);
}

TEST(CliAnalyze, TruncatedTraceIsOneErrorAndNoOutputFile) {
  const auto cut = temp("cut.wstrace"), json = temp("cut.json");
  {
    const std::string bytes = slurp(kTrace);
    std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  }
  auto r = run_cli("analyze " + cut.string() + " --arch sm_90 --json " + json.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("byte"), std::string::npos) << r.err;  // names the offset
  EXPECT_FALSE(std::filesystem::exists(json));
  EXPECT_FALSE(std::filesystem::exists(json.string() + ".tmp"));
  std::filesystem::remove(cut);
  auto missing = run_cli("analyze /nonexistent.wstrace");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(count_lines(missing.err), 1) << missing.err;
}

}  // namespace
}  // namespace warpscope::test
