// Texture records (types.hpp: texture ld = a TLD, tex = a TEX sample, texels = its further texels, kNoTexel = a border
// texel): both formats carry them unchanged, writers refuse samples outside space texture, and the model serves them
// request by request as the H100 does (validation/h100/texture_probe, texture_probe2), worked here by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"
#include "trace/trace_test_util.hpp"
#include "warpscope/error.hpp"
#include "warpscope/memory_system.hpp"
#include "warpscope/rules.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint64_t kBase = 0x7f0000000000;

WarpAccess texture(Op op, std::uint8_t size, std::uint32_t mask, std::uint64_t (*addr)(int)) {
  WarpAccess r = record(0, 0x40, mask, [&](int l) { return addr(l); });
  r.space = Space::Texture;
  r.op = op;
  r.size = size;
  return r;
}

class TextureTrace : public ::testing::TestWithParam<TraceFormat> {
 protected:
  std::filesystem::path path(const char* stem) const {
    return scratch_dir() / (std::string(stem) + (GetParam() == TraceFormat::Text ? ".txt" : ".wst"));
  }
};

TEST_P(TextureTrace, RecordsComeBackUnchanged) {
  std::vector<WarpAccess> records;
  records.push_back(texture(Op::Load, 1, 0xffffffffu, [](int l) { return kBase + static_cast<std::uint64_t>(l); }));
  records.push_back(texture(Op::TexSample, 4, 0xffffffffu,
                            [](int l) { return l < 16 ? kNoTexel : kBase + 4 * static_cast<std::uint64_t>(l); }));
  records.push_back(texture(Op::TexTexels, 16, 0x0000f00fu, [](int l) { return kBase + 4096 + 16 * static_cast<std::uint64_t>(l); }));
  WarpAccess pitched = texture(Op::TexSample, 8, 0xffu, [](int l) { return kBase + 8192 + 8 * static_cast<std::uint64_t>(l); });
  pitched.space = Space::TexturePitch;
  records.push_back(pitched);
  const auto p = path("texture");
  write_all(p, GetParam(), std::vector<KernelInfo>(1), records);
  expect_same_records(read_all(p).records, records);
}

TEST_P(TextureTrace, WritersRefuseSamplesOutsideTextureSpace) {
  WarpAccess r = texture(Op::TexSample, 4, 0xffu, [](int l) { return kBase + 4 * static_cast<std::uint64_t>(l); });
  r.space = Space::Global;
  EXPECT_THROW(write_all(path("bad_tex"), GetParam(), std::vector<KernelInfo>(1), {r}), Error);
  r.space = Space::Texture;
  r.op = Op::TexTexels;
  r.cache = CacheOp::Cg;
  EXPECT_THROW(write_all(path("bad_texels"), GetParam(), std::vector<KernelInfo>(1), {r}), Error);
}

INSTANTIATE_TEST_SUITE_P(Formats, TextureTrace, ::testing::Values(TraceFormat::Native, TraceFormat::Text),
                         [](const auto& p) { return std::string(to_string(p.param)); });

TEST(TextureText, ReaderNamesWhatASampleMustBe) {
  const auto p = scratch_dir() / "bad_sample.txt";
  write_bytes(p, "wstrace 1\nkernel 0 name=k\nrec k=0 pc=0x10 shared tex 4 addr=0x0+4\n");
  try {
    read_all(p);
    FAIL() << "read a tex record in shared space";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("space texture"), std::string::npos) << e.what();
  }
}

// Counts worked by hand from the H100's rules (types.hpp, rules/texture_requests.hpp).
TEST(TextureModel, RequestsOfEightLanesOrQuadsEachLookingItsSectorsUp) {
  MemorySystem m(arch("sm_90"), MemoryConfig{});
  // 32 bytes as bytes: 4 requests of 8 lanes, each the same sector: 4 sectors, the first a miss, 3 hits (fetch1d_u8).
  m.access(texture(Op::Load, 1, 0xffffffffu, [](int l) { return kBase + static_cast<std::uint64_t>(l); }), 0);
  const L1Traffic& t = m.kernel_counters().readonly_ld;
  EXPECT_EQ(t.instructions, 1u);
  EXPECT_EQ(t.requests, 4u);
  EXPECT_EQ(t.sectors, 4u);
  EXPECT_EQ(t.sector_hits, 3u);
  EXPECT_EQ(m.kernel_counters().l2_read_requests, 1u);  // a TLD's misses: one L2 request a line
  // 16-byte texels: requests of 4 lanes (8), 2 sectors each, all new: 16 sectors, no hit.
  m.access(texture(Op::Load, 16, 0xffffffffu, [](int l) { return kBase + 4096 + 16 * static_cast<std::uint64_t>(l); }), 0);
  EXPECT_EQ(t.requests, 4u + 8u);
  EXPECT_EQ(t.sectors, 4u + 16u);
  EXPECT_EQ(t.sector_hits, 3u);
  // A sample along a row of floats: 8 quads of 16 bytes, two in each sector: 8 sectors, 4 hits; its 4 missed sectors
  // go to L2 a request each.
  const std::uint64_t l2_before = m.kernel_counters().l2_read_requests;
  m.access(texture(Op::TexSample, 4, 0xffffffffu, [](int l) { return kBase + 8192 + 4 * static_cast<std::uint64_t>(l); }), 0);
  EXPECT_EQ(t.instructions, 3u);
  EXPECT_EQ(t.requests, 12u + 8u);
  EXPECT_EQ(t.sectors, 20u + 8u);
  EXPECT_EQ(t.sector_hits, 3u + 4u);
  EXPECT_EQ(m.kernel_counters().l2_read_requests - l2_before, 1u);  // linear memory: a request a line
  // A quad wholly on border texels: a request and a sector, a hit, nothing read; lanes 4-7 in a new sector.
  m.access(texture(Op::TexSample, 4, 0xffu, [](int l) { return l < 4 ? kNoTexel : kBase + 12288 + 4 * static_cast<std::uint64_t>(l); }), 0);
  EXPECT_EQ(t.requests, 20u + 2u);
  EXPECT_EQ(t.sectors, 28u + 2u);
  EXPECT_EQ(t.sector_hits, 7u + 1u);
  // Further texels of that sample: a sector more for quad 1, no instruction, no request.
  m.access(texture(Op::TexTexels, 4, 0xf0u, [](int l) { return kBase + 16384 + 4 * static_cast<std::uint64_t>(l); }), 0);
  EXPECT_EQ(t.instructions, 4u);
  EXPECT_EQ(t.requests, 22u);
  EXPECT_EQ(t.sectors, 31u);
  // The same sample of a pitched texture: its missed sectors go to L2 a request each.
  WarpAccess pitched = texture(Op::TexSample, 4, 0xffffffffu, [](int l) { return kBase + 65536 + 4 * static_cast<std::uint64_t>(l); });
  pitched.space = Space::TexturePitch;
  const std::uint64_t l2_pitched = m.kernel_counters().l2_read_requests;
  m.access(pitched, 0);
  EXPECT_EQ(m.kernel_counters().l2_read_requests - l2_pitched, 4u);
}

// Before 7.0 a texture record is one read-only load of the lanes on a texel (not measured request by request).
TEST(TextureModel, BeforeVoltaTheWarpIsOneRequest) {
  const InstructionCounts c =
      analyze(texture(Op::Load, 1, 0xffffffffu, [](int l) { return kBase + static_cast<std::uint64_t>(l); }), arch("sm_61"));
  EXPECT_EQ(c.requests, 1u);
  EXPECT_EQ(c.sectors, 1u);
}

}  // namespace
}  // namespace warpscope::test
