#include "report/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "report/html.hpp"

namespace warpscope::report {

const char* series_colour(std::size_t i) {
  static constexpr std::array<const char*, 7> kPalette = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                          "#56B4E9", "#D55E00", "#999999"};
  return kPalette[i % kPalette.size()];
}

std::string svg_bar_chart(const std::vector<BarGroup>& groups) {
  constexpr int kLabelWidth = 70, kBarArea = 360, kValueWidth = 130, kRow = 16, kGroupHead = 20;
  int height = 6;
  for (const auto& g : groups) height += kGroupHead + kRow * static_cast<int>(g.bars.size());
  const int width = kLabelWidth + kBarArea + kValueWidth;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n",
      width, height);
  int y = 6;
  for (const auto& g : groups) {
    out += fmt::format("<text x=\"0\" y=\"{}\" font-weight=\"bold\">{}</text>\n", y + 12, html_escape(g.label));
    y += kGroupHead;
    double scale = g.scale;
    for (const auto& b : g.bars) scale = std::max(scale, b.value);
    for (const auto& b : g.bars) {
      const double w = scale > 0 ? std::clamp(b.value / scale, 0.0, 1.0) * kBarArea : 0.0;
      out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", kLabelWidth - 6, y + 11,
                         html_escape(b.label));
      out += fmt::format("<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"/>\n",
                         kLabelWidth, y + 2, w, kRow - 4, series_colour(b.series));
      out += fmt::format("<text x=\"{:.1f}\" y=\"{}\">{}</text>\n", kLabelWidth + w + 4, y + 11,
                         html_escape(b.value_text));
      y += kRow;
    }
  }
  out += "</svg>\n";
  return out;
}

std::string svg_line_chart(const LineChart& chart) {
  constexpr double kLeft = 48, kTop = 10, kPlotW = 520, kPlotH = 200, kBottom = 40, kLegendRow = 16;
  double x_min = 0, x_max = 1;
  bool any = false;
  for (const auto& s : chart.series)
    for (const auto& [x, y] : s.points) {
      x_min = any ? std::min(x_min, x) : x;
      x_max = any ? std::max(x_max, x) : x;
      any = true;
    }
  if (x_max <= x_min) x_max = x_min + 1;
  const double y_max = chart.y_max > 0 ? chart.y_max : 1;
  auto px = [&](double x) { return kLeft + (x - x_min) / (x_max - x_min) * kPlotW; };
  auto py = [&](double y) { return kTop + kPlotH - std::clamp(y / y_max, 0.0, 1.0) * kPlotH; };
  const double legend_h = kLegendRow * static_cast<double>(chart.series.size());
  const double width = kLeft + kPlotW + 20, height = kTop + kPlotH + kBottom + legend_h;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lines\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n",
      width, height);
  for (int i = 0; i <= 4; ++i) {  // horizontal grid at quarters of y_max
    const double v = y_max * i / 4, y = py(v);
    out += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\"/>\n", kLeft, y, kLeft + kPlotW, y);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n", kLeft - 4, y + 4, v);
  }
  out += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", kLeft, kTop, kTop + kPlotH);
  out += fmt::format("<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>\n", kLeft, kTop + kPlotH,
                     kLeft + kPlotW);
  std::vector<double> ticks = chart.x_ticks;
  if (ticks.empty() && any) ticks = {x_min, x_max};
  for (double t : ticks)
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{:g}</text>\n", px(t), kTop + kPlotH + 14, t);
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", kLeft + kPlotW / 2,
                     kTop + kPlotH + 30, html_escape(chart.x_label));
  out += fmt::format("<text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">{}</text>\n",
                     kTop + kPlotH / 2, kTop + kPlotH / 2, html_escape(chart.y_label));
  double legend_y = kTop + kPlotH + kBottom;
  for (const auto& s : chart.series) {
    const char* colour = series_colour(s.series);
    std::string pts;
    for (const auto& [x, y] : s.points) pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", px(x), py(y));
    out += fmt::format("<polyline class=\"series\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n",
                       colour, pts);
    for (const auto& [x, y] : s.points)
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"><title>{}: {:g}, {:g}</title></circle>\n",
                         px(x), py(y), colour, html_escape(s.label), x, y);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"8\" fill=\"{}\"/>\n", kLeft, legend_y, colour);
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kLeft + 18, legend_y + 8, html_escape(s.label));
    legend_y += kLegendRow;
  }
  out += "</svg>\n";
  return out;
}

