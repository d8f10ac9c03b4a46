// Passes of an atomic whose lanes share addresses (rules/atomic_passes.hpp): which lanes go in
// which pass, and how the passes add up in the rules engine (the H100 measurements are replayed
// in tests/validation/h100_atomics_test.cpp).
#include <gtest/gtest.h>

#include "rules/atomic_passes.hpp"
#include "test_support.hpp"
#include "warpscope/memory_system.hpp"

namespace warpscope::test {
namespace {

const Access kAtom{Space::Global, Op::Atomic, 4};

TEST(AtomicPasses, OneLanePerAddressAndPass) {
  const WarpAccess same = make(kAtom, [](int) { return 0x1000u; });
  EXPECT_EQ(rules::atomic_passes(same), 32);
  for (int p = 0; p < 32; ++p) EXPECT_EQ(rules::atomic_pass(same, p).active.bits(), 1u << p) << p;

  const WarpAccess mod4 = make(kAtom, [](int l) { return 0x1000u + 4u * static_cast<unsigned>(l % 4); });
  EXPECT_EQ(rules::atomic_passes(mod4), 8);
  EXPECT_EQ(rules::atomic_pass(mod4, 0).active.bits(), 0xfu);  // the first lane on each address
  EXPECT_EQ(rules::atomic_pass(mod4, 7).active.bits(), 0xf0000000u);

  const WarpAccess distinct = make(kAtom, [](int l) { return 0x1000u + 4u * static_cast<unsigned>(l); });
  EXPECT_EQ(rules::atomic_passes(distinct), 1);
}

TEST(AtomicPasses, InactiveLanesDoNotCount) {
  Access half = kAtom;
  half.mask = 0x0000ffffu;
  // Lanes 16-31 would share lane l - 16's address, but are inactive.
  const WarpAccess a = make(half, [](int l) { return 0x1000u + 128u * static_cast<unsigned>(l % 16); });
  EXPECT_EQ(rules::atomic_passes(a), 1);
  Access none = kAtom;
  none.mask = 0;
  EXPECT_EQ(rules::atomic_passes(make(none, [](int) { return 0u; })), 0);
}

TEST(AtomicPasses, WhichAccessesAreServedByPasses) {
  const ArchSpec& sm90 = arch("sm_90");
  EXPECT_TRUE(rules::serializes_same_address(make(kAtom, [](int) { return 0u; }), sm90));
  EXPECT_TRUE(rules::serializes_same_address(make({Space::Global, Op::Reduction, 8}, [](int) { return 0u; }), sm90));
  EXPECT_FALSE(rules::serializes_same_address(make({Space::Global, Op::Load, 4}, [](int) { return 0u; }), sm90));
  EXPECT_FALSE(rules::serializes_same_address(make({Space::Global, Op::Store, 4}, [](int) { return 0u; }), sm90));
  EXPECT_FALSE(rules::serializes_same_address(make(kAtom, [](int) { return 0u; }), arch("sm_70")));  // not measured there
  // Shared: ATOMS.ADD (and any recorded operation but popc.inc) serializes; an unrecorded one is
  // counted as the merging ATOMS.POPC.INC (shared.serialize_unknown_atomics = false).
  WarpAccess shared = make({Space::Shared, Op::Atomic, 4}, [](int) { return 0u; });
  EXPECT_FALSE(rules::serializes_same_address(shared, sm90));
  shared.atomic_op = AtomicOp::Add;
  EXPECT_TRUE(rules::serializes_same_address(shared, sm90));
  shared.atomic_op = AtomicOp::Max;
  EXPECT_TRUE(rules::serializes_same_address(shared, sm90));
  shared.atomic_op = AtomicOp::PopcInc;
  EXPECT_FALSE(rules::serializes_same_address(shared, sm90));
  shared.atomic_op = AtomicOp::Add;
  EXPECT_FALSE(rules::serializes_same_address(shared, arch("sm_70")));
}

// A shared compare-and-swap takes twice the wavefronts of an add of the same lanes, with the
// same bank conflicts (shared.cas_wavefronts = 2 on sm_90; validation/h100/atomics_probe/ops):
// the rules engine and the memory system agree.
TEST(AtomicPasses, SharedCasTakesTwiceTheWavefronts) {
  const ArchSpec& sm90 = arch("sm_90");
  WarpAccess same = make({Space::Shared, Op::Atomic, 4}, [](int) { return 0x100u; });
  same.atomic_op = AtomicOp::Add;
  const InstructionCounts add = analyze(same, sm90);
  EXPECT_EQ(add.wavefronts, 32u);
  EXPECT_EQ(add.bank_conflicts, 31u);
  same.atomic_op = AtomicOp::Cas;
  const InstructionCounts cas = analyze(same, sm90);
  EXPECT_EQ(cas.wavefronts, 64u);
  EXPECT_EQ(cas.ideal_wavefronts, 2u);
  EXPECT_EQ(cas.bank_conflicts, 31u);
  MemorySystem m(sm90, MemoryConfig{});
  m.begin_kernel();
  m.access(same, 0);
  m.end_kernel(false);
  EXPECT_EQ(m.kernel_counters().shared_atom.wavefronts, 64u);
  EXPECT_EQ(m.kernel_counters().shared_atom.bank_conflicts, 31u);
  EXPECT_EQ(analyze(same, arch("sm_70")).wavefronts, 1u);  // not measured there: counted as any shared atomic
}

// analyze notes atomics without an operation where some operation is counted apart: on sm_90
// (each of its four measured keys alone suffices), not where none is measured (sm_70, sm_35).
TEST(AtomicPasses, CountsDependOnTheOperationWhereAKeySeparatesOne) {
  EXPECT_TRUE(rules::atomic_counts_depend_on_operation(arch("sm_90")));
  EXPECT_FALSE(rules::atomic_counts_depend_on_operation(arch("sm_70")));
  EXPECT_FALSE(rules::atomic_counts_depend_on_operation(arch("sm_35")));
  const ArchSpec none = arch("sm_70");
  ArchSpec one = none;
  one.global_atomics_serialize = true;  // POPC.INC merges what the others serialize
  EXPECT_TRUE(rules::atomic_counts_depend_on_operation(one));
  one = none;
  one.shared_atomics_serialize = true;
  EXPECT_TRUE(rules::atomic_counts_depend_on_operation(one));
  one = none;
  one.global_cas_access_bytes = 64;
  EXPECT_TRUE(rules::atomic_counts_depend_on_operation(one));
  one.global_cas_access_bytes = one.l1_line;  // a block of the whole line splits nothing
  EXPECT_FALSE(rules::atomic_counts_depend_on_operation(one));
  one = none;
  one.shared_cas_wavefronts = 2;
  EXPECT_TRUE(rules::atomic_counts_depend_on_operation(one));
}

// A compare-and-swap on sm_90 is served per 64-byte half of a line (global.cas_access_bytes;
// validation/h100/atomics_probe cas4 rows), each half after the same-address passes.
TEST(AtomicPasses, CompareAndSwapSplitsLinesByHalves) {
  const ArchSpec& sm90 = arch("sm_90");
  WarpAccess coalesced = make(kAtom, [](int l) { return 0x1000u + 4u * static_cast<unsigned>(l); });
  EXPECT_EQ(rules::atomic_passes_on(coalesced, sm90).count, 1);  // an add: one pass
  coalesced.atomic_op = AtomicOp::Cas;
  const rules::AtomicPasses halves = rules::atomic_passes_on(coalesced, sm90);
  ASSERT_EQ(halves.count, 2);
  EXPECT_EQ(halves.lanes[0], 0x0000ffffu);
  EXPECT_EQ(halves.lanes[1], 0xffff0000u);
  EXPECT_EQ(rules::atomic_passes_on(coalesced, arch("sm_70")).count, 1);  // not measured there

  // 4 addresses x 8 lanes in one sector: 8 same-address passes, each in one half.
  WarpAccess mod4 = make(kAtom, [](int l) { return 0x1000u + 4u * static_cast<unsigned>(l % 4); });
  mod4.atomic_op = AtomicOp::Cas;
  EXPECT_EQ(rules::atomic_passes_on(mod4, sm90).count, 8);
  // Lanes 0 and 1 at +0 and +64 of one line, the rest one line each (cas4:line01): one more pass.
  WarpAccess line01 = make(kAtom, [](int l) { return l == 1 ? 0x1040u : 0x1000u + 0x1000u * static_cast<unsigned>(l); });
  line01.atomic_op = AtomicOp::Cas;
  const rules::AtomicPasses two = rules::atomic_passes_on(line01, sm90);
  ASSERT_EQ(two.count, 2);
  EXPECT_EQ(two.lanes[1], 0x2u);
  // Through the rules engine: 2 set accesses, 4 sectors, one request.
  const InstructionCounts c = analyze(coalesced, sm90);
  EXPECT_EQ(c.requests, 1u);
  EXPECT_EQ(c.transactions, 2u);
  EXPECT_EQ(c.sectors, 4u);
  EXPECT_EQ(c.bytes_needed, 128u);
}

// On sm_90 an ATOMG's lanes take word slots that lanes of other lines of the same group can split
// (global.atomic_word_groups, the atomicMax gather); a REDG's do not: its passes are its lanes' ranks
// on their addresses (validation/h100/red_probe r_bins64_*). Warp 0 of r_bins64_one: 32 lanes on 64
// words of two lines, no word more than twice: 2 passes, 4 line accesses; as an ATOMG, 3 passes.
TEST(AtomicPasses, ReductionsKeepTheSameAddressPasses) {
  const ArchSpec& sm90 = arch("sm_90");
  static const unsigned kBins[32] = {29, 61, 33, 18, 45, 48, 48, 25, 4, 26, 14, 33, 36, 32, 42, 1,
                                     54, 56, 42, 27, 32, 46, 29, 23, 11, 54, 3, 60, 1, 61, 56, 51};
  WarpAccess red = make(kAtom, [](int l) { return 0x20c000u + 4u * kBins[l]; });
  red.op = Op::Reduction;
  red.atomic_op = AtomicOp::Add;
  const rules::AtomicPasses passes = rules::atomic_passes_on(red, sm90);
  EXPECT_EQ(passes.count, 2);
  const InstructionCounts c = analyze(red, sm90);
  EXPECT_EQ(c.transactions, 4u);  // per pass, one access per line: 2 + 2 (H100: 4 L2 requests for this warp's REDG)
  WarpAccess atom = red;
  atom.op = Op::Atomic;
  EXPECT_EQ(rules::atomic_passes_on(atom, sm90).count, 3);
}

// Through the rules engine: 32 lanes on one address, one request, 32 set accesses and sectors;
// on 7.x, not measured, the lanes count once.
TEST(AtomicPasses, RulesEngineCountsEveryPass) {
  const InstructionCounts c = run("sm_90", kAtom, [](int) { return 0x1000u; });
  EXPECT_EQ(c.requests, 1u);
  EXPECT_EQ(c.transactions, 32u);
  EXPECT_EQ(c.sectors, 32u);
  EXPECT_EQ(c.bytes_needed, 4u);
  EXPECT_EQ(c.bytes_moved, 32u * 32u);
  const InstructionCounts v = run("sm_70", kAtom, [](int) { return 0x1000u; });
  EXPECT_EQ(v.transactions, 1u);
  EXPECT_EQ(v.sectors, 1u);
}

// The memory system counts the passes the same way: one instruction and request, the bytes the
// lanes need once, every pass's set accesses, sectors and L2 requests.
TEST(AtomicPasses, MemorySystemCountsEveryPassOnce) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  m.begin_kernel();
  const InstructionCounts c = m.access(make(kAtom, [](int) { return 0x1000u; }), 0);
  m.end_kernel(false);
  const Counters& k = m.kernel_counters();
  EXPECT_EQ(c.transactions, 32u);
  EXPECT_EQ(k.global_atom.instructions, 1u);
  EXPECT_EQ(k.global_atom.requests, 1u);
  EXPECT_EQ(k.global_atom.transactions, 32u);
  EXPECT_EQ(k.global_atom.sectors, 32u);
  EXPECT_EQ(k.global_atom.bytes_needed, 4u);
  EXPECT_EQ(k.global_atom.bytes_moved, 32u * 32u);
  EXPECT_EQ(k.l2_atom_requests, 32u);
}

}  // namespace
}  // namespace warpscope::test
