// One line of comma-separated values as Nsight Compute writes them: fields in
// double quotes, "" for a quote inside, unquoted fields allowed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpscope::validate {

// Splits `line` into fields. InputError "file:line:column: ..." on an
// unterminated quote or text after a closing quote.
std::vector<std::string> split_csv_line(std::string_view line, const std::string& file, int line_number);

}  // namespace warpscope::validate
