// run_ptx, the interpreter as a trace source: buffers and their fills, the
// launch and script syntax, and what each launch's KernelInfo says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ptx_test_support.hpp"
#include "warpscope/error.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope::test {
namespace {

// in[in[t]] with t = %tid.x: the second load's addresses show the buffer's contents.
const std::string kGather = ptx_module(R"(.visible .entry gather(.param .u64 in)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.nc.u32 %r3, [%rd5];
  ret;
}
)");

std::vector<WarpAccess> all(TraceSource& s) {
  std::vector<WarpAccess> out;
  WarpAccess r;
  while (s.next(r)) out.push_back(r);
  return out;
}

// The second load's index for each lane.
std::vector<std::uint64_t> indices(const std::vector<WarpAccess>& rec) {
  std::vector<std::uint64_t> v;
  for (int l = 0; l < 32; ++l) v.push_back((rec.at(1).addr[static_cast<std::size_t>(l)] - rec.at(0).addr[0]) / 4);
  return v;
}

TEST(PtxRun, FillsDecideWhatTheKernelReads) {
  PtxLaunch l = parse_ptx_launch("gather<<<1, 32>>>(in)");
  {
    auto s = run_ptx(kGather, "g.ptx", {parse_ptx_buffer("in=4K:iota")}, {l});
    const auto v = indices(all(*s));
    for (std::size_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], t);
  }
  {
    // index:RANGE:SEED: splitmix64 (the suite's index_table), each word modulo RANGE. The first
    // values from seed 0: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...
    auto s = run_ptx(kGather, "g.ptx", {parse_ptx_buffer("in=4K:index:1000:0")}, {l});
    const auto v = indices(all(*s));
    EXPECT_EQ(v[0], 0xe220a8397b1dcdafull % 1000);
    EXPECT_EQ(v[1], 0x6e789e6aa1b965f4ull % 1000);
    for (auto x : v) EXPECT_LT(x, 1000u);
  }
  {
    const auto file = std::filesystem::temp_directory_path() / ("ptx_run_fill_" + std::to_string(::getpid()));
    const std::uint32_t words[2] = {5, 9};
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(words), sizeof words);
    auto s = run_ptx(kGather, "g.ptx", {parse_ptx_buffer("in=4K:@" + file.string())}, {l});
    const auto v = indices(all(*s));  // the 8 bytes repeat through the 4 KB
    for (std::size_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], t % 2 ? 9u : 5u);
    std::filesystem::remove(file);
  }
  {
    PtxBuffer b;
    b.name = "in";
    b.fill = PtxBuffer::Fill::Bytes;
    b.bytes = 256;
    b.data = {3, 0, 0, 0};
    auto s = run_ptx(kGather, "g.ptx", {b}, {l});
    const auto v = indices(all(*s));
    EXPECT_EQ(v[0], 3u);  // Bytes: the data, then zeros (not repeated)
    EXPECT_EQ(v[1], 0u);
  }
}

TEST(PtxRun, KernelInfoOfEachLaunch) {
  const std::string text = ptx_module(R"(.visible .entry _Z4histPj(.param .u64 bins)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .shared .align 4 .b8 h[1024];
  .loc 1 7 0
  mov.u32 %r1, h;
  atom.shared.add.u32 %r2, [%r1], 1;
  ld.param.u64 %rd1, [bins];
  .loc 1 9 0
  red.global.add.u32 [%rd1], %r1;
  ret;
}
  .file 1 "hist.cu"
)");
  auto s = run_ptx(text, "h.ptx", {parse_ptx_buffer("bins=1K")},
                   {parse_ptx_launch("_Z4histPj<<<(2,3), (32,2), 512>>>(bins)"), parse_ptx_launch("_Z4histPj<<<1, 32>>>(bins+64)")});
  const auto rec = all(*s);
  ASSERT_EQ(s->kernels().size(), 2u);
  const KernelInfo& k = s->kernels()[0];
  EXPECT_EQ(k.name, "hist(unsigned int*)");
  EXPECT_EQ(k.grid, (Dim3{2, 3, 1}));
  EXPECT_EQ(k.block, (Dim3{32, 2, 1}));
  EXPECT_EQ(k.dynamic_shared, 512u);
  EXPECT_EQ(k.static_shared, 1024u);
  EXPECT_EQ(k.arch, "sm_90");
  EXPECT_EQ(k.lines.at(1), (SourceLocation{"hist.cu", 7}));
  EXPECT_EQ(k.lines.at(3), (SourceLocation{"hist.cu", 9}));
  EXPECT_EQ(k.atomics.at(1), AtomicOp::PopcInc);
  EXPECT_EQ(k.atomics.at(3), AtomicOp::Add);
  // 6 CTAs x 2 warps x 2 records, then 1 x 1 x 2; the second launch's red adds at bins + 64.
  ASSERT_EQ(rec.size(), 26u);
  EXPECT_EQ(rec[25].kernel, 1u);
  EXPECT_EQ(rec[25].op, Op::Reduction);
  EXPECT_EQ(rec[25].addr[0] - rec[3].addr[0], 64u);
  EXPECT_EQ(rec[2].cta, 0u);
  EXPECT_EQ(rec[4].cta, 1u);
  EXPECT_NE(s->summary().note.find("2 launches"), std::string::npos);
}

