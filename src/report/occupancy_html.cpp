#include "report/occupancy_html.hpp"

#include <fmt/format.h>

#include "report/html.hpp"

namespace warpscope::report {

std::string occupancy_sweep_html(const std::string& input, const LineChart& chart,
                                 const std::vector<std::vector<std::string>>& grid) {
  std::string body = fmt::format("<h1>warpscope occupancy: by {}</h1>\n<p>{}</p>\n", html_escape(chart.x_label),
                                 html_escape(input));
  body += "<figure>\n" + svg_line_chart(chart) +
          "<figcaption>Resident warps per SM over the most an SM holds, as the CUDA occupancy calculator draws it "
          "(docs/OCCUPANCY.md); a point is missing where the configuration cannot run.</figcaption>\n</figure>\n";
  body += html_table(grid, 0);
  return html_page("warpscope occupancy", body);
}

}  // namespace warpscope::report
