// cp.async.bulk.tensor in the interpreter (src/ptx/warp_tensor_copy.cpp; PTX ISA 9.7.9.25.5.1, .tile mode): a box
// of a tensor, described by a tensor map in a 128-byte kernel parameter (read through cvta.param), moved between
// global and shared memory when the instruction runs; out-of-bounds elements of a load read as zeros (or NaN) and
// a store writes the bytes in bounds only; one tma_ld / tma_st record a row of the box (types.hpp kTensorRowMask).
// Every expected value below is worked out by hand from the map, the coordinates and the fill of the tensor; the
// H100's own results are in tests/validation/h100_tensor_probe_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/ptx_error.hpp"
#include "ptx/ptx_test_support.hpp"
#include "ptx/tensor_map.hpp"

namespace warpscope::test {
namespace {

constexpr std::uint32_t kFill = 0xa5a5a5a5u;      // the tile's words before a load
constexpr std::uint32_t kUntouched = 0xeeeeeeeeu;  // the stored tensor's words before a store
constexpr std::uint32_t kTileWords = 1280;         // the loader's tile: 5120 bytes

// One warp. Every thread fills the tile with kFill; thread 0 sets up the mbarrier, expects `bytes`, and copies the
// box at (x0, y0[, z0]) of the map to tile + so; every thread waits for the phase and writes the tile's words
// 0..1279 to out[0..1279], and thread 0 the tile's shared address to out[1280]. A copy that paid its mbarrier
// other than `bytes` would leave the phase open: a deadlock error.
std::string loader(unsigned rank) {
  const std::string coords = rank == 3 ? "{%r1, %r2, %r13}" : "{%r1, %r2}";
  return ptx_module(R"(.visible .entry tload(.param .align 64 .b8 map[128], .param .u64 out, .param .u32 x0,
                             .param .u32 y0, .param .u32 z0, .param .u32 so, .param .u32 bytes)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .shared .align 1024 .b8 tile[5120];
  .shared .align 8 .b64 bar;
  mov.b64 %rd1, map;
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r1, [x0];
  ld.param.u32 %r2, [y0];
  ld.param.u32 %r13, [z0];
  ld.param.u32 %r3, [so];
  ld.param.u32 %r4, [bytes];
  mov.u32 %r5, %tid.x;
  mov.u32 %r6, bar;
  mov.u32 %r7, tile;
  add.s32 %r8, %r7, %r3;
  mov.u32 %r12, 0xa5a5a5a5;
  mov.u32 %r9, %r5;
FILL:
  shl.b32 %r10, %r9, 2;
  add.s32 %r11, %r7, %r10;
  st.shared.u32 [%r11], %r12;
  add.u32 %r9, %r9, 32;
  setp.lt.u32 %p3, %r9, 1280;
  @%p3 bra FILL;
  bar.sync 0;
  setp.ne.u32 %p1, %r5, 0;
  @%p1 bra WAIT;
  mbarrier.init.shared::cta.b64 [%r6], 1;
  fence.mbarrier_init.release.cluster;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r6], %r4;
  cvta.param.u64 %rd2, %rd1;
  cp.async.bulk.tensor.)" + std::to_string(rank) +
                    R"(d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r8], [%rd2, )" + coords + R"(], [%r6];
WAIT:
  bar.sync 0;
LOOP:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r6], 0;
  @!%p2 bra LOOP;
  mov.u32 %r9, %r5;
OUT:
  shl.b32 %r10, %r9, 2;
  add.s32 %r11, %r7, %r10;
  ld.shared.u32 %r14, [%r11];
  mul.wide.u32 %rd4, %r9, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.u32 [%rd5], %r14;
  add.u32 %r9, %r9, 32;
  setp.lt.u32 %p3, %r9, 1280;
  @%p3 bra OUT;
  @%p1 bra DONE;
  st.global.u32 [%rd3+5120], %r7;
DONE:
  ret;
}
)");
}

// One warp fills the tile's word i with i + 1; thread 0 stores the box at (x0, y0) of the map from the tile (the
// kernel's only .shared variable: shared address 0).
const std::string kStorer = ptx_module(R"(.visible .entry tstore(.param .align 64 .b8 map[128], .param .u32 x0,
                              .param .u32 y0)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .shared .align 1024 .b8 tile[4096];
  mov.b64 %rd1, map;
  ld.param.u32 %r1, [x0];
  ld.param.u32 %r2, [y0];
  mov.u32 %r5, %tid.x;
  mov.u32 %r7, tile;
  mov.u32 %r9, %r5;
