// Writes an output file all at once: into "path.tmp", renamed over path only
// when complete, so a failure never leaves a partial file behind.
#pragma once

#include <filesystem>
#include <string>

namespace warpscope::report {

// Throws InputError naming the path when it cannot be written.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

// "-" names standard output for --json / --csv style options.
inline bool is_stdout(const std::filesystem::path& path) { return path == "-"; }

// All of `content` to standard output; throws InputError when it cannot be written.
void write_stdout(const std::string& content);

}  // namespace warpscope::report
