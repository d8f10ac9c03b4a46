// The memory system per generation: which cache an access looks up and fills,
// on the seed scenarios. Expected values are worked out in the comments.
#include <gtest/gtest.h>

#include "memory_test_support.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

// seed001 "Caching Load" / "Non-caching Load", scattered case: a warp whose 32
// lanes fall in N = 32 different lines. Caching (.ca, the 2.x default) moves
// N x 128 B from L2 on misses; non-caching (.cg) moves N x 32 B.
TEST(Fermi, CachingVersusNonCachingScattered) {
  auto ca = memory("sm_20");
  ca->access(scattered(kBase), 0);
  EXPECT_EQ(ca->kernel_counters().l2_read_sectors, 32u * 4);  // 32 lines x 4 sectors = 4096 B
  EXPECT_EQ(ca->kernel_counters().dram_read_bytes, 32u * 128);
  EXPECT_EQ(ca->kernel_counters().global_ld.sectors, 32u * 4);
  EXPECT_EQ(ca->kernel_counters().global_ld.sector_hits, 0u);

  auto cg = memory("sm_20");
  cg->access(scattered(kBase, CacheOp::Cg), 0);
  EXPECT_EQ(cg->kernel_counters().l2_read_sectors, 32u);  // 32 segments x 32 B = 1024 B
  EXPECT_EQ(cg->kernel_counters().dram_read_bytes, 32u * 32);

  // The same warp again: .ca hits all 128 sectors in L1 and reads nothing from
  // L2; .cg finds nothing in L1 and hits its 32 segments in L2.
  ca->access(scattered(kBase), 0);
  EXPECT_EQ(ca->kernel_counters().global_ld.sector_hits, 32u * 4);
  EXPECT_EQ(ca->kernel_counters().l2_read_sectors, 32u * 4);
  cg->access(scattered(kBase, CacheOp::Cg), 0);
  EXPECT_EQ(cg->kernel_counters().global_ld.sector_hits, 0u);
  EXPECT_EQ(cg->kernel_counters().l2_read_sectors, 64u);
  EXPECT_EQ(cg->kernel_counters().l2_read_sector_hits, 32u);
}

// seed001: "All threads in a warp request the same 4-byte word": caching moves
// 128 B on a miss, non-caching 32 B.
TEST(Fermi, CachingVersusNonCachingOneWord) {
  auto ca = memory("sm_20");
  ca->access(make({}, [](int) { return kBase + 8; }), 0);
  EXPECT_EQ(ca->kernel_counters().l2_read_sectors, 4u);
  EXPECT_EQ(ca->kernel_counters().dram_read_bytes, 128u);
  auto cg = memory("sm_20");
  cg->access(make({Space::Global, Op::Load, 4, CacheOp::Cg}, [](int) { return kBase + 8; }), 0);
  EXPECT_EQ(cg->kernel_counters().l2_read_sectors, 1u);
  EXPECT_EQ(cg->kernel_counters().dram_read_bytes, 32u);
}

// seed001 "GMEM Writes": a store invalidates the L1 line and goes to L2.
TEST(Fermi, StoreInvalidatesL1Line) {
  auto m = memory("sm_20");
  m->access(line_access(kBase), 0);  // L1 and L2 now hold the line
  EXPECT_TRUE(m->l1_cache(0)->contains(LineAddr{kBase / 128}));
  m->access(line_access(kBase, Op::Store), 0);
  EXPECT_FALSE(m->l1_cache(0)->contains(LineAddr{kBase / 128}));
  EXPECT_EQ(m->kernel_counters().l2_write_sectors, 4u);
  m->access(line_access(kBase), 0);  // misses L1 again: 4 sectors from L2, all hits there
  EXPECT_EQ(m->kernel_counters().global_ld.sector_hits, 0u);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 8u);
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 4u);
}

// A spill: every thread of the warp at the same per-thread local offset, which
// the interleaved layout turns into one 128 B line (rules/local_layout.hpp).
WarpAccess spill(std::uint64_t offset, Op op) {
  WarpAccess a = line_access(0, op, CacheOp::Default, Space::Local);
  a.addr.fill(offset);
  return a;
}

