// MemorySystem's state and its per-record access path, shared by
// memory_system.cpp (construction, kernels, describe) and access_path.cpp (the
// hot path).
#pragma once

#include <bit>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "memory/hierarchy.hpp"
#include "memory/issue_clock.hpp"
#include "memory/l2_request_coalescer.hpp"
#include "memory/constant_blocks.hpp"
#include "memory/local_windows.hpp"
#include "memory/warp_lines.hpp"
#include "warpscope/cache.hpp"
#include "warpscope/counters.hpp"
#include "warpscope/memory_system.hpp"

namespace warpscope {

namespace memory {

// Which L1Traffic of Counters a record adds to.
enum class Kind : std::uint8_t { GlobalLd, GlobalSt, GlobalAtom, LocalLd, LocalSt, ReadOnlyLd, SharedLd, SharedSt,
                                 SharedAtom, SharedLdsm, SharedStsm, SharedGmma, DSharedLd, DSharedSt, DSharedAtom, DSharedStas, DSharedRed, GlobalLdgsts, GlobalLdgstsBypass,
                                 SharedLdgsts, SharedLdgstsBypass, BulkLd, BulkSt, Const };

// What one record adds, applied to the kernel counters and to the caller's
// per-PC counters.
struct Delta {
  Kind kind = Kind::GlobalLd;
  L1Traffic l1;
  SharedTraffic shared;
  std::uint64_t const_serialization = 0;
  std::uint64_t l2r_req = 0, l2r_sec = 0, l2r_hit = 0;
  std::uint64_t l2w_req = 0, l2w_sec = 0, l2w_hit = 0;
  std::uint64_t l2a_req = 0, l2a_sec = 0, l2a_hit = 0;    // atomics
  std::uint64_t l2red_req = 0, l2red_sec = 0, l2red_hit = 0;  // reductions
  std::uint64_t dram_r = 0, dram_w = 0;
};

void apply(Counters& c, const Delta& d);
// Adds `part` into `into` (the L2 thread's totals, memory/l2_thread.hpp).
void merge(Delta& into, const Delta& part);

// What the SM side of a record asks of the L2 (the L1 never depends on the
// L2's answer, so these can run later, in record order, on the L2 thread:
// memory/l2_thread.hpp).
// What an L2 read miss fetches: its sector group (the generation's rule), its line, or the 256-byte pair of lines
// it is in (a tensor map's L2 promotion: validation/h100/tensor_promo).
enum class L2Fill : std::uint8_t { Group, Line, Pair };

struct L2Op {
  enum class Type : std::uint8_t { Read, Write, Atomic, Reduction, BulkRead };  // BulkRead: past the coalescer
  Type type = Type::Read;
  bool evict_first = false;
  L2Fill fill = L2Fill::Group;  // BulkRead
  SectorMask sectors;  // Read, Atomic, Reduction
  std::uint64_t line = 0;
  LineBytes bytes;     // Write, Atomic, Reduction
};

}  // namespace memory

struct MemorySystem::Impl {
  using L2Fill = memory::L2Fill;
  ArchSpec arch;
  MemoryConfig cfg;
  memory::Hierarchy h;
  std::vector<Cache> l1;        // per SM (empty when there is no L1)
  std::vector<Cache> readonly;  // per SM x partition (3.5/3.7)
  std::vector<Cache> l2;        // none, or one per L2 partition (memory/l2_partitions.hpp)
  int l2_partition = 0;         // L2 partition of the SM whose record is in flight
  int sm_in_flight = 0;         // the SM whose record is in flight
  std::uint64_t round = 0;      // its issue round (memory/issue_clock.hpp; kept only with a coalescer)
  memory::IssueClock clock;
  memory::L2RequestCoalescer coalescer;
  // Per SM: whether its L1 may hold a global line. Until one is allocated,
  // invalidating global lines there is a no-op and is skipped (2.x/3.x
  // non-caching loads and stores would otherwise look up L1 for nothing).
  std::vector<std::uint8_t> l1_has_global;
  Counters kernel;
  memory::WarpLines lines;      // scratch for the record in flight
  memory::LocalWindows local_windows;  // where each warp's local lines live (memory/local_windows.hpp)
  memory::ConstantBlocks constant_blocks;  // the kernel's constant data read from DRAM so far

  Impl(const ArchSpec& a, const MemoryConfig& c);
  ~Impl();  // where L2Thread is complete (memory/l2_thread.hpp)
  // (Re)creates the per-SM L1s for h.l1 (construction, a kernel with another carveout).
  void build_l1();
  // Whether the driver chooses the carveout per kernel: 7.0+ unified L1/shared
  // and no carveout or shared capacity in MemoryConfig.
  bool per_kernel_carveout() const;

  // L2 ports (see cached()); `d` is the word access's counters.
  struct DirectL2 {
    Impl& m;
    static constexpr bool kPrefetch = true;  // hint the L2 sets a scattered record will look up
    void read(std::uint64_t line, SectorMask s, bool ef, memory::Delta& d) { m.l2_read(line, s, ef, d); }
    void bulk_read(std::uint64_t line, SectorMask s, L2Fill fill, memory::Delta& d) { m.l2_read(line, s, false, d, false, fill); }
    void write(std::uint64_t line, const LineBytes& b, bool ef, memory::Delta& d) { m.l2_write(line, b, ef, d); }
    void atomic(std::uint64_t line, SectorMask s, const LineBytes& b, bool reduction, memory::Delta& d) {
      m.l2_atomic(line, s, b, reduction, d);
    }
  };
  struct RingL2;  // hands operations to the L2 thread (memory/l2_thread.hpp)

