// The few pieces every warpscope HTML report is made of: escaping, and a page
// with its style sheet inline, so that a report is one file that opens
// anywhere, offline, with no script. Markup is XHTML-compatible (every element
// closed) so tests can check that it nests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpscope::report {

// Text or an attribute value with &, <, >, " and ' escaped.
std::string html_escape(std::string_view text);

// A leading whole number of five digits or more with thousands separators
// ("16585728 B" -> "16,585,728 B"); anything else as it is.
std::string group_digits(std::string_view text);

// A whole page: <!DOCTYPE html> ... </html> around `body`, titled `title`.
std::string html_page(std::string_view title, std::string_view body);

// A table of text cells (escaped here): the first row is the header, the
// first `left_columns` columns are aligned left (labels), the rest right.
std::string html_table(const std::vector<std::vector<std::string>>& grid, std::size_t left_columns);

// A small "rules" / "caches" badge: what a value rests on (metric_names.hpp).
std::string basis_badge(bool depends_on_caches);

}  // namespace warpscope::report
