#include "ptx/device_memory.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace warpscope::ptx {

std::uint64_t DeviceMemory::allocate(std::string name, std::uint64_t size) {
  constexpr std::uint64_t kGranule = 2ull << 20;
  size = std::max<std::uint64_t>(size, 1);
  Allocation a;
  a.name = std::move(name);
  a.base = next_;
  a.size = size;
  a.bytes.assign(size, 0);
  next_ += (size + kGranule - 1) / kGranule * kGranule;
  allocs_.push_back(std::move(a));
  return allocs_.back().base;
}

std::uint8_t* DeviceMemory::find(std::uint64_t addr, std::uint64_t n) {
  if (allocs_.empty()) return nullptr;
  auto inside = [&](const Allocation& a) { return addr >= a.base && addr - a.base <= a.size && n <= a.size - (addr - a.base); };
  if (last_ < allocs_.size() && inside(allocs_[last_])) return allocs_[last_].bytes.data() + (addr - allocs_[last_].base);
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr, [](std::uint64_t v, const Allocation& a) { return v < a.base; });
  if (it == allocs_.begin()) return nullptr;
  --it;
  if (!inside(*it)) return nullptr;
  last_ = static_cast<std::size_t>(it - allocs_.begin());
  return it->bytes.data() + (addr - it->base);
}

const DeviceMemory::Allocation* DeviceMemory::allocation(const std::string& name) const {
  for (const auto& a : allocs_)
    if (a.name == name) return &a;
  return nullptr;
}

DeviceMemory::Allocation* DeviceMemory::allocation(const std::string& name) {
  for (auto& a : allocs_)
    if (a.name == name) return &a;
  return nullptr;
}

std::string DeviceMemory::describe(std::uint64_t addr) const {
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr, [](std::uint64_t v, const Allocation& a) { return v < a.base; });
  if (it == allocs_.begin()) return "below every buffer";
  --it;
  if (addr - it->base < it->size) return fmt::format("byte {} of {}", addr - it->base, it->name);
  return fmt::format("{} bytes past the end of {} ({} bytes)", addr - it->base - it->size, it->name, it->size);
}

}  // namespace warpscope::ptx
