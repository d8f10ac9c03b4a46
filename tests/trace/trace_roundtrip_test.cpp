// Writing then reading a trace gives back every field of every record and
// kernel, in both formats: every space, op, size and cache operator, edge
// masks, every address shape (broadcast, strides of any sign and size, random,
// near 2^63 and 2^64; each lane aligned to the record's size, as the formats
// require), many chunks, several kernels with line tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

constexpr Space kSpaces[] = {Space::Global, Space::Local, Space::Shared, Space::Const, Space::Texture, Space::TexturePitch};
constexpr Op kOps[] = {Op::Load, Op::Store, Op::Atomic, Op::Reduction};
constexpr std::uint8_t kSizes[] = {1, 2, 4, 8, 16};
constexpr CacheOp kCacheOps[] = {CacheOp::Default, CacheOp::Ca, CacheOp::Cg, CacheOp::Cs, CacheOp::Lu,
                                 CacheOp::Cv,      CacheOp::Nc, CacheOp::Wb, CacheOp::Wt};
constexpr std::uint32_t kMasks[] = {0x0u,        0x1u,        0xffffffffu, 0x80000000u, 0x80000001u,
                                    0x00f0f00fu, 0xaaaaaaaau, 0x00010000u, 0x7ffffffeu};

std::vector<KernelInfo> three_kernels() {
  KernelInfo a;
  a.name = "transpose";
  a.grid = {64, 64, 1};
  a.block = {32, 8, 1};
  a.dynamic_shared = 0;
  a.static_shared = 4224;
  a.registers = 32;
  a.arch = "sm_90";
  a.gpu = "NVIDIA H100 80GB HBM3";
  a.source = "warpscope trace";
  a.lines = {{0x0, {"transpose.cu", 10}}, {0x1a0, {"transpose.cu", 42}}, {0x1b0, {"dir with space/t.cuh", 7}},
             {0xffffffffffff0000ull, {"transpose.cu", 4000000000u}}};
  KernelInfo b;  // every field at its extreme
  b.name = "void k<\"quoted\" #hash\\back>(float*, int)\n\t\x01 \xc3\xa9";
  b.grid = {UINT32_MAX, 65535, 65535};
  b.block = {1024, 1, 64};
  b.dynamic_shared = UINT32_MAX;
  b.static_shared = 49152;
  b.registers = 255;
  b.arch = "";
  b.gpu = "=";
  b.source = "synthetic";
  KernelInfo c;  // defaults only
  return {a, b, c};
}

// Hand-built addresses for lane l of record variant v.
std::uint64_t shape(int v, int l, std::mt19937_64& rng) {
  const auto ul = static_cast<std::uint64_t>(l);
  switch (v % 12) {
    case 0: return 0x7f0000000000ull + 4 * ul;                   // coalesced
    case 1: return 0x1000;                                      // broadcast (stride 0)
    case 2: return 0x10000 + 128 * ul;                          // stride one line
    case 3: return 0x20000 - 4 * ul;                            // negative stride
    case 4: return 0x7fffffffffffffe0ull + 8 * ul;              // crosses 2^63
    case 5: return 0xfffffffffffffff0ull + 4 * ul;              // wraps past 2^64
    case 6: return rng();                                       // random 64-bit
    case 7: return ul * (1ull << 62);                           // stride * gap overflows
    case 8: return 0x8000000000000000ull - (ul << 40);          // huge negative stride
    case 9: return ul == 5 ? 0x99 : 0x4000 + 4 * ul;            // stride broken by one lane
    case 10: return (ul * 2654435761u) % 4096;                  // permuted within a page
    default: return 0xffffffffffffffffull - ul;                 // top of the address space
  }
}

std::vector<WarpAccess> every_field_records() {
  std::vector<WarpAccess> out;
  std::mt19937_64 rng(12345);
  int v = 0;
  for (Space s : kSpaces)
    for (Op o : kOps)
      for (std::uint8_t size : kSizes)
        for (CacheOp c : kCacheOps) {
          const std::uint32_t mask = kMasks[static_cast<unsigned>(v) % std::size(kMasks)];
          WarpAccess r = record(static_cast<std::uint32_t>(v % 3), static_cast<std::uint64_t>(v) * 16 % 1000, mask,
                                [&](int l) { return shape(v, l, rng); });
          r.space = s;
          r.op = o;
          r.size = size;
          r.cache = c;
          for (auto& a : r.addr) a &= ~std::uint64_t{size - 1u};  // formats refuse misaligned lanes
          r.cta = v % 7 == 0 ? UINT32_MAX : static_cast<std::uint32_t>(v / 5);
          r.warp = v % 11 == 0 ? std::uint16_t{65535} : static_cast<std::uint16_t>(v % 32);
          const std::int16_t sms[] = {-1, 0, 131, 32767, -32768};
          r.sm = sms[v % 5];
          out.push_back(r);
          ++v;
        }
  // PCs at the extremes, going backwards, and the same record twice.
  WarpAccess top = record(1, UINT64_MAX, 0xffffffffu, [](int l) { return 0x100u * unsigned(l); });
  out.push_back(top);
  out.push_back(top);
  out.push_back(record(1, 0, 0x1, [](int) { return 0x2c; }));
  out.push_back(record(0, 0x8000000000000000ull, 0x2, [](int) { return 0x0; }));
  return out;
}