FILL:
  shl.b32 %r10, %r9, 2;
  add.s32 %r11, %r7, %r10;
  add.u32 %r12, %r9, 1;
  st.shared.u32 [%r11], %r12;
  add.u32 %r9, %r9, 32;
  setp.lt.u32 %p3, %r9, 1024;
  @%p3 bra FILL;
  bar.sync 0;
  setp.ne.u32 %p1, %r5, 0;
  @%p1 bra DONE;
  fence.proxy.async.shared::cta;
  cvta.param.u64 %rd2, %rd1;
  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r1, %r2}], [%r7];
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group 0;
DONE:
  ret;
}
)");

// The run script's tmap(...) for `kernel`'s parameter 0, the buffers named by the run's allocations.
void set_map(PtxRun& run, const std::string& kernel, const std::string& text) {
  const ptx::TensorMap map = ptx::parse_tensor_map(text, [&run](std::string_view name) -> std::optional<std::uint64_t> {
    if (const auto* a = run.state->memory.allocation(std::string(name))) return a->base;
    return std::nullopt;
  });
  const auto bytes = ptx::encode_tensor_map(map);
  run.set_param(kernel, 0, bytes.data(), bytes.size());
}

std::vector<WarpAccess> bulk_records(const std::vector<WarpAccess>& records) {
  std::vector<WarpAccess> out;
  for (const WarpAccess& r : records)
    if (is_bulk(r.op)) out.push_back(r);
  return out;
}

// A run of the loader over tensors it fills: "a", 64 x 16 floats, element (x, y) = (y + 1) * 1000 + x (never 0);
// "c", 16 x 4 x 3 floats, word i = i.
struct LoadRun {
  PtxRun run;
  std::uint64_t a, c, out;
  explicit LoadRun(unsigned rank = 2) : run(loader(rank)) {
    a = run.buffer("a", 64 * 16 * 4);
    c = run.buffer("c", 16 * 4 * 3 * 4);
    out = run.buffer("out", 8192);
    for (std::uint32_t y = 0; y < 16; ++y)
      for (std::uint32_t x = 0; x < 64; ++x) run.write<std::uint32_t>("a", y * 64 + x, (y + 1) * 1000 + x);
    for (std::uint32_t i = 0; i < 16 * 4 * 3; ++i) run.write<std::uint32_t>("c", i, i);
  }
  // The copy's records, and the tile after it in tile[] (tile_at: its shared address).
  std::vector<WarpAccess> rows;
  std::vector<std::uint32_t> tile;
  std::uint32_t tile_at = 0;
  void load(const std::string& map, std::int32_t x0, std::int32_t y0, std::int32_t z0, std::uint32_t so,
            std::uint32_t bytes) {
    set_map(run, "tload", map);
    launch(x0, y0, z0, so, bytes);
  }
  // The same with parameter 0 as set_param() left it.
  void launch(std::int32_t x0, std::int32_t y0, std::int32_t z0, std::uint32_t so, std::uint32_t bytes) {
    run.set_param("tload", 1, &out, 8);
    run.set_param("tload", 2, &x0, 4);
    run.set_param("tload", 3, &y0, 4);
    run.set_param("tload", 4, &z0, 4);
    run.set_param("tload", 5, &so, 4);
    run.set_param("tload", 6, &bytes, 4);
    rows = bulk_records(run.launch_with("tload", {1, 1, 1}, {32, 1, 1}));
    tile.resize(kTileWords);
    for (std::uint32_t w = 0; w < kTileWords; ++w) tile[w] = run.read<std::uint32_t>("out", w);
    tile_at = run.read<std::uint32_t>("out", kTileWords);
  }
};

