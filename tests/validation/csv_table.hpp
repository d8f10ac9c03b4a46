// Reads the comma-separated tables recorded under validation/ (a cell may be
// double-quoted to hold commas, as Python's csv module writes it; no escaped quotes).
#pragma once

#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpscope::test {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  int column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return static_cast<int>(i);
    throw std::runtime_error("no column " + name);
  }
};

inline CsvTable read_csv(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open " + path);
  CsvTable t;
  std::string line;
  bool first = true;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (const char ch : line) {
      if (ch == '"') {
        quoted = !quoted;
      } else if (ch == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += ch;
      }
    }
    if (first) {
      t.header = cells;
      first = false;
    } else {
      t.rows.push_back(cells);
    }
  }
  return t;
}

}  // namespace warpscope::test
