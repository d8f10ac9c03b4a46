// wgmma's shared-memory reads as trace records (types.hpp Op::GmmaRead: mask 0b11, lane 0 a shared address, lane 1
// the bytes a warp's share reads): both formats carry them unchanged, both writers refuse what cannot be one, and
// the model counts bytes / 128 wavefronts and one instruction a record (validation/h100/wgmma_probe).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "trace/trace_test_util.hpp"
#include "test_support.hpp"
#include "warpscope/error.hpp"
#include "warpscope/memory_system.hpp"

namespace warpscope::test {
namespace {

WarpAccess gmma(std::uint64_t pc, std::uint16_t warp, std::uint64_t shared, std::uint64_t bytes) {
  WarpAccess r = record(0, pc, kGmmaMask, [](int) { return 0u; });
  r.space = Space::Shared;
  r.op = Op::GmmaRead;
  r.size = 16;
  r.warp = warp;
  r.addr[0] = shared;
  r.addr[1] = bytes;
  return r;
}

// A warpgroup's m64n128k16 from a descriptor (warp 0: A's 512 B + B's 4,096) and one with A from registers (warps
// 1-3 read nothing), then the largest share (N = 256).
std::vector<WarpAccess> warpgroup() {
  std::vector<WarpAccess> out;
  for (std::uint16_t w = 0; w < 4; ++w) out.push_back(gmma(0x200, w, 0x400, w == 0 ? 512 + 4096 : 512));
  for (std::uint16_t w = 0; w < 4; ++w) out.push_back(gmma(0x210, w, 0x8400, w == 0 ? 512 : 0));
  out.push_back(gmma(0x220, 0, 0x10, kMaxGmmaBytes));
  return out;
}

class GmmaTrace : public ::testing::TestWithParam<TraceFormat> {
 protected:
  std::filesystem::path path(const char* stem) const {
    return scratch_dir() / (std::string(stem) + (GetParam() == TraceFormat::Text ? ".txt" : ".wst"));
  }
};

TEST_P(GmmaTrace, RecordsComeBackUnchanged) {
  const auto p = path("gmma");
  const auto records = warpgroup();
  write_all(p, GetParam(), std::vector<KernelInfo>(1), records);
  const TraceContent got = read_all(p);
  expect_same_records(got.records, records);
  for (const auto& r : got.records) EXPECT_TRUE(gmma_record_ok(r));
}

TEST_P(GmmaTrace, WritersRefuseRecordsThatCannotBeOne) {
  const WarpAccess good = gmma(0x200, 0, 0x400, 4608);
  std::vector<WarpAccess> bad;
  WarpAccess r = good;
  r.addr[0] = 0x408;  // not a multiple of 16
  bad.push_back(r);
  r = good;
  r.addr[1] = 4608 + 64;  // not whole wavefronts
  bad.push_back(r);
  r = good;
  r.addr[1] = kMaxGmmaBytes + 128;
  bad.push_back(r);
  r = good;
  r.active = LaneMask(0x7u);
  bad.push_back(r);
  r = good;
  r.space = Space::Global;
  bad.push_back(r);
  r = good;
  r.size = 8;
  bad.push_back(r);
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const auto p = path("bad_gmma");
    EXPECT_THROW(write_all(p, GetParam(), std::vector<KernelInfo>(1), {bad[i]}), Error) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, GmmaTrace, ::testing::Values(TraceFormat::Native, TraceFormat::Text),
                         [](const auto& p) { return std::string(to_string(p.param)); });

// The model: the first warpgroup reads (512 + 4,096) + 3 x 512 = 6,144 bytes, 48 wavefronts; the second 512, 4;
// the last 8,704, 68. Eight instructions of four warps and one, no conflicts, and nothing in the LSU's counts.
TEST(GmmaModel, WavefrontsAreBytesOver128AndEveryWarpCountsTheInstruction) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  for (const auto& r : warpgroup()) m.access(r, 0);
  const Counters& c = m.kernel_counters();
  EXPECT_EQ(c.shared_gmma.instructions, 9u);
  EXPECT_EQ(c.shared_gmma.wavefronts, 48u + 4u + 68u);
  EXPECT_EQ(c.shared_gmma.bank_conflicts, 0u);
  EXPECT_EQ(c.shared_ld.instructions, 0u);
  EXPECT_EQ(c.shared_ld.wavefronts, 0u);
}

}  // namespace
}  // namespace warpscope::test
