// The concrete readers and writers behind open_trace() and create_trace().
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "trace/byte_input.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::trace {

std::unique_ptr<TraceSource> make_native_reader(std::unique_ptr<ByteInput> in, const TraceReadOptions& options);
std::unique_ptr<TraceSource> make_text_reader(std::unique_ptr<ByteInput> in);
// Accel-Sim's post-processed NVBit traces (docs/TRACE_FORMAT.md "Accel-Sim traces"): one
// kernel-N.traceg, or a kernelslist.g whose kernel files lie relative to `dir` (none: the
// list came from standard input or memory, an error).
std::unique_ptr<TraceSource> make_accelsim_reader(std::unique_ptr<ByteInput> in, const TraceReadOptions& options);
std::unique_ptr<TraceSource> make_accelsim_list_reader(std::unique_ptr<ByteInput> in,
                                                       const std::optional<std::filesystem::path>& dir,
                                                       const TraceReadOptions& options);
std::unique_ptr<TraceSink> make_native_writer(const std::filesystem::path& path, const TraceWriteOptions& options);
std::unique_ptr<TraceSink> make_text_writer(const std::filesystem::path& path, const TraceWriteOptions& options);

// What every writer checks before accepting a record: its kernel was begun,
// its size is 1, 2, 4, 8 or 16, its enums are in range and its active lanes'
// addresses are multiples of the size. Throws Error.
void check_record(const WarpAccess& rec, std::uint32_t kernel_count);
// What every writer checks before accepting kernel `id`: its code size fits
// the 32 bits both forms store. Throws Error.
void check_kernel(const KernelInfo& k, std::uint32_t id);

// Readers and writers refuse a record with an active lane whose address is
// not a multiple of the access size: the GPU faults on such an access
// (CUDA's "misaligned address"), so no traced kernel makes one.
// first_misaligned_lane: the lowest such lane, or -1 (always for a bulk copy's descriptor, whose byte count
// and flags are no addresses: bulk_record_ok checks it).
int first_misaligned_lane(const WarpAccess& rec);
std::string misaligned_lane_message(int lane, std::uint64_t address, unsigned size);

}  // namespace warpscope::trace
