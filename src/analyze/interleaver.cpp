#include "analyze/interleaver.hpp"

namespace warpscope {

WarpInterleaver::WarpInterleaver(std::uint64_t wave_ctas, Sink sink, std::size_t max_buffered)
    : wave_(wave_ctas == 0 ? 1 : wave_ctas), sink_(std::move(sink)), max_buffered_(max_buffered) {}

void WarpInterleaver::push(const WarpAccess& rec) {
  if (rec.kernel != kernel_) {
    flush();
    kernel_ = rec.kernel;
  }
  if (!cta_slot_.count(rec.cta)) {
    if (cta_slot_.size() >= wave_ || buffered_ >= max_buffered_) flush();
    cta_slot_[rec.cta] = queues_.size();
  }
  const std::uint64_t key = (std::uint64_t{rec.cta} << 16) | rec.warp;
  auto [it, fresh] = warp_queue_.try_emplace(key, queues_.size());
  if (fresh) queues_.emplace_back();
  queues_[it->second].push_back(rec);
  ++buffered_;
}

void WarpInterleaver::flush() {
  // Round robin over the warps in the order they first appeared.
  bool any = true;
  while (any) {
    any = false;
    for (auto& q : queues_) {
      if (q.empty()) continue;
      sink_(q.front());
      q.pop_front();
      any = true;
    }
  }
  queues_.clear();
  warp_queue_.clear();
  cta_slot_.clear();
  buffered_ = 0;
}

}  // namespace warpscope
