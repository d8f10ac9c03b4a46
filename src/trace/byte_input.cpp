#include "trace/byte_input.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "warpscope/error.hpp"

#include <lzma.h>

namespace warpscope::trace {

struct ByteInput::Xz {
  lzma_stream stream = LZMA_STREAM_INIT;
  std::string in;      // compressed bytes read from the source, not yet decoded
  bool source_done = false, ended = false;
  ~Xz() { lzma_end(&stream); }
};

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

bool ByteInput::is_xz(std::string_view first) {
  return first.size() >= 6 && first.substr(0, 6) == std::string_view("\xFD" "7zXZ\0", 6);
}

std::unique_ptr<ByteInput> ByteInput::xz(std::unique_ptr<ByteInput> compressed) {
  std::unique_ptr<ByteInput> in(new ByteInput());
  in->name_ = compressed->name_;
  in->size_ = compressed->size_;
  in->xz_ = std::make_unique<Xz>();
  // A decoder's memory is bounded (xz -9 needs 65 MB); concatenated streams are read as one.
  constexpr std::uint64_t kMemoryLimit = 256ull << 20;
  if (lzma_stream_decoder(&in->xz_->stream, kMemoryLimit, LZMA_CONCATENATED) != LZMA_OK)
    throw InputError(fmt::format("cannot decompress {}: the xz decoder could not start", in->name_));
  in->source_ = std::move(compressed);
  return in;
}

std::unique_ptr<ByteInput> ByteInput::xz_if_compressed(std::unique_ptr<ByteInput> in) {
  return is_xz(in->peek(6)) ? xz(std::move(in)) : std::move(in);
}

std::uint64_t ByteInput::stored_offset() const { return source_ ? source_->offset() : offset_; }

std::size_t ByteInput::decompress(char* out, std::size_t n) {
  Xz& x = *xz_;
  std::size_t got = 0;
  while (got < n && !x.ended) {
    if (x.stream.avail_in == 0 && !x.source_done) {
      x.in.resize(1u << 16);
      x.in.resize(source_->read(x.in.data(), x.in.size()));
      x.source_done = x.in.empty();
      x.stream.next_in = reinterpret_cast<const std::uint8_t*>(x.in.data());
      x.stream.avail_in = x.in.size();
    }
    x.stream.next_out = reinterpret_cast<std::uint8_t*>(out + got);
    x.stream.avail_out = n - got;
    const lzma_ret r = lzma_code(&x.stream, x.source_done ? LZMA_FINISH : LZMA_RUN);
    got = n - x.stream.avail_out;
    if (r == LZMA_STREAM_END) {
      x.ended = true;
    } else if (r != LZMA_OK) {
      const char* why = r == LZMA_MEMLIMIT_ERROR ? "it needs more than 256 MB to decode"
                        : r == LZMA_FORMAT_ERROR  ? "not xz data"
                        : r == LZMA_BUF_ERROR     ? "the compressed data ends early (truncated?)"
                                                  : "the compressed data is corrupt";
      throw InputError(fmt::format("cannot decompress {} (xz): {}, after {} bytes", name_, why, offset_ + got));
    }
  }
  return got;
}

std::unique_ptr<ByteInput> ByteInput::reopen() const {
  if (source_) {
    auto again = source_->reopen();
    return again ? xz(std::move(again)) : nullptr;
  }
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
  if (xz_) {
    got += decompress(out + got, n - got);
  } else if (file_ == nullptr) {
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
  if (xz_) {
    if (pushback_.size() < n) {
      char buf[16];
      pushback_.append(buf, decompress(buf, std::min(n - pushback_.size(), sizeof buf)));
    }
    return std::string_view(pushback_).substr(0, n);
  }
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
