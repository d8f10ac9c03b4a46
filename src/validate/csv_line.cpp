#include "validate/csv_line.hpp"

#include <fmt/format.h>

#include "warpscope/error.hpp"

namespace warpscope::validate {

std::vector<std::string> split_csv_line(std::string_view line, const std::string& file, int line_number) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string> fields;
  std::size_t i = 0;
  const auto fail = [&](std::size_t col, const char* what) {
    throw InputError(fmt::format("{}:{}:{}: {}", file, line_number, col + 1, what));
  };
  while (true) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      const std::size_t open = i++;
      while (true) {
        if (i >= line.size()) fail(open, "unterminated quoted field");
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      if (i < line.size() && line[i] != ',') fail(i, "expected ',' after a quoted field");
    } else {
      const std::size_t end = std::min(line.find(',', i), line.size());
      field.assign(line.substr(i, end - i));
      i = end;
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

}  // namespace warpscope::validate