// Local memory on 2.x is cached in L1 and written back (Micikevicius 2011): a
// spill and its fill stay in the SM.
TEST(Fermi, LocalSpillAndFillStayInL1) {
  auto m = memory("sm_20");
  m->access(spill(0x100, Op::Store), 0);
  m->access(spill(0x100, Op::Load), 0);
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.local_st.sector_hits, 0u);  // cold
  EXPECT_EQ(k.local_ld.sector_hits, 4u);  // the whole line was written: no fetch
  EXPECT_EQ(k.l2_write_sectors, 0u);      // not evicted, not written back
  EXPECT_EQ(k.l2_read_sectors, 0u);
  // The same local offset of another warp is another thread's memory.
  WarpAccess other = spill(0x100, Op::Load);
  other.warp = 1;
  m->access(other, 0);
  EXPECT_EQ(m->kernel_counters().local_ld.sector_hits, 4u);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 4u);
}

// Local memory interleaves the threads of a warp word by word (CUDA C++
// Programming Guide, "Local Memory"); measured on the H100 (validation/h100/suite,
// const_local): a 16-byte local store of 32 lanes is 4 requests and 16 sectors,
// a 4-byte one 1 request and 4 sectors.
TEST(Volta, LocalAccessesAreInterleavedWordByWord) {
  auto m = memory("sm_90");
  WarpAccess wide = spill(0x40, Op::Store);
  wide.size = 16;
  m->access(wide, 0);
  EXPECT_EQ(m->kernel_counters().local_st.instructions, 1u);
  EXPECT_EQ(m->kernel_counters().local_st.requests, 4u);
  EXPECT_EQ(m->kernel_counters().local_st.sectors, 16u);
  m->access(spill(0x40, Op::Load), 0);  // the first word of the same float4: one line, in L1
  EXPECT_EQ(m->kernel_counters().local_ld.requests, 1u);
  EXPECT_EQ(m->kernel_counters().local_ld.sectors, 4u);
  EXPECT_EQ(m->kernel_counters().local_ld.sector_hits, 4u);
  // Lanes at different per-thread offsets (a run-time index): word o/4 of lane l
  // is at (o/4 * 32 + l) * 4, so offsets 4*l put every lane in its own line.
  WarpAccess indexed = line_access(0, Op::Load, CacheOp::Default, Space::Local);
  for (unsigned l = 0; l < 32; ++l) indexed.addr[l] = 4u * l;
  m->access(indexed, 0);
  EXPECT_EQ(m->kernel_counters().local_ld.sectors, 4u + 32u);
}

// seed000 G.4.2: on 3.x global loads are cached in L2 only, unless -dlcm=ca (.ca).
TEST(Kepler, DefaultLoadsDoNotAllocateInL1) {
  auto m = memory("sm_35");
  m->access(line_access(kBase), 0);
  m->access(line_access(kBase), 0);
  EXPECT_EQ(m->kernel_counters().global_ld.sector_hits, 0u);
  EXPECT_FALSE(m->l1_cache(0)->contains(LineAddr{kBase / 128}));
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 8u);  // 4 segments, twice
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 4u);

  auto ca = memory("sm_35");
  ca->access(line_access(kBase, Op::Load, CacheOp::Ca), 0);
  ca->access(line_access(kBase, Op::Load, CacheOp::Ca), 0);
  EXPECT_EQ(ca->kernel_counters().global_ld.sector_hits, 4u);  // opt-in: the second load hits

  auto local = memory("sm_35");  // the L1 caches local memory
  local->access(spill(0x80, Op::Load), 0);
  local->access(spill(0x80, Op::Load), 0);
  EXPECT_EQ(local->kernel_counters().local_ld.sector_hits, 4u);
}

