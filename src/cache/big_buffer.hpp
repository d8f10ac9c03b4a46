// A fixed-size, zero-initialised byte buffer for tag stores. Buffers of 2 MB
// or more are 2 MB-aligned and, on Linux, advised to use transparent huge
// pages: a 50 MB L2 model is looked up at random addresses, and with 4 KB
// pages most lookups would also miss the host's TLB.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace warpscope::cache {

class BigBuffer {
 public:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  BigBuffer() = default;
  explicit BigBuffer(std::size_t bytes) : size_(bytes) {
    if (bytes == 0) return;
    const bool huge = bytes >= kHugePage;
    const std::size_t align = huge ? kHugePage : alignof(std::max_align_t);
    const std::size_t rounded = (bytes + align - 1) / align * align;
    data_ = static_cast<std::byte*>(std::aligned_alloc(align, rounded));
    if (data_ == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) ::madvise(data_, rounded, MADV_HUGEPAGE);  // a hint; failure is harmless
#endif
    std::memset(data_, 0, bytes);
  }
  ~BigBuffer() { std::free(data_); }
  BigBuffer(BigBuffer&& o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  BigBuffer& operator=(BigBuffer&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = o.data_;
      size_ = o.size_;
      o.data_ = nullptr;
      o.size_ = 0;
    }
    return *this;
  }
  BigBuffer(const BigBuffer&) = delete;
  BigBuffer& operator=(const BigBuffer&) = delete;

  std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

// An array of trivially copyable T in a BigBuffer.
template <typename T>
class BigArray {
 public:
  BigArray() = default;
  BigArray(std::size_t n, const T& value) : buf_(n * sizeof(T)), n_(n) {
    for (std::size_t i = 0; i < n; ++i) ::new (static_cast<void*>(buf_.data() + i * sizeof(T))) T(value);
  }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* data() const { return std::launder(reinterpret_cast<T*>(buf_.data())); }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T* begin() const { return data(); }
  T* end() const { return data() + n_; }

 private:
  BigBuffer buf_;
  std::size_t n_ = 0;
};

}  // namespace warpscope::cache
