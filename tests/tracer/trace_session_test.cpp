// The host half of the tracer: the injection library's message stream becomes
// a trace (tracer/trace_session.hpp). The SASS of the launched kernel is the
// committed sm_90 listing of tests/tracer/data/cacheops.cu.
#include <gtest/gtest.h>

#include <filesystem>

#include "trace/trace_test_util.hpp"
#include "tracer/stream_builder.hpp"
#include "tracer/trace_session.hpp"
#include "warpscope/error.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::tracer {
namespace {

using test::StreamBuilder;
namespace fs = std::filesystem;

std::string read_data(const std::string& name) {
  return test::read_bytes(std::string(WARPSCOPE_SOURCE_DIR "/tests/tracer/data/") + name);
}

class CommittedListing final : public Disassembler {
 public:
  int calls = 0;
  std::optional<std::string> listing(const std::string& cubin) override {
    ++calls;
    EXPECT_EQ(cubin, read_data("cacheops_sm_90.cubin"));
    return read_data("cacheops_sm_90.sass");
  }
  std::optional<std::string> resources(const std::string&) override {
    return read_data("cacheops_sm_90.res-usage.txt");
  }
};

class NoTools final : public Disassembler {
 public:
  std::optional<std::string> listing(const std::string&) override { return std::nullopt; }
  std::optional<std::string> resources(const std::string&) override { return std::nullopt; }
};

constexpr const char* kKernel = "_Z8cacheopsPKfPfPK6float4PdPi";
constexpr std::uint64_t kModule = 0xabc0, kFunctionPc = 0x7f0000;

using Traced = test::TraceContent;

Traced read_back(const fs::path& p) { return test::read_all(*open_trace(p)); }

class TraceSessionTest : public ::testing::Test {
 protected:
  fs::path path = fs::temp_directory_path() / ("warpscope_session_" + std::to_string(::getpid()) + ".wst");
  std::vector<std::string> warnings;
  void TearDown() override { fs::remove(path); }

