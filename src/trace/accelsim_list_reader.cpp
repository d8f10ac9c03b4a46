// Accel-Sim's kernelslist.g: a run's kernel files in launch order as one
// trace (kernel i = the i-th file; `MemcpyHtoD` lines skipped), and the two
// entry points open_trace() calls (trace_impl.hpp).
#include <fmt/format.h>

#include <filesystem>
#include <vector>

#include "trace/accelsim_reader.hpp"
#include "trace/line_reader.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {
namespace {

using namespace accelsim;

// A kernelslist.g: its kernel files in order, as one trace (kernel i = the i-th file).
class AccelSimListReader final : public TraceSource {
 public:
  AccelSimListReader(std::unique_ptr<ByteInput> in, const std::filesystem::path& dir, bool tables_first)
      : tables_first_(tables_first) {
    LineReader list(std::move(in));
    std::string_view line;
    while (list.next(line)) {
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
      if (line.empty() || starts_with(line, "MemcpyHtoD,")) continue;  // copies: warpscope models kernels only
      if (line.find(',') != std::string_view::npos || line.find(' ') != std::string_view::npos)
        list.fail(fmt::format("expected a kernel trace file name or 'MemcpyHtoD,ADDRESS,BYTES', found '{}'",
                              line.substr(0, 60)));
      const std::filesystem::path file = dir / std::string(line);
      std::error_code ec;
      const auto size = std::filesystem::file_size(file, ec);
      if (ec) list.fail(fmt::format("cannot read the kernel trace {}: {}", file.string(), ec.message()));
      files_.push_back(file);
      total_ += size;
    }
    if (files_.empty()) list.fail("the list names no kernel trace file");
  }

  bool next(WarpAccess& rec) override {
    for (;;) {
      if (!current_) {
        if (next_file_ == files_.size()) {
          summary_.note = skipped_note(skipped_);
          return false;
        }
        auto in = ByteInput::xz_if_compressed(std::make_unique<ByteInput>(files_[next_file_++]));
        current_ = AccelSimKernelReader::open(std::move(in), static_cast<std::uint32_t>(kernels_.size()),
                                              tables_first_);
        kernels_.push_back(current_->kernels().front());
      }
      const bool more = current_->next(rec);
      // The kernel's lines and atomics fill in as it is read, entries only added:
      // copied when their counts grew, not at every record.
      const KernelInfo& now = current_->kernels().front();
      KernelInfo& mine = kernels_.back();
      if (now.lines.size() != mine.lines.size() || now.atomics.size() != mine.atomics.size()) mine = now;
      if (more) {
        ++summary_.records;
        return true;
      }
      for (const auto& [op, n] : current_->skipped()) skipped_[op] += n;
      done_ += current_->file_size();
      current_.reset();
    }
  }

  const std::vector<KernelInfo>& kernels() const override { return kernels_; }
  std::uint64_t bytes_read() const override { return done_ + (current_ ? current_->bytes_read() : 0); }
  std::uint64_t file_size() const override { return total_; }
  TraceSummary summary() const override { return summary_; }

 private:
  bool tables_first_ = false;
  std::vector<std::filesystem::path> files_;
  std::size_t next_file_ = 0;
  std::unique_ptr<AccelSimKernelReader> current_;
  std::vector<KernelInfo> kernels_;
  TraceSummary summary_;
  SkipCounts skipped_;
  std::uint64_t total_ = 0, done_ = 0;
};

}  // namespace

std::unique_ptr<TraceSource> make_accelsim_reader(std::unique_ptr<ByteInput> in, const TraceReadOptions& options) {
  return AccelSimKernelReader::open(std::move(in), 0, options.kernel_tables_first);
}

std::unique_ptr<TraceSource> make_accelsim_list_reader(std::unique_ptr<ByteInput> in,
                                                       const std::optional<std::filesystem::path>& dir,
                                                       const TraceReadOptions& options) {
  if (!dir)
    throw TraceError(fmt::format("{}: an Accel-Sim kernelslist names its kernel files; open it as a file, not from "
                                 "standard input or memory", in->name()),
                     0);
  return std::make_unique<AccelSimListReader>(std::move(in), *dir, options.kernel_tables_first);
}
}  // namespace warpscope::trace
