// Where a trace reader gets its bytes: a file (streamed, never loaded whole),
// a buffer in memory (tests, fuzzing), or another input decompressed as it is
// read (xz: Accel-Sim's kernel traces are distributed as .traceg.xz).
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
  // `compressed` decompressed as it is read (an xz stream, or several one after
  // another). Errors in the compressed data are InputErrors naming the input.
  static std::unique_ptr<ByteInput> xz(std::unique_ptr<ByteInput> compressed);
  // Whether `first` (the first bytes of an input) is the xz magic FD 37 7A 58 5A 00.
  static bool is_xz(std::string_view first);
  // `in` decompressed as it is read when it starts with the xz magic, else `in` itself.
  static std::unique_ptr<ByteInput> xz_if_compressed(std::unique_ptr<ByteInput> in);
  bool decompressing() const { return xz_ != nullptr; }
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

  std::uint64_t offset() const { return offset_; }  // bytes read (decompressed ones when decompressing)
  std::uint64_t size() const { return size_; }      // bytes stored (compressed ones); 0 when unknown
  // Bytes taken from storage so far: offset() unless decompressing. Progress
  // compares it with size().
  std::uint64_t stored_offset() const;
  const std::string& name() const { return name_; }

 private:
  std::FILE* file_ = nullptr;
  std::string_view memory_;
  std::string pushback_;  // peeked bytes, read before the file's
  std::string name_;
  std::uint64_t offset_ = 0;
  std::uint64_t size_ = 0;
  bool is_stdin_ = false;
  struct Xz;                          // the decoder's state (liblzma)
  std::unique_ptr<ByteInput> source_;  // decompressing: the compressed input
  std::unique_ptr<Xz> xz_;
  ByteInput() = default;
  std::size_t decompress(char* out, std::size_t n);
};

}  // namespace warpscope::trace
