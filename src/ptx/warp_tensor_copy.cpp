// cp.async.bulk.tensor for the interpreter (PTX ISA 9.7.9.25.5.1, .tile mode, sm_90): a thread copies a box of a
// tensor, described by a tensor map (ptx/tensor_map.hpp), between global and shared memory through the SM's TMA
// unit. As with cp.async.bulk the copy is done when the instruction runs, and a copy to shared memory completes
// the box's bytes (out-of-bounds elements included) on its mbarrier.
// What the H100 does (validation/h100/tensor_probe, docs/VALIDATION.md "Tensor copies"):
//  - the box lies in shared memory densely, dimension 0 innermost, each 16-byte chunk moved by the map's swizzle
//    (tensor_map.hpp swizzled());
//  - elements out of bounds read as 0 (or NaN) and are not written; a load still reads a row's global bytes out of
//    bounds in dimension 0 (L2 sees them) and counts a row out of bounds above it in its sectors, mostly without
//    reading it;
//  - a box whose first element in dimension 0 is not 16-byte aligned, or a shared address that is not a multiple
//    of 128, stops the kernel (illegal instruction, misaligned address): errors here.
// Records: one per row of the box (the elements of dimension 0 at one index of the others), as a bulk copy of its
// own (types.hpp kTensorRowMask): a load's every row whole, where it would lie in or out of bounds, a store's rows
// with bytes in bounds, those bytes only. The first record is the instruction.
#include <algorithm>

#include "ptx/interpreter_impl.hpp"
#include "ptx/tensor_map.hpp"

