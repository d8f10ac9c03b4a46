// Charts as inline SVG for the HTML reports: horizontal bars in groups (one
// group per quantity, one bar per architecture) and lines over x (occupancy
// sweeps). Plain data in, markup out; the values are written next to the bars
// so the picture never has to be read by eye.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace warpscope::report {

// The colour of series i (the Okabe-Ito palette, told apart by the colour-blind).
const char* series_colour(std::size_t i);

struct ChartBar {
  std::string label;       // "sm_90"
  double value = 0;        // drawn length, against the group's scale
  std::string value_text;  // written after the bar ("87.5%", "4,096 B")
  std::size_t series = 0;  // colour
};

struct BarGroup {
  std::string label;  // "L1 hit rate"
  // Full scale of the group's bars: 0 = the largest value in the group.
  double scale = 0;
  std::vector<ChartBar> bars;
};

// One SVG: every group's label on a row of its own, its bars below it.
std::string svg_bar_chart(const std::vector<BarGroup>& groups);

struct LineSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;  // (x, y), x rising
  std::size_t series = 0;
};

struct LineChart {
  std::string x_label, y_label;
  double y_max = 100;            // the y axis runs 0..y_max
  std::vector<double> x_ticks;   // labelled x positions (empty: the first and last x)
  std::vector<LineSeries> series;
};

// One SVG: axes, grid, a polyline and a dot per point for each series, a legend.
std::string svg_line_chart(const LineChart& chart);

// Model against hardware, one dot per counter: validation's picture.
struct ScatterPoint {
  double x = 0, y = 0;
  std::size_t series = 0;  // colour and legend entry
  std::string title;       // shown on hover: which kernel and counter
};

struct ScatterChart {
  std::string x_label, y_label;
  double x_min = 0, x_max = 100, y_min = 0, y_max = 100;
  bool log_x = false, log_y = false;   // logarithmic axes (min > 0)
  std::vector<double> x_ticks, y_ticks;
  // Reference lines (the diagonal, the tolerance band), each from one point to another.
  std::vector<std::pair<std::pair<double, double>, std::pair<double, double>>> lines;
  std::vector<std::string> series_labels;  // legend, by series index
  std::vector<std::string> series_colours; // by series index; series_colour(i) where missing
  std::vector<ScatterPoint> points;        // drawn clamped to the axes
};
std::string svg_scatter(const ScatterChart& chart);

}  // namespace warpscope::report
