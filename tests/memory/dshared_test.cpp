// Distributed shared memory (types.hpp Space::DShared): another CTA's shared memory, counted as the L1's t-stage
// counts a global access (a request, its 128-byte lines, its 32-byte sectors) under Nsight Compute's dshared names,
// with no cache, L2 or DRAM traffic (validation/h100/cluster_probe, where the H100 gave these counts for the same
// patterns); and the records through both trace formats.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"
#include "trace/trace_test_util.hpp"
#include "warpscope/error.hpp"
#include "warpscope/memory_system.hpp"

namespace warpscope::test {
namespace {

WarpAccess dshared(Op op, std::uint64_t pc, std::uint8_t size, std::uint32_t mask, const std::function<std::uint64_t(int)>& addr) {
  WarpAccess r = record(0, pc, mask, addr);
  r.space = Space::DShared;
  r.op = op;
  r.size = size;
  return r;
}

TEST(DistributedSharedMemory, CountsSectorsAndLinesAsGlobalMemoryWithoutCaches) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  // Coalesced words: 4 sectors of 1 line. A word every 128 B: 32 and 32. Words 4 B off: 5 sectors of 2 lines.
  // 16 bytes a lane: 16 sectors of 4 lines. A store of coalesced words. (cluster_probe: remote_ld<0, 2, 5, 4>,
  // remote_st<0>, per instruction.)
  m.access(dshared(Op::Load, 0x10, 4, 0xffffffffu, [](int l) { return 0x400u + 4u * l; }), 0);
  m.access(dshared(Op::Load, 0x20, 4, 0xffffffffu, [](int l) { return 128u * l; }), 0);
  m.access(dshared(Op::Load, 0x30, 4, 0xffffffffu, [](int l) { return 0x404u + 4u * l; }), 0);
  m.access(dshared(Op::Load, 0x40, 16, 0xffffffffu, [](int l) { return 16u * l; }), 0);
  m.access(dshared(Op::Store, 0x50, 4, 0xffffffffu, [](int l) { return 4u * l; }), 0);
  const Counters& c = m.kernel_counters();
  EXPECT_EQ(c.dshared_ld.instructions, 4u);
  EXPECT_EQ(c.dshared_ld.requests, 4u);
  EXPECT_EQ(c.dshared_ld.sectors, 4u + 32u + 5u + 16u);
  EXPECT_EQ(c.dshared_ld.transactions, 1u + 32u + 2u + 4u);
  EXPECT_EQ(c.dshared_st.instructions, 1u);
  EXPECT_EQ(c.dshared_st.sectors, 4u);
  // Nothing of it in the LSU's shared counts, in L1 hits, L2 or DRAM.
  EXPECT_EQ(c.shared_ld.instructions, 0u);
  EXPECT_EQ(c.dshared_ld.sector_hits, 0u);
  EXPECT_EQ(c.l2_read_requests, 0u);
  EXPECT_EQ(c.l2_write_requests, 0u);
  EXPECT_EQ(c.dram_read_bytes, 0u);
}

// st.async (STAS): the traffic of a dshared store, the instruction counted apart; red.async (REDAS): lanes on one word
// served a pass each, every pass a sector and a set access, one request (validation/h100/async_store_probe: st_async<1>,
// red_async<0>, red_async<1> per instruction).
TEST(DistributedSharedMemory, StAsyncAndRedAsyncAsTheH100CountsThem) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  m.access(dshared(Op::StoreAsync, 0x10, 16, 0xffffffffu, [](int l) { return 16u * l; }), 0);
  m.access(dshared(Op::Reduction, 0x20, 4, 0xffffffffu, [](int l) { return 0x1000u + 4u * l; }), 0);
  m.access(dshared(Op::Reduction, 0x30, 4, 0xffffffffu, [](int) { return 0x2000u; }), 0);
  const Counters& c = m.kernel_counters();
  EXPECT_EQ(c.dshared_stas_instructions, 1u);
  EXPECT_EQ(c.dshared_st.instructions, 0u);
  EXPECT_EQ(c.dshared_st.requests, 1u);
  EXPECT_EQ(c.dshared_st.sectors, 16u);
  EXPECT_EQ(c.dshared_st.transactions, 4u);
  EXPECT_EQ(c.dshared_red.instructions, 2u);
  EXPECT_EQ(c.dshared_red.requests, 2u);
  EXPECT_EQ(c.dshared_red.sectors, 4u + 32u);
  EXPECT_EQ(c.dshared_red.transactions, 1u + 32u);
  EXPECT_EQ(c.dshared_atom.instructions, 0u);
}

class DSharedTrace : public ::testing::TestWithParam<TraceFormat> {};

TEST_P(DSharedTrace, RecordsComeBackUnchanged) {
  const auto p = scratch_dir() / (std::string("dshared") + (GetParam() == TraceFormat::Text ? ".txt" : ".wst"));
  const std::vector<WarpAccess> records = {
      dshared(Op::Load, 0x10, 4, 0xffffffffu, [](int l) { return 0x400u + 4u * l; }),
      dshared(Op::Store, 0x20, 8, 0x0000ffffu, [](int l) { return 0x1000u + 256u * l; }),
      dshared(Op::Atomic, 0x30, 4, 0x1u, [](int) { return 0x2000u; }),
      dshared(Op::StoreAsync, 0x40, 16, 0xffffffffu, [](int l) { return 0x3000u + 16u * l; }),
      dshared(Op::Reduction, 0x50, 4, 0xffffffffu, [](int) { return 0x2000u; })};
  write_all(p, GetParam(), std::vector<KernelInfo>(1), records);
  expect_same_records(read_all(p).records, records);
}

TEST_P(DSharedTrace, WritersRefuseStAsyncOutsideDistributedSharedMemory) {
  const auto p = scratch_dir() / (std::string("bad_stas") + (GetParam() == TraceFormat::Text ? ".txt" : ".wst"));
  WarpAccess r = dshared(Op::StoreAsync, 0x40, 4, 0x1u, [](int) { return 0x40u; });
  r.space = Space::Shared;
  EXPECT_THROW(write_all(p, GetParam(), std::vector<KernelInfo>(1), {r}), Error);
}

INSTANTIATE_TEST_SUITE_P(Formats, DSharedTrace, ::testing::Values(TraceFormat::Native, TraceFormat::Text),
                         [](const auto& p) { return std::string(to_string(p.param)); });

}  // namespace
}  // namespace warpscope::test
