// Writes the text form: the header line, then one line per kernel (plus one
// `loc` line per PC -> file:line entry, an `atomic` line per PC -> atomic operation) and one line per record.
#include <fmt/format.h>

#include <bit>

#include "trace/output_file.hpp"
#include "trace/text_syntax.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {
namespace {

// Lane i at base + stride * i for every active lane, with a base that needs
// no wrap-around; false when the record needs the lane list.
bool as_base_stride(const WarpAccess& r, std::uint64_t& base, std::int64_t& stride) {
  const std::uint32_t m = r.active.bits();
  const int first = std::countr_zero(m);
  const std::uint64_t a0 = r.addr[static_cast<unsigned>(first)];
  stride = 0;
  const std::uint32_t rest = m & (m - 1);
  if (rest != 0) {
    const int second = std::countr_zero(rest);
    const auto d = static_cast<std::int64_t>(r.addr[static_cast<unsigned>(second)] - a0);
    if (d % (second - first) != 0) return false;
    stride = d / (second - first);
  }
  // base = a0 - stride * first, when that does not wrap around.
  const std::uint64_t magnitude = stride < 0 ? 0 - static_cast<std::uint64_t>(stride) : static_cast<std::uint64_t>(stride);
  std::uint64_t back = 0;
  if (__builtin_mul_overflow(magnitude, static_cast<std::uint64_t>(first), &back)) return false;
  if (stride >= 0) {
    if (back > a0) return false;
    base = a0 - back;
  } else if (__builtin_add_overflow(a0, back, &base)) {
    return false;
  }
  for (std::uint32_t left = rest; left != 0; left &= left - 1) {
    const int l = std::countr_zero(left);
    if (r.addr[static_cast<unsigned>(l)] != base + static_cast<std::uint64_t>(stride) * static_cast<std::uint64_t>(l))
      return false;
  }
  return true;
}

class TextWriter final : public TraceSink {
 public:
  TextWriter(const std::filesystem::path& path, const TraceWriteOptions& options)
      : file_(path, options.remove_partial_on_failure), keep_partial_(!options.remove_partial_on_failure) {
    line_ = fmt::format("{} {}\n", kTextHeader, kTraceFormatVersion);
    emit();
  }

  ~TextWriter() override {
    if (!closed_ && keep_partial_) {  // leave every line written so far in the partial file
      try {
        emit();
      } catch (const std::exception&) {
      }
    }
  }

  std::uint32_t begin_kernel(KernelInfo k) override {
    require_open();
    k.id = kernels_;
    check_kernel(k, k.id);
    line_ += fmt::format("kernel {} name=", k.id);
    append_string(line_, k.name);
    line_ += fmt::format(" grid={},{},{} block={},{},{} dyn_smem={} static_smem={} regs={} arch=", k.grid.x, k.grid.y,
                         k.grid.z, k.block.x, k.block.y, k.block.z, k.dynamic_shared, k.static_shared, k.registers);
    append_string(line_, k.arch);
    line_ += " gpu=";
    append_string(line_, k.gpu);
    line_ += " source=";
    append_string(line_, k.source);
    if (k.code_bytes != 0) line_ += fmt::format(" code_bytes={}", k.code_bytes);
    line_ += '\n';
    for (const auto& [pc, loc] : k.lines) {
      line_ += fmt::format("loc k={} pc={:#x} file=", k.id, pc);
      append_string(line_, loc.file);
      line_ += fmt::format(" line={}\n", loc.line);
      if (line_.size() > (1u << 16)) emit();
    }
    for (const auto& [pc, op] : k.atomics) {
      if (op == AtomicOp::Unknown) continue;  // what a missing line says
      line_ += fmt::format("atomic k={} pc={:#x} op={}\n", k.id, pc, to_string(op));
      if (line_.size() > (1u << 16)) emit();
    }
    for (const std::uint64_t pc : k.generic_pcs) {
      line_ += fmt::format("generic k={} pc={:#x}\n", k.id, pc);
      if (line_.size() > (1u << 16)) emit();
    }
    emit();
    return kernels_++;
  }

  void write(const WarpAccess& r) override {
    require_open();
    check_record(r, kernels_);
    auto out = std::back_inserter(line_);
    fmt::format_to(out, "rec k={} pc={:#x} cta={} warp={} sm={} {} {} {} {}", r.kernel, r.pc, r.cta, r.warp, r.sm,
                   to_string(r.space), to_string(r.op), r.size, to_string(r.cache));
    fmt::format_to(out, " mask={:08x}", r.active.bits());
    std::uint64_t base = 0;
    std::int64_t stride = 0;
    if (r.active.none()) {
      // no addresses
    } else if (as_base_stride(r, base, stride)) {
      fmt::format_to(out, " addr={:#x}{}{}", base, stride < 0 ? '-' : '+',
                     stride < 0 ? 0 - static_cast<std::uint64_t>(stride) : static_cast<std::uint64_t>(stride));
    } else {
      line_ += " addr=";
      for (int l = 0; l < kWarpSize; ++l) {
        if (l > 0) line_ += ',';
        if (r.active.test(l)) fmt::format_to(out, "{:#x}", r.addr[static_cast<unsigned>(l)]);
        else line_ += '-';
      }
    }
    line_ += '\n';
    if (line_.size() > (1u << 16)) emit();
  }

  void close() override {
    if (closed_) return;
    emit();
    file_.commit();
    closed_ = true;
  }

 private:
  void require_open() const {
    if (closed_) throw Error(fmt::format("trace {} is already closed", file_.path().string()));
  }
  void emit() {
    file_.write(line_.data(), line_.size());
    line_.clear();
  }

  PartialFile file_;
  std::string line_;  // text not yet handed to the file
  std::uint32_t kernels_ = 0;
  bool keep_partial_;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<TraceSink> make_text_writer(const std::filesystem::path& path, const TraceWriteOptions& options) {
  return std::make_unique<TextWriter>(path, options);
}

}  // namespace warpscope::trace
