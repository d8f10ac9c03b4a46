// Writes an output file all at once: into "path.tmp", renamed over path only
// when complete, so a failure never leaves a partial file behind.
#pragma once

#include <filesystem>
#include <string>

namespace warpscope::report {

// Throws InputError naming the path when it cannot be written.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace warpscope::report