void expect_same(const TraceContent& got, const std::vector<KernelInfo>& kernels,
                 const std::vector<WarpAccess>& records) {
  ASSERT_EQ(got.kernels.size(), kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    KernelInfo want = kernels[i];
    want.id = static_cast<std::uint32_t>(i);
    EXPECT_EQ(got.kernels[i], want) << "kernel " << i;
  }
  ASSERT_EQ(got.records.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const WarpAccess& g = got.records[i];
    const WarpAccess& w = records[i];
    EXPECT_EQ(g.pc, w.pc) << i;
    EXPECT_EQ(g.kernel, w.kernel) << i;
    EXPECT_EQ(g.cta, w.cta) << i;
    EXPECT_EQ(g.warp, w.warp) << i;
    EXPECT_EQ(g.sm, w.sm) << i;
    EXPECT_EQ(g.space, w.space) << i;
    EXPECT_EQ(g.op, w.op) << i;
    EXPECT_EQ(g.size, w.size) << i;
    EXPECT_EQ(g.cache, w.cache) << i;
    EXPECT_EQ(g.active, w.active) << i;
    EXPECT_EQ(g.addr, w.addr) << i;
  }
  EXPECT_FALSE(got.summary.recovered);
  EXPECT_EQ(got.summary.records, records.size());
}

class TraceRoundTrip : public ::testing::TestWithParam<TraceFormat> {};

TEST_P(TraceRoundTrip, EveryFieldValue) {
  const auto path = scratch_dir() / (std::string("every_field.") + (GetParam() == TraceFormat::Text ? "txt" : "wst"));
  const auto kernels = three_kernels();
  const auto records = every_field_records();
  write_all(path, GetParam(), kernels, records);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".partial"));
  expect_same(read_all(path), kernels, records);
}

TEST_P(TraceRoundTrip, EmptyTrace) {
  const auto path = scratch_dir() / "empty.trace";
  write_all(path, GetParam(), {}, {});
  const auto got = read_all(path);
  EXPECT_TRUE(got.kernels.empty());
  EXPECT_TRUE(got.records.empty());
}

TEST_P(TraceRoundTrip, KernelsWithoutRecords) {
  const auto path = scratch_dir() / "no_records.trace";
  write_all(path, GetParam(), three_kernels(), {});
  expect_same(read_all(path), three_kernels(), {});
}

TEST_P(TraceRoundTrip, RecordsBetweenKernels) {
  // begin_kernel between records; records of an earlier kernel after a later one began.
  const auto path = scratch_dir() / "interleaved.trace";
  const auto kernels = three_kernels();
  std::vector<WarpAccess> written;
  auto sink = create_trace(path, GetParam());
  for (std::uint32_t k = 0; k < 3; ++k) {
    EXPECT_EQ(sink->begin_kernel(kernels[k]), k);
    for (std::uint32_t j = 0; j <= k; ++j) {
      written.push_back(record(j, 0x10 * k, 0xffffffffu, [&](int l) { return 0x1000u * k + 4u * unsigned(l); }));
      sink->write(written.back());
    }
  }
  sink->close();
  auto src = open_trace(path);
  WarpAccess r;
  for (const auto& w : written) {
    ASSERT_TRUE(src->next(r));
    EXPECT_EQ(r.kernel, w.kernel);
    EXPECT_EQ(r.addr, w.addr);
    EXPECT_GT(src->kernels().size(), r.kernel);
  }
  EXPECT_FALSE(src->next(r));
  EXPECT_EQ(src->kernels().size(), 3u);
}

INSTANTIATE_TEST_SUITE_P(Formats, TraceRoundTrip, ::testing::Values(TraceFormat::Native, TraceFormat::Text),
                         [](const auto& p) { return std::string(to_string(p.param)); });