// Row r of a copy: a tensor row (mask f) of the copy's instruction, a 16-byte global bulk record, descriptor and
// flags as given.
void expect_row(const std::vector<WarpAccess>& rows, std::size_t r, Op op, std::uint64_t global, std::uint64_t shared,
                std::uint64_t bytes, std::uint64_t flags) {
  ASSERT_LT(r, rows.size());
  const WarpAccess& x = rows[r];
  EXPECT_EQ(x.op, op) << "row " << r;
  EXPECT_EQ(x.space, Space::Global) << "row " << r;
  EXPECT_EQ(x.size, 16u) << "row " << r;
  EXPECT_EQ(x.active.bits(), kTensorRowMask) << "row " << r;
  EXPECT_EQ(x.pc, rows[0].pc) << "row " << r;
  EXPECT_TRUE(is_tensor_row(x)) << "row " << r;
  EXPECT_TRUE(bulk_record_ok(x)) << "row " << r;
  EXPECT_EQ(bulk_global(x), global) << "row " << r;
  EXPECT_EQ(bulk_shared(x), shared) << "row " << r;
  EXPECT_EQ(bulk_bytes(x), bytes) << "row " << r;
  EXPECT_EQ(x.addr[3], flags) << "row " << r;
  // Only the first row is the instruction's execution; flag 2 marks a load's row out of bounds above dimension 0.
  EXPECT_EQ(counts_execution(x), (flags & kTensorRowLater) == 0) << "row " << r;
  EXPECT_EQ(continues_tensor_copy(x), (flags & kTensorRowLater) != 0) << "row " << r;
  EXPECT_EQ(tensor_row_outside(x), (flags & kTensorRowOutside) != 0) << "row " << r;
}

// --- loads

// A 16 x 4 box at (16, 2) of "a": shared row r holds a's row 2 + r from x = 16, 64 bytes a row. Element (16 + e,
// 2 + r) = (3 + r) * 1000 + 16 + e. Row r is a's bytes (2 + r) * 256 + 64 on, at tile + 64 r; the rows after the
// first carry flag 1. The tile past the box's 256 bytes keeps its fill.
TEST(PtxTensorCopy, ADenseBoxLandsRowAfterRowOneRecordARow) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (16, 4))", 16, 2, 0, 0, 256);
  EXPECT_EQ(l.tile_at % 1024, 0u);  // .align 1024
  EXPECT_EQ(l.tile[0], 3016u);
  EXPECT_EQ(l.tile[15], 3031u);
  EXPECT_EQ(l.tile[16], 4016u);
  EXPECT_EQ(l.tile[63], 6031u);
  for (std::uint32_t w = 0; w < 64; ++w) EXPECT_EQ(l.tile[w], (3 + w / 16) * 1000 + 16 + w % 16) << w;
  for (std::uint32_t w = 64; w < kTileWords; ++w) ASSERT_EQ(l.tile[w], kFill) << w;
  ASSERT_EQ(l.rows.size(), 4u);
  for (std::uint64_t r = 0; r < 4; ++r)
    expect_row(l.rows, r, Op::BulkLoad, l.a + (2 + r) * 256 + 64, l.tile_at + 64 * r, 64, r == 0 ? 0 : kTensorRowLater);
  EXPECT_EQ(l.rows[0].cta, 0u);
  EXPECT_EQ(l.rows[0].warp, 0u);
}

// The box at (56, 14): x 56..71 of a tensor 64 wide, y 14..17 of one 16 high. In shared memory the elements in
// bounds (e < 8, r < 2) are a's, (15 + r) * 1000 + 56 + e, the rest zeros (the fill is overwritten). The mbarrier
// is paid the whole box, 256 bytes. Every row is recorded whole, 64 bytes from x = 56 (224 bytes into a's row
// 14 + r) whether in bounds or not: rows 0 and 1 (y 14, 15) flags 0 and 1, rows 2 and 3 (y 16, 17: out of bounds
// in dimension 1) flags 1 | 2 = 3.
TEST(PtxTensorCopy, ABoxPartlyOutOfBoundsReadsZerosAndRecordsWholeRows) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (16, 4))", 56, 14, 0, 0, 256);
  EXPECT_EQ(l.tile[0], 15056u);
  EXPECT_EQ(l.tile[7], 15063u);
  EXPECT_EQ(l.tile[8], 0u);
  EXPECT_EQ(l.tile[16], 16056u);
  EXPECT_EQ(l.tile[32], 0u);
  for (std::uint32_t w = 0; w < 64; ++w) {
    const std::uint32_t r = w / 16, e = w % 16;
    EXPECT_EQ(l.tile[w], r < 2 && e < 8 ? (15 + r) * 1000 + 56 + e : 0u) << w;
  }
  EXPECT_EQ(l.tile[64], kFill);
  ASSERT_EQ(l.rows.size(), 4u);
  const std::uint64_t flags[] = {0, 1, 3, 3};
  for (std::uint64_t r = 0; r < 4; ++r)
    expect_row(l.rows, r, Op::BulkLoad, l.a + (14 + r) * 256 + 224, l.tile_at + 64 * r, 64, flags[r]);
}