  // Feeds the stream in pieces of `step` bytes (the socket splits anywhere).
  Traced run(const std::string& stream, Disassembler& dis, std::size_t step = 7, bool* clean = nullptr) {
    auto sink = create_trace(path, TraceFormat::Native);
    TraceSession s(*sink, dis, [&](const std::string& w) { warnings.push_back(w); });
    for (std::size_t i = 0; i < stream.size(); i += step) s.feed(stream.data() + i, std::min(step, stream.size() - i));
    const bool ok = s.finish();
    if (clean) *clean = ok;
    sink->close();
    launches = s.launches();
    return read_back(path);
  }
  std::vector<LaunchStats> launches;
};

StreamBuilder typical_stream() {
  StreamBuilder b;
  b.hello().device().module(kModule, read_data("cacheops_sm_90.cubin")).launch(0, kModule, kFunctionPc, kKernel);
  StreamBuilder::Rec ldg;  // LDG.E.CONSTANT (__ldg) at 0x230, lanes 4 bytes apart
  ldg.pc = kFunctionPc + 0x230, ldg.cta = 3, ldg.warp = 2, ldg.sm = 77, ldg.base = 0x10000, ldg.stride = 4;
  StreamBuilder::Rec red;  // @P0 REDG at 0x3e0: one lane; the access flags say "atomic"
  red.pc = kFunctionPc + 0x3e0, red.mask = 0x1, red.flags = kFlagRead | kFlagWrite, red.addrs = {0x5000};
  StreamBuilder::Rec even;  // even lanes only, 8 bytes apart by rank
  even.pc = kFunctionPc + 0xb0, even.mask = 0x55555555u, even.base = 0x2000, even.stride = 8;
  StreamBuilder::Rec sts;  // STS: shared, per lane
  sts.pc = kFunctionPc + 0x3c0, sts.space = 4, sts.flags = kFlagWrite, sts.mask = 0x3;
  sts.addrs = {0x400, 0x484};
  b.records({ldg, red, even, sts}).launch_end(0, 4, 4).bye(4);
  return b;
}

TEST_F(TraceSessionTest, RecordsBecomeWarpAccessesWithSassCacheOperators) {
  CommittedListing dis;
  const Traced t = run(typical_stream().bytes, dis);
  ASSERT_EQ(t.kernels.size(), 1u);
  const KernelInfo& k = t.kernels[0];
  EXPECT_EQ(k.name, "cacheops(float const*, float*, float4 const*, double*, int*)");
  EXPECT_EQ(k.grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{128, 1, 1}));
  EXPECT_EQ(k.dynamic_shared, 512u);
  EXPECT_EQ(k.registers, 40u);       // cuobjdump -res-usage
  EXPECT_EQ(k.static_shared, 2048u);
  EXPECT_EQ(k.arch, "sm_90");
  EXPECT_EQ(k.gpu, "NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(k.lines.count(0x230));  // -lineinfo: PC -> source line
  EXPECT_EQ(k.lines.at(0x230).file, "tests/tracer/data/cacheops.cu");
  // The atomics' operations, from the listing, stored with the kernel (REDG.E.ADD; the shared
  // atomicAdd of a float is a CAS loop, ATOMS.CAST.SPIN).
  EXPECT_EQ(k.atomics, (std::map<std::uint64_t, AtomicOp>{{0x3e0, AtomicOp::Add}, {0x580, AtomicOp::Cas}}));
  // Every access of cacheops names its state space: no generic LD / ST to count as op_generic.
  EXPECT_TRUE(k.generic_pcs.empty());
  // The code size, for the launch's own DRAM reads: the listing's last instruction is at 0x9f0.
  EXPECT_EQ(k.code_bytes, 0xa00u);
  EXPECT_EQ(dis.calls, 1);

  ASSERT_EQ(t.records.size(), 4u);
  const WarpAccess& ldg = t.records[0];
  EXPECT_EQ(ldg.pc, 0x230u);  // relative to the function start
  EXPECT_EQ(ldg.cache, CacheOp::Nc);
  EXPECT_EQ(ldg.op, Op::Load);
  EXPECT_EQ(ldg.cta, 3u);
  EXPECT_EQ(ldg.warp, 2u);
  EXPECT_EQ(ldg.sm, 77);
  EXPECT_EQ(ldg.active, LaneMask::full());
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(ldg.addr[l], 0x10000u + 4 * l);

  const WarpAccess& red = t.records[1];
  EXPECT_EQ(red.op, Op::Reduction);  // from the SASS (REDG), not the flags
  EXPECT_EQ(red.active, LaneMask(0x1));
  EXPECT_EQ(red.addr[0], 0x5000u);

  const WarpAccess& even = t.records[2];
  EXPECT_EQ(even.addr[0], 0x2000u);
  EXPECT_EQ(even.addr[2], 0x2008u);  // rank 1
  EXPECT_EQ(even.addr[30], 0x2000u + 8 * 15);

  const WarpAccess& sts = t.records[3];
  EXPECT_EQ(sts.space, Space::Shared);
  EXPECT_EQ(sts.op, Op::Store);
  EXPECT_EQ(sts.addr[1], 0x484u);

  ASSERT_EQ(launches.size(), 1u);
  EXPECT_TRUE(launches[0].complete);
  EXPECT_EQ(launches[0].received, 4u);
  EXPECT_TRUE(warnings.empty());
}

// ldmatrix / stmatrix: the patch sends the row lanes only (space 19), 16 bytes each, shared offsets;
// whatever the listing says at that PC, they become ldsm / stsm records.
TEST_F(TraceSessionTest, MatrixRowsBecomeLdsmAndStsmRecords) {
  StreamBuilder b;
  b.hello().device().module(kModule, read_data("cacheops_sm_90.cubin")).launch(0, kModule, kFunctionPc, kKernel);
  StreamBuilder::Rec ldsm;  // .x2: lanes 0-15, rows 144 B apart
  ldsm.pc = kFunctionPc + 0x100, ldsm.space = 19, ldsm.size = 16, ldsm.mask = 0xffff, ldsm.base = 0x400, ldsm.stride = 144;
  StreamBuilder::Rec stsm;  // .x1: lanes 0-7, per lane
  stsm.pc = kFunctionPc + 0x110, stsm.space = 19, stsm.size = 16, stsm.flags = kFlagWrite, stsm.mask = 0xff;
  stsm.addrs = {0x0, 0x80, 0x100, 0x180, 0x200, 0x280, 0x300, 0x380};
  b.records({ldsm, stsm}).launch_end(0, 2, 2).bye(2);
  CommittedListing dis;
  const Traced t = run(b.bytes, dis);
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0].op, Op::LoadMatrix);
  EXPECT_EQ(t.records[0].space, Space::Shared);
  EXPECT_EQ(t.records[0].size, 16);
  EXPECT_EQ(t.records[0].active, LaneMask(0xffff));
  EXPECT_EQ(t.records[0].addr[15], 0x400u + 15 * 144);
  EXPECT_EQ(t.records[1].op, Op::StoreMatrix);
  EXPECT_EQ(t.records[1].addr[7], 0x380u);
  // A matrix record of another size is a broken stream: one error.
  StreamBuilder bad;
  bad.hello().device().module(kModule, read_data("cacheops_sm_90.cubin")).launch(0, kModule, kFunctionPc, kKernel);
  ldsm.size = 8;
  bad.records({ldsm});
  EXPECT_THROW(run(bad.bytes, dis), InputError);
}

