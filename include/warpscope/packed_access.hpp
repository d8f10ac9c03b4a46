// A warp record in compact form: what a trace stores (metadata, the lowest
// active lane's address and either a stride or the active lanes' addresses),
// with lane addresses expanded only when asked for. Readers hand records out
// in this form by the chunk (TraceSource::next_batch), 56 bytes instead of the
// 288 of a WarpAccess, so a consumer that needs a few lanes, or none, does
// not pay for all 32.
#pragma once

#include <bit>
#include <cstdint>

#include "warpscope/warp_access.hpp"

namespace warpscope {

struct PackedAccess {
  std::uint64_t pc = 0;
  std::uint64_t base = 0;                // address of the lowest active lane (0 when none)
  std::int64_t stride = 0;               // lane i at base + stride * (i - lowest), when lanes == nullptr
  const std::uint64_t* lanes = nullptr;  // else: the active lanes' addresses, lowest lane first
  std::uint32_t kernel = 0;
  std::uint32_t cta = 0;
  std::uint32_t mask = 0xffffffffu;  // active lanes (LaneMask bits)
  std::uint16_t warp = 0;
  std::int16_t sm = -1;
  Space space = Space::Global;
  Op op = Op::Load;
  std::uint8_t size = 4;
  CacheOp cache = CacheOp::Default;
  AtomicOp atomic_op = AtomicOp::Unknown;  // not stored per record: KernelInfo::atomics by PC

  LaneMask active() const { return LaneMask(mask); }
  bool strided() const { return lanes == nullptr; }

  // The address of `lane` (0 for an inactive lane, as WarpAccess::addr).
  std::uint64_t address(int lane) const {
    if (((mask >> lane) & 1u) == 0) return 0;
    if (lanes != nullptr) return lanes[std::popcount(mask & ((1u << lane) - 1u))];
    return base + static_cast<std::uint64_t>(stride) * static_cast<std::uint64_t>(lane - std::countr_zero(mask));
  }

  // Every field of `out`, all 32 lanes included.
  void expand(WarpAccess& out) const {
    out.pc = pc;
    out.kernel = kernel;
    out.cta = cta;
    out.warp = warp;
    out.sm = sm;
    out.space = space;
    out.op = op;
    out.size = size;
    out.cache = cache;
    out.atomic_op = atomic_op;
    out.active = LaneMask(mask);
    if (lanes != nullptr) {
      out.addr.fill(0);
      const std::uint64_t* next = lanes;
      for (std::uint32_t left = mask; left != 0; left &= left - 1)
        out.addr[static_cast<unsigned>(std::countr_zero(left))] = *next++;
      return;
    }
    // Branch-free: inactive lanes are masked to 0 (mask 0: every lane is 0).
    const int first = mask == 0 ? 0 : std::countr_zero(mask);
    for (int i = 0; i < kWarpSize; ++i) {
      const std::uint64_t keep = 0 - std::uint64_t{(mask >> i) & 1u};
      out.addr[static_cast<unsigned>(i)] =
          (base + static_cast<std::uint64_t>(stride) * static_cast<std::uint64_t>(i - first)) & keep;
    }
  }
};

// The compact form of `rec`: strided when the active lanes fit base + stride,
// else their addresses are copied to `lanes` (room for 32) and pointed to.
// Returns how many entries of `lanes` it used.
int pack(const WarpAccess& rec, PackedAccess& out, std::uint64_t* lanes);

}  // namespace warpscope
