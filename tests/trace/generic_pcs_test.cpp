// Loads and stores through generic addresses (KernelInfo::generic_pcs, SASS LD / ST): stored in both
// trace forms (native optional block 0x82, text `generic` lines), taken from SASS listings and PTX, and
// counted as Nsight Compute counts them: the sectors where the addresses fall, the instruction as
// smsp__inst_executed_op_generic_ld / _st and not in the space's instructions (reference/
// ncu_and_microbench.md 1.2; validation/h100/wmma_probe, whose .bf16/.tf32/.f64 wmma loads are LD.E).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "analyze/analyzer.hpp"
#include "test_support.hpp"
#include "trace/native_format.hpp"
#include "trace/trace_test_util.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope::test {
namespace {

KernelInfo kernel_with_generic() {
  KernelInfo k;
  k.name = "gather(float**)";
  k.grid = {1, 1, 1};
  k.block = {32, 1, 1};
  k.generic_pcs = {0x40, 0x90, 0x1f0};
  return k;
}

// A coalesced 4-byte load of one warp at `pc`, in `space`.
WarpAccess load_at(std::uint64_t pc, Space space = Space::Global, Op op = Op::Load) {
  WarpAccess r = record(0, pc, 0xffffffffu, [](int l) { return 0x10000u + 4u * static_cast<unsigned>(l); });
  r.space = space;
  r.op = op;
  r.sm = 0;
  return r;
}

TEST(GenericPcs, BothFormsKeepThem) {
  for (const TraceFormat format : {TraceFormat::Native, TraceFormat::Text}) {
    const auto path = scratch_dir() / (format == TraceFormat::Native ? "generic.wst" : "generic.txt");
    KernelInfo plain;
    plain.name = "plain";
    write_all(path, format, {kernel_with_generic(), plain}, {load_at(0x90)});
    const TraceContent got = read_all(path);
    ASSERT_EQ(got.kernels.size(), 2u);
    EXPECT_EQ(got.kernels[0].generic_pcs, kernel_with_generic().generic_pcs) << to_string(format);
    EXPECT_TRUE(got.kernels[1].generic_pcs.empty());
  }
  const std::string text = read_bytes(scratch_dir() / "generic.txt");
  EXPECT_NE(text.find("generic k=0 pc=0x40\ngeneric k=0 pc=0x90\ngeneric k=0 pc=0x1f0\n"), std::string::npos) << text;
  // Native: an optional block (type 0x82, skipped by readers that predate it): kernel 0, 3 PCs as deltas.
  const std::string b = read_bytes(scratch_dir() / "generic.wst");
  const std::size_t block = next_block(b, 8);
  EXPECT_EQ(static_cast<std::uint8_t>(b[block]), 0x82);
  std::uint32_t size = 0;
  std::memcpy(&size, b.data() + block + 4, 4);
  EXPECT_EQ(b.substr(block + 16, size), std::string("\x00\x03\x40\x50\xe0\x02", 6));
}

std::string generic_error(const std::string& body) {
  const auto path = scratch_dir() / "generic_bad.wst";
  KernelInfo k;
  k.name = "k";
  write_all(path, TraceFormat::Native, {k}, {load_at(0x90)});
  return read_error(with_blocks_after_kernel(read_bytes(path), native_block(0x82, body), false), "t.wst");
}

TEST(GenericPcs, BadBlocksAndLinesNameTheProblem) {
  KernelInfo k;
  k.name = "k";
  const std::size_t at = 8 + 16 + trace::encode_kernel(k).size();
  EXPECT_EQ(generic_error(std::string("\x00\x01\x10", 3)), "no error");
  EXPECT_EQ(generic_error(std::string("\x00\x02\x10\x00", 4)),
            fmt::format("t.wst: bad generic-address PCs block at byte {}: PC 1: PCs must increase", at));
  EXPECT_EQ(generic_error(std::string("\x00\x05\x10", 3)),
            fmt::format("t.wst: bad generic-address PCs block at byte {}: 5 PCs cannot fit in the 1 bytes left", at));
  EXPECT_EQ(generic_error(std::string("\x00\x01\x10\x10", 4)),
            fmt::format("t.wst: bad generic-address PCs block at byte {}: 1 unexpected bytes after the PCs", at));
  auto error = [](const std::string& text) { return read_error(text, "t.txt"); };
  EXPECT_EQ(error("wstrace 1\nkernel 0\ngeneric k=0 pc=0x90\n"), "no error");
  EXPECT_EQ(error("wstrace 1\ngeneric k=0 pc=0x90\n"),
            "t.txt:2:1: a generic line must follow its kernel line (or its loc, atomic and generic lines)");
  EXPECT_EQ(error("wstrace 1\nkernel 0\ngeneric k=0\n"), "t.txt:3:1: a generic line needs k= and pc=");
  EXPECT_EQ(error("wstrace 1\nkernel 0\ngeneric k=0 pc=0x90\ngeneric k=0 pc=0x90\n"),
            "t.txt:4:1: PC 0x90 of kernel 0 already has a generic line");
}

// One generic load into global memory and one into shared memory (two records of the same PC), a
// generic store into local memory, and an LDG: on sm_90 the generic ones are op_generic instructions
// with their sectors and wavefronts where they fell; sm_35 (nvprof's counters) keeps them by space.
TEST(GenericPcs, TheAnalyzerCountsThemAsNsightComputeDoes) {
  const auto path = scratch_dir() / "generic_analyze.wst";
  const WarpAccess g = load_at(0x40), s = load_at(0x40, Space::Shared), st = load_at(0x90, Space::Local, Op::Store),
                   ldg = load_at(0x300);
  write_all(path, TraceFormat::Native, {kernel_with_generic()}, {g, s, st, ldg});
  auto src = open_trace(path);
  const AnalyzeResult r = analyze_trace(*src, {&arch("sm_90"), &arch("sm_35")}, AnalyzeOptions{});
  const Counters& h100 = r.archs.at(0).kernels.at(0).counters;
  EXPECT_EQ(h100.generic_ld_instructions, 2u);  // one per record: a warp whose lanes split counts twice
  EXPECT_EQ(h100.generic_st_instructions, 1u);
  EXPECT_EQ(h100.global_ld.instructions, 1u);  // the LDG
  EXPECT_EQ(h100.global_ld.requests, 2u);
  EXPECT_EQ(h100.shared_ld.instructions, 0u);
  EXPECT_EQ(h100.shared_ld.wavefronts, 1u);
  EXPECT_EQ(h100.local_st.instructions, 0u);
  EXPECT_GT(h100.local_st.sectors, 0u);
  for (const auto& p : r.archs.at(0).pcs) {
    if (p.pc == 0x40) {
      EXPECT_EQ(p.counters.generic_ld_instructions, 2u);
    }
  }
  const Counters& k40 = r.archs.at(1).kernels.at(0).counters;
  EXPECT_EQ(k40.generic_ld_instructions, 0u);
  EXPECT_EQ(k40.global_ld.instructions, 2u);
  EXPECT_EQ(k40.shared_ld.instructions, 1u);
  EXPECT_EQ(k40.local_st.instructions, 1u);
}

TEST(GenericPcs, SassListingsAndPtxNameThem) {
  const std::string listing =
      "\t\tFunction : _Z6gatherPPf\n"
      "        /*0040*/                   LD.E R7, desc[UR4][R2.64] ;\n"
      "        /*0090*/                   ST.E.64 desc[UR4][R4.64], R6 ;\n"
      "        /*00a0*/                   LDG.E R5, desc[UR4][R4.64] ;\n"
      "        /*00b0*/                   ATOM.E.ADD.STRONG.GPU PT, R5, desc[UR4][R4.64], R7 ;\n";
  AnalyzeOptions o;
  take_from_sass(listing, o);
  EXPECT_EQ(o.generic_pcs_by_kernel.at("gather(float**)"), (std::set<std::uint64_t>{0x40, 0x90}));
  EXPECT_EQ(o.generic_pcs_by_kernel.at("_Z6gatherPPf"), (std::set<std::uint64_t>{0x40, 0x90}));

  // PTX: an ld or st without a state space (ptxas keeps it LD / ST), but not ld.global or ld.param.
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.u32 %r1, [%rd1];
  ld.global.u32 %r2, [%rd1+4];
  st.u32 [%rd1+8], %r1;
  ret;
}
)";
  PtxBuffer buf;
  buf.name = "buf";
  buf.bytes = 64;
  auto src = run_ptx(ptx, "k.ptx", {buf}, {parse_ptx_launch("k<<<1, 32>>>(buf)")});
  const TraceContent got = read_all(*src);
  ASSERT_EQ(got.kernels.size(), 1u);
  ASSERT_EQ(got.kernels[0].generic_pcs.size(), 2u);
  ASSERT_EQ(got.records.size(), 3u);
  EXPECT_EQ(got.kernels[0].generic_pcs, (std::set<std::uint64_t>{got.records[0].pc, got.records[2].pc}));
}

}  // namespace
}  // namespace warpscope::test
