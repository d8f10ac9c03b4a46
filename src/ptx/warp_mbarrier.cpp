// mbarrier objects (PTX ISA 9.7.13.15) for the interpreter: init, arrive (with a count, .expect_tx, _drop),
// expect_tx / complete_tx, test_wait / try_wait (a state token or .parity), pending_count, inval, and
// cp.async.mbarrier.arrive{.noinc} (9.7.9.25.3.3). A phase completes when its pending arrivals and its
// transaction bytes both reach zero; the next phase then expects the (possibly dropped) count again.
// The copies that would complete transactions finish at once here, so a wait fails only while other
// threads have yet to arrive: the warp then yields, and a CTA whose warps all wait with nothing changing
// is a deadlock, reported as an error rather than spun until --max-instructions.
// An mbarrier of another CTA of the cluster is reached through a .shared::cluster address (mapa): remote arrives.
// None of this makes a memory record: the H100 runs these as SYNCS / ARRIVES instructions, which Nsight
// Compute counts as no shared-memory access (validation/h100/barrier_probe: mbar_wait, every mode).
#include "ptx/interpreter_impl.hpp"

namespace warpscope::ptx {
namespace {

constexpr std::uint32_t kMaxCount = (1u << 20) - 1;  // PTX ISA: counts of 1 to 2^20 - 1
constexpr std::uint64_t kIdleWaitsPerWarp = 1024;     // failed waits with no change before a deadlock is called

// A state token: the phase of the arrival and the arrivals then still pending (what pending_count reads).
std::uint64_t state_token(const MBarrier& b) { return b.phase << 20 | b.pending; }
std::uint64_t token_phase(std::uint64_t state) { return state >> 20; }

}  // namespace

MBarrier& Interpreter::Impl::mbarrier_at(Cta& c, const Warp& w, const Instruction& in, int lane, std::uint64_t key) {
  auto it = c.mbarriers.find(key);
  if (it == c.mbarriers.end())
    fault(w, in, lane, fmt::format("the mbarrier at shared 0x{:x} is used before mbarrier.init (or after mbarrier.inval)", key));
  return it->second;
}

void Interpreter::Impl::complete_if_done(Cta& c, MBarrier& b) {
  if (b.pending == 0 && b.tx == 0) {
    ++b.phase;
    b.pending = b.expected;
  }
  ++c.mbar_changes;
}

void Interpreter::Impl::mbarrier_op(Cta& c, Warp& w, Frame& f, const Instruction& in, std::uint32_t exec) {
  const int dests = mbar_writes(in.mbar) ? 1 : 0;
  if (in.mbar == MbarOp::PendingCount) {
    for (std::uint32_t b = exec; b; b &= b - 1) {
      const int l = std::countr_zero(b);
      set(f, in.operands[0].reg, l, value(c, w, f, in.operands[1], l) & kMaxCount);
    }
    return;
  }
  const Operand& addr = in.operands[static_cast<std::size_t>(dests)];
  const auto source = [&](std::size_t k, int lane, std::uint64_t fallback) {
    const std::size_t i = static_cast<std::size_t>(dests) + 1 + k;
    return i < in.operands.size() ? value(c, w, f, in.operands[i], lane) : fallback;
  };
  bool incomplete = false;
  for (std::uint32_t bits = exec; bits; bits &= bits - 1) {
    const int l = std::countr_zero(bits);
    Place pl;
    locate(c, w, f, in, l, in.space, address_of(f, addr, l), 8, pl);
    if (pl.space != Space::Shared && pl.space != Space::DShared) fault(w, in, l, fmt::format("the mbarrier object at 0x{:x} is not in shared memory", pl.record_addr));
    const std::uint64_t key = pl.record_addr;
    Cta& t = *pl.owner;  // this CTA, or another of the cluster (a remote arrive through .shared::cluster)
    if (in.mbar == MbarOp::Init) {
      const std::uint64_t count = source(0, l, 0);
      if (count < 1 || count > kMaxCount) fault(w, in, l, fmt::format("an mbarrier count of {} (1 to {})", count, kMaxCount));
      t.mbarriers[key] = MBarrier{0, static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(count), 0};
      ++t.mbar_changes;
      continue;
    }
    MBarrier& b = mbarrier_at(t, w, in, l, key);
    switch (in.mbar) {
      case MbarOp::Inval:
        t.mbarriers.erase(key);
        ++t.mbar_changes;
        break;
      case MbarOp::ExpectTx: case MbarOp::CompleteTx: {
        const auto bytes = static_cast<std::int64_t>(source(0, l, 0) & 0xffffffffu);
        b.tx += in.mbar == MbarOp::ExpectTx ? bytes : -bytes;
        complete_if_done(t, b);
        break;
      }
      case MbarOp::Arrive: case MbarOp::ArriveDrop: case MbarOp::CpAsyncArrive: {
        // cp.async.mbarrier.arrive without .noinc adds one pending arrival and makes it when this thread's
        // copies complete, which they already have: no change. With .noinc it is an arrival of the phase.
        if (in.mbar == MbarOp::CpAsyncArrive && !in.mbar_noinc) break;
        std::uint64_t count = 1;
        if (in.mbar_expect_tx) b.tx += static_cast<std::int64_t>(source(0, l, 0) & 0xffffffffu);
        else if (in.mbar != MbarOp::CpAsyncArrive) count = source(0, l, 1);
        if (count < 1 || count > kMaxCount) fault(w, in, l, fmt::format("an arrival count of {} (1 to {})", count, kMaxCount));
        if (count > b.pending)
          fault(w, in, l, fmt::format("{} arrival(s) on an mbarrier phase that expects only {} more", count, b.pending));
        const std::uint64_t token = state_token(b);
        if (in.mbar == MbarOp::ArriveDrop) {
          if (count > b.expected) fault(w, in, l, fmt::format("drops {} from an mbarrier that expects {}", count, b.expected));
          b.expected -= static_cast<std::uint32_t>(count);
        }
        b.pending -= static_cast<std::uint32_t>(count);
        if (dests == 1) set(f, in.operands[0].reg, l, token);
        complete_if_done(t, b);
        break;
      }
      case MbarOp::TestWait: case MbarOp::TryWait: {
        const std::uint64_t v = source(0, l, 0);
        const bool done = in.mbar_parity ? (b.phase & 1u) != (v & 1u) : b.phase > token_phase(v);
        set(f, in.operands[0].reg, l, done ? 1 : 0);
        incomplete = incomplete || !done;
        break;
      }
      default: break;
    }
  }
  if (!incomplete) return;
  w.yielded = true;
  if (c.mbar_changes != c.changes_at_last_wait) {
    c.changes_at_last_wait = c.mbar_changes;
    c.idle_waits = 0;
  } else if (++c.idle_waits > kIdleWaitsPerWarp * warps_per_cta) {
    fault(w, in, std::countr_zero(exec),
          "deadlock: every warp of the CTA that can run waits on an mbarrier phase, and none can complete it");
  }
}

}  // namespace warpscope::ptx