TEST_F(TraceSessionTest, SplittingTheStreamAnywhereGivesTheSameTrace) {
  CommittedListing a, b;
  const auto stream = typical_stream().bytes;
  const Traced one = run(stream, a, 1);
  const Traced whole = run(stream, b, stream.size());
  ASSERT_EQ(one.records.size(), whole.records.size());
  for (std::size_t i = 0; i < one.records.size(); ++i) EXPECT_EQ(one.records[i].addr, whole.records[i].addr);
}

TEST_F(TraceSessionTest, WithoutNvdisasmTheFlagsGiveTheOperation) {
  NoTools dis;
  const Traced t = run(typical_stream().bytes, dis);
  ASSERT_EQ(t.records.size(), 4u);
  EXPECT_EQ(t.records[0].cache, CacheOp::Default);
  EXPECT_EQ(t.records[1].op, Op::Atomic);  // READ|WRITE
  EXPECT_EQ(t.records[3].op, Op::Store);
  EXPECT_TRUE(t.kernels.at(0).atomics.empty());  // operations unknown
  EXPECT_EQ(t.kernels.at(0).code_bytes, 0u);     // so is the code size
  EXPECT_EQ(launches[0].without_sass, 4u);
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].find("nvdisasm"), std::string::npos);
}

TEST_F(TraceSessionTest, AStreamCutMidMessageKeepsEveryCompleteRecord) {
  CommittedListing dis;
  auto stream = typical_stream().bytes;
  StreamBuilder more;
  StreamBuilder::Rec r;
  r.pc = kFunctionPc + 0x230;
  more.records({r});
  stream += more.bytes.substr(0, more.bytes.size() - 5);  // the application died while sending
  bool clean = true;
  const Traced t = run(stream, dis, 13, &clean);
  EXPECT_FALSE(clean);
  EXPECT_EQ(t.records.size(), 4u);
}

TEST_F(TraceSessionTest, UntracedLaunchesAreListedButNotInTheTrace) {
  CommittedListing dis;
  StreamBuilder b;
  b.hello().device().module(kModule, read_data("cacheops_sm_90.cubin")).launch(0, kModule, kFunctionPc, kKernel, false);
  b.launch_end(0, 0, 0);
  const Traced t = run(b.bytes, dis);
  EXPECT_TRUE(t.kernels.empty());
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_FALSE(launches[0].traced);
  EXPECT_EQ(dis.calls, 0);  // nothing disassembled for kernels not traced
}

