// TraceSource::next_batch() for sources that read record by record (the text
// reader): a small batch of records read with next() and packed.
#include <exception>
#include <utility>

#include "warpscope/trace.hpp"

namespace warpscope {

std::span<const PackedAccess> TraceSource::next_batch() {
  constexpr std::size_t kRecords = 256;
  if (batch_records_.empty()) {
    batch_records_.resize(kRecords);
    batch_lanes_.resize(kRecords * kWarpSize);
  }
  if (batch_error_) std::rethrow_exception(std::exchange(batch_error_, nullptr));
  WarpAccess rec;
  std::size_t n = 0, used = 0;
  try {
    // kernels() only grows, so it names the kernels of every record of the batch.
    while (n < kRecords && next(rec))
      used += static_cast<std::size_t>(pack(rec, batch_records_[n++], batch_lanes_.data() + used));
  } catch (...) {
    if (n == 0) throw;
    batch_error_ = std::current_exception();  // after the records read before it, as next() would
  }
  return {batch_records_.data(), n};
}

}  // namespace warpscope
