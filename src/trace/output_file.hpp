// The file a trace writer fills: "path.partial" until commit() renames it to
// path, so a reader never mistakes an unfinished trace for a finished one.
// The path "-" is standard output, written as it comes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>

namespace warpscope::trace {

class PartialFile {
 public:
  // Creates path.partial. Throws InputError when it cannot.
  PartialFile(const std::filesystem::path& path, bool remove_on_failure);
  // Uncommitted: closes the file and, with remove_on_failure, removes it.
  ~PartialFile();
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;

  void write(const void* data, std::size_t n);  // throws InputError
  void flush();                                 // hands buffered bytes to the OS; throws InputError
  void commit();                                // flush, close, rename to path; throws InputError
  std::uint64_t bytes_written() const { return written_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what) const;
  std::filesystem::path path_, partial_;
  std::FILE* file_ = nullptr;
  bool to_stdout_ = false;
  bool remove_on_failure_;
  bool committed_ = false;
  std::uint64_t written_ = 0;
};

}  // namespace warpscope::trace
