// One Accel-Sim kernel trace, kernel-N.traceg (docs/TRACE_FORMAT.md
// "Accel-Sim traces"): its header, then per thread block the instructions of
// each warp in turn; each memory instruction warpscope models becomes a record.
#pragma once

#include <cstdint>
#include <memory>

#include "trace/accelsim_format.hpp"
#include "trace/byte_input.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::trace {

class AccelSimKernelReader : public TraceSource {
 public:
  // `id`: the kernel id to give the file's kernel (its place in a kernelslist);
  // `tables_first`: TraceReadOptions::kernel_tables_first. Reads the header;
  // throws TraceError naming the line when it is malformed.
  static std::unique_ptr<AccelSimKernelReader> open(std::unique_ptr<ByteInput> in, std::uint32_t id,
                                                    bool tables_first);
  // Memory instructions read but not turned into records, by base opcode.
  virtual const accelsim::SkipCounts& skipped() const = 0;
};

}  // namespace warpscope::trace
