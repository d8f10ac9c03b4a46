// libFuzzer target for the trace readers (native, text and Accel-Sim, detected as
// open_trace does). Each input is read four ways: as it is, in recovery mode,
// with every native block checksum made right (so mutations reach the zstd
// and record decoders instead of stopping at the checksum), and as a raw
// uncompressed chunk fed to the record decoder; the first three both record by
// record and by batches, which must agree. TraceError and InputError are
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
  if (r.space > kLastSpace || r.op > kLastOp || r.cache > CacheOp::Wt) std::abort();
  if (is_bulk(r.op) && !bulk_record_ok(r)) std::abort();
  if (r.op == Op::GmmaRead && !gmma_record_ok(r)) std::abort();
  if (!sample_record_ok(r.space, r.op, r.cache) || !async_store_record_ok(r.space, r.op, r.cache)) std::abort();
  if (is_matrix(r.op) && !matrix_record_ok(r.space, r.size, r.cache)) std::abort();
  if (r.op == Op::AsyncCopy && !async_copy_record_ok(r.space, r.size, r.cache)) std::abort();
  for (int l = 0; l < kWarpSize; ++l)
    if (!r.active.test(l) && r.addr[static_cast<unsigned>(l)] != 0) std::abort();
}

// What a read returned: the records (hashed), their count and the error.
struct Outcome {
  std::uint64_t records = 0, hash = 0;
  std::string error;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

void mix(std::uint64_t& h, std::uint64_t v) {
  h = (h ^ v) * 0x100000001b3ull;
}

void hash_record(std::uint64_t& h, const WarpAccess& r) {
  mix(h, r.pc);
  mix(h, std::uint64_t{r.kernel} << 32 | r.cta);
  mix(h, std::uint64_t{r.warp} << 16 | static_cast<std::uint16_t>(r.sm));
  mix(h, static_cast<std::uint64_t>(r.space) | static_cast<std::uint64_t>(r.op) << 8 | std::uint64_t{r.size} << 16 |
             static_cast<std::uint64_t>(r.cache) << 24 | std::uint64_t{r.active.bits()} << 32);
  for (std::uint64_t a : r.addr) mix(h, a);
}

// Reads record by record (next) or by batches (next_batch); both must agree.
Outcome read(std::string_view bytes, bool recover, bool batches) {
  TraceReadOptions options;
  options.recover = recover;
  Outcome out;
  try {
    auto src = open_trace_buffer(bytes, "fuzz.trace", options);
    WarpAccess r;
    if (batches) {
      for (auto batch = src->next_batch(); !batch.empty(); batch = src->next_batch())
        for (const PackedAccess& p : batch) {
          p.expand(r);
          for (int l = 0; l < kWarpSize; ++l)
            if (p.address(l) != r.addr[static_cast<unsigned>(l)]) std::abort();
          check_record(r, src->kernels().size());
          hash_record(out.hash, r);
          ++out.records;
        }
    } else {
      while (src->next(r)) {
        check_record(r, src->kernels().size());
        hash_record(out.hash, r);
        ++out.records;
      }
    }
    const TraceSummary s = src->summary();
    if (s.records != out.records) std::abort();
    if (s.recovered && !recover) std::abort();
    if (src->bytes_read() > bytes.size()) std::abort();
  } catch (const TraceError& e) {
    // One line naming the file.
    if (std::strchr(e.what(), '\n') != nullptr) std::abort();
    if (std::string_view(e.what()).substr(0, 10) != "fuzz.trace") std::abort();
    out.error = e.what();
  } catch (const InputError& e) {
    out.error = e.what();
  }
  return out;
}

void read(std::string_view bytes, bool recover) {
  if (read(bytes, recover, false) != read(bytes, recover, true)) std::abort();
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
  // Decoded in both forms in step, which must agree.
  if (size > 0) {
    trace::RecordDecoder decoder, packed_decoder;
    decoder.start(data + 1, size - 1, data[0]);
    packed_decoder.start(data + 1, size - 1, data[0]);
    WarpAccess r, expanded;
    PackedAccess p;
    std::uint64_t lanes[kWarpSize];
    while (!decoder.at_end()) {
      const bool ok = decoder.decode(r);
      if (packed_decoder.decode(p, lanes) != ok) std::abort();
      if (!ok) break;
      check_record(r, data[0]);
      p.expand(expanded);
      std::uint64_t a = 0, b = 0;
      hash_record(a, r);
      hash_record(b, expanded);
      if (a != b || decoder.consumed() != packed_decoder.consumed()) std::abort();
      if (decoder.consumed() > size - 1) std::abort();
    }
  }
  return 0;
}
