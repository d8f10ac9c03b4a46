#include "validate/text_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "warpscope/error.hpp"

namespace warpscope::validate {

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace warpscope::validate
