// Entry points: format names, format detection by the first byte (the native
// magic starts with 0x89, which no text trace can), and the writer factory.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>

#include "trace/native_format.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope {

std::string_view to_string(TraceFormat f) { return f == TraceFormat::Native ? "native" : "text"; }

std::optional<TraceFormat> parse_trace_format(std::string_view text) {
  if (text == "native") return TraceFormat::Native;
  if (text == "text") return TraceFormat::Text;
  return std::nullopt;
}

TraceFormat trace_format_for_path(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (path == "-") return TraceFormat::Text;  // standard output: the readable form unless --to says otherwise
  return ext == ".txt" || ext == ".wstxt" ? TraceFormat::Text : TraceFormat::Native;
}

namespace {

// By the first bytes: the native magic (0x89, which no text file has), an
// Accel-Sim kernel trace ("-kernel name") or kernelslist ("MemcpyHtoD," or
// "kernel-"), else warpscope's text form (whose reader names what it expected).
std::unique_ptr<TraceSource> open_input(std::unique_ptr<trace::ByteInput> in, const TraceReadOptions& options,
                                        const std::optional<std::filesystem::path>& dir) {
  // xz: Accel-Sim distributes its kernel traces compressed; they are read as they decompress.
  in = trace::ByteInput::xz_if_compressed(std::move(in));
  const bool xz = in->decompressing();
  const std::string_view first = in->peek(16);
  if (first.substr(0, 12) == "-kernel name") return trace::make_accelsim_reader(std::move(in), options);
  if (first.substr(0, 11) == "MemcpyHtoD," || first.substr(0, 7) == "kernel-")
    return trace::make_accelsim_list_reader(std::move(in), dir, options);
  if (xz)
    throw TraceError(fmt::format("{}: xz-compressed, and not an Accel-Sim trace (the one kind read compressed): "
                                 "decompress it first (xz -dk {})",
                                 in->name(), in->name()),
                     0);
  if (!first.empty() && static_cast<std::uint8_t>(first[0]) == trace::kMagic[0])
    return trace::make_native_reader(std::move(in), options);
  return trace::make_text_reader(std::move(in));
}

}  // namespace

std::unique_ptr<TraceSource> open_trace(const std::filesystem::path& path, const TraceReadOptions& options) {
  TraceReadOptions o = options;
  const std::string name = path.string();
  if (name.size() >= 8 && name.compare(name.size() - 8, 8, ".partial") == 0) o.recover = true;
  std::optional<std::filesystem::path> dir;
  if (path != "-") dir = path.parent_path();
  return open_input(std::make_unique<trace::ByteInput>(path), o, dir);
}

std::unique_ptr<TraceSource> open_trace_buffer(std::string_view bytes, const std::string& name,
                                               const TraceReadOptions& options) {
  return open_input(std::make_unique<trace::ByteInput>(bytes, name), options, std::nullopt);
}

std::unique_ptr<TraceSink> create_trace(const std::filesystem::path& path, TraceFormat format,
                                        const TraceWriteOptions& options) {
  return format == TraceFormat::Native ? trace::make_native_writer(path, options)
                                       : trace::make_text_writer(path, options);
}

namespace trace {

std::string misaligned_lane_message(int lane, std::uint64_t address, unsigned size) {
  return fmt::format("lane {} address {:#x} is not a multiple of the record's size, {} bytes (a GPU faults on a "
                     "misaligned access, so no kernel makes one)",
                     lane, address, size);
}

int first_misaligned_lane(const WarpAccess& r) {
  // Writers call this per record (the tracer at the GPU's pace): one
  // OR-reduction over the lanes, the search only when something is off.
  // A bulk record's lanes hold a descriptor, not addresses (bulk_record_ok checks those it holds).
  if (is_bulk(r.op) || r.op == Op::GmmaRead) return -1;
  const std::uint64_t low_bits = r.size - 1u;
  const std::uint32_t mask = r.active.bits();
  std::uint64_t any = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) any |= ((mask >> l) & 1u) != 0 ? r.addr[l] : 0;
  if ((any & low_bits) == 0) return -1;
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (((mask >> l) & 1u) != 0 && (r.addr[l] & low_bits) != 0) return static_cast<int>(l);
  return -1;
}

void check_kernel(const KernelInfo& k, std::uint32_t id) {
  if (k.code_bytes > UINT32_MAX)
    throw Error(fmt::format("cannot write a trace: the code of kernel {} is {} bytes (the limit is {})", id,
                            k.code_bytes, UINT32_MAX));
}

void check_record(const WarpAccess& r, std::uint32_t kernel_count) {
  if (r.kernel >= kernel_count)
    throw Error(fmt::format("trace record of kernel {} written before begin_kernel declared it ({} kernels so far)",
                            r.kernel, kernel_count));
  if (r.size == 0 || r.size > 16 || !std::has_single_bit(unsigned{r.size}) || r.space > kLastSpace ||
      r.op > kLastOp || r.cache > CacheOp::Wt)
    throw Error(fmt::format("cannot write a trace record with size {}, space {}, op {}, cache op {}: sizes are 1, "
                            "2, 4, 8 or 16 bytes",
                            r.size, static_cast<int>(r.space), static_cast<int>(r.op), static_cast<int>(r.cache)));
  if (is_matrix(r.op) && !matrix_record_ok(r.space, r.size, r.cache))
    throw Error(fmt::format("cannot write a trace record of kernel {} at PC {:#x}: {} records are 16-byte shared "
                            "accesses with the default cache operator",
                            r.kernel, r.pc, to_string(r.op)));
  if (r.op == Op::AsyncCopy && !async_copy_record_ok(r.space, r.size, r.cache))
    throw Error(fmt::format("cannot write a trace record of kernel {} at PC {:#x}: ldgsts (cp.async) records are "
                            "global or shared copies of 4, 8 or 16 bytes with cache operator ca or cg (cg: 16 bytes)",
                            r.kernel, r.pc));
  if (is_bulk(r.op) && !bulk_record_ok(r))
    throw Error(fmt::format("cannot write a trace record of kernel {} at PC {:#x}: {}", r.kernel, r.pc, kBulkRecordRule));
  if (!async_store_record_ok(r.space, r.op, r.cache))
    throw Error(fmt::format("cannot write a trace record of kernel {} at PC {:#x}: {}", r.kernel, r.pc, kAsyncStoreRecordRule));
  if (!sample_record_ok(r.space, r.op, r.cache))
    throw Error(fmt::format("cannot write a trace record of kernel {} at PC {:#x}: {}", r.kernel, r.pc, kSampleRecordRule));
  if (r.op == Op::GmmaRead && !gmma_record_ok(r))
    throw Error(fmt::format("cannot write a trace record of kernel {} at PC {:#x}: {}", r.kernel, r.pc, kGmmaRecordRule));
  if (const int lane = first_misaligned_lane(r); lane >= 0)
    throw Error(fmt::format("cannot write a trace record of kernel {} at PC {:#x}: {}", r.kernel, r.pc,
                            misaligned_lane_message(lane, r.addr[static_cast<unsigned>(lane)], r.size)));
}

}  // namespace trace
}  // namespace warpscope
