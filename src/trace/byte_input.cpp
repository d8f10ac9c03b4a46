#include "trace/byte_input.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "warpscope/error.hpp"

namespace warpscope::trace {

ByteInput::ByteInput(const std::filesystem::path& path) : name_(path.string()) {
  if (name_ == "-") {  // standard input: a pipe or a redirected file, read as a stream
    name_ = "<stdin>";
    is_stdin_ = true;
    const int fd = ::dup(STDIN_FILENO);  // closed by fclose, leaving descriptor 0 open
    file_ = fd < 0 ? nullptr : ::fdopen(fd, "rb");
    if (file_ == nullptr) throw InputError(fmt::format("cannot read {}: {}", name_, std::strerror(errno)));
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 18);
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(fmt::format("cannot read {}: it is a directory", name_));
  file_ = std::fopen(name_.c_str(), "rb");
  if (file_ == nullptr) throw InputError(fmt::format("cannot open {}: {}", name_, std::strerror(errno)));
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 18);
  if (std::filesystem::is_regular_file(path, ec)) {
    const auto n = std::filesystem::file_size(path, ec);
    if (!ec) size_ = n;
  }
}

ByteInput::ByteInput(std::string_view bytes, std::string name)
    : memory_(bytes), name_(std::move(name)), size_(bytes.size()) {}

std::unique_ptr<ByteInput> ByteInput::reopen() const {
  if (is_stdin_) return nullptr;
  if (file_ == nullptr) return std::make_unique<ByteInput>(memory_, name_);
  return std::make_unique<ByteInput>(std::filesystem::path(name_));
}

ByteInput::~ByteInput() {
  if (file_ != nullptr) std::fclose(file_);
}

std::size_t ByteInput::read(void* dst, std::size_t n) {
  auto* out = static_cast<char*>(dst);
  std::size_t got = 0;
  if (!pushback_.empty()) {
    got = std::min(n, pushback_.size());
    std::memcpy(out, pushback_.data(), got);
    pushback_.erase(0, got);
  }
  if (file_ == nullptr) {
    const std::size_t pos = static_cast<std::size_t>(offset_) + got;
    const std::size_t take = std::min(n - got, memory_.size() - std::min(pos, memory_.size()));
    if (take > 0) std::memcpy(out + got, memory_.data() + pos, take);
    got += take;
  } else if (got < n) {
    got += std::fread(out + got, 1, n - got, file_);
    if (got < n && std::ferror(file_)) throw InputError(fmt::format("cannot read {}: {}", name_, std::strerror(errno)));
  }
  offset_ += got;
  return got;
}

std::string_view ByteInput::peek(std::size_t n) {
  if (file_ == nullptr) {
    const std::size_t pos = std::min(static_cast<std::size_t>(offset_), memory_.size());
    return memory_.substr(pos, n);
  }
  if (pushback_.size() < n) {
    char buf[16];
    const std::size_t want = std::min(n - pushback_.size(), sizeof buf);
    const std::size_t got = std::fread(buf, 1, want, file_);
    if (got < want && std::ferror(file_)) throw InputError(fmt::format("cannot read {}: {}", name_, std::strerror(errno)));
    pushback_.append(buf, got);
  }
  return std::string_view(pushback_).substr(0, n);
}

}  // namespace warpscope::trace