// A map with l2promo=128B marks every row of a load with flag 4 (an L2 miss fills the whole line); 64B, the
// H100's own sector group, does not.
TEST(PtxTensorCopy, L2PromotionOf128BytesMarksTheRows) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (16, 4), l2promo=128B)", 56, 14, 0, 0, 256);
  ASSERT_EQ(l.rows.size(), 4u);
  const std::uint64_t flags[] = {4, 5, 7, 7};
  for (std::uint64_t r = 0; r < 4; ++r) {
    expect_row(l.rows, r, Op::BulkLoad, l.a + (14 + r) * 256 + 224, l.tile_at + 64 * r, 64, flags[r]);
    EXPECT_TRUE(tensor_row_promoted(l.rows[r])) << r;
  }
  l.load("tmap(a, f32, (64, 16), (16, 4), l2promo=64B)", 16, 2, 0, 0, 256);
  for (const WarpAccess& x : l.rows) EXPECT_FALSE(tensor_row_promoted(x));
  // 256B: flag 8 as well (8 | 4 = 12, 13 on the rows after the first).
  l.load("tmap(a, f32, (64, 16), (16, 4), l2promo=256B)", 16, 2, 0, 0, 256);
  ASSERT_EQ(l.rows.size(), 4u);
  for (std::uint64_t r = 0; r < 4; ++r) {
    EXPECT_EQ(l.rows[r].addr[3], r == 0 ? 12u : 13u) << r;
    EXPECT_TRUE(tensor_row_promoted_pair(l.rows[r])) << r;
  }
}

// The same box with oob=nan: the elements out of bounds read as the float NaN 0x7fffffff.
TEST(PtxTensorCopy, NanFillPutsNansWhereZerosWere) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (16, 4), oob=nan)", 56, 14, 0, 0, 256);
  EXPECT_EQ(l.tile[7], 15063u);
  EXPECT_EQ(l.tile[8], 0x7fffffffu);
  EXPECT_EQ(l.tile[17], 16057u);
  EXPECT_EQ(l.tile[63], 0x7fffffffu);
  EXPECT_EQ(l.tile[64], kFill);
}

// The box at (-4, -2): x -4..11, y -2..1. Rows 0 and 1 (y -2, -1) are zeros and out of bounds in dimension 1
// (flags 2, then 1 | 2); rows 2 and 3 (y 0, 1) hold zeros for x < 0 (e < 4) and a's (r - 1) * 1000 + e - 4 after.
// Each row is recorded from x = -4, 16 bytes before a's row y = r - 2: a + (r - 2) * 256 - 16, 64 bytes.
TEST(PtxTensorCopy, ABoxAboveAndLeftOfTheTensorFlagsItsFirstRowOutside) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (16, 4))", -4, -2, 0, 0, 256);
  for (std::uint32_t w = 0; w < 32; ++w) EXPECT_EQ(l.tile[w], 0u) << w;
  EXPECT_EQ(l.tile[32], 0u);
  EXPECT_EQ(l.tile[35], 0u);
  EXPECT_EQ(l.tile[36], 1000u);
  EXPECT_EQ(l.tile[47], 1011u);
  EXPECT_EQ(l.tile[52], 2000u);
  EXPECT_EQ(l.tile[63], 2011u);
  ASSERT_EQ(l.rows.size(), 4u);
  const std::uint64_t flags[] = {2, 3, 1, 1};
  for (std::uint64_t r = 0; r < 4; ++r)
    expect_row(l.rows, r, Op::BulkLoad, l.a - 528 + 256 * r, l.tile_at + 64 * r, 64, flags[r]);
}

