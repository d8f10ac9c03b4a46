// One warp record through the caches: which cache each access looks up,
// allocates in, invalidates or writes through, per generation. The policies
// come resolved from the database (memory/hierarchy.cpp); sources per rule:
//
//  - 2.x caching loads fill whole 128 B lines, non-caching (.cg/.cv) loads go
//    to L2 and invalidate the L1 line; stores invalidate the L1 line and go to
//    L2 (seed001 "GMEM Reads", "GMEM Writes", "Caching Load" / "Non-caching Load").
//  - 2.x/3.x local memory is cached in L1 (seed000 G.3.1, G.4.1); local stores
//    write-allocate and write back on eviction (NVIDIA "Local Memory and
//    Register Spilling", 2011).
//  - 3.x global loads are L2-only unless -dlcm=ca (seed000 G.4.2); 3.5/3.7
//    ld.global.nc uses one of 4 read-only caches per SM, 32 B granularity, a
//    segment missing at most once per warp (seed001 "Read-Only Cache").
//  - 5.x+ L1/L1TEX fills the missing 32 B sectors only (reference/
//    ncu_and_microbench.md 1.1, NVIDIA forum 49571); 5.x/6.x L2-only loads
//    do not touch L1.
//  - 7.0+: every global/local load is looked up in L1TEX; .cg/.cv loads miss
//    and do not allocate (validation/h100/cache gather_cg: LDG.E.STRONG.GPU has
//    0 lookup hits); .cs/.lu allocate evict-first (seed001 "PTX Cache
//    Operators"); stores are write-through with write-allocate and byte masks
//    (Accel-Sim l1_write_policy microbenchmark; validation/h100/cache).
//    9.0 counts a store to a line whose tag is present as a hit in every
//    sector it writes (memory/store_hits.hpp).
//  - 8.0+ cp.async (LDGSTS): the read is a load of its operator (.ca through L1,
//    .cg past it, no lookup), the write a shared-memory pass whose wavefronts
//    depend on the read's sources too (rules/async_copy.hpp; validation/h100/
//    async_probe, async_gemm).
//  - 9.0+ bulk copies (cp.async.bulk, UBLKCP): the TMA cuts the block where its
//    shared side crosses 128 bytes and sends the pieces' sectors to L2 past L1 and
//    the request coalescer (rules/bulk_copy.hpp; validation/h100/barrier_probe,
//    bulk_pipeline).
//  - Atomics and reductions are performed at L2: the L1 line is invalidated
//    (assumed), the L2 sector is fetched on a miss and left dirty.
//  - L2 (2.x+): write-back, write-allocate without fetch, byte masks; a read of
//    a partially written sector misses and fetches it (Accel-Sim l2_write_policy
//    microbenchmark). DRAM bytes = sectors filled / written back x 32.
//  - 9.0: two L2 partitions, each caching what its SMs read; a line's home
//    partition alone reads DRAM (64 B fills) and holds written data; reductions
//    are performed there (memory/l2_partitions.hpp, measured).
#include <bit>

#include "memory/l2_partitions.hpp"
#include "memory/l2_thread.hpp"
#include "memory/store_hits.hpp"
#include "memory/system_impl.hpp"
#include "rules/async_copy.hpp"
#include "rules/atomic_passes.hpp"
#include "rules/bulk_copy.hpp"
#include "rules/local_layout.hpp"
#include "rules/texture_requests.hpp"

