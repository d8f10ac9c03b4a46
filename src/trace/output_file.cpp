#include "trace/output_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "warpscope/error.hpp"

namespace warpscope::trace {

PartialFile::PartialFile(const std::filesystem::path& path, bool remove_on_failure)
    : path_(path), partial_(path.string() + ".partial"), remove_on_failure_(remove_on_failure) {
  if (path == "-") {
    to_stdout_ = true;
    partial_ = "standard output";
    file_ = stdout;
    return;
  }
  file_ = std::fopen(partial_.c_str(), "wb");
  if (file_ == nullptr) fail("create");
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 18);
}

PartialFile::~PartialFile() {
  if (committed_ || to_stdout_) return;
  if (file_ != nullptr) std::fclose(file_);
  if (remove_on_failure_) {
    std::error_code ec;
    std::filesystem::remove(partial_, ec);
  }
}

void PartialFile::fail(const char* what) const {
  throw InputError(fmt::format("cannot {} {}: {}", what, partial_.string(), std::strerror(errno)));
}

void PartialFile::write(const void* data, std::size_t n) {
  if (file_ == nullptr) throw Error(fmt::format("{} is already closed", partial_.string()));
  if (std::fwrite(data, 1, n, file_) != n) fail("write");
  written_ += n;
}

void PartialFile::flush() {
  if (file_ == nullptr) throw Error(fmt::format("{} is already closed", partial_.string()));
  if (std::fflush(file_) != 0) fail("write");
}

void PartialFile::commit() {
  flush();
  if (to_stdout_) {
    committed_ = true;
    return;
  }
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0) fail("write");
  std::error_code ec;
  std::filesystem::rename(partial_, path_, ec);
  if (ec) {
    throw InputError(
        fmt::format("cannot rename {} to {}: {}", partial_.string(), path_.string(), ec.message()));
  }
  committed_ = true;
}

}  // namespace warpscope::trace
