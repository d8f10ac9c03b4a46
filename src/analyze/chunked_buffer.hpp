// An append-only buffer in fixed chunks: unlike a vector it never copies what
// it holds and never holds twice the memory it needs while it grows, and
// unlike a deque of large elements it does not allocate per element. A chunk
// is left uninitialised until written (a buffer made per kernel launch costs
// no more than the pages it uses); clear() keeps the chunks for the next fill.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace warpscope {

template <typename T, unsigned kShift = 14>
class ChunkedBuffer {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  static constexpr std::size_t kChunk = std::size_t{1} << kShift;

  ChunkedBuffer() = default;
  ChunkedBuffer(const ChunkedBuffer&) = delete;
  ChunkedBuffer& operator=(const ChunkedBuffer&) = delete;
  ~ChunkedBuffer() {
    for (T* c : chunks_) std::allocator<T>{}.deallocate(c, kChunk);
  }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> kShift][i & (kChunk - 1)]; }

  void push_back(const T& v) {
    if ((size_ >> kShift) == chunks_.size()) add_chunk();
    ::new (static_cast<void*>(&(*this)[size_++])) T(v);
  }

  // Room for n (<= kChunk) elements that must lie in one chunk: skips to the
  // next chunk when the current one has less left. Returns where they start;
  // the caller writes them (through data_at) before reading them.
  std::size_t reserve_run(std::size_t n) {
    const std::size_t left = kChunk - (size_ & (kChunk - 1));
    if (n > left) size_ += left;
    const std::size_t at = size_;
    size_ += n;
    while (chunks_.size() < ((size_ + kChunk - 1) >> kShift)) add_chunk();
    return at;
  }
  T* data_at(std::size_t i) { return &(*this)[i]; }
  const T* data_at(std::size_t i) const { return &(*this)[i]; }

  void clear() { size_ = 0; }

 private:
  void add_chunk() {
    chunks_.reserve(chunks_.size() + 1);
    chunks_.push_back(std::allocator<T>{}.allocate(kChunk));
  }
  std::vector<T*> chunks_;
  std::size_t size_ = 0;
};

}  // namespace warpscope
