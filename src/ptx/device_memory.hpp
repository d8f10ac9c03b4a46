// The interpreter's global memory: named allocations at addresses shaped like
// cudaMalloc's (2 MB apart, 256-byte aligned or better), so a kernel's global
// addresses have the line and sector alignment they would have on a GPU. An
// access outside every allocation is the kernel's bug and is reported, as
// compute-sanitizer's memcheck would.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::ptx {

// Where generic addresses of the other state spaces lie (PTX ISA 5.1.6, "generic
// addressing": cvta maps a window offset to a generic address and back).
inline constexpr std::uint64_t kSharedWindow = 0x0000100000000000ull;
inline constexpr std::uint64_t kLocalWindow = 0x0000200000000000ull;
inline constexpr std::uint64_t kConstWindow = 0x0000300000000000ull;
// A kernel's parameters (cvta.param: a __grid_constant__ parameter's address, such as a CUtensorMap's).
inline constexpr std::uint64_t kParamWindow = 0x0000400000000000ull;
inline constexpr std::uint64_t kWindowSize = 1ull << 32;
// The first global allocation, where CUDA's first cudaMalloc on a 64-bit Linux host often lands.
inline constexpr std::uint64_t kGlobalBase = 0x00007f0000000000ull;

class DeviceMemory {
 public:
  struct Allocation {
    std::string name;
    std::uint64_t base = 0, size = 0;
    std::vector<std::uint8_t> bytes;
  };

  // A zero-filled allocation of `size` bytes (at least 1); returns its base.
  std::uint64_t allocate(std::string name, std::uint64_t size);
  // The bytes at [addr, addr + n) when one allocation holds them all, else null.
  std::uint8_t* find(std::uint64_t addr, std::uint64_t n);
  const Allocation* allocation(const std::string& name) const;
  Allocation* allocation(const std::string& name);
  const std::vector<Allocation>& allocations() const { return allocs_; }
  // The allocation nearest below addr, for error messages ("12 bytes past the end of out").
  std::string describe(std::uint64_t addr) const;

 private:
  std::vector<Allocation> allocs_;  // in address order (allocated upwards)
  std::size_t last_ = 0;
  std::uint64_t next_ = kGlobalBase;
};

}  // namespace warpscope::ptx
