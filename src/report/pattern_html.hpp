// `warpscope pattern --html FILE`: one warp access as an HTML page: what it
// touches (lines and sectors, or banks) and the rules engine's counts on each
// architecture, for teaching and quick what-ifs.
#pragma once

#include <string>
#include <vector>

#include "report/counts_report.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::report {

// `description`: the pattern in words (describe(PatternSpec)); `bank_width`:
// the --bank-width the counts were made with (0: each architecture's default).
std::string pattern_html(const std::string& description, const WarpAccess& access,
                         const std::vector<ArchResult>& results, int bank_width);

}  // namespace warpscope::report
