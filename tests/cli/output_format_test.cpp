// docs/OUTPUT.md against what `analyze --json`, `analyze --csv` and `validate --json` write: every
// key the document lists is written and every key written is listed, the JSON's metric_info agrees
// with the CSV row by row, and each document names its format.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "cli/run_cli.hpp"

namespace warpscope::test {
namespace {

using Keys = std::set<std::string>;

// "## heading" + "### heading" -> the first-column `key`s of the table rows below them.
std::map<std::string, Keys> documented_keys() {
  std::map<std::string, Keys> out;
  std::istringstream doc(slurp(WARPSCOPE_SOURCE_DIR "/docs/OUTPUT.md"));
  std::string h2, h3;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0) {
      h2 = line.substr(3);
      h3.clear();
    } else if (line.rfind("### ", 0) == 0) {
      h3 = line.substr(4);
    } else if (line.rfind("| `", 0) == 0) {
      const auto end = line.find('`', 3);
      if (end != std::string::npos) out[h2 + " / " + h3].insert(line.substr(3, end - 3));
    }
  }
  return out;
}

Keys keys_of(const nlohmann::json& object) {
  Keys k;
  for (const auto& [key, value] : object.items()) k.insert(key);
  return k;
}

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("warpscope_output_" + std::to_string(::getpid()) + "_" + name);
}

const std::string kAnalyze = "`analyze --json FILE` / ";
const std::string kValidate = "`validate --json FILE` / ";

TEST(OutputFormat, AnalyzeJsonAndCsvAreAsDocumented) {
  const auto doc = documented_keys();
  const auto json_file = temp("a.json"), csv_file = temp("a.csv");
  // Two generations (nvprof and Nsight Compute names), a kernel with a line table.
  const auto r = run_cli(std::string("analyze ") + WARPSCOPE_SOURCE_DIR "/validation/h100/suite/cache_kernels.wst --arch sm_35,sm_90 --top 2 --json " +
                         json_file.string() + " --csv " + csv_file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json_file));
  EXPECT_EQ(j["format"], "warpscope-analyze");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_EQ(keys_of(j), doc.at(kAnalyze + "Top level"));
  ASSERT_EQ(j["archs"].size(), 2u);
  for (const auto& a : j["archs"]) {
    EXPECT_EQ(keys_of(a), doc.at(kAnalyze + "`archs[]`"));
    ASSERT_FALSE(a["kernels"].empty());
    for (const auto& k : a["kernels"]) EXPECT_EQ(keys_of(k), doc.at(kAnalyze + "`archs[].kernels[]`"));
    ASSERT_EQ(a["top"].size(), 2u);
    for (const auto& t : a["top"]) EXPECT_EQ(keys_of(t), doc.at(kAnalyze + "`archs[].top[]`"));
    EXPECT_EQ(keys_of(a["metric_info"]), keys_of(a["metric_from"]));
    for (const auto& [name, info] : a["metric_info"].items()) {
      EXPECT_EQ(keys_of(info), doc.at(kAnalyze + "`archs[].metric_info`")) << name;
      EXPECT_EQ(info["from"], a["metric_from"][name]) << name;
    }
    EXPECT_EQ(keys_of(a["kernels"][0]["metrics"]), keys_of(a["metric_info"]));
  }

  // CSV: the documented columns, and every row as the JSON has it.
  std::istringstream csv(slurp(csv_file));
  std::string header;
  std::getline(csv, header);
  Keys columns;
  std::istringstream h(header);
  for (std::string c; std::getline(h, c, ',');) columns.insert(c);
  EXPECT_EQ(columns, doc.at("`analyze --csv FILE` / "));
  EXPECT_EQ(header, "arch,kernel_id,kernel,metric,our_key,value,unit,from");
  std::map<std::string, const nlohmann::json*> arch_of;
  for (const auto& a : j["archs"]) arch_of[a["arch"].get<std::string>()] = &a;
  int rows = 0;
  for (std::string line; std::getline(csv, line); ++rows) {
    // arch,kernel_id,"name, with commas",metric,our_key,value,unit,from: split around the quoted name
    const auto q1 = line.find('"'), q2 = line.rfind('"');
    ASSERT_NE(q1, std::string::npos) << line;  // every kernel name here has a comma (its parameters)
    std::istringstream head(line.substr(0, q1)), tail(line.substr(q2 + 2));
    std::string arch, id, metric, key, value, unit, from;
    std::getline(head, arch, ',');
    std::getline(head, id, ',');
    std::getline(tail, metric, ',');
    std::getline(tail, key, ',');
    std::getline(tail, value, ',');
    std::getline(tail, unit, ',');
    std::getline(tail, from, ',');
    const nlohmann::json& a = *arch_of.at(arch);
    const nlohmann::json& info = a["metric_info"].at(metric);
    EXPECT_EQ(info["key"], key) << line;
    EXPECT_EQ(info["unit"], unit) << line;
    EXPECT_EQ(info["from"], from) << line;
    for (const auto& k : a["kernels"]) {
      if (std::to_string(k["id"].get<int>()) == id) {
        EXPECT_DOUBLE_EQ(k["metrics"][metric].get<double>(), std::stod(value)) << line;
      }
    }
  }
  std::size_t metrics = 0;
  for (const auto& a : j["archs"]) metrics += a["kernels"].size() * a["metric_info"].size();
  EXPECT_EQ(static_cast<std::size_t>(rows), metrics);
  std::filesystem::remove(json_file);
  std::filesystem::remove(csv_file);
}

TEST(OutputFormat, ValidateJsonIsAsDocumented) {
  const auto doc = documented_keys();
  const auto json_file = temp("v.json");
  // The committed suite: known mismatches, slack, rates and unchecked counters all occur.
  const auto r = run_cli(std::string("validate ") + WARPSCOPE_SOURCE_DIR "/validation/h100/suite --json " + json_file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json_file));
  EXPECT_EQ(j["format"], "warpscope-validate");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_EQ(keys_of(j), doc.at(kValidate + "Top level"));
  EXPECT_EQ(keys_of(j["summary"]), doc.at(kValidate + "`summary`"));
  Keys counter_keys;
  for (const auto& k : j["kernels"]) {
    EXPECT_EQ(keys_of(k), doc.at(kValidate + "`kernels[]`"));
    for (const auto& c : k["counters"])
      for (const auto& [key, value] : c.items()) counter_keys.insert(key);
  }
  EXPECT_EQ(counter_keys, doc.at(kValidate + "`kernels[].counters[]`"));
  // The text summary's accuracy line, in the JSON.
  const std::string launches = "(known mismatches count as outside): " + std::to_string(j["summary"]["launches_within_target"].get<int>()) +
                               " of " + std::to_string(j["summary"]["launches_checked"].get<int>()) + "\n";
  EXPECT_NE(r.out.find(launches), std::string::npos) << launches;
  std::filesystem::remove(json_file);
}

}  // namespace
}  // namespace warpscope::test
