// An append-only buffer in fixed chunks: unlike a vector it never copies what
// it holds and never holds twice the memory it needs while it grows, and
// unlike a deque of large elements it does not allocate per element. clear()
// keeps the chunks for the next fill.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace warpscope {

template <typename T, unsigned kShift = 14>
class ChunkedBuffer {
 public:
  static constexpr std::size_t kChunk = std::size_t{1} << kShift;

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> kShift][i & (kChunk - 1)]; }

  void push_back(const T& v) {
    if ((size_ >> kShift) == chunks_.size()) chunks_.push_back(std::make_unique_for_overwrite<T[]>(kChunk));
    (*this)[size_++] = v;
  }

  // Room for n (<= kChunk) elements that must lie in one chunk: skips to the
  // next chunk when the current one has less left. Returns where they start.
  std::size_t reserve_run(std::size_t n) {
    const std::size_t left = kChunk - (size_ & (kChunk - 1));
    if (n > left) size_ += left;
    const std::size_t at = size_;
    size_ += n;
    while (chunks_.size() < ((size_ + kChunk - 1) >> kShift)) chunks_.push_back(std::make_unique_for_overwrite<T[]>(kChunk));
    return at;
  }
  T* data_at(std::size_t i) { return &(*this)[i]; }
  const T* data_at(std::size_t i) const { return &(*this)[i]; }

  void clear() { size_ = 0; }
  std::size_t bytes() const { return chunks_.size() * kChunk * sizeof(T); }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace warpscope
