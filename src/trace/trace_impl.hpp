// The concrete readers and writers behind open_trace() and create_trace().
#pragma once

#include <filesystem>
#include <memory>

#include "trace/byte_input.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::trace {

std::unique_ptr<TraceSource> make_native_reader(std::unique_ptr<ByteInput> in, const TraceReadOptions& options);
std::unique_ptr<TraceSource> make_text_reader(std::unique_ptr<ByteInput> in);
std::unique_ptr<TraceSink> make_native_writer(const std::filesystem::path& path, const TraceWriteOptions& options);
std::unique_ptr<TraceSink> make_text_writer(const std::filesystem::path& path, const TraceWriteOptions& options);

// What every writer checks before accepting a record: its kernel was begun,
// its size is 1, 2, 4, 8 or 16 and its enums are in range. Throws Error.
void check_record(const WarpAccess& rec, std::uint32_t kernel_count);

}  // namespace warpscope::trace
