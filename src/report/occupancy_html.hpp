// `warpscope occupancy --sweep ... --html FILE`: the classic occupancy
// calculator's graph (occupancy over block size, registers or shared memory,
// a line per architecture) and its numbers, as one HTML page.
#pragma once

#include <string>
#include <vector>

#include "report/svg_chart.hpp"

namespace warpscope::report {

// `input`: the fixed inputs in words; `chart`: one series per architecture
// (y in percent); `grid`: the table under the graph (first row the header).
std::string occupancy_sweep_html(const std::string& input, const LineChart& chart,
                                 const std::vector<std::vector<std::string>>& grid);

}  // namespace warpscope::report