// ldmatrix / stmatrix records: shared, 16 bytes, the row lanes of 1, 2 or 4 matrices.
TEST_P(TraceRoundTrip, MatrixRecords) {
  const auto path = scratch_dir() / (std::string("matrix.") + (GetParam() == TraceFormat::Text ? "txt" : "wst"));
  std::vector<WarpAccess> records;
  for (Op o : {Op::LoadMatrix, Op::StoreMatrix})
    for (std::uint32_t mask : {0xffu, 0xffffu, 0xffffffffu}) {
      WarpAccess r = record(0, 0x40 * records.size(), mask, [](int l) { return 0x400u + 144u * static_cast<unsigned>(l); });
      r.space = Space::Shared;
      r.op = o;
      r.size = 16;
      records.push_back(r);
      WarpAccess plain = r;  // a plain LDS.128 between them keeps its op
      plain.op = o == Op::LoadMatrix ? Op::Load : Op::Store;
      records.push_back(plain);
    }
  const std::vector<KernelInfo> kernels(1);
  write_all(path, GetParam(), kernels, records);
  expect_same(read_all(path), kernels, records);
}

// cp.async: the read and write of one LDGSTS, ca and cg, in both forms (types.hpp Op::AsyncCopy).
TEST_P(TraceRoundTrip, AsyncCopyRecords) {
  const auto path = scratch_dir() / (std::string("ldgsts.") + (GetParam() == TraceFormat::Text ? "txt" : "wst"));
  std::vector<WarpAccess> records;
  for (const auto& [size, cache] : std::vector<std::pair<std::uint8_t, CacheOp>>{
           {4, CacheOp::Ca}, {8, CacheOp::Ca}, {16, CacheOp::Ca}, {16, CacheOp::Cg}}) {
    const unsigned s = size;
    WarpAccess read = record(0, 0x40 * records.size(), 0xaaaaaaaau, [s](int l) { return 0x10000u + s * static_cast<unsigned>(l); });
    read.op = Op::AsyncCopy;
    read.size = size;
    read.cache = cache;
    records.push_back(read);
    WarpAccess write = read;
    write.space = Space::Shared;
    write.active = LaneMask::full();
    for (unsigned l = 0; l < kWarpSize; ++l) write.addr[l] = 0x200u + 2u * s * l;
    records.push_back(write);
    WarpAccess plain = read;  // a plain load after them keeps its op
    plain.op = Op::Load;
    records.push_back(plain);
  }
  const std::vector<KernelInfo> kernels(1);
  write_all(path, GetParam(), kernels, records);
  expect_same(read_all(path), kernels, records);
}

// Bulk copies (types.hpp Op::BulkLoad / BulkStore): a descriptor in lanes 0-2, between ordinary records that keep
// their op, counts from 16 B to 1 MiB.
TEST_P(TraceRoundTrip, BulkCopyRecords) {
  const auto path = scratch_dir() / (std::string("tma.") + (GetParam() == TraceFormat::Text ? "txt" : "wst"));
  std::vector<WarpAccess> records;
  for (const auto& [op, bytes] : std::vector<std::pair<Op, std::uint64_t>>{
           {Op::BulkLoad, 16}, {Op::BulkStore, 4096}, {Op::BulkLoad, kMaxBulkBytes}, {Op::BulkStore, 144}}) {
    WarpAccess r = record(0, 0x40 * records.size(), 0x7u, [](int) { return 0u; });
    r.op = op;
    r.size = 16;
    r.addr = {0x7f0000000010ull + 0x1000 * records.size(), 0x400, bytes};
    records.push_back(r);
    WarpAccess plain = record(0, 0x40 * records.size(), 0xffffffffu, [](int l) { return 0x10000u + 4u * static_cast<unsigned>(l); });
    records.push_back(plain);
  }
  const std::vector<KernelInfo> kernels(1);
  write_all(path, GetParam(), kernels, records);
  expect_same(read_all(path), kernels, records);
  // Neither writer takes a descriptor that cannot be one: 4 lanes, or a count of 8 bytes.
  for (const auto& bad : {std::pair<std::uint32_t, std::uint64_t>{0xfu, 64}, {0x7u, 8}}) {
    WarpAccess r = records[0];
    r.active = LaneMask(bad.first);
    r.addr[2] = bad.second;
    if (bad.first == 0xfu) r.addr[3] = 0x40;
    EXPECT_THROW(write_all(path, GetParam(), kernels, {r}), Error);
  }
}