// seed001 "Read-Only Cache": 32 B granularity; 4 x 12 KB caches per SM, one
// per scheduler, so warps of another scheduler miss.
TEST(Kepler, ReadOnlyCachePerScheduler) {
  auto m = memory("sm_35");
  const Cache* ro = m->readonly_cache(0, 0);
  ASSERT_NE(ro, nullptr);
  EXPECT_EQ(ro->capacity(), 12 * 1024);
  WarpAccess a = line_access(kBase, Op::Load, CacheOp::Nc);
  m->access(a, 0);  // warp 0: 4 segments miss, 4 x 32 B from L2
  EXPECT_EQ(m->kernel_counters().readonly_ld.sectors, 4u);
  EXPECT_EQ(m->kernel_counters().readonly_ld.sector_hits, 0u);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 4u);
  m->access(a, 0);  // warp 0 again: 4 hits
  EXPECT_EQ(m->kernel_counters().readonly_ld.sector_hits, 4u);
  a.warp = 1;       // another scheduler's cache: misses again (L2 hits)
  m->access(a, 0);
  EXPECT_EQ(m->kernel_counters().readonly_ld.sector_hits, 4u);
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 4u);
  a.warp = 4;       // warp 4 shares warp 0's scheduler
  m->access(a, 0);
  EXPECT_EQ(m->kernel_counters().readonly_ld.sector_hits, 8u);
}

// 5.x: L2-only loads look up nothing in L1; __ldg goes through the unified
// L1/texture cache with sector fills.
TEST(Maxwell, LdgUsesUnifiedL1) {
  auto m = memory("sm_50");
  m->access(line_access(kBase), 0);
  m->access(line_access(kBase), 0);
  EXPECT_EQ(m->kernel_counters().global_ld.sector_hits, 0u);
  EXPECT_FALSE(m->l1_cache(0)->contains(LineAddr{kBase / 128}));
  m->access(line_access(kBase + 4096, Op::Load, CacheOp::Nc), 0);
  m->access(line_access(kBase + 4096, Op::Load, CacheOp::Nc), 0);
  EXPECT_EQ(m->kernel_counters().readonly_ld.sector_hits, 4u);
  EXPECT_TRUE(m->l1_cache(0)->contains(LineAddr{(kBase + 4096) / 128}));
}

// 6.0 caches global loads in L1 by default (database l1.caches_global_loads).
TEST(Pascal, Gp100CachesGlobalLoads) {
  auto m = memory("sm_60");
  m->access(line_access(kBase), 0);
  m->access(line_access(kBase), 0);
  EXPECT_EQ(m->kernel_counters().global_ld.sector_hits, 4u);
  auto gp104 = memory("sm_61");
  gp104->access(line_access(kBase), 0);
  gp104->access(line_access(kBase), 0);
  EXPECT_EQ(gp104->kernel_counters().global_ld.sector_hits, 0u);
}

// 7.0+ sector fills: one lane reads 1 sector (1 miss), then the whole line hits 1 and misses 3.
TEST(Volta, SectorFills) {
  auto m = memory("sm_90");
  m->access(one_lane(kBase), 0);
  EXPECT_EQ(m->kernel_counters().global_ld.sectors, 1u);
  EXPECT_EQ(m->kernel_counters().global_ld.sector_hits, 0u);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 1u);
  m->access(line_access(kBase), 0);
  EXPECT_EQ(m->kernel_counters().global_ld.sectors, 5u);
  EXPECT_EQ(m->kernel_counters().global_ld.sector_hits, 1u);
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 4u);   // 1 + 3
  EXPECT_EQ(m->kernel_counters().l2_read_requests, 2u);  // one per line per request
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 128u);
}

// 7.0+: .cg loads are looked up in L1TEX and miss, even when the line is there
// (validation/h100/cache gather_cg: 0 lookup hits); they do not allocate.
TEST(Volta, CgLoadsMissAndDoNotAllocate) {
  auto m = memory("sm_90");
  m->access(line_access(kBase, Op::Load, CacheOp::Cg), 0);
  EXPECT_FALSE(m->l1_cache(0)->contains(LineAddr{kBase / 128}));
  m->access(line_access(kBase), 0);                         // default: allocates
  m->access(line_access(kBase, Op::Load, CacheOp::Cg), 0);  // resident, but .cg misses
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.global_ld.sectors, 12u);
  EXPECT_EQ(k.global_ld.sector_hits, 0u);
  // One warp's three back-to-back loads are in flight together: the L2 request
  // coalescer merges the second and third (memory/l2_request_coalescer.hpp).
  EXPECT_EQ(k.l2_read_sectors, 4u);
  EXPECT_EQ(k.l2_read_sector_hits, 0u);
}

