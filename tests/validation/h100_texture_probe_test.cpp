// Texture fetches against the H100 (validation/kernels/texture_probe; hand-made hypotheses committed before the run:
// validation/texture_probe/predicted.txt; docs/VALIDATION.md "Textures"). The texture unit serves a TLD (tex1Dfetch)
// in requests of 8 lanes (4 of 16-byte texels) and a TEX (tex2D) in quads, each request looking up its own sectors:
// the interpreter's tex records through the model give every instruction, request and sector count exactly.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "probe_replay.hpp"
#include "test_support.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

const std::string kRoot = WARPSCOPE_SOURCE_DIR "/validation/";

TEST(H100TextureProbe, CountersFromPtxMatchNsightCompute) {
  const ValidationReport r = passing_ptx_report("texture_probe", 780);
  ASSERT_EQ(r.kernels.size(), 15u);
  const std::string requests = "l1tex__t_requests_pipe_tex_mem_texture.sum", sectors = "l1tex__t_sectors_pipe_tex_mem_texture.sum",
                    hits = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum";
  // 512 warp instructions a launch. A TLD of 4-byte texels: 4 requests of 8 lanes; of float4 texels: 8 of 4 lanes.
  EXPECT_EQ(hardware_and_model(r, "fetch1d#1", requests), std::make_pair(2048.0, 2048.0));
  EXPECT_EQ(hardware_and_model(r, "fetch1d_v4", requests), std::make_pair(4096.0, 4096.0));
  // 32 bytes fetched as bytes: the same sector in each of the 4 requests, 3 of them hits.
  EXPECT_EQ(hardware_and_model(r, "fetch1d_u8", sectors), std::make_pair(2048.0, 2048.0));
  EXPECT_EQ(hardware_and_model(r, "fetch1d_u8", hits), std::make_pair(1536.0, 1536.0));
  // A TEX: 8 quads; a warp along a row has two quads in each sector (half of them hit).
  EXPECT_EQ(hardware_and_model(r, "sample2d#1", requests), std::make_pair(4096.0, 4096.0));
  EXPECT_EQ(hardware_and_model(r, "sample2d#1", hits), std::make_pair(2048.0, 2048.0));
  // Bilinear filtering: each quad's 2 x 5 texels, 24 sectors an instruction.
  EXPECT_EQ(hardware_and_model(r, "sample2d#3", sectors), std::make_pair(12288.0, 12288.0));
  // Border addressing: a quad wholly outside counts a sector, a hit, and reads nothing.
  EXPECT_EQ(hardware_and_model(r, "sample2d#5", sectors), std::make_pair(4096.0, 4096.0));
  EXPECT_EQ(hardware_and_model(r, "sample2d#5", hits), std::make_pair(2304.0, 2304.0));
  EXPECT_EQ(hardware_and_model(r, "sample2d#5", "lts__t_sectors_srcunit_tex_op_read.sum"), std::make_pair(1792.0, 1792.0));
  // A TLD's misses go to L2 as one request a line for the whole instruction; a TEX's a request per quad.
  EXPECT_EQ(hardware_and_model(r, "fetch1d#1", "lts__t_requests_srcunit_tex_op_read.sum"), std::make_pair(512.0, 512.0));
  EXPECT_EQ(hardware_and_model(r, "sample2d#1", "lts__t_requests_srcunit_tex_op_read.sum"), std::make_pair(2048.0, 2048.0));
  // The hand-made hypotheses (one request an instruction, sectors merged across the warp) held for 35 of 69.
  EXPECT_EQ(predictions_held(r, kRoot + "texture_probe/predicted.txt"), std::make_pair(std::size_t{35}, std::size_t{69}));
}

TEST(H100TextureProbe, InterpreterFetchesWhatTheH100Fetched) {
  ProbeReplay p(kRoot + "texture_probe", "texture_probe");
  for (const char* s : {"1", "2", "8", "32"}) p.aliases[fmt::format("fetch1d_{}", s)] = fmt::format("fetch1d<{}>", s);
  for (const char* s : {"rows", "tiles", "bilinear", "wrapped", "border"}) p.aliases[s] = "sample2d";
  const std::size_t checksums = replay_checksums(p, kRoot + "h100/texture_probe/run.txt");
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 14u);
}