void expect_error(const std::string& stream, const std::string& needle) {
  NoTools dis;
  auto sink = create_trace(fs::temp_directory_path() / "warpscope_session_err.txt", TraceFormat::Text);
  TraceSession s(*sink, dis, [](const std::string&) {});
  try {
    s.feed(stream.data(), stream.size());
    FAIL() << "expected an error containing " << needle;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// cp.async: the memcpy-async patch sends each LDGSTS as its source record (space 14) and its destination
// record (114), but other warps' records can come between them in the ring; the trace keeps the two
// together, the read first, and a read whose write never came at the end of its launch.
TEST_F(TraceSessionTest, AsyncCopyRecordsOfOneInstructionStayTogether) {
  NoTools dis;  // no listing: ca
  StreamBuilder b;
  b.hello().device().module(kModule, read_data("cacheops_sm_90.cubin")).launch(0, kModule, kFunctionPc, kKernel);
  StreamBuilder::Rec src;
  src.pc = kFunctionPc + 0x100, src.cta = 1, src.warp = 3, src.space = kSpaceAsyncGlobal, src.size = 16;
  src.base = 0x7f0000001000, src.stride = 16;
  StreamBuilder::Rec other = src;  // another warp's read of the same instruction
  other.warp = 4, other.base = 0x7f0000002000;
  StreamBuilder::Rec dst = src;
  dst.space = kSpaceAsyncShared, dst.flags = kFlagWrite, dst.base = 0x200, dst.stride = 16;
  StreamBuilder::Rec ld;  // an ordinary load of warp 4 between
  ld.pc = kFunctionPc + 0x230, ld.cta = 1, ld.warp = 4, ld.base = 0x9000;
  b.records({src, other, ld, dst}).launch_end(0, 4, 4).bye(4);
  const Traced t = run(b.bytes, dis);
  ASSERT_EQ(t.records.size(), 4u);
  EXPECT_EQ(t.records[0].pc, 0x230u);  // the load comes through at once
  const WarpAccess& read = t.records[1];
  EXPECT_EQ(read.op, Op::AsyncCopy);
  EXPECT_EQ(read.space, Space::Global);
  EXPECT_EQ(read.cache, CacheOp::Ca);
  EXPECT_EQ(read.size, 16u);
  EXPECT_EQ(read.warp, 3u);
  EXPECT_EQ(read.addr[1], 0x7f0000001010u);
  const WarpAccess& write = t.records[2];
  EXPECT_EQ(write.op, Op::AsyncCopy);
  EXPECT_EQ(write.space, Space::Shared);
  EXPECT_EQ(write.warp, 3u);
  EXPECT_EQ(write.pc, read.pc);
  EXPECT_EQ(write.addr[2], 0x220u);
  // Warp 4's read never met its write: written when the launch ends.
  EXPECT_EQ(t.records[3].warp, 4u);
  EXPECT_EQ(t.records[3].op, Op::AsyncCopy);
  EXPECT_EQ(t.records[3].space, Space::Global);
  ASSERT_EQ(warnings.size(), 1u);  // no disassembler: said once
  EXPECT_NE(warnings[0].find("nvdisasm"), std::string::npos);
}

// cp.async.bulk: the bulk-copy patches send one record of mask 0b111 holding the descriptor (global address,
// shared address, bytes); it becomes a tma_ld / tma_st record as it is, and one that is not a descriptor is an
// error naming its byte.
TEST_F(TraceSessionTest, BulkCopyRecordsCarryTheirDescriptor) {
  NoTools dis;
  StreamBuilder b;
  b.hello().device().module(kModule, read_data("cacheops_sm_90.cubin")).launch(0, kModule, kFunctionPc, kKernel);
  StreamBuilder::Rec in;
  in.pc = kFunctionPc + 0x180, in.cta = 2, in.warp = 1, in.space = kSpaceBulkToShared, in.size = 16, in.mask = 0x7;
  in.addrs = {0x7f0000000010, 0x400, 4096};
  StreamBuilder::Rec out = in;
  out.space = kSpaceBulkToGlobal, out.addrs = {0x7f0000100000, 0x400, 256};
  b.records({in, out}).launch_end(0, 2, 2).bye(2);
  const Traced t = run(b.bytes, dis);
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0].op, Op::BulkLoad);
  EXPECT_EQ(t.records[0].space, Space::Global);
  EXPECT_EQ(t.records[0].pc, 0x180u);
  EXPECT_EQ(bulk_global(t.records[0]), 0x7f0000000010u);
  EXPECT_EQ(bulk_bytes(t.records[0]), 4096u);
  EXPECT_EQ(t.records[1].op, Op::BulkStore);
  EXPECT_EQ(bulk_bytes(t.records[1]), 256u);

  StreamBuilder bad;
  bad.hello().device().module(kModule, read_data("cacheops_sm_90.cubin")).launch(0, kModule, kFunctionPc, kKernel);
  in.addrs = {0x7f0000000010, 0x400, 8};  // 8 bytes: not a bulk copy
  bad.records({in});
  expect_error(bad.bytes, "a bulk-copy record that is not one");
}

