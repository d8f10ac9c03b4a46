#include "report/text_table.hpp"

#include <algorithm>

namespace warpscope::report {
namespace {
// Display width of UTF-8 text: count code points, not bytes.
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
}  // namespace

TextTable::TextTable(std::vector<std::string> header, std::vector<Align> align)
    : header_(std::move(header)), align_(std::move(align)) {
  align_.resize(header_.size(), Align::Right);
  if (!align_.empty()) align_[0] = align.empty() ? Align::Left : align_[0];
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::add_separator() { rows_.emplace_back(); }

std::string TextTable::render() const {
  std::vector<std::size_t> w(header_.size(), 0);
  for (std::size_t i = 0; i < header_.size(); ++i) w[i] = width(header_[i]);
  for (const auto& r : rows_)
    for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], width(r[i]));
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t i = 0; i < header_.size(); ++i) {
      const std::string& c = cells[i];
      const std::string pad(w[i] - width(c), ' ');
      if (i) out += "  ";
      out += align_[i] == Align::Left ? c + (i + 1 < header_.size() ? pad : "") : pad + c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header_);
  std::size_t total = 0;
  for (auto x : w) total += x;
  total += 2 * (w.size() - 1);
  const std::string rule(total, '-');
  out += rule + "\n";
  for (const auto& r : rows_) out += r.empty() ? rule + "\n" : line(r);
  return out;
}

}  // namespace warpscope::report