TEST(NativeTrace, ManySmallChunks) {
  const auto path = scratch_dir() / "many_chunks.wst";
  const auto kernels = three_kernels();
  auto records = every_field_records();
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.kernel < b.kernel; });
  for (std::uint32_t per_chunk : {1u, 2u, 7u, 1000u}) {
    TraceWriteOptions o;
    o.records_per_chunk = per_chunk;
    o.zstd_level = per_chunk == 7 ? 19 : -5;
    write_all(path, TraceFormat::Native, kernels, records, o);
    expect_same(read_all(path), kernels, records);
    // The footer counts the chunks: every kernel's records (kernel blocks all
    // come first here) fill ceil(n / per_chunk) chunks.
    const std::string b = read_bytes(path);
    std::uint64_t chunks = 0;
    std::memcpy(&chunks, b.data() + b.size() - 8, 8);
    EXPECT_EQ(chunks, (records.size() + per_chunk - 1) / per_chunk) << per_chunk;
  }
}

TEST(NativeTrace, SizeLimitsAndBadRecordsAreRefusedByTheWriter) {
  const auto path = scratch_dir() / "bad_writes.wst";
  auto sink = create_trace(path, TraceFormat::Native);
  WarpAccess r;
  EXPECT_THROW(sink->write(r), Error);  // no kernel begun
  sink->begin_kernel({});
  r.size = 3;
  EXPECT_THROW(sink->write(r), Error);
  r.size = 32;
  EXPECT_THROW(sink->write(r), Error);
  r.size = 4;
  r.space = static_cast<Space>(9);
  EXPECT_THROW(sink->write(r), Error);
  r.space = Space::Global;  // ldmatrix / stmatrix are 16-byte shared accesses
  r.op = Op::LoadMatrix;
  EXPECT_THROW(sink->write(r), Error);
  r.space = Space::Shared;
  EXPECT_THROW(sink->write(r), Error);
  r.size = 16;
  r.cache = CacheOp::Cg;
  EXPECT_THROW(sink->write(r), Error);
  // cp.async records: global or shared, 4, 8 or 16 bytes, ca, or cg of 16 bytes
  r.op = Op::AsyncCopy;
  r.space = Space::Global;
  r.size = 8;
  r.cache = CacheOp::Cg;
  EXPECT_THROW(sink->write(r), Error);
  r.cache = CacheOp::Default;
  EXPECT_THROW(sink->write(r), Error);
  r.cache = CacheOp::Ca;
  r.space = Space::Local;
  EXPECT_THROW(sink->write(r), Error);
  r.space = Space::Shared;
  r.size = 2;
  EXPECT_THROW(sink->write(r), Error);
  r.op = Op::Load;
  r.cache = CacheOp::Default;
  r.size = 4;
  KernelInfo big;
  big.name.assign((1u << 20) + 1, 'x');
  EXPECT_THROW(sink->begin_kernel(big), Error);
  TraceWriteOptions o;
  o.records_per_chunk = 0;
  EXPECT_THROW(create_trace(path, TraceFormat::Native, o), InputError);
  o.records_per_chunk = 1;
  o.zstd_level = 1000;
  EXPECT_THROW(create_trace(path, TraceFormat::Native, o), InputError);
}

TEST(NativeTrace, UnclosedWriterLeavesNothingBehind) {
  const auto path = scratch_dir() / "unclosed.wst";
  {
    auto sink = create_trace(path, TraceFormat::Native);
    sink->begin_kernel({});
    sink->write(record(0, 0, 1, [](int) { return 0; }));
    EXPECT_TRUE(std::filesystem::exists(path.string() + ".partial"));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".partial"));
}

TEST(NativeTrace, UnwritableOutputIsAnInputError) {
  EXPECT_THROW(create_trace("/nonexistent-dir/x.wst", TraceFormat::Native), InputError);
  EXPECT_THROW(open_trace(scratch_dir() / "does-not-exist.wst"), InputError);
  EXPECT_THROW(open_trace(scratch_dir()), InputError);
}

TEST(TraceFormatNames, ExtensionPicksTheFormat) {
  EXPECT_EQ(trace_format_for_path("a.txt"), TraceFormat::Text);
  EXPECT_EQ(trace_format_for_path("dir.x/a.WSTXT"), TraceFormat::Text);
  EXPECT_EQ(trace_format_for_path("a.wst"), TraceFormat::Native);
  EXPECT_EQ(trace_format_for_path("a"), TraceFormat::Native);
  EXPECT_EQ(parse_trace_format("text"), TraceFormat::Text);
  EXPECT_EQ(parse_trace_format("native"), TraceFormat::Native);
  EXPECT_FALSE(parse_trace_format("accelsim").has_value());
}

}  // namespace
}  // namespace warpscope::test