// The TMA's tensor copies and bulk reductions reach no callback the tracer patches: a kernel whose SASS has them
// is named once, with what and how many, so that nobody reads its trace as complete.
TEST_F(TraceSessionTest, KernelsWithUnrecordableInstructionsAreNamedOnce) {
  class TensorListing final : public Disassembler {
   public:
    std::optional<std::string> listing(const std::string&) override {
      return std::string(".text._Z8cacheopsPKfPfPK6float4PdPi:\n"
                         "        /*0000*/                   UTMALDG.2D [UR8], [UR4] ;\n"
                         "        /*0010*/                   UTMALDG.2D [UR12], [UR4] ;\n"
                         "        /*0020*/                   UBLKRED.G.S.ADD.F32.RN [UR6], [UR7], UR9 ;\n"
                         "        /*0030*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
                         "        /*0040*/                   EXIT ;\n");
    }
    std::optional<std::string> resources(const std::string&) override { return std::nullopt; }
  } dis;
  StreamBuilder b;
  b.hello().device().module(kModule, read_data("cacheops_sm_90.cubin"));
  b.launch(0, kModule, kFunctionPc, kKernel).launch_end(0, 0, 0);
  b.launch(1, kModule, kFunctionPc, kKernel).launch_end(1, 0, 0).bye(0);
  run(b.bytes, dis);
  std::size_t named = 0;
  for (const std::string& w : warnings)
    if (w.find("cannot record (UBLKRED x1, UTMALDG x2") != std::string::npos) ++named;
  EXPECT_EQ(named, 1u);  // two launches, one warning
}

TEST(TraceSessionErrors, MalformedStreamsNameTheByteOffsetAndTheProblem) {
  StreamBuilder unannounced;
  StreamBuilder::Rec r;
  r.launch = 9;
  unannounced.hello().records({r});
  expect_error(unannounced.bytes, "launch 9, which was never announced");

  std::string junk = StreamBuilder().hello().bytes + std::string("\x63\0\0\0\0\0\0\0", 8);
  expect_error(junk, "byte 16: unknown message type 99");

  StreamBuilder no_hello;
  no_hello.device();
  expect_error(no_hello.bytes, "expected a Hello message first");

  MessageWriter v(MessageType::Hello);
  v.put_u32(99);
  v.put_u32(1);
  expect_error(v.finish(), "protocol 99");

  StreamBuilder bad_record;
  StreamBuilder::Rec zero;
  zero.mask = 0;
  bad_record.hello().launch(0, 1, 0, "_Z1fv").records({zero});
  expect_error(bad_record.bytes, "malformed record");
}

TEST(Demangle, KernelNames) {
  EXPECT_EQ(demangle("_Z5plainPKfPf"), "plain(float const*, float*)");
  EXPECT_EQ(demangle("not_mangled"), "not_mangled");
}

}  // namespace
}  // namespace warpscope::tracer