// 7.0+ stores write through and allocate (Accel-Sim l1_write_policy): a load
// after a store hits in L1; the store's sectors are L2 write hits.
TEST(Volta, StoresWriteThroughAndAllocate) {
  auto m = memory("sm_90");
  m->access(line_access(kBase, Op::Store), 0);
  m->access(line_access(kBase, Op::Store), 0);
  m->access(line_access(kBase), 0);
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.global_st.sector_hits, 4u);  // the second store finds the first one's sectors
  EXPECT_EQ(k.global_ld.sector_hits, 4u);
  EXPECT_EQ(k.l2_write_sectors, 8u);
  EXPECT_EQ(k.l2_write_sector_hits, 8u);
  EXPECT_EQ(k.l2_write_requests, 2u);
  EXPECT_EQ(k.l2_read_sectors, 0u);
}

// The L2 is shared: SM 0 misses in L1 and L2; SM 1 misses its own L1 but hits L2.
TEST(Volta, L2SharedAcrossSms) {
  auto m = memory("sm_90");
  m->access(line_access(kBase), 0);
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 0u);
  m->access(line_access(kBase), 1);
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.global_ld.sector_hits, 0u);
  EXPECT_EQ(k.l2_read_sectors, 8u);
  EXPECT_EQ(k.l2_read_sector_hits, 4u);
  EXPECT_EQ(k.dram_read_bytes, 128u);
}

// DRAM: a full-line store allocates 4 sectors in L2 without reading DRAM; the
// flush at the end of the kernel writes them back (128 B).
TEST(Volta, DramBytesOfStores) {
  auto m = memory("sm_90");
  m->access(line_access(kBase, Op::Store), 0);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 0u);
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 0u);
  m->end_kernel(true);
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 128u);
  m->end_kernel(true);  // nothing dirty any more
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 128u);
}

// A 4 B store leaves a partially written sector in L1 and L2; a load of it
// misses both and the L2 fetches the sector from DRAM (Accel-Sim
// l2_write_policy: sub-sector writes, fetch on read). The flush writes 32 B.
TEST(Volta, PartialSectorStoreThenLoad) {
  auto m = memory("sm_90");
  m->access(one_lane(kBase + 0x1000, Op::Store), 0);
  EXPECT_EQ(m->kernel_counters().l2_write_sectors, 1u);
  EXPECT_EQ(m->kernel_counters().l2_write_sector_hits, 1u);
  m->access(one_lane(kBase + 0x1000), 0);
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.global_ld.sector_hits, 0u);
  EXPECT_EQ(k.l2_read_sector_hits, 0u);
  EXPECT_EQ(k.dram_read_bytes, 64u);  // the sector and its 64 B partner (l2.fill_bytes = 64 on sm_90)
  m->end_kernel(true);
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 32u);
}

// Atomics are performed at L2: the sector is fetched on a miss and left dirty.
TEST(Volta, AtomicsAtL2) {
  auto m = memory("sm_90");
  m->access(line_access(kBase), 0);  // L1 holds the line
  m->access(line_access(kBase, Op::Atomic), 0);
  const Counters& k = m->kernel_counters();
  EXPECT_EQ(k.global_atom.instructions, 1u);
  EXPECT_EQ(k.l2_atom_sectors, 4u);
  EXPECT_EQ(k.l2_atom_sector_hits, 4u);  // the load brought the line into L2
  EXPECT_FALSE(m->l1_cache(0)->contains(LineAddr{kBase / 128}));  // invalidated
  EXPECT_EQ(k.dram_read_bytes, 128u);
  m->end_kernel(true);
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 128u);
}

