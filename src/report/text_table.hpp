// A plain column-aligned text table: the one way warpscope prints tables.
#pragma once

#include <string>
#include <vector>

namespace warpscope::report {

class TextTable {
 public:
  enum class Align { Left, Right };
  explicit TextTable(std::vector<std::string> header, std::vector<Align> align = {});
  void add_row(std::vector<std::string> cells);
  void add_separator();
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;  // empty row = separator
};

}  // namespace warpscope::report
