// The 8-byte half-warp and 16-byte quarter-warp split (seed000 G.3.2 for 2.x,
// G.4.2 for 3.x) and seed004's targets: "1 transaction for a 4byte access, 2
// transactions for a 8byte access, and 4 transactions for a 16byte access".
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace warpscope::test {
namespace {

TEST(Seed004Targets, TransactionsPerRequestFermiAndKepler) {
  for (const char* name : {"sm_20", "sm_35"}) {
    for (unsigned size : {4u, 8u, 16u}) {
      auto c = run(name, Access{Space::Global, Op::Load, size}, [size](int l) { return kBase + size * l; });
      EXPECT_EQ(c.requests, 1u) << name;
      EXPECT_EQ(c.transactions, size / 4) << name << " size " << size;
      EXPECT_EQ(c.bytes_moved, 32u * size) << name << " size " << size;  // no over-fetch
    }
  }
}

TEST(Seed000RequestSplit, BroadcastOfWideWordsIsOneLinePerPiece) {
  // Every lane reads the same 8-byte (16-byte) word: each half- (quarter-) warp
  // request is broken into its own line request.
  auto c8 = run("sm_20", Access{Space::Global, Op::Load, 8}, [](int) { return kBase; });
  EXPECT_EQ(c8.sub_requests, 2u);
  EXPECT_EQ(c8.transactions, 2u);
  EXPECT_EQ(c8.bytes_moved, 128u);  // the second request finds the line in L1
  auto c16 = run("sm_20", Access{Space::Global, Op::Load, 16}, [](int) { return kBase; });
  EXPECT_EQ(c16.sub_requests, 4u);
  EXPECT_EQ(c16.transactions, 4u);
  // The same broadcast on the sectored L1TEX is one request, one line, one sector.
  auto v = run("sm_90", Access{Space::Global, Op::Load, 16}, [](int) { return kBase; });
  EXPECT_EQ(v.transactions, 1u);
  EXPECT_EQ(v.sectors, 1u);
}

TEST(Seed000RequestSplit, FourByteWordsAreNotSplit) {
  auto c = run("sm_20", Access{Space::Global, Op::Load, 4}, [](int) { return kBase; });
  EXPECT_EQ(c.sub_requests, 1u);
  EXPECT_EQ(c.transactions, 1u);
}

TEST(Seed000KeplerGlobal, DefaultLoadsAreL2OnlyAndOptInCaches) {
  // seed000 G.4.2: "normally not cached in L1"; 3.5 may opt in with -dlcm=ca.
  auto def = run("sm_35", Access{Space::Global, Op::Load, 4}, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(def.path, MemoryPath::L2);
  EXPECT_EQ(def.bytes_moved, 160u);
  auto ca = run("sm_35", Access{Space::Global, Op::Load, 4, CacheOp::Ca}, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(ca.path, MemoryPath::L1);
  EXPECT_EQ(ca.bytes_moved, 256u);
  // 3.0 has no opt-in: .ca still goes to L2 only.
  auto ca30 = run("sm_30", Access{Space::Global, Op::Load, 4, CacheOp::Ca}, [](int l) { return kBase + 4 + 4u * l; });
  EXPECT_EQ(ca30.path, MemoryPath::L2);
}

}  // namespace
}  // namespace warpscope::test
