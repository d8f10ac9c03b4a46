#include "report/pattern_html.hpp"

#include <fmt/format.h>

#include "report/access_picture.hpp"
#include "report/html.hpp"

namespace warpscope::report {

std::string pattern_html(const std::string& description, const WarpAccess& access,
                         const std::vector<ArchResult>& results, int bank_width) {
  std::string body = fmt::format("<h1>warpscope pattern</h1>\n<p class=\"mono\">{}</p>\n", html_escape(description));
  std::vector<const ArchSpec*> archs;
  for (const auto& r : results) archs.push_back(r.arch);
  body += access_figure(access, archs, bank_width);
  body += "<h2>Counts</h2>\n" + html_table(counts_grid(results), 1);
  // Every lane's address, eight lanes a row, as `pattern --lanes` prints them.
  std::vector<std::vector<std::string>> lanes{{"lanes", "+0", "+1", "+2", "+3", "+4", "+5", "+6", "+7"}};
  for (int row = 0; row < kWarpSize; row += 8) {
    std::vector<std::string> cells{fmt::format("{}-{}", row, row + 7)};
    for (int l = row; l < row + 8; ++l)
      cells.push_back(access.active.test(l) ? fmt::format("{:#x}", access.addr[static_cast<unsigned>(l)]) : "-");
    lanes.push_back(cells);
  }
  body += "<h2>Lane addresses</h2>\n" + html_table(lanes, 1);
  return html_page("warpscope pattern", body);
}

}  // namespace warpscope::report
