// `warpscope validate --html FILE`: the validation as one page: the recording,
// the summary, model against hardware as two pictures (hit rates; bytes, sectors
// and requests), a row per launch, and every counter of each launch under it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/html.hpp"
#include "report/svg_chart.hpp"
#include "validate/format.hpp"
#include "warpscope/validate.hpp"

namespace warpscope {
namespace {

// Scatter series: what a dot's counter did.
enum Series : std::size_t { kWithin, kKnown, kFail };

std::size_t series_of(Verdict v) {
  return v == Verdict::Fail ? kFail : v == Verdict::Known ? kKnown : kWithin;
}

report::ScatterChart base_chart() {
  report::ScatterChart c;
  c.series_labels = {"within tolerance", "known mismatch", "outside: FAIL"};
  c.series_colours = {report::series_colour(0), report::series_colour(1), report::series_colour(5)};
  return c;
}

std::string title(const KernelValidation& k, const CounterComparison& c) {
  return fmt::format("{} {}: hardware {}, model {}", k.label, c.counter, validate::value_cell(c, true),
                     validate::value_cell(c, false));
}

// Rates (hit rates): model % over hardware %, the diagonal and a 5-point band.
std::string rates_figure(const ValidationReport& r) {
  report::ScatterChart c = base_chart();
  c.x_label = "hardware (%)";
  c.y_label = "model (%)";
  c.x_ticks = c.y_ticks = {0, 25, 50, 75, 100};
  c.lines = {{{0, 0}, {100, 100}}, {{0, 5}, {95, 100}}, {{5, 0}, {100, 95}}};
  for (const auto& k : r.kernels)
    for (const auto& cc : k.counters)
      if (cc.unit == ErrorUnit::Points && cc.verdict != Verdict::Unchecked && cc.hardware_rate && cc.model_rate)
        c.points.push_back({*cc.hardware_rate, *cc.model_rate, series_of(cc.verdict), title(k, cc)});
  if (c.points.empty()) return "";
  return fmt::format(
      "<figure>\n{}<figcaption>Hit rates, {} counters: a dot per launch and counter, model against hardware. On the "
      "diagonal the model is exact; the dashed band is 5 points either side (the suite's target; each counter's own "
      "tolerance is in the table below).</figcaption>\n</figure>\n",
      report::svg_scatter(c), c.points.size());
}

// Bytes, sectors, requests: model / hardware over the hardware value, both logarithmic.
std::string relative_figure(const ValidationReport& r) {
  report::ScatterChart c = base_chart();
  c.x_label = "hardware value";
  c.y_label = "model / hardware";
  c.log_x = c.log_y = true;
  c.y_min = 0.5;
  c.y_max = 2;
  c.y_ticks = {0.5, 0.75, 1, 1.5, 2};
  double lo = 0, hi = 0;
  for (const auto& k : r.kernels)
    for (const auto& cc : k.counters)
      if (cc.unit == ErrorUnit::Percent && cc.verdict != Verdict::Unchecked && cc.hardware > 0) {
        lo = lo == 0 ? cc.hardware : std::min(lo, cc.hardware);
        hi = std::max(hi, cc.hardware);
        c.points.push_back({cc.hardware, cc.model / cc.hardware, series_of(cc.verdict), title(k, cc)});
      }
  if (c.points.empty()) return "";
  c.x_min = std::pow(10.0, std::floor(std::log10(lo)));
  c.x_max = std::pow(10.0, std::ceil(std::log10(hi)));
  if (c.x_max <= c.x_min) c.x_max = c.x_min * 10;
  for (double t = c.x_min; t <= c.x_max * 1.001; t *= 10) c.x_ticks.push_back(t);
  c.lines = {{{c.x_min, 1}, {c.x_max, 1}}, {{c.x_min, 1.1}, {c.x_max, 1.1}}, {{c.x_min, 0.9}, {c.x_max, 0.9}}};
  return fmt::format(
      "<figure>\n{}<figcaption>Bytes, sectors and requests, {} counters with a hardware value above 0: model over "
      "hardware. 1 is exact; the dashed lines are 10% either side; dots beyond 0.5 or 2 sit on the edge. Counters "
      "that pass by their absolute slack (a few hundred bytes of a small kernel) can lie outside the "
      "lines.</figcaption>\n</figure>\n",
      report::svg_scatter(c), c.points.size());
}

std::string verdict_class(const std::string& verdict) {
  return verdict.find("FAIL") != std::string::npos ? "fail" : verdict.find("KNOWN") != std::string::npos ? "known" : "";
}

}  // namespace

std::string validation_html(const ValidationReport& r) {
  using report::html_escape;
  std::string body = fmt::format("<h1>warpscope validate: <span class=\"mono\">{}</span></h1>\n", html_escape(r.dir));
  body += "<table>\n";
  for (const auto& [key, value] : r.environment)
    body += fmt::format("<tr><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>\n", html_escape(key),
                        html_escape(value));
  body += fmt::format("<tr><td class=\"l\">model</td><td class=\"l\">{}</td></tr>\n</table>\n",
                      html_escape(r.memory.substr(0, r.memory.find('\n'))));
  const ValidationSummary s = summarize(r);
  body += "<div class=\"note\">\n";
  for (const auto& line : validate::summary_lines(r, s))
    body += fmt::format("<div{}>{}</div>\n", line.rfind("  ", 0) == 0 ? " style=\"margin-left:2em\"" : "",
                        html_escape(line));
  body += "</div>\n";
  for (const auto& n : r.notes) body += "<p class=\"note\">" + html_escape(n) + "</p>\n";
  body += "<h2>Model against hardware</h2>\n" + rates_figure(r) + relative_figure(r);

  body += "<h2>Per launch</h2>\n<table>\n<tr>";
  const auto header = validate::kernel_summary_header();
  for (std::size_t i = 0; i < header.size(); ++i)
    body += fmt::format("<th{}>{}</th>", i == 0 ? " class=\"l\"" : "", html_escape(header[i]));
  body += "</tr>\n";
  // Each launch's summary row, once: the table and the launch's section both show its verdict.
  std::vector<std::vector<std::string>> rows;
  for (const auto& k : r.kernels) rows.push_back(validate::kernel_summary_row(k));
  for (std::size_t k = 0; k < r.kernels.size(); ++k) {
    const auto& row = rows[k];
    const std::string cls = verdict_class(row.back());
    body += cls.empty() ? "<tr>" : fmt::format("<tr class=\"{}\">", cls);
    for (std::size_t i = 0; i < row.size(); ++i)
      body += i == 0 ? fmt::format("<td class=\"l\"><a href=\"#l{}\">{}</a></td>", k, html_escape(row[i]))
                     : fmt::format("<td>{}</td>", html_escape(row[i]));
    body += "</tr>\n";
  }
  body += "</table>\n<h2>Every counter</h2>\n";
  const auto& counter_header = validate::counter_header();
  for (std::size_t k = 0; k < r.kernels.size(); ++k) {
    const KernelValidation& kv = r.kernels[k];
    const std::string& verdict = rows[k].back();
    body += fmt::format("<details id=\"l{}\"{}><summary>{} <span class=\"muted\">({}, launch {}): {}</span></summary>\n",
                        k, verdict_class(verdict).empty() ? "" : " open", html_escape(kv.label), html_escape(kv.app),
                        kv.launch + 1, html_escape(verdict));
    body += "<table>\n<tr>";
    for (std::size_t i = 1; i < counter_header.size(); ++i)
      body += fmt::format("<th{}>{}</th>", i == 1 || i + 1 == counter_header.size() ? " class=\"l\"" : "",
                          html_escape(counter_header[i]));
    body += "</tr>\n";
    for (const auto& c : kv.counters) {
      const auto row = validate::counter_row(kv, c);
      const std::string cls = verdict_class(row.back());
      body += cls.empty() ? "<tr>" : fmt::format("<tr class=\"{}\">", cls);
      for (std::size_t i = 1; i < row.size(); ++i)
        body += fmt::format("<td{}>{}</td>", i == 1 ? " class=\"l mono\"" : i + 1 == row.size() ? " class=\"l\"" : "",
                            html_escape(row[i]));
      body += "</tr>\n";
    }
    body += "</table>\n</details>\n";
  }
  return report::html_page("warpscope validate " + r.dir, body);
}

}  // namespace warpscope