// A 32 x 8 box of 128-byte rows under the 128B swizzle (CUTLASS Swizzle<3,4,3>): the 16-byte chunk c of the row
// at shared address A lands at chunk c ^ ((A >> 7) & 7). Element (x, y) = (y + 1) * 1000 + x.
TEST(PtxTensorCopy, A128ByteSwizzleMovesEachRowsChunks) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (32, 8), swizzle=128B)", 0, 0, 0, 0, 1024);
  ASSERT_EQ(l.tile_at % 1024, 0u);
  // Row 0 stays: word 0 = (0, 0), word 4 = (4, 0).
  EXPECT_EQ(l.tile[0], 1000u);
  EXPECT_EQ(l.tile[4], 1004u);
  // Row 1 (words 32..63): chunks 0 and 1 trade places: word 32 holds x = 4, word 36 x = 0.
  EXPECT_EQ(l.tile[32], 2004u);
  EXPECT_EQ(l.tile[36], 2000u);
  // Row 5: its chunk 7 (words 188..191) holds chunk 7 ^ 5 = 2, x = 8..11.
  EXPECT_EQ(l.tile[188], 6008u);
  EXPECT_EQ(l.tile[189], 6009u);
  // Row 7: chunk 0 (word 224) holds chunk 7, x = 28; the last word (chunk 7, word 3) holds chunk 0's x = 3.
  EXPECT_EQ(l.tile[224], 8028u);
  EXPECT_EQ(l.tile[255], 8003u);
  // Every element once, nothing past the box's 1024 bytes.
  std::vector<std::uint32_t> got(l.tile.begin(), l.tile.begin() + 256), want;
  for (std::uint32_t y = 0; y < 8; ++y)
    for (std::uint32_t x = 0; x < 32; ++x) want.push_back((y + 1) * 1000 + x);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(l.tile[256], kFill);
  // The records keep the shared addresses before the swizzle: row r at tile + 128 r.
  ASSERT_EQ(l.rows.size(), 8u);
  for (std::uint64_t r = 0; r < 8; ++r)
    expect_row(l.rows, r, Op::BulkLoad, l.a + 256 * r, l.tile_at + 128 * r, 128, r == 0 ? 0 : kTensorRowLater);
}

// The swizzle is on the absolute shared address: the same box 128 bytes into the tile (tensor_probe's "so128")
// starts on pattern row 1, so its row 0 (at 128) swaps chunks 0 and 1, its row 6 (at 896, pattern row 7) puts
// chunk 0 at chunk 7, and its row 7 (at 1024, pattern row 0 again) stays.
TEST(PtxTensorCopy, TheSwizzleFollowsTheAbsoluteSharedAddress) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (32, 8), swizzle=128B)", 0, 0, 0, 128, 1024);
  ASSERT_EQ(l.tile_at % 1024, 0u);
  for (std::uint32_t w = 0; w < 32; ++w) EXPECT_EQ(l.tile[w], kFill) << w;  // before the box
  EXPECT_EQ(l.tile[32], 1004u);
  EXPECT_EQ(l.tile[36], 1000u);
  EXPECT_EQ(l.tile[252], 7000u);  // (896 + 7 * 16) / 4
  EXPECT_EQ(l.tile[224], 7028u);  // 896 / 4: chunk 0 holds chunk 7, x = 28
  EXPECT_EQ(l.tile[256], 8000u);
  EXPECT_EQ(l.tile[287], 8031u);
  EXPECT_EQ(l.tile[288], kFill);  // after the box: 128 + 1024 bytes
  ASSERT_EQ(l.rows.size(), 8u);
  expect_row(l.rows, 0, Op::BulkLoad, l.a, l.tile_at + 128, 128, 0);
  expect_row(l.rows, 1, Op::BulkLoad, l.a + 256, l.tile_at + 256, 128, kTensorRowLater);
}

// A 4 x 2 x 3 box at (4, 1, 0) of "c" (16 x 4 x 3 floats, word i = i; dense strides 64 and 256 bytes): rows run
// through dimension 1 first, (y, z) = (1, 0), (2, 0), (1, 1), (2, 1), (1, 2), (2, 2), each 16 bytes from
// c + 16 + 64 y + 256 z, packed 16 bytes apart in shared memory. Row r holds words 256 z / 4 + 16 y + 4 + e.
TEST(PtxTensorCopy, A3dBoxRunsThroughDimensionOneFirst) {
  LoadRun l(3);
  l.load("tmap(c, f32, (16, 4, 3), (4, 2, 3))", 4, 1, 0, 0, 96);
  const std::uint64_t global[] = {80, 144, 336, 400, 592, 656};
  const std::uint32_t first_word[] = {20, 36, 84, 100, 148, 164};
  ASSERT_EQ(l.rows.size(), 6u);
  for (std::uint64_t r = 0; r < 6; ++r) {
    expect_row(l.rows, r, Op::BulkLoad, l.c + global[r], l.tile_at + 16 * r, 16, r == 0 ? 0 : kTensorRowLater);
    for (std::uint32_t e = 0; e < 4; ++e) EXPECT_EQ(l.tile[4 * r + e], first_word[r] + e) << r << " " << e;
  }
  EXPECT_EQ(l.tile[24], kFill);
}