TEST(PtxRun, LaunchAndBufferSyntax) {
  const PtxLaunch l = parse_ptx_launch(" k<<<(4, 2), (32,4,2), 48K>>>( a+16 , 7, -1 ) ");
  EXPECT_EQ(l.kernel, "k");
  EXPECT_EQ(l.grid, (Dim3{4, 2, 1}));
  EXPECT_EQ(l.block, (Dim3{32, 4, 2}));
  EXPECT_EQ(l.dynamic_shared, 48u * 1024u);
  EXPECT_EQ(l.args, (std::vector<std::string>{"a+16", "7", "-1"}));
  EXPECT_TRUE(parse_ptx_launch("k<<<1,1>>>()").args.empty());
  EXPECT_EQ(l.cluster.count(), 0u);  // the kernel's own cluster shape, if any
  // A cluster shape, as cudaLaunchKernelEx's cluster attribute gives it, with or without the shared memory size.
  EXPECT_EQ(parse_ptx_launch("k<<<(4,2), 128, 1K, cluster=(2,2)>>>()").cluster, (Dim3{2, 2, 1}));
  EXPECT_EQ(parse_ptx_launch("k<<<4, 128, cluster=2>>>()").cluster, (Dim3{2, 1, 1}));
  EXPECT_EQ(parse_ptx_launch("k<<<4, 128, cluster=2>>>()").dynamic_shared, 0u);
  for (const char* bad : {"k<<<1>>>()", "k<<<0,1>>>()", "k<<<1,1>>>", "k<<<1,1>>>(a,)", "<<<1,1>>>()", "k<<<1,(1,2,3,4)>>>()",
                          "k<<<1,1,2M>>>()", "k<<<1,2 3>>>()", "k<<<4,1,cluster=(4,4,2)>>>()", "k<<<4,1,cluster=0>>>()",
                          "k<<<4,1,cluster=2,cluster=2>>>()", "k<<<4,1,16,32>>>()"})
    EXPECT_THROW(parse_ptx_launch(bad), InputError) << bad;
  const PtxBuffer b = parse_ptx_buffer("idx=1M:index:4096:7");
  EXPECT_EQ(b.bytes, 1u << 20);
  EXPECT_EQ(b.fill, PtxBuffer::Fill::Index);
  EXPECT_EQ(b.range, 4096u);
  EXPECT_EQ(b.seed, 7u);
  EXPECT_EQ(parse_ptx_buffer("r=16:random:3").seed, 3u);
  for (const char* bad : {"x", "=4", "1x=4", "x=0", "x=4:bogus", "x=4:index", "x=4:index:0", "x=4:zero:3", "x=@", "x=17G"})
    EXPECT_THROW(parse_ptx_buffer(bad), InputError) << bad;
  const PtxScript s = parse_ptx_script("# c\nbuffer a=4K  # zeros\n\nlaunch k<<<1,32>>>(a)\nbuffer f=@d/x.bin\n", "dir/s.run");
  ASSERT_EQ(s.buffers.size(), 2u);
  EXPECT_EQ(s.buffers[1].file, "dir/d/x.bin");  // relative to the script
  ASSERT_EQ(s.launches.size(), 1u);
  try {
    parse_ptx_script("buffer a=4K\nlaunch k<<<1>>>(a)\n", "s.run");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("s.run:2: --launch 'k<<<1>>>(a)'", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace warpscope::test
