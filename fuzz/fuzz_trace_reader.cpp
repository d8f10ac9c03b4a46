// libFuzzer target for the trace readers (native and text, detected as
// open_trace does). Each input is read four ways: as it is, in recovery mode,
// with every native block checksum made right (so mutations reach the zstd
// and record decoders instead of stopping at the checksum), and as a raw
// uncompressed chunk fed to the record decoder. TraceError and InputError are
// the only exceptions allowed out of the library; a record that breaks the
// reader's promises (undeclared kernel, nonzero inactive lane, bad size) is a
// bug too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "trace/native_format.hpp"
#include "warpscope/trace.hpp"

namespace {

using namespace warpscope;

void check_record(const WarpAccess& r, std::size_t kernels) {
  if (r.kernel >= kernels) std::abort();
  if (r.size != 1 && r.size != 2 && r.size != 4 && r.size != 8 && r.size != 16) std::abort();
  if (r.space > Space::Texture || r.op > Op::Reduction || r.cache > CacheOp::Wt) std::abort();
  for (int l = 0; l < kWarpSize; ++l)
    if (!r.active.test(l) && r.addr[static_cast<unsigned>(l)] != 0) std::abort();
}

void read(std::string_view bytes, bool recover) {
  TraceReadOptions options;
  options.recover = recover;
  try {
    auto src = open_trace_buffer(bytes, "fuzz.trace", options);
    WarpAccess r;
    std::uint64_t n = 0;
    while (src->next(r)) {
      check_record(r, src->kernels().size());
      ++n;
    }
    const TraceSummary s = src->summary();
    if (s.records != n) std::abort();
    if (s.recovered && !recover) std::abort();
    if (src->bytes_read() > bytes.size()) std::abort();
  } catch (const TraceError& e) {
    // One line naming the file.
    if (std::strchr(e.what(), '\n') != nullptr) std::abort();
    if (std::string_view(e.what()).substr(0, 10) != "fuzz.trace") std::abort();
  } catch (const InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  read(bytes, false);
  read(bytes, true);
  std::string fixed(bytes);
  trace::fix_checksums(fixed);
  if (fixed != bytes) read(fixed, false);

  // The record decoder alone: byte 0 is the number of declared kernels.
  if (size > 0) {
    trace::RecordDecoder decoder;
    decoder.start(data + 1, size - 1, data[0]);
    WarpAccess r;
    while (!decoder.at_end() && decoder.decode(r)) {
      check_record(r, data[0]);
      if (decoder.consumed() > size - 1) std::abort();
    }
  }
  return 0;
}