  // set_l2_thread(true): the L2 side on a thread of its own (memory/l2_thread.hpp).
  struct L2Thread;
  std::unique_ptr<L2Thread> l2_thread;
  // Waits until the L2 thread has run every operation handed over and adds
  // its counters in (a no-op without it).
  void sync_l2();
  // The issue round of a record (the request coalescer's clock; 0 without it).
  std::uint64_t next_round(const WarpAccess& rec, int sm);
  // Sets l2_partition / sm_in_flight / round: the L2 side's context for an
  // operation of `sm` (the L2 thread sets them per operation).
  void enter_sm(int sm, std::uint64_t issue_round);

  // The hot path (access_path.cpp). The SM side (rules engine, L1, read-only
  // caches, local windows) hands its L2 operations to a Port: DirectL2 runs
  // them at once, RingL2 hands them to the L2 thread (memory/l2_thread.hpp).
  // One record: its word accesses (8/16-byte local: several), each through
  // sm_side, counted into the kernel and `pc_counters`.
  template <class Port>
  InstructionCounts access_record(const WarpAccess& rec, int sm, Counters* pc_counters, Port& l2port);
  // A cp.async record (Op::AsyncCopy): its global read as a load of its cache operator, its shared write
  // as wavefronts (rules/async_copy.hpp) that depend on the read before it; on 8.0+ counted as LDGSTS,
  // before 8.0 (a what-if) as the load and shared store it would take there.
  template <class Port>
  InstructionCounts access_async_copy(const WarpAccess& rec, int sm, Counters* pc_counters, Port& l2port);
  // A bulk copy (Op::BulkLoad / BulkStore): on 9.0+ the TMA's L2 requests (rules/bulk_copy.hpp), past L1 and the
  // request coalescer; before 9.0 (a what-if) the 16-byte loads and stores of one warp that would copy it.
  template <class Port>
  InstructionCounts access_bulk(const WarpAccess& rec, int sm, Counters* pc_counters, Port& l2port);
  // A texture record: on 7.0+ request by request (rules/texture_requests.hpp), each looking its sectors up in L1 in
  // turn; before 7.0 the lanes on a texel as one read-only load.
  template <class Port>
  InstructionCounts access_texture(const WarpAccess& rec, int sm, Counters* pc_counters, Port& l2port);
  // Per warp (CTA << 16 | warp), the global record of its last cp.async, which the shared record of the
  // same instruction (that warp's next record) pairs with; records of other warps may come between.
  // Entries stay for the kernel (one per warp that copies), `pending` until their write comes.
  struct AsyncSource {
    WarpAccess read;
    bool pending = false;
  };
  std::unordered_map<std::uint64_t, AsyncSource> async_sources;
  // An atomic served pass by pass, or a shared CAS (rules/atomic_passes.hpp); nullopt when
  // `rec` is served whole. Out of line: only atomics and reductions come here.
  template <class Port>
  std::optional<InstructionCounts> access_passes(const WarpAccess& rec, int sm, Counters* pc_counters, Port& l2port);
  // Adds one word access's counts to the kernel and to `pc_counters` (when not null).
  void count(const memory::Delta& d, Counters* pc_counters) {
    memory::apply(kernel, d);
    if (pc_counters != nullptr) memory::apply(*pc_counters, d);
  }
  // The SM side of one word access into `d`, its L2 operations into `l2port`;
  // the rules engine's counts. Inlined into both callers (access_path.cpp): GCC kept it out of
  // line once access_passes called it too, ~5 ns of a coalesced record (docs/PERFORMANCE.md).
  template <class Port>
  [[gnu::always_inline]] inline InstructionCounts sm_side(const WarpAccess& rec, int sm, bool counts_instruction,
                                                          memory::Delta& d, Port& l2port);
  template <class Port>
  void cached(const WarpAccess& rec, int sm, const InstructionCounts& c, memory::Delta& d, Port& l2port);
  template <class Port>
  void load(const WarpAccess& rec, int sm, const InstructionCounts& c, memory::Delta& d, Port& l2port);
  template <class Port>
  void store(const WarpAccess& rec, int sm, const InstructionCounts& c, memory::Delta& d, Port& l2port);
  template <class Port>
  void atomic(int sm, bool reduction, memory::Delta& d, Port& l2port);
  // One operation handed over by RingL2, on the thread that owns the L2.
  void run_l2_op(const memory::L2Op& op, memory::Delta& d);

  // coalesce: offer the read to the request coalescer first (every SM-side read but the TMA's).
  void l2_read(std::uint64_t line, SectorMask sectors, bool evict_first, memory::Delta& d, bool coalesce = true,
               L2Fill fill = L2Fill::Group);
  // The sectors a read at this SM's partition missed, from the home partition or DRAM.
  void l2_fetch(std::uint64_t line, SectorMask fetch, const ReadOptions& o, memory::Delta& d);
  void l2_atomic(std::uint64_t line, SectorMask sectors, const LineBytes& bytes, bool reduction, memory::Delta& d);
  void l2_write(std::uint64_t line, const LineBytes& bytes, bool evict_first, memory::Delta& d);
  void l2_evicted(const Eviction& e, memory::Delta& d) const;  // DRAM traffic of a line leaving L2
  int l2_home(std::uint64_t line) const;  // the partition that reads DRAM for `line` and holds its written data
};

}  // namespace warpscope
