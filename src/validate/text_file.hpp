// Reads a whole input file; InputError naming it when it cannot be read.
#pragma once

#include <filesystem>
#include <string>

namespace warpscope::validate {

std::string read_text_file(const std::filesystem::path& path);

}  // namespace warpscope::validate
