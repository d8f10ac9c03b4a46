// The L2 side of MemorySystem on a thread of its own (set_l2_thread).
//
// Why it is exact: an L1's state never depends on the L2's answers (a load
// fetches the sectors it misses whatever L2 holds, stores write through,
// atomics invalidate), so the calling thread can run the rules engine and the
// L1s of each record at once and hand its L2 operations over in record order;
// this thread runs them in that order (request coalescer, L2 partitions,
// DRAM), exactly as access() would have. Only the operations cross cores (one
// 48-byte message per line): docs/PERFORMANCE.md session 14 measured that
// moving whole records and their results to worker threads costs more than a
// coalesced record's SM side.
//
// Counters: this thread adds the L2 and DRAM counts of each operation to its
// own kernel total and to its own total per `pc_counters` object; sync()
// waits until it has caught up and adds them where access() would have.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <unordered_map>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "memory/system_impl.hpp"

namespace warpscope {

struct MemorySystem::Impl::L2Thread {
  struct Message {
    memory::L2Op op;
    std::uint32_t round = 0;   // the record's issue round (request coalescer)
    std::uint16_t sm = 0;
    bool stop = false;
    Counters* pc = nullptr;
  };
  static_assert(sizeof(Message) <= 48, "one L2 operation crosses cores as one 48-byte message");

  explicit L2Thread(Impl& impl) : m(impl), ring(kCapacity) { thread = std::thread([this] { run(); }); }
  ~L2Thread() {
    Message s;
    s.stop = true;
    push(s);
    publish();
    thread.join();
  }
  L2Thread(const L2Thread&) = delete;
  L2Thread& operator=(const L2Thread&) = delete;

  // Calling thread: one operation, in record order.
  void push(const Message& msg) {
    if (tail - head_seen == kCapacity) {
      publish();
      head_seen = wait_for(head_, [&](std::uint64_t head) { return tail - head < kCapacity; });
    }
    ring[tail & (kCapacity - 1)] = msg;
    ++tail;
    if (tail - published >= kPublishEvery) publish();
  }
  // Calling thread: waits until every operation ran; then this thread's
  // counters are visible (and the L2 side's state may be touched).
  void drain() {
    publish();
    head_seen = wait_for(head_, [&](std::uint64_t head) { return head == tail; });
  }

  Impl& m;
  memory::Delta kernel_part;  // L2 and DRAM counts since the last sync
  std::unordered_map<Counters*, memory::Delta> pc_part;

 private:
  static constexpr std::uint64_t kCapacity = 1u << 15;
  static constexpr std::uint64_t kPublishEvery = 32;
  // A hand-over polls before it blocks: waking a blocked thread took
  // 50-200 us on the development VM, the time of ~1,000 coalesced records.
  static constexpr auto kSpin = std::chrono::microseconds(200);

  void publish() {
    if (published == tail) return;
    published = tail;
    tail_.store(tail, std::memory_order_release);
    tail_.notify_one();
  }

  template <class Ok>
  static std::uint64_t wait_for(std::atomic<std::uint64_t>& a, Ok ok) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 0;; ++i) {
      const std::uint64_t v = a.load(std::memory_order_acquire);
      if (ok(v)) return v;
      if ((i & 63) == 63 && std::chrono::steady_clock::now() >= until) {
        a.wait(v, std::memory_order_acquire);
        continue;
      }
#if defined(__x86_64__) || defined(__i386__)
      _mm_pause();
#endif
    }
  }

  void run() {
    std::uint64_t head = 0;
    Counters* last_pc = nullptr;
    memory::Delta* last_part = nullptr;
    for (;;) {
      const std::uint64_t end = wait_for(tail_, [head](std::uint64_t t) { return t != head; });
      for (; head != end; ++head) {
        const Message& msg = ring[head & (kCapacity - 1)];
        if (msg.stop) return;
        m.enter_sm(msg.sm, msg.round);
        memory::Delta d;
        m.run_l2_op(msg.op, d);
        memory::merge(kernel_part, d);
        if (msg.pc != nullptr) {
          if (msg.pc != last_pc) {
            last_pc = msg.pc;
            last_part = &pc_part[msg.pc];
          }
          memory::merge(*last_part, d);
        }
      }
      head_.store(head, std::memory_order_release);
      head_.notify_one();
      last_pc = nullptr;  // sync() may clear pc_part once head_ is published
    }
  }

  std::vector<Message> ring;
  // Calling thread only.
  std::uint64_t tail = 0, published = 0, head_seen = 0;
  alignas(64) std::atomic<std::uint64_t> tail_{0};  // what this thread may run
  alignas(64) std::atomic<std::uint64_t> head_{0};  // what it has run
  std::thread thread;  // last: started once the rest exists
};

// The port the SM side hands L2 operations to when the L2 thread runs.
struct MemorySystem::Impl::RingL2 {
  L2Thread& t;
  std::uint16_t sm;
  std::uint32_t round;
  Counters* pc;
  static constexpr bool kPrefetch = false;  // the L2 thread owns the L2
  // The L2 thread counts these; the word access's counters `d` get nothing.
  void read(std::uint64_t line, SectorMask s, bool ef, memory::Delta&) {
    t.push({{memory::L2Op::Type::Read, ef, {}, s, line, {}}, round, sm, false, pc});
  }
  void write(std::uint64_t line, const LineBytes& b, bool ef, memory::Delta&) {
    t.push({{memory::L2Op::Type::Write, ef, {}, {}, line, b}, round, sm, false, pc});
  }
  void bulk_read(std::uint64_t line, SectorMask s, memory::L2Fill fill, memory::Delta&) {
    t.push({{memory::L2Op::Type::BulkRead, false, fill, s, line, {}}, round, sm, false, pc});
  }
  void atomic(std::uint64_t line, SectorMask s, const LineBytes& b, bool reduction, memory::Delta&) {
    t.push({{reduction ? memory::L2Op::Type::Reduction : memory::L2Op::Type::Atomic, false, {}, s, line, b}, round, sm,
            false, pc});
  }
};

}  // namespace warpscope