namespace warpscope {
namespace {

using memory::Delta;
using memory::Kind;

constexpr int kLineShift = 7;

bool evict_first_op(CacheOp op) { return op == CacheOp::Cs || op == CacheOp::Lu; }

}  // namespace

int MemorySystem::Impl::l2_home(std::uint64_t line) const {
  return l2.size() > 1 ? memory::l2_home_of(line, h.l2_home_mask) : 0;
}

void MemorySystem::Impl::l2_read(std::uint64_t line, SectorMask sectors, bool evict_first, Delta& d, bool coalesce,
                                 L2Fill fill) {
  const auto n = static_cast<std::uint64_t>(sectors.count());
  const auto bytes = static_cast<std::uint64_t>(h.dram_sector_bytes);
  if (l2.empty()) {
    d.dram_r += n * bytes;
    return;
  }
  // Sectors this SM already asked for and has not received merge in the
  // request coalescer: L2 never sees them (memory/l2_request_coalescer.hpp).
  if (coalesce && coalescer.enabled()) {
    sectors = coalescer.offer(sm_in_flight, line, sectors, round);
    if (sectors.none()) return;
  }
  const auto sent = static_cast<std::uint64_t>(sectors.count());
  // 9.0: a miss fetches its aligned sector group (64 B on the H100); the rest
  // of the group is promoted (memory/l2_partitions.hpp).
  ReadOptions o;
  o.evict_first = evict_first;
  o.group_fill = h.l2.fill_sectors > 1 && fill == L2Fill::Group;
  o.fill_line = fill != L2Fill::Group;
  const ReadResult r = l2[static_cast<std::size_t>(l2_partition)].read(LineAddr{line}, sectors, o);
  d.l2r_req += 1;
  d.l2r_sec += sent;
  d.l2r_hit += static_cast<std::uint64_t>(r.hit.count());
  l2_evicted(r.evicted, d);
  if (r.fetch.none()) return;
  l2_fetch(line, r.fetch, o, d);
  if (fill != L2Fill::Pair) return;
  // A 256-byte promotion also fills the other line of the pair, with no request of this SM's to count: the H100
  // reads both lines from DRAM (tensor_promo: rows of 128 and 64 B on a line read twice and four times their
  // bytes) and counts an extra 4-sector L2 request for about half of them, which this does not model.
  const std::uint64_t partner = line ^ 1;
  const SectorMask all(static_cast<std::uint8_t>((1u << l2[0].sectors_per_line()) - 1u));
  const ReadResult p = l2[static_cast<std::size_t>(l2_partition)].read(LineAddr{partner}, all, o);
  l2_evicted(p.evicted, d);
  if (p.fetch.any()) l2_fetch(partner, p.fetch, o, d);
}

void MemorySystem::Impl::l2_fetch(std::uint64_t line, SectorMask fetch, const ReadOptions& o, Delta& d) {
  const auto bytes = static_cast<std::uint64_t>(h.dram_sector_bytes);
  const int home = l2_home(line);
  if (home == l2_partition) {
    d.dram_r += static_cast<std::uint64_t>(fetch.count()) * bytes;
    return;
  }
  // Over the fabric from the home partition: DRAM only where it misses too.
  const ReadResult f = l2[static_cast<std::size_t>(home)].read(LineAddr{line}, fetch, o);
  d.dram_r += static_cast<std::uint64_t>(f.fetch.count()) * bytes;
  l2_evicted(f.evicted, d);
}

void MemorySystem::Impl::l2_write(std::uint64_t line, const LineBytes& bytes, bool evict_first, Delta& d) {
  const auto n = static_cast<std::uint64_t>(bytes.touched(static_cast<unsigned>(h.l2.sector_bytes)).count());
  const auto sector = static_cast<std::uint64_t>(h.dram_sector_bytes);
  if (l2.empty()) {
    d.dram_w += n * sector;
    return;
  }
  WriteOptions o;
  o.evict_first = evict_first;
  const int home = l2_home(line);
  const WriteResult r = l2[static_cast<std::size_t>(home)].write(LineAddr{line}, bytes, o);
  if (home != l2_partition) {
    // The writer's partition keeps a clean copy (measured, memory/l2_partitions.hpp).
    WriteOptions copy;
    copy.evict_first = evict_first;
    copy.write_back = false;
    l2_evicted(l2[static_cast<std::size_t>(l2_partition)].write(LineAddr{line}, bytes, copy).evicted, d);
  }
  d.l2w_req += 1;
  d.l2w_sec += n;
  d.l2w_hit += n;  // a write allocates without fetching: Nsight Compute counts every sector a hit
  l2_evicted(r.evicted, d);
}

void MemorySystem::Impl::l2_evicted(const Eviction& e, Delta& d) const {
  const auto sector = static_cast<std::uint64_t>(h.dram_sector_bytes);
  d.dram_w += static_cast<std::uint64_t>(e.dirty.count()) * sector;
  // A sector written only in part is read first where DRAM writes whole pieces
  // (l2.partial_writeback_reads: validation/h100/write_probe).
  if (h.l2_partial_writeback_reads) d.dram_r += static_cast<std::uint64_t>(e.dirty_partial.count()) * sector;
}

namespace {

// An L1 line leaving with dirty data (2.x/3.x local write-back) goes to L2.
template <class Port>
void write_back(const Eviction& e, Port& l2port, Delta& d) {
  if (e.any()) l2port.write(e.line.value, e.bytes, false, d);
}

}  // namespace

template <class Port>
void MemorySystem::Impl::load(const WarpAccess& rec, int sm, const InstructionCounts& c, Delta& d, Port& l2port) {
  const bool ef = evict_first_op(rec.cache);
  const bool local = rec.space == Space::Local;
  Cache* l1c = l1.empty() ? nullptr : &l1[static_cast<std::size_t>(sm)];
  MemoryPath path = c.path;
  if (path == MemoryPath::ReadOnly && readonly.empty()) path = h.readonly_in_l1 ? MemoryPath::L1 : MemoryPath::L2;

  if (path == MemoryPath::L1 && l1c != nullptr) {
    if (!local) l1_has_global[static_cast<std::size_t>(sm)] = 1;
    ReadOptions o;
    o.evict_first = ef;
    o.fill_line = !h.sector_fills;
    const SectorMask all = SectorMask::first(l1c->sectors_per_line());
    // Scattered warps touch up to 32 lines: start every tag-store fetch first
    // so that the host's cache misses overlap.
    if (lines.count > 1) {
      for (std::uint32_t i = 0; i < lines.count; ++i) {
        const std::uint64_t key = local ? local_windows.key(rec, sm, lines.lines[i].line) : lines.lines[i].line;
        l1c->prefetch(LineAddr{key});
        if (Port::kPrefetch && !l2.empty()) l2[static_cast<std::size_t>(l2_partition)].prefetch(LineAddr{key});
      }
    }
    for (std::uint32_t i = 0; i < lines.count; ++i) {
      const memory::WarpLine& w = lines.lines[i];
      const std::uint64_t key = local ? local_windows.key(rec, sm, w.line) : w.line;
      const ReadResult r = l1c->read(LineAddr{key}, h.sector_fills ? w.sectors : all, o);
      d.l1.sector_hits += static_cast<std::uint64_t>(r.hit.count());
      write_back(r.evicted, l2port, d);
      if (r.fetch.any()) l2port.read(key, r.fetch, ef, d);
    }
    return;
  }

  if (path == MemoryPath::ReadOnly) {
    // 3.5/3.7: 32 B lines in the read-only cache of the warp's scheduler.
    const int parts = h.readonly_partitions;
    Cache& ro = readonly[static_cast<std::size_t>(sm * parts + rec.warp % parts)];
    for (std::uint32_t i = 0; i < lines.count; ++i) {
      const memory::WarpLine& w = lines.lines[i];
      for (std::uint32_t s = w.sectors.bits(); s != 0; s &= s - 1) {
        const auto sector = static_cast<unsigned>(std::countr_zero(s));
        const ReadResult r = ro.read(LineAddr{(w.line << 2) | sector}, SectorMask(1));
        d.l1.sector_hits += static_cast<std::uint64_t>(r.hit.count());
        if (r.miss.any()) l2port.read(w.line, SectorMask(static_cast<std::uint8_t>(1u << sector)), false, d);
      }
    }
    return;
  }

  // L2 only (non-caching loads; no L1): 7.0+ counts the L1TEX lookups as misses.
  if (l1c != nullptr && !local && l1_has_global[static_cast<std::size_t>(sm)] == 0) l1c = nullptr;  // nothing to invalidate
  if (Port::kPrefetch && lines.count > 1 && !l2.empty())
    for (std::uint32_t i = 0; i < lines.count; ++i)
      l2[static_cast<std::size_t>(l2_partition)].prefetch(LineAddr{local ? local_windows.key(rec, sm, lines.lines[i].line) : lines.lines[i].line});
  for (std::uint32_t i = 0; i < lines.count; ++i) {
    const memory::WarpLine& w = lines.lines[i];
    const std::uint64_t key = local ? local_windows.key(rec, sm, w.line) : w.line;
    if (h.invalidate_on_bypass && l1c != nullptr) write_back(l1c->invalidate(LineAddr{key}), l2port, d);
    l2port.read(key, w.sectors, ef, d);
  }
  // 2.x/3.x serve each half/quarter-warp request separately: a segment two
  // sub-requests share is requested twice, the second time an L2 hit.
  if (c.sectors > lines.sectors) {
    const std::uint64_t extra = c.sectors - lines.sectors;
    d.l2r_sec += extra;
    d.l2r_hit += extra;
  }
  if (c.transactions > lines.count && !l2.empty()) d.l2r_req += c.transactions - lines.count;
}

template <class Port>
void MemorySystem::Impl::store(const WarpAccess& rec, int sm, const InstructionCounts& c, Delta& d, Port& l2port) {
  const bool ef = evict_first_op(rec.cache);
  const bool local = rec.space == Space::Local;
  Cache* l1c = l1.empty() ? nullptr : &l1[static_cast<std::size_t>(sm)];

  if (local && h.local_write_back && l1c != nullptr) {
    WriteOptions o;  // write-allocate, write-back: the store stays in L1
    for (std::uint32_t i = 0; i < lines.count; ++i) {
      const memory::WarpLine& w = lines.lines[i];
      const WriteResult r = l1c->write(LineAddr{local_windows.key(rec, sm, w.line)}, w.bytes, o);
      d.l1.sector_hits += static_cast<std::uint64_t>(r.hit.count());
      write_back(r.evicted, l2port, d);
    }
    return;
  }

  WriteOptions through;
  through.write_back = false;
  through.evict_first = ef;
  through.allocate = h.store == memory::StorePolicy::Allocate && rec.cache != CacheOp::Cg && rec.cache != CacheOp::Cv;
  if (l1c != nullptr && !local) {
    std::uint8_t& has = l1_has_global[static_cast<std::size_t>(sm)];
    if (through.allocate) has = 1;
    else if (has == 0) l1c = nullptr;  // no global line to invalidate or update
  }
  for (std::uint32_t i = 0; i < lines.count; ++i) {
    const memory::WarpLine& w = lines.lines[i];
    const std::uint64_t key = local ? local_windows.key(rec, sm, w.line) : w.line;
    if (l1c != nullptr) {
      if (h.store == memory::StorePolicy::Invalidate) {
        write_back(l1c->invalidate(LineAddr{key}), l2port, d);
      } else {
        const WriteResult r = l1c->write(LineAddr{key}, w.bytes, through);
        if (h.store == memory::StorePolicy::Allocate)
          d.l1.sector_hits += memory::store_sector_hits(r, r.line_present, h.store_hits_whole_line);
        write_back(r.evicted, l2port, d);
      }
    }
    l2port.write(key, w.bytes, ef, d);
  }
  if (c.path == MemoryPath::L2 && c.sectors > lines.sectors && !l2.empty()) {
    const std::uint64_t extra = c.sectors - lines.sectors;  // sub-requests writing one segment twice
    d.l2w_sec += extra;
    d.l2w_hit += extra;
  }
  if (c.path == MemoryPath::L2 && c.transactions > lines.count && !l2.empty()) d.l2w_req += c.transactions - lines.count;
}

template <class Port>
void MemorySystem::Impl::atomic(int sm, bool reduction, Delta& d, Port& l2port) {
  Cache* l1c = l1.empty() || l1_has_global[static_cast<std::size_t>(sm)] == 0 ? nullptr : &l1[static_cast<std::size_t>(sm)];
  for (std::uint32_t i = 0; i < lines.count; ++i) {
    const memory::WarpLine& w = lines.lines[i];
    if (l1c != nullptr) write_back(l1c->invalidate(LineAddr{w.line}), l2port, d);
    l2port.atomic(w.line, w.sectors, w.bytes, reduction, d);
  }
}

void MemorySystem::Impl::l2_atomic(std::uint64_t line, SectorMask sectors, const LineBytes& bytes, bool reduction,
                                   Delta& d) {
  const auto sector = static_cast<std::uint64_t>(h.dram_sector_bytes);
  const auto n = static_cast<std::uint64_t>(sectors.count());
  if (l2.empty()) {
    d.dram_r += n * sector;
    d.dram_w += n * sector;
    return;
  }
  // Performed at the home partition: from its own SMs a miss fills the
  // sector group; from the other partition's the near lookup counts a hit
  // and the home fetches the sector alone (memory/l2_partitions.hpp).
  const int home = l2_home(line);
  Cache& at = l2[static_cast<std::size_t>(home)];
  ReadOptions o;
  o.group_fill = h.l2.fill_sectors > 1 && home == l2_partition;
  const ReadResult r = at.read(LineAddr{line}, sectors, o);
  l2_evicted(r.evicted, d);
  l2_evicted(at.write(LineAddr{line}, bytes).evicted, d);
  const std::uint64_t hits = home == l2_partition ? static_cast<std::uint64_t>(r.hit.count()) : n;
  (reduction ? d.l2red_req : d.l2a_req) += 1;
  (reduction ? d.l2red_sec : d.l2a_sec) += n;
  (reduction ? d.l2red_hit : d.l2a_hit) += hits;
  d.dram_r += static_cast<std::uint64_t>(r.fetch.count()) * sector;
}

template <class Port>
void MemorySystem::Impl::cached(const WarpAccess& rec, int sm, const InstructionCounts& c, Delta& d, Port& l2port) {
  const bool is_load = rec.op == Op::Load;
  const bool is_atomic = !is_load && rec.op != Op::Store && rec.space != Space::Local;
  if (is_texture(rec.space)) d.kind = Kind::ReadOnlyLd;
  else if (rec.space == Space::Local) d.kind = is_load ? Kind::LocalLd : Kind::LocalSt;
  else if (is_load) d.kind = c.path == MemoryPath::ReadOnly && !h.nc_counts_as_global ? Kind::ReadOnlyLd : Kind::GlobalLd;
  else d.kind = is_atomic ? Kind::GlobalAtom : Kind::GlobalSt;

  memory::collect_lines(rec, kLineShift, static_cast<unsigned>(h.l2.sector_bytes), !is_load, lines);
  if (is_load) load(rec, sm, c, d, l2port);
  else if (is_atomic) atomic(sm, rec.op == Op::Reduction, d, l2port);
  else store(rec, sm, c, d, l2port);
}

std::uint64_t MemorySystem::Impl::next_round(const WarpAccess& rec, int sm) {
  return coalescer.enabled() ? clock.next(sm, rec.cta, rec.warp) : 0;
}

void MemorySystem::Impl::enter_sm(int sm, std::uint64_t issue_round) {
  round = issue_round;
  if (l2.size() > 1) l2_partition = h.l2_partition_of_sm[static_cast<std::size_t>(sm)];
  sm_in_flight = sm;
}

template <class Port>
[[gnu::noinline]] std::optional<InstructionCounts> MemorySystem::Impl::access_passes(const WarpAccess& rec, int sm,
                                                                                     Counters* pc_counters,
                                                                                     Port& l2port) {
  return rules::serve_by_passes(rec, arch, [&](const WarpAccess& pass, bool first, bool repeat) {
    memory::Delta d;
    const InstructionCounts c = sm_side(pass, sm, first, d, l2port);
    if (!first) {  // the same instruction and request; every wavefront beyond the first pass's is a conflict
      d.l1.requests = 0;
      if (repeat) d.l1.bytes_needed = 0;  // the addresses of an earlier pass
      d.shared.instructions = 0;
      d.shared.ideal_wavefronts = 0;
      d.shared.bank_conflicts = d.shared.wavefronts;
    }
    if (const auto f = static_cast<std::uint64_t>(rules::cas_wavefront_factor(pass, arch)); f > 1) {
      d.shared.wavefronts *= f;  // a shared CAS: its bank conflicts, counted above, stay
      d.shared.ideal_wavefronts *= f;
    }
    count(d, pc_counters);
    return c;
  });
}

template <class Port>
InstructionCounts MemorySystem::Impl::access_record(const WarpAccess& rec, int sm, Counters* pc_counters,
                                                    Port& l2port) {
  if (rec.op == Op::Atomic || rec.op == Op::Reduction)
    if (auto passes = access_passes(rec, sm, pc_counters, l2port)) return *passes;
  if (rec.op == Op::AsyncCopy) return access_async_copy(rec, sm, pc_counters, l2port);
  if (is_bulk(rec.op)) return access_bulk(rec, sm, pc_counters, l2port);
  if (is_texture(rec.space)) return access_texture(rec, sm, pc_counters, l2port);
  if (rec.op == Op::GmmaRead) {
    // The tensor cores read a wgmma's operands in 128-byte wavefronts without bank conflicts, on any generation
    // a trace puts them (types.hpp; validation/h100/wgmma_probe: all 25 launches exact).
    memory::Delta d;
    d.kind = memory::Kind::SharedGmma;
    const auto wavefronts = static_cast<std::uint32_t>(rec.addr[1] / 128);
    d.shared = SharedTraffic{1, wavefronts, wavefronts, 0};
    count(d, pc_counters);
    InstructionCounts c;
    c.path = MemoryPath::Shared;
    c.applies = InstructionCounts::kRequests | InstructionCounts::kWavefronts;
    c.requests = 1;
    c.wavefronts = c.ideal_wavefronts = wavefronts;
    return c;
  }
  auto one = [&](const WarpAccess& part, bool counts_instruction) {
    memory::Delta d;
    const InstructionCounts c = sm_side(part, sm, counts_instruction, d, l2port);
    count(d, pc_counters);
    return c;
  };
  if (rec.space != Space::Local) return one(rec, true);
  // Local: the word accesses of the interleaved layout, one instruction (rules/local_layout.hpp).
  InstructionCounts total = one(rules::local_part(rec, 0), true);
  for (int part = 1; part < rules::local_parts(rec); ++part) rules::add_part(total, one(rules::local_part(rec, part), false));
  return total;
}

namespace {

// A port that hands every operation but reads to `port` unchanged; the texture ports below change only reads.
template <class Port>
struct ReadAdapter {
  Port& port;
  static constexpr bool kPrefetch = Port::kPrefetch;
  void bulk_read(std::uint64_t line, SectorMask s, memory::L2Fill fill, memory::Delta& d) { port.bulk_read(line, s, fill, d); }
  void write(std::uint64_t line, const LineBytes& b, bool ef, memory::Delta& d) { port.write(line, b, ef, d); }
  void atomic(std::uint64_t line, SectorMask s, const LineBytes& b, bool reduction, memory::Delta& d) {
    port.atomic(line, s, b, reduction, d);
  }
};

// The L2 reads of a texture instruction's requests, merged per line before they go: the H100 sends the L1 misses of a
// texture of linear memory or of a CUDA array as one L2 request a line, as a global load's, though each of its requests
// looked its sectors up alone (validation/h100/texture_probe fetch1d<1>: 4 requests of a sector each, 1 L2 request an
// instruction; texture_probe3: the arrays' rows, 8 sectors in 4 lines, 4 requests).
template <class Port>
struct LineMergedReads : ReadAdapter<Port> {
  using ReadAdapter<Port>::port;
  std::array<std::pair<std::uint64_t, SectorMask>, kWarpSize * 4> reads{};
  unsigned count = 0;
  bool evict_first = false;
  void read(std::uint64_t line, SectorMask s, bool ef, memory::Delta&) {
    evict_first = evict_first || ef;
    for (unsigned i = 0; i < count; ++i)
      if (reads[i].first == line) {
        reads[i].second |= s;
        return;
      }
    reads[count++] = {line, s};
  }
  void flush(memory::Delta& d) {
    for (unsigned i = 0; i < count; ++i) port.read(reads[i].first, reads[i].second, evict_first, d);
  }
};

// The L2 reads of a pitch-linear 2D texture's requests, a request a sector: the H100 sends them so even within a line
// (validation/h100/texture_probe2 sample_f4: quads of two sectors, 8,192 requests for 8,192 sectors; fetch2d_int).
template <class Port>
struct SectorReads : ReadAdapter<Port> {
  using ReadAdapter<Port>::port;
  void read(std::uint64_t line, SectorMask s, bool ef, memory::Delta& d) {
    for (std::uint8_t bits = s.bits(); bits != 0; bits = static_cast<std::uint8_t>(bits & (bits - 1)))
      port.read(line, SectorMask(static_cast<std::uint8_t>(bits & -bits)), ef, d);
  }
};

}  // namespace

template <class Port>
InstructionCounts MemorySystem::Impl::access_texture(const WarpAccess& rec, int sm, Counters* pc_counters, Port& l2port) {
  const bool counts_instruction = counts_execution(rec), texels = rec.op == Op::TexTexels;
  if (!rules::texture_by_requests(rec, arch)) {
    memory::Delta d;
    InstructionCounts c = sm_side(rules::texture_request_access(rec, rules::lanes_on_texels(rec)), sm, counts_instruction, d, l2port);
    if (texels) c.requests = 0, d.l1.requests = 0;
    count(d, pc_counters);
    return c;
  }
  const rules::TextureRequests rs = rules::texture_requests(rec);
  LineMergedReads<Port> merged{{l2port}};
  SectorReads<Port> by_sector{{l2port}};
  InstructionCounts total;
  total.path = MemoryPath::ReadOnly;
  for (unsigned i = 0; i < rs.count; ++i) {
    const rules::TextureRequest& r = rs.requests[i];
    memory::Delta d;
    InstructionCounts c;
    if (r.empty) {  // border texels only: a sector that hits, nothing read
      c = rules::empty_texture_request();
      d.kind = Kind::ReadOnlyLd;
      d.l1 = L1Traffic{1, 1, 1, 1, 1, 0, 0};
    } else {
      const WarpAccess part = rules::texture_request_access(rec, r.lanes);
      c = rec.space == Space::TexturePitch ? sm_side(part, sm, true, d, by_sector) : sm_side(part, sm, true, d, merged);
    }
    if (i > 0 || !counts_instruction) d.l1.instructions = 0;
    if (texels) d.l1.requests = 0;
    count(d, pc_counters);
    if (i == 0) total = c;
    else rules::add_part(total, c);
  }
  if (merged.count > 0 || (rs.count == 0 && counts_instruction)) {  // the merged L2 reads; or, no active lane, the instruction
    memory::Delta d;
    d.kind = Kind::ReadOnlyLd;
    d.l1.instructions = rs.count == 0 && counts_instruction ? 1 : 0;
    merged.flush(d);
    count(d, pc_counters);
  }
  if (texels) total.requests = 0;
  return total;
}

template <class Port>
InstructionCounts MemorySystem::Impl::access_async_copy(const WarpAccess& rec, int sm, Counters* pc_counters,
                                                        Port& l2port) {
  const bool ldgsts = arch.cc_major >= 8;
  const bool bypass = rec.cache == CacheOp::Cg;
  WarpAccess part = rec;
  part.op = rec.space == Space::Global ? Op::Load : Op::Store;
  if (rec.space == Space::Shared) part.cache = CacheOp::Default;
  memory::Delta d;
  const InstructionCounts c = sm_side(part, sm, true, d, l2port);
  const std::uint64_t warp_key = std::uint64_t{rec.cta} << 16 | rec.warp;
  if (rec.space == Space::Global) {
    AsyncSource& s = async_sources[warp_key];
    s.read = rec;
    s.pending = true;
    if (ldgsts && d.kind == Kind::GlobalLd) d.kind = bypass ? Kind::GlobalLdgstsBypass : Kind::GlobalLdgsts;
  } else {
    const auto source = async_sources.find(warp_key);
    const bool paired = source != async_sources.end() && source->second.pending &&
                        source->second.read.kernel == rec.kernel && source->second.read.pc == rec.pc &&
                        source->second.read.cache == rec.cache;
    if (ldgsts) {
      const rules::AsyncCopyWavefronts w = rules::async_copy_wavefronts(rec, paired ? &source->second.read : nullptr);
      d.kind = bypass ? Kind::SharedLdgstsBypass : Kind::SharedLdgsts;
      // The instruction counts with its global read; alone where every lane zero-filled.
      d.shared = SharedTraffic{paired ? 0u : 1u, w.wavefronts, w.ideal, w.conflicts};
    }
    if (source != async_sources.end()) source->second.pending = false;
  }
  count(d, pc_counters);
  return c;
}

template <class Port>
InstructionCounts MemorySystem::Impl::access_bulk(const WarpAccess& rec, int sm, Counters* pc_counters, Port& l2port) {
  const bool load = rec.op == Op::BulkLoad;
  const std::uint64_t global = bulk_global(rec), shared = bulk_shared(rec), bytes = bulk_bytes(rec);
  if (arch.cc_major < 9) {
    // No TMA: the copy as one warp would make it, 16 bytes a lane, 512 bytes an instruction pair (a tensor row's
    // last bytes, fewer than 16, as one more lane; a row out of bounds, which a warp would not read, as nothing).
    InstructionCounts total;
    if (tensor_row_outside(rec) || tensor_row_delivery(rec)) return total;
    for (std::uint64_t done = 0; done < bytes; done += 32 * 16) {
      WarpAccess g = rec, s = rec;
      g.op = load ? Op::Load : Op::Store;
      s.op = load ? Op::Store : Op::Load;
      s.space = Space::Shared;
      const std::uint64_t lanes = std::min<std::uint64_t>(32, (bytes - done + 15) / 16);
      g.active = s.active = LaneMask(lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u);
      for (std::uint64_t l = 0; l < lanes; ++l) {
        g.addr[l] = global + done + 16 * l;
        s.addr[l] = shared + done + 16 * l;
      }
      const InstructionCounts first = access_record(load ? g : s, sm, pc_counters, l2port);
      const InstructionCounts second = access_record(load ? s : g, sm, pc_counters, l2port);
      rules::add_part(total, load ? first : second);
    }
    return total;
  }
  // A tensor copy's rows after its first are the same instruction; a load's row out of bounds above dimension
  // 0 costs the TMA its sectors and L2 nothing (types.hpp kTensorRowMask; validation/h100/tensor_probe).
  const bool instruction = !continues_tensor_copy(rec), to_l2 = !tensor_row_outside(rec);
  // A multicast's delivery to one more CTA: the TMA's sectors again, nothing more in L2 (multicast_probe).
  const bool delivery = tensor_row_delivery(rec);
  // A tensor map's L2 promotion: of 128 bytes, a read miss fills its whole line (tensor_probe's "promo128": 60% of
  // the sectors hit where 20% do without it); of 256, its pair of lines (validation/h100/tensor_promo).
  const L2Fill fill = !tensor_row_promoted(rec)      ? L2Fill::Group
                      : tensor_row_promoted_pair(rec) ? L2Fill::Pair
                                                      : L2Fill::Line;
  memory::Delta d;
  d.kind = load ? Kind::BulkLd : Kind::BulkSt;
  d.l1.instructions = instruction ? 1 : 0;
  d.l1.bytes_needed = bytes;
  if (to_l2) {
    rules::for_each_bulk_request(global, shared, bytes, !load, [&](const rules::BulkRequest& r) {
      d.l1.sectors += static_cast<std::uint64_t>(r.sectors.count());
      if (delivery) return;
      d.l1.requests += 1;
      if (load) l2port.bulk_read(r.line, r.sectors, fill, d);
      else l2port.write(r.line, r.bytes, false, d);
    });
  } else {
    d.l1.sectors += rules::unread_row_sectors(shared, bytes);
  }
  d.l1.transactions = d.l1.requests;
  d.l1.bytes_moved = d.l1.sectors * 32;
  InstructionCounts c;
  c.path = MemoryPath::L2;
  c.applies = InstructionCounts::kRequests | InstructionCounts::kSectors | InstructionCounts::kBytes;
  c.requests = instruction ? 1 : 0;
  c.transactions = static_cast<std::uint32_t>(d.l1.requests);
  c.sectors = static_cast<std::uint32_t>(d.l1.sectors);
  c.bytes_needed = static_cast<std::uint32_t>(bytes);
  c.bytes_moved = static_cast<std::uint32_t>(d.l1.bytes_moved);
  count(d, pc_counters);
  return c;
}

template <class Port>
InstructionCounts MemorySystem::Impl::sm_side(const WarpAccess& rec, int sm, bool counts_instruction, Delta& d,
                                              Port& l2port) {
  const InstructionCounts c = rules::analyze_at_addresses(rec, arch, cfg.rules);
  switch (c.path) {
    case MemoryPath::Shared:
      switch (rec.op) {
        case Op::Load: case Op::BulkStore: d.kind = Kind::SharedLd; break;
        case Op::Store: case Op::AsyncCopy: case Op::BulkLoad: d.kind = Kind::SharedSt; break;
        case Op::LoadMatrix: d.kind = Kind::SharedLdsm; break;
        case Op::GmmaRead: d.kind = Kind::SharedGmma; break;  // access_record takes these first
        case Op::StoreMatrix: d.kind = Kind::SharedStsm; break;
        case Op::TexSample: case Op::TexTexels: d.kind = Kind::SharedLd; break;  // texture only (access_texture)
        case Op::StoreAsync: d.kind = Kind::SharedSt; break;                    // dshared only (types.hpp)
        case Op::Atomic: case Op::Reduction: d.kind = Kind::SharedAtom; break;
      }
      d.shared = SharedTraffic{1, c.wavefronts, c.ideal_wavefronts, c.bank_conflicts};
      break;
    case MemoryPath::DShared:
      d.kind = rec.op == Op::Load         ? Kind::DSharedLd
               : rec.op == Op::Store      ? Kind::DSharedSt
               : rec.op == Op::StoreAsync ? Kind::DSharedStas
               : rec.op == Op::Reduction  ? Kind::DSharedRed
                                          : Kind::DSharedAtom;
      d.l1 = L1Traffic{1, c.requests, c.transactions, c.sectors, 0, c.bytes_needed, c.bytes_moved};
      break;
    case MemoryPath::Constant:
      d.kind = Kind::Const;
      d.const_serialization = c.serialization;
      d.dram_r += constant_blocks.fetch(rec);
      break;
    case MemoryPath::Dram:
    case MemoryPath::L1:
    case MemoryPath::L2:
    case MemoryPath::ReadOnly:
      d.l1 = L1Traffic{1, c.requests, c.transactions, c.sectors, 0, c.bytes_needed, c.bytes_moved};
      if (c.path == MemoryPath::Dram) {
        // 1.x: no caches; every transaction is DRAM traffic (atomics read and write).
        d.kind = rec.space == Space::Local ? (rec.op == Op::Load ? Kind::LocalLd : Kind::LocalSt)
                 : rec.op == Op::Load      ? (is_texture(rec.space) ? Kind::ReadOnlyLd : Kind::GlobalLd)
                 : rec.op == Op::Store     ? Kind::GlobalSt
                                           : Kind::GlobalAtom;
        if (rec.op != Op::Store) d.dram_r += c.bytes_moved;
        if (rec.op != Op::Load) d.dram_w += c.bytes_moved;
      } else {
        cached(rec, sm, c, d, l2port);
      }
      break;
  }
  if (!counts_instruction) d.l1.instructions = 0;
  return c;
}

void MemorySystem::Impl::run_l2_op(const memory::L2Op& op, Delta& d) {
  switch (op.type) {
    case memory::L2Op::Type::Read: l2_read(op.line, op.sectors, op.evict_first, d); break;
    case memory::L2Op::Type::BulkRead: l2_read(op.line, op.sectors, false, d, false, op.fill); break;
    case memory::L2Op::Type::Write: l2_write(op.line, op.bytes, op.evict_first, d); break;
    case memory::L2Op::Type::Atomic: l2_atomic(op.line, op.sectors, op.bytes, false, d); break;
    case memory::L2Op::Type::Reduction: l2_atomic(op.line, op.sectors, op.bytes, true, d); break;
  }
}

template InstructionCounts MemorySystem::Impl::access_record<MemorySystem::Impl::DirectL2>(const WarpAccess&, int,
                                                                                           Counters*, DirectL2&);
template InstructionCounts MemorySystem::Impl::access_record<MemorySystem::Impl::RingL2>(const WarpAccess&, int,
                                                                                         Counters*, RingL2&);

}  // namespace warpscope