namespace warpscope::ptx {

void Interpreter::Impl::tensor_copy(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
  const bool to_shared = in.space == StateSpace::Shared;
  const Operand& map_op = in.operands[to_shared ? 1 : 0];
  const Operand& shared_op = in.operands[to_shared ? 0 : 1];
  const auto record = [&](std::uint64_t global, std::uint64_t shared, std::uint64_t bytes, std::uint64_t flags) {
    WarpAccess a = bulk_record(c, w, f, pc, to_shared);
    a.active = LaneMask(kTensorRowMask);
    a.addr[0] = global;
    a.addr[1] = shared;
    a.addr[2] = bytes;
    a.addr[3] = flags;
    out->push_back(a);
  };
  for (std::uint32_t bits = exec; bits; bits &= bits - 1) {
    const int l = std::countr_zero(bits);
    // The map: 128 bytes wherever the generic address points (a parameter, constant or global memory).
    const std::uint64_t map_addr = address_of(f, map_op, l);
    std::array<std::uint8_t, kTensorMapBytes> raw{};
    for (std::uint64_t half = 0; half < kTensorMapBytes; half += 64) {
      Place p;
      locate(c, w, f, in, l, StateSpace::Generic, map_addr + half, 64, p);
      std::memcpy(raw.data() + half, p.p, 64);
    }
    const auto map = decode_tensor_map(raw.data());
    if (!map)
      fault(w, in, l, fmt::format("the tensor map at 0x{:x} is not one the run script made (pass a CUtensorMap "
                                  "argument as tmap(...): docs/PTX.md \"Tensor maps\")", map_addr));
    if (map->rank != in.vec) fault(w, in, l, fmt::format("a {}-d copy through a tensor map of rank {}", in.vec, map->rank));
    const unsigned rank = map->rank, elem = map->elem;
    std::array<std::int64_t, kMaxTensorRank> co{};
    for (unsigned i = 0; i < rank; ++i) co[i] = static_cast<std::int32_t>(reg(f, map_op.regs[i], l));
    const std::uint64_t sh = address_of(f, shared_op, l);
    if (sh % 128 != 0)
      fault(w, in, l, fmt::format("a tensor copy's shared address 0x{:x} is not a multiple of 128 (the H100 stops the "
                                  "kernel: misaligned address)", sh));
    if (co[0] * static_cast<std::int64_t>(elem) % 16 != 0)
      fault(w, in, l, fmt::format("the box starts at element {} of dimension 0, {} bytes from the tensor's start, not a "
                                  "multiple of 16 (the H100 stops the kernel: illegal instruction)", co[0], co[0] * elem));
    const std::uint64_t box_bytes = map->box_bytes();
    // .multicast::cluster: the box lands at the same offset of every CTA of the mask (records: the issuer's).
    const CopyTargets targets = copy_targets(c, w, f, in, l, 3);  // a store (shared -> global) is never multicast
    if (sh > c.shared.size() || box_bytes > c.shared.size() - sh)
      fault(w, in, l, fmt::format("the box's {} bytes at shared 0x{:x} run past the CTA's {} bytes of shared memory", box_bytes,
                                  sh, c.shared.size()));

    const std::uint64_t row_bytes = std::uint64_t{map->box[0]} * elem;
    std::uint64_t rows = 1;
    for (unsigned i = 1; i < rank; ++i) rows *= map->moved(i);
    const std::int64_t dim0 = static_cast<std::int64_t>(map->dims[0]);
    const std::int64_t lo = std::max<std::int64_t>(co[0], 0), hi = std::min<std::int64_t>(co[0] + map->box[0], dim0);
    std::array<std::uint32_t, kMaxTensorRank> k{};  // the row's index in dimensions 1.. of the box
    bool first = true;
    for (std::uint64_t r = 0; r < rows; ++r) {
      bool row_inside = true;            // the row's index in dimensions 1.. is in bounds
      std::uint64_t row_base = map->base;  // where element 0 of the row would be, in bounds or not
      for (unsigned i = 1; i < rank; ++i) {
        const std::int64_t g = co[i] + static_cast<std::int64_t>(k[i]) * map->estride[i];
        if (g < 0 || g >= static_cast<std::int64_t>(map->dims[i])) row_inside = false;
        row_base += static_cast<std::uint64_t>(g) * map->strides[i];
      }
      const bool inside = row_inside && lo < hi;
      const std::uint64_t srow = sh + r * row_bytes;
      std::uint8_t* global = nullptr;  // the row's first byte in bounds
      const std::uint64_t g_lo = row_base + static_cast<std::uint64_t>(lo) * elem, g_bytes = inside ? static_cast<std::uint64_t>(hi - lo) * elem : 0;
      if (inside) {
        global = state.memory.find(g_lo, g_bytes);
        if (!global)
          fault(w, in, l, fmt::format("the box's row at global 0x{:x} ({} bytes) is outside every buffer ({})", g_lo, g_bytes,
                                      state.memory.describe(g_lo)));
      }
      for (std::uint32_t e = 0; e < map->box[0]; ++e) {
        const std::int64_t x = co[0] + e;
        const std::uint64_t phys = swizzled(srow + std::uint64_t{e} * elem, map->swizzle);
        if (phys + elem > c.shared.size())
          fault(w, in, l, fmt::format("the swizzled box reaches shared 0x{:x}, past the CTA's {} bytes", phys, c.shared.size()));
        const bool in_bounds = inside && x >= lo && x < hi;
        if (!to_shared) {
          if (in_bounds) std::memcpy(global + static_cast<std::uint64_t>(x - lo) * elem, c.shared.data() + phys, elem);
          continue;
        }
        // NaN fill (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA): the canonical NaN of the width (not measured).
        const std::uint64_t nan = elem == 2 ? 0x7fffu : elem == 4 ? 0x7fffffffu : 0x7fffffffffffffffull;
        const std::uint64_t fill = map->oob_nan ? nan : 0;
        for (Cta* t : targets)
          std::memcpy(t->shared.data() + phys, in_bounds ? global + static_cast<std::uint64_t>(x - lo) * elem
                                                         : reinterpret_cast<const std::uint8_t*>(&fill), elem);
      }
      if (to_shared) {
        // The TMA reads the whole row, out of bounds in dimension 0 too, and counts a row out of bounds above it
        // without reading it (validation/h100/tensor_probe: the "right", "left" and "top" boxes).
        record(row_base + static_cast<std::uint64_t>(co[0]) * elem, srow, row_bytes,
               (first ? 0 : kTensorRowLater) | (row_inside ? 0 : kTensorRowOutside) |
                   (map->promotes_lines() ? kTensorRowPromoted : 0) | (map->promotes_pairs() ? kTensorRowPromotedPair : 0));
        // A multicast: the row again for each further CTA it lands in (the TMA counts its sectors per destination).
        for (std::size_t t = 1; t < targets.size(); ++t)
          record(row_base + static_cast<std::uint64_t>(co[0]) * elem, srow, row_bytes,
                 kTensorRowLater | kTensorRowDelivery | (row_inside ? 0 : kTensorRowOutside));
        first = false;
      } else if (inside) {  // a store writes the bytes in bounds only
        record(g_lo, srow + static_cast<std::uint64_t>(lo - co[0]) * elem, g_bytes, first ? 0 : kTensorRowLater);
        first = false;
      }
      for (unsigned i = 1; i < rank; ++i) {  // next row
        if (++k[i] < map->moved(i)) break;
        k[i] = 0;
      }
    }
    if (first) record(map->base, sh, 0, 0);  // a store with nothing in bounds: the instruction still executed
    if (to_shared)
      for (Cta* t : targets) complete_tx(*t, w, f, in, l, in.operands[2], box_bytes);
  }
}

}  // namespace warpscope::ptx
