// The byte stream from the injection library to `warpscope trace`, through
// shared memory (docs/TRACER.md "Transport").
//
// `warpscope trace` creates a memfd ring, maps it and hands its descriptor to
// the application (WARPSCOPE_TRACE_SHM_FD); the injection library maps it too
// and copies the protocol's messages (tracer/protocol.hpp) into it. Why not
// the socket alone: a socket send blocks until warpscope has decoded and
// written the bytes before, so the traced kernel waited for the trace writer
// (~5 M records/s); a copy into shared memory runs at memory speed, and what
// the application wrote stays readable by warpscope if the application then
// crashes: the memory belongs to the memfd, which warpscope holds.
//
// One writer process (its threads serialise), one reader. The writer publishes
// bytes with a release store of `written`; the reader frees space with a
// release store of `read`. The socket stays open beside the ring: it tells
// each side that the other has gone, and older senders (and tests) may write
// the same stream to it instead.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

namespace warpscope::tracer {

inline constexpr std::uint64_t kShmMagic = 0x314e4843'53505257ull;  // "WPSCHN1"
inline constexpr std::size_t kShmDataOffset = 4096;

struct ShmChannelHeader {
  std::uint64_t magic;
  std::uint64_t capacity;                          // data bytes, a power of two
  alignas(64) std::atomic<std::uint64_t> written;  // bytes published by the writer, ever
  alignas(64) std::atomic<std::uint64_t> read;     // bytes the reader has consumed, ever
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "the ring is shared between processes");

// A mapping of the ring (either side).
class ShmChannel {
 public:
  ShmChannel() = default;
  ShmChannel(const ShmChannel&) = delete;
  ShmChannel& operator=(const ShmChannel&) = delete;
  ~ShmChannel() {
    if (base_ != nullptr) ::munmap(base_, kShmDataOffset + capacity_);
  }

  // Reader side: sizes the memfd `fd` and maps it. False on failure.
  bool create(int fd, std::uint64_t capacity) {
    if (capacity == 0 || (capacity & (capacity - 1)) != 0) return false;
    if (::ftruncate(fd, static_cast<off_t>(kShmDataOffset + capacity)) != 0) return false;
    if (!map(fd, capacity)) return false;
    header()->magic = kShmMagic;
    header()->capacity = capacity;
    header()->written.store(0, std::memory_order_relaxed);
    header()->read.store(0, std::memory_order_release);
    return true;
  }
  // Writer side: maps a ring the reader created. False if `fd` is not one.
  bool attach(int fd) {
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size <= static_cast<off_t>(kShmDataOffset)) return false;
    const auto capacity = static_cast<std::uint64_t>(size) - kShmDataOffset;
    if (!map(fd, capacity)) return false;
    if (header()->magic != kShmMagic || header()->capacity != capacity) {
      ::munmap(base_, kShmDataOffset + capacity_);
      base_ = nullptr;
      return false;
    }
    return true;
  }
  bool mapped() const { return base_ != nullptr; }

  // Writer: copies what fits of [data, data + n) into the ring and publishes
  // it; returns the bytes taken (0 when the ring is full).
  std::size_t write_some(const char* data, std::size_t n) {
    ShmChannelHeader* h = header();
    const std::uint64_t w = h->written.load(std::memory_order_relaxed);
    const std::uint64_t free = capacity_ - (w - h->read.load(std::memory_order_acquire));
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(free, n));
    if (take == 0) return 0;
    const std::size_t at = static_cast<std::size_t>(w & (capacity_ - 1));
    const std::size_t first = std::min<std::size_t>(take, static_cast<std::size_t>(capacity_) - at);
    std::memcpy(data_() + at, data, first);
    std::memcpy(data_(), data + first, take - first);
    h->written.store(w + take, std::memory_order_release);
    return take;
  }

  // Reader: hands up to `max` published bytes to sink(const char*, size_t)
  // (in at most two pieces), then frees them. Returns the bytes consumed.
  // Small pieces keep the writer busy while the reader works and the
  // reader's own buffers small.
  template <class Sink>
  std::uint64_t read_some(Sink&& sink, std::uint64_t max) {
    ShmChannelHeader* h = header();
    const std::uint64_t r = h->read.load(std::memory_order_relaxed);
    const std::uint64_t n = std::min(max, h->written.load(std::memory_order_acquire) - r);
    if (n == 0) return 0;
    const std::size_t at = static_cast<std::size_t>(r & (capacity_ - 1));
    const std::size_t first = static_cast<std::size_t>(std::min<std::uint64_t>(n, capacity_ - at));
    sink(data_() + at, first);
    if (n > first) sink(data_(), static_cast<std::size_t>(n - first));
    h->read.store(r + n, std::memory_order_release);
    return n;
  }

 private:
  bool map(int fd, std::uint64_t capacity) {
    // Populated up front: touching the pages as the stream first reaches them
    // cost the traced application a page fault per 4 KB (measured: a third of
    // the drain time of a 32 MiB copy kernel on the H100 host).
    void* p = ::mmap(nullptr, kShmDataOffset + capacity, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) return false;
    base_ = static_cast<char*>(p);
    capacity_ = capacity;
    return true;
  }
  ShmChannelHeader* header() const { return reinterpret_cast<ShmChannelHeader*>(base_); }
  char* data_() const { return base_ + kShmDataOffset; }

  char* base_ = nullptr;
  std::uint64_t capacity_ = 0;
};

}  // namespace warpscope::tracer
