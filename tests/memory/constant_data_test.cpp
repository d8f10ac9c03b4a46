// constant.dram_fetch_bytes (9.0, validation/h100/suite const_local; docs/VALIDATION.md
// "Constant data"): a kernel reads each aligned 256 B block of constant data
// its loads touch from DRAM once; nothing else of the constant path reaches
// the L2 counters.
#include <gtest/gtest.h>

#include "memory/memory_test_support.hpp"

namespace warpscope::test {
namespace {

// Constant loads: every lane on `addr(lane)`, 4 B.
WarpAccess constant_load(const std::function<std::uint64_t(int)>& addr, std::uint32_t mask = 0xffffffffu) {
  return make({Space::Const, Op::Load, 4, CacheOp::Default, mask}, addr);
}

TEST(ConstantData, EachBlockTouchedIsReadOncePerKernel) {
  auto m = memory("sm_90");
  m->access(constant_load([](int) { return 0x1c; }), 0);  // warp-uniform, block 0
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 256u);
  m->access(constant_load([](int) { return 0xfc; }), 5);  // block 0 again, another SM
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 256u);
  m->access(constant_load([](int) { return 0x100; }), 0);  // block 1
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 512u);
  // Lanes 128 B apart over 4 KB (k_const_divergent32_stride32): blocks 0-15, two of them read already.
  m->access(constant_load([](int l) { return 0x1c + 128u * static_cast<std::uint64_t>(l); }), 0);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 16u * 256u);
  EXPECT_EQ(m->kernel_counters().const_instructions, 4u);
  // Nothing of it is L2 traffic of L1TEX.
  EXPECT_EQ(m->kernel_counters().l2_read_sectors, 0u);
  EXPECT_EQ(m->kernel_counters().dram_write_bytes, 0u);

  m->begin_kernel();  // a new kernel starts with cold constant caches
  m->access(constant_load([](int) { return 0x1c; }), 0);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 256u);
}

TEST(ConstantData, OnlyActiveLanesAndTheBytesTheyRead) {
  auto m = memory("sm_90");
  // Lane l on block l; only lanes 0 and 31 active.
  m->access(constant_load([](int l) { return 256u * static_cast<std::uint64_t>(l); }, 0x80000001u), 0);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 512u);
  // A 16 B load (aligned, so in one block): block 2.
  WarpAccess wide = make({Space::Const, Op::Load, 16, CacheOp::Default, 0x1u}, [](int) { return 0x2f0u; });
  m->access(wide, 0);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 768u);
  // The last block of the address space: no wrap-around to block 0.
  m->access(constant_load([](int) { return ~std::uint64_t{3}; }, 0x1u), 0);
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 1024u);
}

TEST(ConstantData, TheInstructionThatReadsABlockFirstCarriesIt) {
  auto m = memory("sm_90");
  Counters first, second;
  m->access(constant_load([](int l) { return 4u * static_cast<std::uint64_t>(l); }), 0, &first);
  m->access(constant_load([](int l) { return 4u * static_cast<std::uint64_t>(l) + 64u; }), 0, &second);
  EXPECT_EQ(first.dram_read_bytes, 256u);
  EXPECT_EQ(second.dram_read_bytes, 0u);
  EXPECT_EQ(second.const_instructions, 1u);
}

TEST(ConstantData, TheSameWithTheL2OnItsOwnThread) {
  auto m = memory("sm_90");
  m->set_l2_thread(true);
  m->access(constant_load([](int l) { return 128u * static_cast<std::uint64_t>(l); }), 0);
  m->access(line_access(kBase), 0);  // 128 B of global data: two 64 B fills
  EXPECT_EQ(m->kernel_counters().dram_read_bytes, 16u * 256u + 128u);
}

TEST(ConstantData, NotModelledWhereNotMeasured) {
  for (const char* name : {"sm_10", "sm_35", "sm_70", "sm_80", "sm_120"}) {
    auto m = memory(name);
    m->access(constant_load([](int l) { return 128u * static_cast<std::uint64_t>(l); }), 0);
    EXPECT_EQ(m->kernel_counters().dram_read_bytes, 0u) << name;
    EXPECT_EQ(m->kernel_counters().const_instructions, 1u) << name;
  }
}

}  // namespace
}  // namespace warpscope::test