// Element strides (1, 2): a 16 x 4 box at (0, 1) moves rows y = 1 and 3, 128 bytes in all.
TEST(PtxTensorCopy, ElementStridesSkipRows) {
  LoadRun l;
  l.load("tmap(a, f32, (64, 16), (16, 4), estrides=(1, 2))", 0, 1, 0, 0, 128);
  EXPECT_EQ(l.tile[0], 2000u);
  EXPECT_EQ(l.tile[16], 4000u);
  EXPECT_EQ(l.tile[31], 4015u);
  EXPECT_EQ(l.tile[32], kFill);
  ASSERT_EQ(l.rows.size(), 2u);
  expect_row(l.rows, 0, Op::BulkLoad, l.a + 256, l.tile_at, 64, 0);
  expect_row(l.rows, 1, Op::BulkLoad, l.a + 768, l.tile_at + 64, 64, kTensorRowLater);
}

// --- stores

struct StoreRun {
  PtxRun run{kStorer};
  std::uint64_t w = run.buffer("w", 64 * 16 * 4);
  std::vector<WarpAccess> rows;
  void store(const std::string& map, std::int32_t x0, std::int32_t y0) {
    for (std::uint32_t i = 0; i < 1024; ++i) run.write<std::uint32_t>("w", i, kUntouched);
    set_map(run, "tstore", map);
    run.set_param("tstore", 1, &x0, 4);
    run.set_param("tstore", 2, &y0, 4);
    rows = bulk_records(run.launch_with("tstore", {1, 1, 1}, {32, 1, 1}));
  }
  std::uint32_t word(std::uint32_t i) { return run.read<std::uint32_t>("w", i); }
};

// A tensor 62 floats wide (rows 256 bytes apart) and 16 high, the box 16 x 4 at (48, 14): in bounds x 48..61
// (14 floats, 56 bytes) of rows 14 and 15. Tile word i holds i + 1, so w[64 y + 48 + e] = 16 (y - 14) + e + 1 there;
// x 62 and 63 of those rows (inside the stride, outside the tensor) and every other word stay untouched. Two
// records, 56 bytes each, from w + 256 y + 192 and tile + 64 r.
TEST(PtxTensorCopy, AStoreWritesAndRecordsOnlyTheBytesInBounds) {
  StoreRun s;
  s.store("tmap(w, f32, (62, 16), (16, 4), strides=(256))", 48, 14);
  EXPECT_EQ(s.word(944), 1u);  // 64 * 14 + 48
  EXPECT_EQ(s.word(957), 14u);
  EXPECT_EQ(s.word(958), kUntouched);
  EXPECT_EQ(s.word(959), kUntouched);
  EXPECT_EQ(s.word(1008), 17u);  // 64 * 15 + 48
  EXPECT_EQ(s.word(1021), 30u);
  EXPECT_EQ(s.word(1022), kUntouched);
  for (std::uint32_t i = 0; i < 1024; ++i) {
    const std::uint32_t y = i / 64, x = i % 64;
    const bool in = y >= 14 && x >= 48 && x < 62;
    EXPECT_EQ(s.word(i), in ? 16 * (y - 14) + (x - 48) + 1 : kUntouched) << i;
  }
  ASSERT_EQ(s.rows.size(), 2u);
  expect_row(s.rows, 0, Op::BulkStore, s.w + 14 * 256 + 192, 0, 56, 0);
  expect_row(s.rows, 1, Op::BulkStore, s.w + 15 * 256 + 192, 64, 56, kTensorRowLater);
}