// 1.x: no caches; DRAM bytes are the rules engine's bytes moved. A coalesced
// 4-byte warp on 1.3 is 2 half-warp transactions of 64 B.
TEST(Tesla, EveryTransactionIsDram) {
  auto m = memory("sm_13");
  EXPECT_EQ(m->l1_cache(0), nullptr);
  EXPECT_EQ(m->l2_cache(), nullptr);
  m->access(line_access(kBase), 0);
  m->access(line_access(kBase), 0);
  m->access(line_access(kBase, Op::Store), 0);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 256u);
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 128u);
  EXPECT_EQ(m->kernel_counters().global_ld.transactions, 4u);
}

TEST(Kernels, BeginKernelInvalidatesL1AndRestartsCounters) {
  MemoryConfig keep;
  keep.flush_l2_between_kernels = false;
  auto m = memory("sm_90", keep);
  m->access(line_access(kBase), 0);
  m->begin_kernel();
  EXPECT_EQ(m->kernel_counters(), Counters{});
  m->access(line_access(kBase), 0);
  EXPECT_EQ(m->kernel_counters().global_ld.sector_hits, 0u);  // L1 was invalidated
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 4u);    // L2 kept the line
  auto flushed = memory("sm_90");
  flushed->access(line_access(kBase), 0);
  flushed->begin_kernel();
  flushed->access(line_access(kBase), 0);
  EXPECT_EQ(flushed->kernel_counters().l2_read_sector_hits, 0u);
}

TEST(Kernels, PerPcCountersAddUpToTheKernel) {
  auto m = memory("sm_90");
  Counters pc[3];
  m->access(line_access(kBase), 0, &pc[0]);
  m->access(scattered(kBase), 1, &pc[1]);
  m->access(line_access(kBase, Op::Store), 2, &pc[2]);
  m->access(make({Space::Shared, Op::Load, 4}, [](int l) { return 8u * static_cast<std::uint64_t>(l); }), 0, &pc[2]);
  Counters sum;
  for (const Counters& c : pc) sum.add(c);
  EXPECT_EQ(sum, m->kernel_counters());
  EXPECT_EQ(pc[2].shared_ld.instructions, 1u);
  EXPECT_EQ(pc[2].shared_ld.wavefronts, 2u);  // stride 8 B: 2-way bank conflict
}

TEST(Kernels, SmOutOfRangeIsAnError) {
  auto m = memory("sm_90");
  EXPECT_THROW(m->access(line_access(kBase), 132), InputError);
  EXPECT_THROW(m->access(line_access(kBase), -1), InputError);
  EXPECT_NO_THROW(m->access(line_access(kBase), 131));
}

}  // namespace
}  // namespace warpscope::test

namespace warpscope::test {
namespace {
// validation/h100/cache (gather): the H100 reads DRAM in 64 B pieces; the
// partner sector is then a hit from the SMs of the partition that read it, and
// from the other partition where the line is not homed there, a miss without a
// DRAM read (validation/h100/partition_probe; l2_partitions_test.cpp).
TEST(Volta, SectorPromotionOn90) {
  auto m = memory("sm_90");
  // kBase + 0x2000 = 0x12000: address bits 13 and 16 set, parity 0: homed in SM 0's partition.
  m->access(one_lane(kBase + 0x2000), 0);        // sector 0: miss, DRAM reads sectors 0 and 1
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 64u);
  m->access(one_lane(kBase + 0x2000 + 32), 2);   // sector 1 from SM 2 (the other partition): miss, no DRAM read
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 0u);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 64u);
  m->access(one_lane(kBase + 0x2000 + 32), 3);   // SM 3, same partition as SM 2: now a hit
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 1u);
  m->access(one_lane(kBase + 0x2000 + 32), 1);   // SM 1, SM 0's partition: the promoted sector hits
  EXPECT_EQ(m->kernel_counters().l2_read_sector_hits, 2u);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 64u);
  auto v = memory("sm_70");                      // 32 B fills assumed before 9.0
  v->access(one_lane(kBase + 0x2000), 0);
  EXPECT_EQ(v->kernel_counters().dram_read_bytes, 32u);
}
}  // namespace
}  // namespace warpscope::test
