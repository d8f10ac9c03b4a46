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
  EXPECT_FALSE(rules::serializes_same_address(make({Space::Shared, Op::Atomic, 4}, [](int) { return 0u; }), sm90));
  EXPECT_FALSE(rules::serializes_same_address(make(kAtom, [](int) { return 0u; }), arch("sm_70")));  // not measured there
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