// The box at (-8, 12): x 0..7 of rows 12..15 are in bounds, box elements 8..15 of each row, 32 bytes into the
// row in shared memory: w[64 (12 + r) + x] = 16 r + x + 8 + 1, recorded from w + 256 (12 + r) and tile + 64 r + 32.
TEST(PtxTensorCopy, AStoreLeftOfTheTensorStartsItsRecordsInsideTheSharedRow) {
  StoreRun s;
  s.store("tmap(w, f32, (64, 16), (16, 4))", -8, 12);
  EXPECT_EQ(s.word(768), 9u);  // 64 * 12
  EXPECT_EQ(s.word(775), 16u);
  EXPECT_EQ(s.word(776), kUntouched);
  EXPECT_EQ(s.word(832), 25u);  // 64 * 13
  EXPECT_EQ(s.word(767), kUntouched);
  ASSERT_EQ(s.rows.size(), 4u);
  for (std::uint64_t r = 0; r < 4; ++r)
    expect_row(s.rows, r, Op::BulkStore, s.w + (12 + r) * 256, 64 * r + 32, 32, r == 0 ? 0 : kTensorRowLater);
}

// A store with no byte in bounds (right of, below and above the tensor) writes nothing and is one record of 0
// bytes, from the tensor's base and the tile: the instruction still ran.
TEST(PtxTensorCopy, AStoreWhollyOutOfBoundsIsOneEmptyRecord) {
  const std::pair<std::int32_t, std::int32_t> corners[] = {{64, 0}, {0, 16}, {0, -4}};
  for (const auto& [x0, y0] : corners) {
    StoreRun s;
    s.store("tmap(w, f32, (64, 16), (16, 4))", x0, y0);
    for (std::uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(s.word(i), kUntouched) << x0 << "," << y0 << " word " << i;
    ASSERT_EQ(s.rows.size(), 1u) << x0 << "," << y0;
    expect_row(s.rows, 0, Op::BulkStore, s.w, 0, 0, 0);
  }
}

// A 128B-swizzled store reads each row's chunks where a load would have put them: row 1 of the tile (shared 128..255,
// pattern row 1) has x = 0..3 in chunk 1 (words 36..39, values 37..40) and x = 4..7 in chunk 0 (words 32..35);
// x = 31 is chunk 7's last word, in chunk 6: word 32 + 24 + 3 = 59, value 60. Row 0 stays: w[x] = x + 1.
TEST(PtxTensorCopy, ASwizzledStoreReadsTheMovedChunks) {
  StoreRun s;
  s.store("tmap(w, f32, (64, 16), (32, 2), swizzle=128B)", 0, 0);
  EXPECT_EQ(s.word(0), 1u);
  EXPECT_EQ(s.word(31), 32u);
  EXPECT_EQ(s.word(64), 37u);
  EXPECT_EQ(s.word(67), 40u);
  EXPECT_EQ(s.word(68), 33u);
  EXPECT_EQ(s.word(95), 60u);
  EXPECT_EQ(s.word(32), kUntouched);
  EXPECT_EQ(s.word(128), kUntouched);
  ASSERT_EQ(s.rows.size(), 2u);
  expect_row(s.rows, 0, Op::BulkStore, s.w, 0, 128, 0);
  expect_row(s.rows, 1, Op::BulkStore, s.w + 256, 128, 128, kTensorRowLater);
}

// --- errors

// What the H100 stops the kernel for, and a map the run script did not write: errors naming the thread, the
// instruction and the problem.
TEST(PtxTensorCopy, BadCopiesAreErrorsNamingTheProblem) {
  struct Case {
    unsigned rank;
    const char* map;  // nullptr: 128 zero bytes
    std::int32_t x0;
    std::uint32_t so;
    const char* what;
  };
  const Case cases[] = {
      // 2 floats = 8 bytes into the tensor.
      {2, "tmap(a, f32, (64, 16), (16, 4))", 2, 0,
       "the box starts at element 2 of dimension 0, 8 bytes from the tensor's start, not a multiple of 16 (the H100 "
       "stops the kernel: illegal instruction)"},
      {2, "tmap(a, f32, (64, 16), (16, 4))", -2, 0, "the box starts at element -2 of dimension 0, -8 bytes"},
      // 8 bytes of u8 are as misaligned as 2 floats.
      {2, "tmap(a, u8, (256, 16), (16, 4))", 8, 0, "the box starts at element 8 of dimension 0, 8 bytes"},
      // The tile is the first .shared variable (shared address 0): 64 bytes into it.
      {2, "tmap(a, f32, (64, 16), (16, 4))", 0, 64,
       "a tensor copy's shared address 0x40 is not a multiple of 128 (the H100 stops the kernel: misaligned address)"},
      // The map is parameter 0, at the param window's start (device_memory.hpp kParamWindow = 0x400000000000).
      {2, nullptr, 0, 0, "the tensor map at 0x400000000000 is not one the run script made"},
      {3, "tmap(a, f32, (64, 16), (16, 4))", 0, 0, "a 3-d copy through a tensor map of rank 2"},
      // 64 x 32 floats = 8192 bytes, more than the CTA's shared memory (the 5 KB tile, the mbarrier, 1 KB reserved).
      {2, "tmap(a, f32, (64, 16), (64, 32))", 0, 0, "the box's 8192 bytes at shared 0x0 run past the CTA's"},
  };
  for (const Case& k : cases) {
    LoadRun l(k.rank);
    try {
      if (k.map) {
        l.load(k.map, k.x0, 0, 0, k.so, 256);
      } else {
        const std::array<std::uint8_t, ptx::kTensorMapBytes> zeros{};
        l.run.set_param("tload", 0, zeros.data(), zeros.size());
        l.launch(k.x0, 0, 0, k.so, 256);
      }
      ADD_FAILURE() << "no error: " << k.what;
    } catch (const ptx::PtxError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(k.what), std::string::npos) << m;
      EXPECT_NE(m.find("thread (0,0,0)"), std::string::npos) << m;
      EXPECT_NE(m.find("cp.async.bulk.tensor." + std::to_string(k.rank) + "d"), std::string::npos) << m;
    }
  }
}

