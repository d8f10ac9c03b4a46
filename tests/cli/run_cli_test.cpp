// `warpscope run`: kernels of a PTX file through the interpreter and the
// models, as a user runs it; its errors (file:line, the kernel's fault) leave
// no output file behind.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <iterator>

#include "cli/run_cli.hpp"

namespace warpscope::test {
namespace {

namespace fs = std::filesystem;

const std::string kPtx = WARPSCOPE_SOURCE_DIR "/validation/ptx/transpose.ptx";
const std::string kScript = WARPSCOPE_SOURCE_DIR "/validation/ptx/transpose.run";

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("warpscope_run_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = scratch(name);
  std::ofstream(p) << text;
  return p;
}

// A kernel that stores out[tid] = tid: 4 bytes per thread.
const char* kStoreTid = R"(.version 8.0
.target sm_90
.address_size 64

.visible .entry store_tid(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

TEST(CliRun, TheTraceItWritesAnalysesToTheSameCounters) {
  const fs::path trace = scratch("transpose.wst"), a = scratch("run.json"), b = scratch("analyze.json");
  const auto run = run_cli("run " + kPtx + " --script " + kScript + " --arch sm_90,sm_70 --json " + a.string() +
                           " --trace-out " + trace.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("PTX interpreter: 2 launches"), std::string::npos) << run.err;
  const auto analyze = run_cli("analyze " + trace.string() + " --arch sm_90,sm_70 --json " + b.string());
  ASSERT_EQ(analyze.exit_code, 0) << analyze.err;
  const auto ja = nlohmann::json::parse(slurp(a)), jb = nlohmann::json::parse(slurp(b));
  ASSERT_EQ(ja["archs"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(ja["archs"][i]["kernels"], jb["archs"][i]["kernels"]) << i;
  EXPECT_EQ(ja["archs"][0]["kernels"][0]["name"], "transpose_naive(float const*, float*, int)");
  // The naive transpose of examples/cuda/transpose.cu (2048 x 2048 floats, 32 x 8 blocks): every warp
  // reads one 128 B line and writes 32 lines of one sector each: 4 and 32 sectors per request.
  const auto& m = ja["archs"][0]["kernels"][0]["metrics"];
  EXPECT_EQ(m["l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"], 4.0);
  EXPECT_EQ(m["l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio"], 32.0);
}

TEST(CliRun, ListsTheKernelsAndAsksForALaunch) {
  const auto list = run_cli("run " + kPtx + " --list");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("transpose_naive(u64, u64, u32)  [_Z15transpose_naivePKfPfi]"), std::string::npos) << list.out;
  const auto none = run_cli("run " + kPtx);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("name a launch with --launch"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("transpose_tiled"), std::string::npos) << none.err;
}

// A template of two arguments has a space in its name ("tile_copy<1, 2>"): the launch names it so.
TEST(CliRun, LaunchesATemplateOfSeveralArguments) {
  const std::string ptx = WARPSCOPE_SOURCE_DIR "/validation/async_gemm/async_gemm.ptx";
  const auto list = run_cli("run " + ptx + " --list");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("tile_copy<1, 2>(u64, u64)  [_Z9tile_copyILi1ELi2EEvPKfPf]"), std::string::npos) << list.out;
  const auto r = run_cli("run " + ptx + " --buffer in=256K --buffer out=256K --launch 'tile_copy<1, 2><<<(8,8), 256>>>(in, out)' --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tile_copy<1, 2>"), std::string::npos);
}

// A kernel compiled with __cluster_dims__ (validation/cluster_probe): --list gives its cluster shape, a grid that is
// not a whole number of clusters is refused, a launch's own cluster= overrides it, and the distributed accesses
// are counted as dshared.
TEST(CliRun, ClusterKernels) {
  const std::string ptx = WARPSCOPE_SOURCE_DIR "/validation/cluster_probe/cluster_probe.ptx";
  const auto list = run_cli("run " + ptx + " --list");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("remote_ld<0>(u64)  cluster (2,1,1)"), std::string::npos) << list.out;
  const auto odd = run_cli("run " + ptx + " --buffer out=256K --launch 'remote_ld<0><<<3, 128>>>(out)'");
  EXPECT_EQ(odd.exit_code, 2);
  EXPECT_NE(odd.err.find("is not a whole number of clusters (2,1,1)"), std::string::npos) << odd.err;
  const auto good = run_cli("run " + ptx + " --buffer out=256K --launch 'remote_ld<0><<<16, 128>>>(out)' --arch sm_90 --top 0");
  ASSERT_EQ(good.exit_code, 0) << good.err;
  // 16 CTAs x 4 warps x 8 coalesced loads of the other CTA's words: 512 requests of 4 sectors (the H100's counts).
  EXPECT_NE(good.out.find("l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum                         2048"), std::string::npos) << good.out;
}

// Texture objects (validation/texture_probe): --list marks the parameters a kernel uses as texture handles, a tex(...)
// argument runs the fetches (counted by the texture pipe's names), a bad one names what cudaCreateTextureObject would
// refuse, and a buffer where a handle belongs stops the kernel with the syntax.
TEST(CliRun, TextureObjectArguments) {
  const std::string ptx = WARPSCOPE_SOURCE_DIR "/validation/texture_probe/texture_probe.ptx";
  const auto list = run_cli("run " + ptx + " --list");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("sample2d(u64: tex(...), u64, f32, f32, f32)"), std::string::npos) << list.out;
  const auto good = run_cli("run " + ptx + " --buffer a=4M --buffer out=64K --launch 'fetch1d<1><<<64, 256>>>(tex(a, f32, (1048576)), out)' --arch sm_90 --top 0");
  ASSERT_EQ(good.exit_code, 0) << good.err;
  // 512 warps, 4 requests of 8 lanes each, a sector each (the H100's counts).
  const auto at = good.out.find("l1tex__t_requests_pipe_tex_mem_texture.sum");
  ASSERT_NE(at, std::string::npos) << good.out;
  const std::string line = good.out.substr(at, good.out.find('\n', at) - at);
  EXPECT_EQ(line.substr(line.find_last_of(' ') + 1), "2048") << line;
  const auto bad = run_cli("run " + ptx + " --buffer a=4M --buffer out=64K --launch 'fetch1d<1><<<1, 32>>>(tex(a+16, f32, (64)), out)'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("a multiple of 512 bytes"), std::string::npos) << bad.err;
  const auto handle = run_cli("run " + ptx + " --buffer a=4M --buffer out=64K --launch 'fetch1d<1><<<1, 32>>>(a, out)'");
  EXPECT_EQ(handle.exit_code, 2);
  EXPECT_NE(handle.err.find("is not one the run script made"), std::string::npos) << handle.err;
}

// A CUtensorMap parameter (validation/tma_kernels): --list says it takes tmap(...), a buffer there is refused with
// the syntax, a bad map names what is wrong, and a good one runs the kernel's tensor copies.
TEST(CliRun, TensorMapArguments) {
  const std::string ptx = WARPSCOPE_SOURCE_DIR "/validation/tma_kernels/tma_kernels.ptx";
  const auto list = run_cli("run " + ptx + " --list");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("stencil5(b8[128]: tmap(...), b8[128]: tmap(...))"), std::string::npos) << list.out;
  const auto buffer = run_cli("run " + ptx + " --buffer a=4M --launch 'stencil5<<<1, (32,8)>>>(a, a)'");
  EXPECT_EQ(buffer.exit_code, 2);
  EXPECT_NE(buffer.err.find("a 128-byte parameter is a CUtensorMap: give it as tmap("), std::string::npos) << buffer.err;
  const auto bad = run_cli("run " + ptx + " --buffer a=4M --launch 'stencil5<<<1, (32,8)>>>(tmap(a, f32, (512, 512), (40, 34), swizzle=64B), tmap(a, f32, (512, 512), (32, 32)))'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("the box's rows are 160 bytes, more than the 64-byte swizzle"), std::string::npos) << bad.err;
  const auto good = run_cli("run " + ptx + " --buffer a=4M --buffer b=4M --launch 'stencil5<<<(16,16), (32,8)>>>(tmap(a, f32, (512, 512), (40, 34)), tmap(b, f32, (512, 512), (32, 32)))' --arch sm_90 --top 0");
  ASSERT_EQ(good.exit_code, 0) << good.err;
  // 256 CTAs: one tensor load and one tensor store each (validation/h100/tma_kernels measured the same).
  EXPECT_NE(good.out.find("smsp__inst_executed_op_tma_ld.sum                               256"), std::string::npos) << good.out;
}

TEST(CliRun, BadInputGetsOneErrorAndNoFile) {
  const fs::path ptx = write("store.ptx", kStoreTid);
  const fs::path json = scratch("never.json"), trace = scratch("never.wst");
  auto fails = [&](const std::string& args, const std::string& message) {
    fs::remove(json);
    fs::remove(trace);
    const auto r = run_cli("run " + args + " --json " + json.string() + " --trace-out " + trace.string());
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_FALSE(fs::exists(json)) << args;
    EXPECT_FALSE(fs::exists(trace)) << args;
    EXPECT_FALSE(fs::exists(trace.string() + ".partial")) << args;
  };
  const std::string p = ptx.string();
  // A fault of the kernel, found while it runs: after records were analysed and written.
  fails(p + " --buffer out=64 --launch 'store_tid<<<1, 32>>>(out, 1)'",
        "store.ptx:13: kernel store_tid, CTA (0,0,0), thread (16,0,0): st.global.u32: global address 0x7f0000000040 is "
        "outside every buffer (0 bytes past the end of out (64 bytes))");
  fails(p + " --buffer out=128 --launch 'store_tid<<<1, 32>>>(out)'",
        "--launch store_tid: the kernel takes 2 arguments (store_tid(u64, u32)), 1 given");
  fails(p + " --buffer out=128 --launch 'nope<<<1, 32>>>(out, 1)'", "no kernel named 'nope'; its kernels: store_tid");
  fails(p + " --buffer out=128 --launch 'store_tid<<<1, 32>>>(in, 1)'",
        "kernel store_tid argument 1 ('in', a .u64 parameter): no buffer named 'in' (buffers: out)");
  fails(p + " --buffer out=128 --launch 'store_tid<<1, 32>>(out, 1)'", "no <<<...>>>");
  fails(p + " --buffer out=0 --launch 'store_tid<<<1, 32>>>(out, 1)'", "--buffer 'out=0': the size must be 1 byte to 16G");
  fails(p + " --buffer out=128 --launch 'store_tid<<<1, 2000>>>(out, 1)'", "a block of 2000 threads (at most 1024)");
  fails(p + " --buffer out=128 --launch 'store_tid<<<1, 32>>>(out, 5000000000)'",
        "argument 2 ('5000000000', a .u32 parameter): does not fit in 4 bytes");
  fails(p + " --buffer out=128 --launch 'store_tid<<<1, 32>>>(out, 1.5)'", "expected an integer or a buffer name");
  const fs::path script = write("bad.run", "buffer out=128\nlaunch store_tid<<<1,32>>>(out, 1)\nbogus line\n");
  fails(p + " --script " + script.string(), "bad.run:3: expected 'buffer SPEC' or 'launch SPEC', found 'bogus'");
  fails(p + " --buffer out=128 --launch 'store_tid<<<1, 32>>>(out, 1)' --dump in=x.bin", "--dump in=x.bin: no buffer or .global variable in");
  fails(p + " --buffer out=128 --launch 'store_tid<<<1, 32>>>(out, 1)' --dump out", "--dump 'out': expected NAME=FILE");
  const fs::path bad = write("bad.ptx", ".version 8.0\n.target sm_90\n.visible .entry k(\n{\n");
  fails(bad.string() + " --launch 'k<<<1,1>>>()'", "bad.ptx:4: expected .param, found '{'");
}

// --dump writes what the kernels left in a buffer: out[tid] = tid for 8 threads of a 64-byte buffer.
TEST(CliRun, DumpWritesTheBufferAfterTheLastLaunch) {
  const fs::path ptx = write("store3.ptx", kStoreTid);
  const fs::path out = scratch("out.bin");
  fs::remove(out);
  const auto r = run_cli("run " + ptx.string() + " --buffer out=64 --launch 'store_tid<<<1, 8>>>(out, 1)' --dump out=" +
                         out.string() + " --arch sm_90");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(out, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_EQ(bytes.size(), 64u);
  for (std::uint32_t t = 0; t < 16; ++t) {
    std::uint32_t v = 0;
    std::memcpy(&v, bytes.data() + 4 * t, 4);
    EXPECT_EQ(v, t < 8 ? t : 0u) << t;
  }
}

TEST(CliRun, AFileLargerThanItsBufferIsAnError) {
  const fs::path data = scratch("eight.bin");
  std::ofstream(data, std::ios::binary).write("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
  const fs::path ptx = write("store2.ptx", kStoreTid);
  const auto r = run_cli("run " + ptx.string() + " --buffer 'out=4:@" + data.string() + "' --launch 'store_tid<<<1, 1>>>(out, 1)'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("has 8 bytes, more than the buffer's 4"), std::string::npos) << r.err;
}

// validate --ptx on one application of the suite: its records from the interpreter, checked against
// the H100's counters (the whole suite: tests/validation/h100_ptx_suite_test.cpp).
TEST(CliRun, ValidateTakesRecordsFromPtx) {
  const fs::path dir = scratch("suite");
  fs::create_directories(dir);
  const std::string suite = WARPSCOPE_SOURCE_DIR "/validation/h100/suite/";
  for (const char* f : {"environment.txt", "tolerances.toml", "strided_access.ncu.csv", "strided_access.sass"})
    fs::copy_file(suite + f, dir / f, fs::copy_options::overwrite_existing);
  const auto r = run_cli("validate " + dir.string() + " --ptx " WARPSCOPE_SOURCE_DIR "/validation/ptx");
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("exact counters: 180 of 180 match"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("records from the PTX interpreter"), std::string::npos) << r.out;
  const auto none = run_cli("validate " + dir.string() + " --ptx " + dir.string());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no <app>.ptx + <app>.run for any <app>.ncu.csv"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace warpscope::test
