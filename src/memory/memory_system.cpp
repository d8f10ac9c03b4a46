// MemorySystem: construction from the database, kernel boundaries, the
// per-record dispatch and the counters. The cache walk is access_path.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "memory/l2_thread.hpp"
#include "memory/system_impl.hpp"
#include "warpscope/error.hpp"

namespace warpscope {

namespace memory {

void apply(Counters& c, const Delta& d) {
  switch (d.kind) {
    case Kind::GlobalLd: c.global_ld.add(d.l1); break;
    case Kind::GlobalSt: c.global_st.add(d.l1); break;
    case Kind::GlobalAtom:
      c.global_atom.add(d.l1);
      // Only atomics and reductions set these (loads and stores skip six adds).
      c.l2_atom_requests += d.l2a_req;
      c.l2_atom_sectors += d.l2a_sec;
      c.l2_atom_sector_hits += d.l2a_hit;
      c.l2_red_requests += d.l2red_req;
      c.l2_red_sectors += d.l2red_sec;
      c.l2_red_sector_hits += d.l2red_hit;
      break;
    case Kind::LocalLd: c.local_ld.add(d.l1); break;
    case Kind::LocalSt: c.local_st.add(d.l1); break;
    case Kind::ReadOnlyLd: c.readonly_ld.add(d.l1); break;
    case Kind::GlobalLdgsts: c.global_ldgsts.add(d.l1); break;
    case Kind::GlobalLdgstsBypass: c.global_ldgsts_bypass.add(d.l1); break;
    case Kind::BulkLd: c.bulk_ld.add(d.l1); break;
    case Kind::BulkSt: c.bulk_st.add(d.l1); break;
    case Kind::SharedLd: c.shared_ld.add(d.shared); return;
    case Kind::SharedSt: c.shared_st.add(d.shared); return;
    case Kind::SharedAtom: c.shared_atom.add(d.shared); return;
    case Kind::SharedLdsm: c.shared_ldsm.add(d.shared); return;
    case Kind::SharedStsm: c.shared_stsm.add(d.shared); return;
    case Kind::SharedGmma: c.shared_gmma.add(d.shared); return;
    case Kind::DSharedLd: c.dshared_ld.add(d.l1); return;
    case Kind::DSharedSt: c.dshared_st.add(d.l1); return;
    case Kind::DSharedAtom: c.dshared_atom.add(d.l1); return;
    case Kind::DSharedStas: {  // st.async: the traffic of a dshared store, the instruction apart
      L1Traffic t = d.l1;
      c.dshared_stas_instructions += t.instructions;
      t.instructions = 0;
      c.dshared_st.add(t);
      return;
    }
    case Kind::DSharedRed: c.dshared_red.add(d.l1); return;
    case Kind::SharedLdgsts: c.shared_ldgsts.add(d.shared); return;
    case Kind::SharedLdgstsBypass: c.shared_ldgsts_bypass.add(d.shared); return;
    case Kind::Const:
      c.const_instructions += 1;
      c.const_serialization += d.const_serialization;
      c.dram_read_bytes += d.dram_r;  // the constant data's blocks (memory/constant_blocks.hpp)
      return;
  }
  c.l2_read_requests += d.l2r_req;
  c.l2_read_sectors += d.l2r_sec;
  c.l2_read_sector_hits += d.l2r_hit;
  c.l2_write_requests += d.l2w_req;
  c.l2_write_sectors += d.l2w_sec;
  c.l2_write_sector_hits += d.l2w_hit;
  c.dram_read_bytes += d.dram_r;
  c.dram_write_bytes += d.dram_w;
}

void merge(Delta& into, const Delta& part) {
  into.l1.add(part.l1);
  into.shared.add(part.shared);
  into.const_serialization += part.const_serialization;
  into.l2r_req += part.l2r_req;
  into.l2r_sec += part.l2r_sec;
  into.l2r_hit += part.l2r_hit;
  into.l2w_req += part.l2w_req;
  into.l2w_sec += part.l2w_sec;
  into.l2w_hit += part.l2w_hit;
  into.l2a_req += part.l2a_req;
  into.l2a_sec += part.l2a_sec;
  into.l2a_hit += part.l2a_hit;
  into.l2red_req += part.l2red_req;
  into.l2red_sec += part.l2red_sec;
  into.l2red_hit += part.l2red_hit;
  into.dram_r += part.dram_r;
  into.dram_w += part.dram_w;
}

}  // namespace memory

MemorySystem::Impl::~Impl() = default;

MemorySystem::Impl::Impl(const ArchSpec& a, const MemoryConfig& c)
    : arch(a), cfg(c), h(memory::Hierarchy::resolve(a, c)), constant_blocks(a.constant_dram_fetch_bytes) {
  if (h.dram_only) return;
  build_l1();
  if (h.readonly_partitions > 0)
    for (int s = 0; s < h.num_sms * h.readonly_partitions; ++s) readonly.emplace_back(h.readonly);
  if (h.l2_bytes > 0) {
    // One cache per partition, each an equal share of the L2 (memory/l2_partitions.hpp).
    CacheConfig part = h.l2;
    part.size_bytes = h.l2.size_bytes / h.l2_partitions;
    for (int p = 0; p < h.l2_partitions; ++p) l2.emplace_back(part);
  }
  if (h.l2_merge_window > 0) coalescer = memory::L2RequestCoalescer(static_cast<std::uint32_t>(h.l2_merge_window));
  clock.begin_kernel(h.num_sms, 0);
}

void MemorySystem::Impl::build_l1() {
  l1.clear();
  if (h.l1_bytes > 0) {
    l1.reserve(static_cast<std::size_t>(h.num_sms));
    for (int s = 0; s < h.num_sms; ++s) {
      CacheConfig cc = h.l1;
      cc.seed = h.l1.seed + static_cast<std::uint64_t>(s) * 0x9E3779B97F4A7C15ull;
      l1.emplace_back(cc);
    }
  }
  l1_has_global.assign(l1.size(), 0);
}

bool MemorySystem::Impl::per_kernel_carveout() const {
  return !h.dram_only && arch.rules == RulesFamily::Volta && arch.unified_l1_shared > 0 && cfg.carveout_percent < 0 &&
         cfg.shared_capacity < 0;
}

MemorySystem::MemorySystem(const ArchSpec& arch, const MemoryConfig& config)
    : impl_(std::make_unique<Impl>(arch, config)) {}
MemorySystem::~MemorySystem() = default;

void MemorySystem::begin_kernel() {
  Impl& m = *impl_;
  m.sync_l2();
  for (Cache& c : m.l1) c.invalidate_all();
  std::fill(m.l1_has_global.begin(), m.l1_has_global.end(), std::uint8_t{0});
  for (Cache& c : m.readonly) c.invalidate_all();
  if (m.cfg.flush_l2_between_kernels)
    for (Cache& c : m.l2) {
      c.flush_dirty();  // written back before this kernel: not its traffic
      c.invalidate_all();
    }
  m.kernel = Counters{};
  m.local_windows.begin_kernel(m.h.num_sms, 0, 0);  // shape unknown: a window per warp
  m.clock.begin_kernel(m.h.num_sms, 0);             // resident CTAs unknown
  m.coalescer.begin_kernel();
  m.constant_blocks.begin_kernel();
  m.async_sources.clear();
}

void MemorySystem::begin_kernel(const OccupancyInput& launch) {
  Impl& m = *impl_;
  m.sync_l2();
  if (m.per_kernel_carveout()) {
    std::int64_t shared = m.arch.default_shared_capacity;
    try {
      shared = driver_shared_capacity(m.arch, launch);
    } catch (const InputError&) {
      // recorded on a GPU with limits this one does not have: the default split
    }
    if (shared != m.h.shared_capacity) {
      MemoryConfig c = m.cfg;
      c.shared_capacity = shared;
      const memory::Hierarchy k = memory::Hierarchy::resolve(m.arch, c);
      m.h.shared_capacity = k.shared_capacity;
      m.h.l1_bytes = k.l1_bytes;
      m.h.l1 = k.l1;
      m.build_l1();
    }
  }
  begin_kernel();
  // Local windows per resident warp slot: the blocks that fit at the largest
  // carveout (the driver's choice holds them all).
  if (launch.threads > 0) {
    OccupancyInput all = launch;
    all.carveout_pct = m.arch.cc_major >= 7 ? std::optional<int>(100) : std::nullopt;
    try {
      const OccupancyResult o = compute_occupancy(m.arch, all);
      m.local_windows.begin_kernel(m.h.num_sms, o.blocks_per_sm, (launch.threads + 31) / 32);
      m.clock.begin_kernel(m.h.num_sms, o.blocks_per_sm);
    } catch (const InputError&) {
      // a launch this GPU cannot run: a window per warp
    }
  }
}

InstructionCounts MemorySystem::access(const WarpAccess& rec, int sm, Counters* pc_counters) {
  Impl& m = *impl_;
  if (sm < 0 || sm >= m.h.num_sms)
    throw InputError(fmt::format("SM {} is out of range: the modelled {} has {} SMs (0..{})", sm, m.h.gpu,
                                 m.h.num_sms, m.h.num_sms - 1));
  const std::uint64_t round = m.next_round(rec, sm);  // the issue clock runs here, in record order
  if (m.l2_thread) {
    Impl::RingL2 port{*m.l2_thread, static_cast<std::uint16_t>(sm),
                      static_cast<std::uint32_t>(std::min<std::uint64_t>(round, std::numeric_limits<std::uint32_t>::max())),
                      pc_counters};
    return m.access_record(rec, sm, pc_counters, port);
  }
  m.enter_sm(sm, round);
  Impl::DirectL2 port{m};
  return m.access_record(rec, sm, pc_counters, port);
}

void MemorySystem::Impl::sync_l2() {
  if (!l2_thread) return;
  L2Thread& t = *l2_thread;
  t.drain();
  memory::Delta& k = t.kernel_part;
  k.kind = memory::Kind::GlobalAtom;  // adds every L2 and DRAM field (its L1 fields are 0)
  memory::apply(kernel, k);
  k = memory::Delta{};
  for (auto& [pc, part] : t.pc_part) {
    part.kind = memory::Kind::GlobalAtom;
    memory::apply(*pc, part);
  }
  t.pc_part.clear();
}

void MemorySystem::set_l2_thread(bool on) {
  Impl& m = *impl_;
  if (on == static_cast<bool>(m.l2_thread)) return;
  m.sync_l2();
  if (on && !m.l2.empty()) m.l2_thread = std::make_unique<Impl::L2Thread>(m);
  else m.l2_thread.reset();
}

bool MemorySystem::l2_thread() const { return static_cast<bool>(impl_->l2_thread); }

void MemorySystem::end_kernel(bool flush_dirty) {
  Impl& m = *impl_;
  m.sync_l2();
  if (!flush_dirty) return;
  for (Cache& c : m.l2) {
    memory::Delta d;
    c.flush_dirty([&](const Eviction& e) { m.l2_evicted(e, d); });
    m.kernel.dram_write_bytes += d.dram_w;
    m.kernel.dram_read_bytes += d.dram_r;
  }
}

const Counters& MemorySystem::kernel_counters() const {
  impl_->sync_l2();
  return impl_->kernel;
}
void MemorySystem::reset_kernel_counters() {
  impl_->sync_l2();
  impl_->kernel = Counters{};
}
int MemorySystem::num_sms() const { return impl_->h.num_sms; }
std::int64_t MemorySystem::l1_size() const { return impl_->h.l1_bytes; }
std::int64_t MemorySystem::shared_capacity() const { return impl_->h.shared_capacity; }
std::int64_t MemorySystem::l2_size() const { return impl_->h.l2_bytes; }

const Cache* MemorySystem::l1_cache(int sm) const {
  const Impl& m = *impl_;
  return sm >= 0 && static_cast<std::size_t>(sm) < m.l1.size() ? &m.l1[static_cast<std::size_t>(sm)] : nullptr;
}

const Cache* MemorySystem::readonly_cache(int sm, int partition) const {
  const Impl& m = *impl_;
  if (m.h.readonly_partitions == 0 || partition < 0 || partition >= m.h.readonly_partitions) return nullptr;
  const auto i = static_cast<std::size_t>(sm * m.h.readonly_partitions + partition);
  return sm >= 0 && i < m.readonly.size() ? &m.readonly[i] : nullptr;
}

const Cache* MemorySystem::l2_cache(int partition) const {
  impl_->sync_l2();
  const Impl& m = *impl_;
  return partition >= 0 && static_cast<std::size_t>(partition) < m.l2.size() ? &m.l2[static_cast<std::size_t>(partition)]
                                                                             : nullptr;
}
int MemorySystem::l2_partitions() const { return static_cast<int>(impl_->l2.size()); }

std::string MemorySystem::describe() const {
  const Impl& m = *impl_;
  const memory::Hierarchy& h = m.h;
  std::string out = fmt::format("GPU: {} ({}), {} SMs\n", h.gpu.empty() ? m.arch.name : h.gpu, m.arch.name, h.num_sms);
  if (h.dram_only) return out + "no caches: global and local accesses go to DRAM (CC 1.x)\n";
  if (m.l1.empty()) {
    out += "L1: none\n";
  } else {
    out += fmt::format("{} per SM", m.l1.front().describe());
    if (m.arch.unified_l1_shared > 0)
      out += fmt::format(" (unified {} KB - {} KB shared{})", m.arch.unified_l1_shared / 1024, h.shared_capacity / 1024,
                         m.per_kernel_carveout() ? "; per kernel: the driver's carveout for its blocks" : "");
    static constexpr const char* kStore[] = {"invalidate the line", "update a resident line (write-through)",
                                             "write-through, write-allocate"};
    out += fmt::format("; {} fills; global stores: {}{}\n", h.sector_fills ? "sector" : "whole-line",
                       kStore[static_cast<int>(h.store)],
                       h.local_write_back ? "; local stores: write-back" : "");
  }
  if (!m.readonly.empty())
    out += fmt::format("{}, {} per SM (one per group of warps)\n", m.readonly.front().describe(), h.readonly_partitions);
  if (m.l2.empty()) out += "L2: none\n";
  else if (m.l2.size() == 1) out += m.l2.front().describe() + ", write-back\n";
  else
    out += fmt::format("{}, write-back; {} such partitions ({} MB): each caches what its SMs read, a line's home "
                       "partition reads DRAM\n", m.l2.front().describe(), m.l2.size(), h.l2_bytes >> 20);
  if (m.coalescer.enabled())
    out += fmt::format("L2 request coalescer: an SM's reads of a sector within {} issue rounds merge into one request\n",
                       m.coalescer.window());
  out += fmt::format("DRAM: {} B per sector filled or written back\n", h.dram_sector_bytes);
  return out;
}

}  // namespace warpscope