// --- the param window

// cvta.param makes a parameter's address generic (device_memory.hpp kParamWindow + its offset: the blob after an
// 8-byte pointer, aligned to 64, is at 64); a generic ld there reads the parameter's bytes. blob byte i = 0x80 + i,
// so the word lane t reads at 4 t is 0x83828180 + 0x04040404 t (little endian) and the 8 bytes at 8 are
// 0x8f8e8d8c8b8a8988. Reading a parameter is no memory traffic: the kernel's records are its three stores.
TEST(PtxTensorCopy, AGenericLoadThroughCvtaParamReadsTheParameter) {
  PtxRun run(ptx_module(R"(.visible .entry pread(.param .u64 out, .param .align 64 .b8 blob[128])
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<10>;
  mov.b64 %rd1, blob;
  cvta.param.u64 %rd2, %rd1;
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd2, %rd4;
  ld.u32 %r2, [%rd5];
  add.s64 %rd6, %rd3, %rd4;
  st.global.u32 [%rd6], %r2;
  ld.u64 %rd7, [%rd2+8];
  st.global.u64 [%rd3+128], %rd7;
  st.global.u64 [%rd3+136], %rd2;
  ret;
}
)"));
  const std::uint64_t out = run.buffer("out", 256);
  std::array<std::uint8_t, 128> blob{};
  for (std::size_t i = 0; i < blob.size(); ++i) blob[i] = static_cast<std::uint8_t>(0x80 + i);
  run.set_param("pread", 0, &out, 8);
  run.set_param("pread", 1, blob.data(), blob.size());
  const auto rec = run.launch_with("pread", {1, 1, 1}, {32, 1, 1});
  EXPECT_EQ(run.read<std::uint32_t>("out", 0), 0x83828180u);
  EXPECT_EQ(run.read<std::uint32_t>("out", 1), 0x87868584u);
  EXPECT_EQ(run.read<std::uint32_t>("out", 31), 0xfffefdfcu);
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(run.read<std::uint32_t>("out", t), 0x83828180u + 0x04040404u * t) << t;
  EXPECT_EQ(run.read<std::uint64_t>("out", 16), 0x8f8e8d8c8b8a8988ull);
  EXPECT_EQ(run.read<std::uint64_t>("out", 17), 0x0000400000000040ull);
  ASSERT_EQ(rec.size(), 3u);
  for (const WarpAccess& r : rec) {
    EXPECT_EQ(r.op, Op::Store);
    EXPECT_EQ(r.space, Space::Global);
  }
}

}  // namespace
}  // namespace warpscope::test
