// DIR/environment.txt: where the recordings of a validation suite were made,
// one "key: value" per line (gpu, gpu_model, arch, driver, cuda, ncu, date, and
// whatever else the recording script notes). Blank lines and '#' comments are
// ignored; every key is kept, in file order, for the report.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::validate {

struct Environment {
  std::string file;
  std::vector<std::pair<std::string, std::string>> entries;
  std::vector<int> lines;  // line of each entry
  // The value of `key`, "" when absent.
  std::string get(std::string_view key) const;
  // The value of `key`; InputError naming the file when absent or empty.
  std::string require(std::string_view key) const;
  int line_of(std::string_view key) const;  // 0 when absent
};

// InputError "file:line: ..." on a line without ':' or a key given twice.
Environment parse_environment(std::string_view text, const std::string& file);
Environment read_environment(const std::filesystem::path& path);

}  // namespace warpscope::validate
