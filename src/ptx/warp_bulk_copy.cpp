// cp.async.bulk for the interpreter (PTX ISA 9.7.9.25.4.1, sm_90): a thread copies a contiguous block between
// global and shared memory through the SM's TMA unit. The copy is done when the instruction runs: global ->
// shared then completes its bytes on the mbarrier it names (complete_tx), so a thread waiting on that barrier
// sees the data; shared -> global belongs to a bulk group whose commit and wait are no-ops.
// Each active lane's copy is a record of its own (types.hpp Op::BulkLoad / BulkStore): UBLKCP takes uniform
// operands, so ptxas issues one per distinct lane. Its shared side costs the LSU nothing (the H100 counts no
// shared wavefronts for it: validation/h100/barrier_probe).
#include "ptx/interpreter_impl.hpp"

namespace warpscope::ptx {

void Interpreter::Impl::bulk_copy(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
  const bool to_shared = in.space == StateSpace::Shared;
  for (std::uint32_t bits = exec; bits; bits &= bits - 1) {
    const int l = std::countr_zero(bits);
    const std::uint64_t bytes = value(c, w, f, in.operands[2], l) & 0xffffffffu;
    if (bytes == 0 || bytes % 16 != 0 || bytes > kMaxBulkBytes)
      fault(w, in, l, fmt::format("a bulk copy of {} bytes (a multiple of 16, at most {})", bytes, kMaxBulkBytes));
    const std::uint64_t dst = address_of(f, in.operands[0], l), src = address_of(f, in.operands[1], l);
    for (const std::uint64_t a : {dst, src})
      if (a % 16 != 0) fault(w, in, l, fmt::format("a bulk copy address 0x{:x} that is not a multiple of 16", a));
    // locate() checks the first 16 bytes (and alignment to the access size, which a block need not have);
    // the rest of the block must lie in the same buffer or in the CTA's shared memory.
    Place from, to;
    const auto place = [&](StateSpace space, std::uint64_t addr, Place& pl) {
      locate(c, w, f, in, l, space, addr, 16, pl);
      const bool inside = space == StateSpace::Shared ? addr + bytes <= c.shared.size() : state.memory.find(addr, bytes) != nullptr;
      if (!inside)
        fault(w, in, l, fmt::format("the {} bytes at {} 0x{:x} run past the end of {}", bytes,
                                    space == StateSpace::Shared ? "shared" : "global", addr,
                                    space == StateSpace::Shared ? "the CTA's shared memory" : "their buffer"));
    };
    place(to_shared ? StateSpace::Global : StateSpace::Shared, src, from);
    place(to_shared ? StateSpace::Shared : StateSpace::Global, dst, to);
    // .multicast::cluster: the same bytes at the same offset of every CTA of the mask (one record: the issuer's).
    const CopyTargets targets = copy_targets(c, w, f, in, l, 4);  // a store (shared -> global) is never multicast
    for (Cta* t : targets) std::memmove(to_shared ? t->shared.data() + to.record_addr : to.p, from.p, static_cast<std::size_t>(bytes));
    WarpAccess a = bulk_record(c, w, f, pc, to_shared);
    a.active = LaneMask(kBulkMask);
    a.addr[0] = to_shared ? from.record_addr : to.record_addr;
    a.addr[1] = to_shared ? to.record_addr : from.record_addr;
    a.addr[2] = bytes;
    out->push_back(a);
    // A multicast: the block again for each further CTA it lands in, as a tensor row delivered (types.hpp).
    for (std::size_t t = 1; t < targets.size(); ++t) {
      WarpAccess again = a;
      again.active = LaneMask(kTensorRowMask);
      again.addr[3] = kTensorRowLater | kTensorRowDelivery;
      out->push_back(again);
    }
    if (to_shared)
      for (Cta* t : targets) complete_tx(*t, w, f, in, l, in.operands[3], bytes);
  }
}

void Interpreter::Impl::complete_tx(Cta& c, const Warp& w, const Frame& f, const Instruction& in, int lane, const Operand& bar,
                                    std::uint64_t bytes) {
  Place p;
  locate(c, w, f, in, lane, StateSpace::Shared, address_of(f, bar, lane), 8, p);
  MBarrier& b = mbarrier_at(c, w, in, lane, p.record_addr);
  b.tx -= static_cast<std::int64_t>(bytes);
  complete_if_done(c, b);
}

WarpAccess Interpreter::Impl::bulk_record(const Cta& c, const Warp& w, const Frame& f, std::uint32_t pc, bool to_shared) const {
  WarpAccess a = record_of(c, w, f, pc);
  a.space = Space::Global;
  a.op = to_shared ? Op::BulkLoad : Op::BulkStore;
  a.size = 16;
  return a;
}

}  // namespace warpscope::ptx
