#include "report/html.hpp"

#include <fmt/format.h>

namespace warpscope::report {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

// One style sheet for every report: readable printed and on screen, colours
// that stay apart for the colour-blind (the Okabe-Ito palette).
constexpr std::string_view kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; color: #222; margin: 2em auto; max-width: 1200px; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.1em; margin-top: 1.5em; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; vertical-align: top; }
th { background: #f4f4f4; }
td.l, th.l { text-align: left; }
.nw { white-space: nowrap; }
code, .mono { font-family: ui-monospace, monospace; font-size: 0.92em; }
.muted { color: #777; }
.badge { font-size: 0.8em; padding: 0 5px; border-radius: 3px; }
.rules { background: #d6ecf7; color: #084a6b; }
.caches { background: #fbe3c8; color: #7a4300; }
.note { background: #fafafa; border-left: 3px solid #ccc; padding: 0.4em 0.8em; }
tr.fail td { background: #fbd9cc; }
tr.known td { background: #fdf0dc; }
details { margin: 0.3em 0; }
summary { cursor: pointer; }
figure { margin: 1em 0; }
figcaption { color: #555; font-size: 0.9em; }
svg text { font: 11px system-ui, sans-serif; fill: #222; }
svg .axis { stroke: #999; stroke-width: 1; }
svg .grid { stroke: #e4e4e4; stroke-width: 1; }
)";

}  // namespace

std::string html_page(std::string_view title, std::string_view body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      html_escape(title), kStyle, body);
}

std::string group_digits(std::string_view text) {
  const std::size_t digits = text.find_first_not_of("0123456789");
  const std::size_t n = digits == std::string_view::npos ? text.size() : digits;
  if (n < 5) return std::string(text);
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += text[i];
  }
  return out + std::string(text.substr(n));
}

std::string html_table(const std::vector<std::vector<std::string>>& grid, std::size_t left_columns) {
  std::string out = "<table>\n";
  for (std::size_t r = 0; r < grid.size(); ++r) {
    out += "<tr>";
    for (std::size_t c = 0; c < grid[r].size(); ++c) {
      const char* tag = r == 0 ? "th" : "td";
      out += fmt::format("<{0}{1}>{2}</{0}>", tag, c < left_columns ? " class=\"l\"" : "", html_escape(grid[r][c]));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string basis_badge(bool depends_on_caches) {
  return depends_on_caches ? "<span class=\"badge caches\" title=\"the modelled cache state: an estimate\">caches</span>"
                           : "<span class=\"badge rules\" title=\"the access pattern alone: exact where the hardware "
                             "is deterministic\">rules</span>";
}

}  // namespace warpscope::report
