// Where a trace reader gets its bytes: a file (streamed, never loaded whole)
// or a buffer in memory (tests, fuzzing).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace warpscope::trace {

class ByteInput {
 public:
  // Throws InputError when the file cannot be opened or is a directory.
  // "-" reads standard input (named "<stdin>" in messages; size unknown).
  explicit ByteInput(const std::filesystem::path& path);
  ByteInput(std::string_view bytes, std::string name);
  ~ByteInput();
  ByteInput(const ByteInput&) = delete;
  ByteInput& operator=(const ByteInput&) = delete;

  // Reads up to n bytes; fewer only at the end of the input. Throws InputError on an I/O error.
  std::size_t read(void* dst, std::size_t n);
  // Up to n (<= 16) bytes at the current position, left unread.
  std::string_view peek(std::size_t n);

  // The same bytes again from the start, as a new input: a file is opened
  // again, a buffer shared; null for standard input (a stream reads once).
  std::unique_ptr<ByteInput> reopen() const;

  std::uint64_t offset() const { return offset_; }
  std::uint64_t size() const { return size_; }  // 0 when unknown
  const std::string& name() const { return name_; }

 private:
  std::FILE* file_ = nullptr;
  std::string_view memory_;
  std::string pushback_;  // peeked bytes, read before the file's
  std::string name_;
  std::uint64_t offset_ = 0;
  std::uint64_t size_ = 0;
  bool is_stdin_ = false;
};

}  // namespace warpscope::trace
