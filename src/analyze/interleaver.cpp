#include "analyze/interleaver.hpp"

#include "analyze/kept_record.hpp"

namespace warpscope {

WarpInterleaver::WarpInterleaver(std::uint64_t wave_ctas, Sink sink, std::size_t max_records, std::size_t max_bytes)
    : wave_(wave_ctas == 0 ? 1 : wave_ctas), sink_(std::move(sink)), max_records_(max_records), max_bytes_(max_bytes) {}

void WarpInterleaver::push(const WarpAccess& rec) {
  PackedAccess packed;
  std::uint64_t lanes[kWarpSize];
  pack(rec, packed, lanes);
  push(packed);
}

void WarpInterleaver::push(const PackedAccess& rec) {
  if (rec.kernel != kernel_) {
    flush();
    kernel_ = rec.kernel;
  }
  const std::uint64_t key = (std::uint64_t{rec.cta} << 16) | rec.warp;
  if (key != last_key_) {
    if (!ctas_.contains(rec.cta)) {
      const std::size_t bytes = records_.size() * sizeof(Stored) + lanes_.size() * sizeof(std::uint64_t);
      if (ctas_.size() >= wave_ || records_.size() >= max_records_ || bytes >= max_bytes_) flush();
      ctas_.insert(rec.cta);
    }
    auto [it, fresh] = warp_of_.try_emplace(key, static_cast<std::uint32_t>(warps_.size()));
    if (fresh) warps_.push_back({kNone, kNone});
    last_key_ = key;
    last_warp_ = it->second;
  }
  if (records_.size() == kNone) {  // one CTA of 2^32 records: out before the index wraps
    flush();
    return push(rec);
  }
  store(rec, last_warp_);
}

void WarpInterleaver::store(const PackedAccess& rec, std::uint32_t warp) {
  Stored s;
  s.packed = keep_record(rec, lanes_);
  s.next = kNone;
  const auto index = static_cast<std::uint32_t>(records_.size());
  records_.push_back(s);
  Warp& w = warps_[warp];
  if (w.tail == kNone) w.head = index;
  else records_[w.tail].next = index;
  w.tail = index;
}

void WarpInterleaver::flush() {
  // Round robin over the warps in the order they first appeared; a warp
  // leaves the turn when its records run out.
  cursor_.clear();
  live_.clear();
  for (std::uint32_t w = 0; w < warps_.size(); ++w) {
    cursor_.push_back(warps_[w].head);
    if (warps_[w].head != kNone) live_.push_back(w);
  }
  while (!live_.empty()) {
    std::size_t kept = 0;
    for (const std::uint32_t w : live_) {
      const Stored& s = records_[cursor_[w]];
      s.packed.expand(out_);
      sink_(out_);
      cursor_[w] = s.next;
      if (cursor_[w] != kNone) live_[kept++] = w;
    }
    live_.resize(kept);
  }
  records_.clear();
  lanes_.clear();
  warps_.clear();
  warp_of_.clear();
  ctas_.clear();
  last_key_ = ~0ull;
}

}  // namespace warpscope