// The second probe, predicted by warpscope run after the first: 8-byte texels are requests of 8 lanes as 4-byte ones,
// partial warps and quads count only their requests with active lanes, a 16-byte texel's quad is 2 sectors, a quad half
// outside a border texture counts its sectors inside; a one-channel texture returns (x, 0, 0, 0).
TEST(H100TextureProbe, SecondProbeCountersFromPtxMatchNsightCompute) {
  const ValidationReport r = passing_ptx_report("texture_probe2", 622);
  ASSERT_EQ(r.kernels.size(), 12u);
  EXPECT_EQ(hardware_and_model(r, "fetch_f2", "l1tex__t_requests_pipe_tex_mem_texture.sum"), std::make_pair(2048.0, 2048.0));
  EXPECT_EQ(hardware_and_model(r, "fetch_partial", "l1tex__t_requests_pipe_tex_mem_texture.sum"), std::make_pair(1024.0, 1024.0));
  EXPECT_EQ(hardware_and_model(r, "sample_partial", "l1tex__t_requests_pipe_tex_mem_texture.sum"), std::make_pair(1024.0, 1024.0));
  EXPECT_EQ(hardware_and_model(r, "sample_f4", "l1tex__t_sectors_pipe_tex_mem_texture.sum"), std::make_pair(8192.0, 8192.0));
  // A pitched texture's misses reach L2 a request a sector (sample_f4's quads read 2 sectors of a line, 2 requests).
  EXPECT_EQ(hardware_and_model(r, "sample_f4", "lts__t_requests_srcunit_tex_op_read.sum"), std::make_pair(8192.0, 8192.0));
  // So does a TLD of a pitched texture (records in space texture_pitch), where a 1D texture's TLD merges by line.
  EXPECT_EQ(hardware_and_model(r, "fetch2d_int", "lts__t_requests_srcunit_tex_op_read.sum"), std::make_pair(2048.0, 2048.0));
  EXPECT_EQ(predictions_held(r, kRoot + "texture_probe2/predicted.txt"), std::make_pair(std::size_t{55}, std::size_t{66}));
}

TEST(H100TextureProbe, SecondProbeInterpreterFetchesWhatTheH100Fetched) {
  ProbeReplay p(kRoot + "texture_probe2", "texture_probe2");
  for (const char* s : {"border_half", "linear_f32", "linear_u8", "mirror"}) p.aliases[s] = "sample2d";
  // Linear filtering at .3: the texture unit blends in a precision of its own, so the interpreter's single-precision
  // blend differs in the last bits (docs/PTX.md "Textures"); at .5 (texture_probe's bilinear) it is exact.
  const std::size_t checksums = replay_checksums(p, kRoot + "h100/texture_probe2/run.txt", "out", {"linear_f32", "linear_u8"});
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 11u);
}


// CUDA arrays (texture_probe3), predicted with the block-linear layout of open-source drivers (GOBs of 64 bytes x 8
// rows, a 32-byte sector two 16-byte pieces of rows y and y + 1): 28 of 36 held, every L1 count of the 2D launches
// among them; a 1D array turned out to be a row of GOBs too (its 16-byte pieces each in a sector of their own, modelled
// since). The misses are L2 requests: an array's misses go a request a line, as a 1D texture's, not a sector as a
// pitched texture's (modelled since: records of pitched textures are in space texture_pitch).
TEST(H100TextureProbe, CudaArraysAreBlockLinear) {
  const ValidationReport r = passing_ptx_report("texture_probe3", 364);
  ASSERT_EQ(r.kernels.size(), 7u);
  // A warp down a column: each quad's 4 rows are 2 sectors in the block-linear layout (4 in a pitched texture).
  EXPECT_EQ(hardware_and_model(r, "cols", "l1tex__t_sectors_pipe_tex_mem_texture.sum"), std::make_pair(8192.0, 8192.0));
  EXPECT_EQ(hardware_and_model(r, "cols", "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum"), std::make_pair(6144.0, 6144.0));
  EXPECT_EQ(hardware_and_model(r, "tex1d", "lts__t_sectors_srcunit_tex_op_read.sum"), std::make_pair(4096.0, 4096.0));
  EXPECT_EQ(hardware_and_model(r, "cols", "lts__t_requests_srcunit_tex_op_read.sum"), std::make_pair(1024.0, 1024.0));
  EXPECT_EQ(predictions_held(r, kRoot + "texture_probe3/predicted.txt"), std::make_pair(std::size_t{28}, std::size_t{36}));
}

TEST(H100TextureProbe, CudaArraysFetchWhatTheH100Fetched) {
  ProbeReplay p(kRoot + "texture_probe3", "texture_probe3");
  for (const char* s : {"rows", "tiles", "bilinear"}) p.aliases[s] = "sample2d";
  const std::size_t checksums = replay_checksums(p, kRoot + "h100/texture_probe3/run.txt");
  EXPECT_EQ(p.launches, p.script.launches.size());
  EXPECT_EQ(checksums, 6u);
}

}  // namespace
}  // namespace warpscope::test
