// Turns the records the drain copied out of the device ring into the protocol's
// packed records (tracer/protocol.hpp), on several threads: the launching
// thread finds where each record starts (sequence numbers and forms, in
// order), then each thread checks and packs a share. Packing one record costs
// tens of ns, the copy that brought it two: without the threads the drain,
// and so the traced kernel, ran at the speed of one core's packing.
//
// The threads make no CUDA call (a thread calling the driver while a launch
// callback waited deadlocked: docs/TRACER.md).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

class RecordPacker {
 public:
  struct Result {
    unsigned long long slots = 0;  // consumed: the complete records before the first incomplete one
    std::uint32_t records = 0;
  };

  explicit RecordPacker(unsigned threads) : shares_(std::max(1u, threads)) {
    for (unsigned i = 1; i < shares_.size(); ++i) workers_.emplace_back([this, i] { work(i); });
  }
  ~RecordPacker() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    start_.notify_all();
    for (auto& t : workers_) t.join();
  }
  RecordPacker(const RecordPacker&) = delete;
  RecordPacker& operator=(const RecordPacker&) = delete;

  // Packs the complete records at the start of staging[0, available), the
  // first of which has sequence number seq; appends them to `out` and counts
  // them per launch in `written`.
  Result pack(const WsSlot* staging, unsigned long long available, unsigned long long seq, std::string& out,
              std::map<std::uint32_t, unsigned long long>& written) {
    // Where the records start: in order, until a header is not there yet.
    starts_.clear();
    for (unsigned long long i = 0; i < available;) {
      const WsSlot& h = staging[i];
      if (h.seq != seq + i || i + slots_of(h) > available) break;
      starts_.push_back(i);
      i += slots_of(h);
    }
    // Below this, threads cost more than they save.
    const std::size_t per_share = std::max<std::size_t>(2048, (starts_.size() + shares_.size() - 1) / shares_.size());
    const std::size_t used = std::min(shares_.size(), (starts_.size() + per_share - 1) / per_share);
    staging_ = staging;
    for (std::size_t k = 0; k < shares_.size(); ++k) {
      Share& s = shares_[k];
      s.begin = std::min(starts_.size(), k * per_share);
      s.end = k < used ? std::min(starts_.size(), (k + 1) * per_share) : s.begin;
      s.packed = s.begin;
      s.bytes.clear();
      s.written.clear();
    }
    if (used > 1) {
      {
        std::lock_guard lock(mu_);
        pending_ = used - 1;
        ++generation_;
      }
      start_.notify_all();
    }
    if (used > 0) run(shares_[0]);
    if (used > 1) {
      std::unique_lock lock(mu_);
      done_.wait(lock, [&] { return pending_ == 0; });
    }
    // In order, up to the first record whose check word failed.
    Result r;
    for (std::size_t k = 0; k < used; ++k) {
      const Share& s = shares_[k];
      out += s.bytes;
      for (const auto& [launch, n] : s.written) written[launch] += n;
      r.records += static_cast<std::uint32_t>(s.packed - s.begin);
      if (s.packed < s.end) break;
    }
    const std::size_t whole = r.records;
    r.slots = whole < starts_.size() ? starts_[whole] : (starts_.empty() ? 0 : starts_.back() + slots_of(staging[starts_.back()]));
    return r;
  }

 private:
  struct Share {
    std::size_t begin = 0, end = 0, packed = 0;  // indices into starts_; packed: first not packed
    std::string bytes;
    std::vector<std::pair<std::uint32_t, unsigned long long>> written;
  };

  void run(Share& s) {
    for (std::size_t i = s.begin; i < s.end; ++i) {
      const WsSlot& h = staging_[starts_[i]];
      if (!check_word_matches(h)) break;
      pack_record(h, s.bytes);
      if (s.written.empty() || s.written.back().first != h.launch) s.written.emplace_back(h.launch, 0);
      ++s.written.back().second;
      s.packed = i + 1;
    }
  }

  void work(unsigned index) {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mu_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      Share& s = shares_[index];
      if (s.begin < s.end) {
        run(s);
        std::lock_guard lock(mu_);
        if (--pending_ == 0) done_.notify_one();
      }
    }
  }

  std::vector<Share> shares_;
  std::vector<unsigned long long> starts_;
  const WsSlot* staging_ = nullptr;
  std::mutex mu_;
  std::condition_variable start_, done_;
  std::uint64_t generation_ = 0;
  std::size_t pending_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace warpscope::tracer