namespace {

// "1", "10", "100", "1K", "10K", "1M", "1G": a logarithmic axis's round numbers.
std::string tick_text(double v) {
  static constexpr std::pair<double, const char*> kSuffixes[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "K"}};
  for (const auto& [scale, suffix] : kSuffixes)
    if (v >= scale) return fmt::format("{:g}{}", v / scale, suffix);
  return fmt::format("{:g}", v);
}

}  // namespace

std::string svg_scatter(const ScatterChart& c) {
  constexpr double kLeft = 56, kTop = 10, kSide = 320, kBottom = 40, kLegendRow = 16;
  const auto unit = [](double v, double lo, double hi, bool log) {
    if (log) {
      v = std::max(v, lo);
      return (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
    }
    return (v - lo) / (hi - lo);
  };
  const auto px = [&](double x) { return kLeft + std::clamp(unit(x, c.x_min, c.x_max, c.log_x), 0.0, 1.0) * kSide; };
  const auto py = [&](double y) {
    return kTop + kSide - std::clamp(unit(y, c.y_min, c.y_max, c.log_y), 0.0, 1.0) * kSide;
  };
  const auto colour = [&](std::size_t i) {
    return i < c.series_colours.size() ? c.series_colours[i] : std::string(series_colour(i));
  };
  const double width = kLeft + kSide + 200, height = kTop + kSide + kBottom;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"scatter\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\">\n",
      width, height);
  for (double t : c.x_ticks) {
    out += fmt::format("<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>\n", px(t), kTop,
                       kTop + kSide);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px(t), kTop + kSide + 14,
                       tick_text(t));
  }
  for (double t : c.y_ticks) {
    out += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\"/>\n", kLeft, py(t),
                       kLeft + kSide);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n", kLeft - 4, py(t) + 4, t);
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n", kLeft, kTop,
                     kSide, kSide);
  for (const auto& [a, b] : c.lines)
    out += fmt::format("<line class=\"ref\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#777\" "
                       "stroke-dasharray=\"4 3\"/>\n",
                       px(a.first), py(a.second), px(b.first), py(b.second));
  // Later series on top: callers put the ones that matter most (failures) last.
  std::vector<const ScatterPoint*> order;
  for (const auto& p : c.points) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->series < b->series; });
  for (const ScatterPoint* p : order)
    out += fmt::format("<circle class=\"point s{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\" fill-opacity=\"0.7\">"
                       "<title>{}</title></circle>\n",
                       p->series, px(p->x), py(p->y), colour(p->series), html_escape(p->title));
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", kLeft + kSide / 2,
                     kTop + kSide + 32, html_escape(c.x_label));
  out += fmt::format("<text x=\"12\" y=\"{0}\" transform=\"rotate(-90 12 {0})\" text-anchor=\"middle\">{1}</text>\n",
                     kTop + kSide / 2, html_escape(c.y_label));
  double ly = kTop + 8;
  for (std::size_t i = 0; i < c.series_labels.size(); ++i) {
    std::size_t n = 0;
    for (const auto& p : c.points) n += p.series == i ? 1 : 0;
    out += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"/>\n", kLeft + kSide + 20, ly, colour(i));
    out += fmt::format("<text x=\"{}\" y=\"{}\">{} ({})</text>\n", kLeft + kSide + 30, ly + 4,
                       html_escape(c.series_labels[i]), n);
    ly += kLegendRow;
  }
  out += "</svg>\n";
  return out;
}

}  // namespace warpscope::report
