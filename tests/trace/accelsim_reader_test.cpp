// Accel-Sim's traces as a front end (docs/TRACE_FORMAT.md "Accel-Sim traces"):
// a kernel file and a kernelslist read into records field by field, as the
// files in tests/trace/data/accelsim spell them out by hand; the three address
// formats; generic accesses placed by the header's windows; what is skipped;
// each malformed or truncated file one error naming its line.
#include <gtest/gtest.h>

#include <cstdio>

#include "trace/accelsim_format.hpp"
#include "trace/trace_test_util.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::test {
namespace {

const std::filesystem::path kData = WARPSCOPE_SOURCE_DIR "/tests/trace/data/accelsim";
constexpr std::uint64_t kGlobal = 0x7f1000000000;

std::uint64_t lane_address(const WarpAccess& r, int lane) { return r.addr[static_cast<unsigned>(lane)]; }

std::string fmt_address(std::uint64_t a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, " 0x%016llx", static_cast<unsigned long long>(a));
  return buf;
}

// Sizes from the SASS opcode's modifiers: a width (.64, .128) or a typed one (.U8,
// .S16, .F64), else a word. Accel-Sim's own width field would give S16 and F64 4 B.
TEST(AccelSimFormat, AccessBytesFromTheOpcode) {
  const std::pair<const char*, unsigned> cases[] = {
      {"LDG.E", 4},      {"LDG.E.64", 8},     {"LDG.E.128.CONSTANT", 16}, {"LDG.E.U8", 1},
      {"LDG.E.S16", 2},  {"STS.U16", 2},      {"LDS.128", 16},            {"ATOMG.E.CAS.64.STRONG.GPU", 8},
      {"RED.E.ADD.F64.RN.STRONG.GPU", 8}, {"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", 4}, {"LDGSTS.E.BYPASS.128", 16}};
  for (const auto& [opcode, bytes] : cases) EXPECT_EQ(trace::accelsim::access_bytes(opcode), bytes) << opcode;
}

TEST(AccelSimFormat, WhichOpcodesBecomeRecords) {
  const auto ldsm = trace::accelsim::memory_kind("LDSM.16.MT88.2");  // ldmatrix .x2 .trans
  ASSERT_TRUE(ldsm);
  EXPECT_EQ(ldsm->space, Space::Shared);
  EXPECT_EQ(ldsm->op, Op::LoadMatrix);
  EXPECT_EQ(trace::accelsim::matrix_count("LDSM.16.MT88.2"), 2u);
  EXPECT_EQ(trace::accelsim::matrix_count("LDSM.16.M88"), 1u);
  EXPECT_EQ(trace::accelsim::memory_kind("STSM.16.M88.4")->op, Op::StoreMatrix);
  EXPECT_EQ(trace::accelsim::matrix_count("STSM.16.M88.4"), 4u);
  EXPECT_FALSE(trace::accelsim::memory_kind("UTMALDG.2D"));  // TMA
  EXPECT_FALSE(trace::accelsim::memory_kind("IMAD.MOV.U32"));
  const auto cp = trace::accelsim::memory_kind("LDGSTS.E.BYPASS.128");
  ASSERT_TRUE(cp);
  EXPECT_EQ(cp->space, Space::Global);
  EXPECT_EQ(cp->op, Op::AsyncCopy);
  EXPECT_EQ(cp->cache, CacheOp::Cg);
  EXPECT_EQ(trace::accelsim::memory_kind("LDGSTS.E.LTC128B.64")->cache, CacheOp::Ca);
  const auto generic = trace::accelsim::memory_kind("LD.E.64");
  ASSERT_TRUE(generic);
  EXPECT_TRUE(generic->generic);
  const auto red = trace::accelsim::memory_kind("REDG.E.ADD.STRONG.GPU");
  ASSERT_TRUE(red);
  EXPECT_EQ(red->op, Op::Reduction);
  EXPECT_EQ(red->atomic_op, AtomicOp::Add);
}

// An ldmatrix of 2 matrices reads the rows of lanes 0-15; NVBit lists all 32 lanes' addresses, and the others come
// back as no address (lane 0), as every reader returns inactive lanes (fuzz_trace_reader found them kept).
TEST(AccelSimTrace, MatrixLoadsKeepOnlyTheRowLanes) {
  std::string text = read_bytes(kData / "kernel-1.traceg");
  const auto at = text.find("LDSM.16.M88.4");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "LDSM.16.M88.2");
  const auto p = scratch_dir() / "kernel-ldsm2.traceg";
  write_bytes(p, text);
  const TraceContent c = read_all(p);
  const WarpAccess* ldsm = nullptr;
  for (const auto& r : c.records)
    if (r.pc == 0x80) ldsm = &r;
  ASSERT_NE(ldsm, nullptr);
  EXPECT_EQ(ldsm->active.bits(), 0x0000ffffu);
  EXPECT_EQ(lane_address(*ldsm, 15), 15u * 16u);
  for (int l = 16; l < 32; ++l) EXPECT_EQ(ldsm->addr[static_cast<unsigned>(l)], 0u) << l;
}

TEST(AccelSimTrace, KernelFileRecordByRecord) {
  const TraceContent c = read_all(kData / "kernel-1.traceg");
  ASSERT_EQ(c.kernels.size(), 1u);
  const KernelInfo& k = c.kernels[0];
  EXPECT_EQ(k.name, "stencil(float*, float*, int)");  // demangled, as warpscope trace records names
  EXPECT_EQ(k.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(k.dynamic_shared, 512u);
  EXPECT_EQ(k.registers, 32u);
  EXPECT_EQ(k.arch, "sm_90");  // -binary version = 90
  EXPECT_EQ(k.source, "accel-sim");
  EXPECT_EQ(k.atomics.at(0xa0), AtomicOp::Add);
  // 13 instruction lines: IMAD (not memory) is not a record.
  ASSERT_EQ(c.records.size(), 10u);
  EXPECT_EQ(c.summary.records, 10u);
  EXPECT_EQ(c.summary.note, "");
  // LDSM.16.M88.4 at 0x80: all 32 lanes give rows (lane 8m + r: row r of matrix m), 16 bytes each, as
  // offsets in the shared window; Accel-Sim's width field (2, the elements) is not the row's.
  const WarpAccess* ldsm = nullptr;
  for (const auto& r : c.records)
    if (r.pc == 0x80) ldsm = &r;
  ASSERT_NE(ldsm, nullptr);
  EXPECT_EQ(ldsm->op, Op::LoadMatrix);
  EXPECT_EQ(ldsm->space, Space::Shared);
  EXPECT_EQ(ldsm->size, 16u);
  EXPECT_EQ(ldsm->active.bits(), 0xffffffffu);
  EXPECT_EQ(lane_address(*ldsm, 31), 31u * 16u);

  const WarpAccess& ldg = c.records[0];  // 0050 ffffffff ... LDG.E ... 4 1 0x7f1000000000 4: base + stride
  EXPECT_EQ(ldg.pc, 0x50u);
  EXPECT_EQ(ldg.cta, 0u);
  EXPECT_EQ(ldg.warp, 0u);
  EXPECT_EQ(ldg.sm, -1);
  EXPECT_EQ(ldg.space, Space::Global);
  EXPECT_EQ(ldg.op, Op::Load);
  EXPECT_EQ(ldg.size, 4u);
  EXPECT_EQ(ldg.active, LaneMask::full());
  for (int l = 0; l < 32; ++l) EXPECT_EQ(lane_address(ldg, l), kGlobal + 4u * static_cast<unsigned>(l));

  const WarpAccess& sts = c.records[1];  // STS to the generic shared window: offsets in it
  EXPECT_EQ(sts.space, Space::Shared);
  EXPECT_EQ(sts.op, Op::Store);
  EXPECT_EQ(sts.active.bits(), 0x0000ffffu);
  EXPECT_EQ(lane_address(sts, 0), 0u);
  EXPECT_EQ(lane_address(sts, 15), 60u);

  const WarpAccess& lds = c.records[2];  // base + 31 deltas of 4
  EXPECT_EQ(lds.space, Space::Shared);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(lane_address(lds, l), 0x80u + 4u * static_cast<unsigned>(l));

  const WarpAccess& ld = c.records[4];  // generic LD.E.64 in the local window, addresses listed (after the LDSM)
  EXPECT_EQ(ld.space, Space::Local);
  EXPECT_EQ(ld.size, 8u);
  EXPECT_EQ(lane_address(ld, 0), 0x10u);
  EXPECT_EQ(lane_address(ld, 1), 0x18u);

  const WarpAccess& atom = c.records[5];  // mask 101b: lanes 0 and 2
  EXPECT_EQ(atom.op, Op::Atomic);
  EXPECT_EQ(atom.atomic_op, AtomicOp::Add);
  EXPECT_EQ(atom.cache, CacheOp::Default);  // .STRONG.GPU is the atomic's scope, not a cache hint
  EXPECT_EQ(lane_address(atom, 0), kGlobal + 0x100);
  EXPECT_EQ(lane_address(atom, 2), kGlobal + 0x400);

  EXPECT_EQ(c.records[6].warp, 1u);
  const WarpAccess& st16 = c.records[7];  // STG.E.U16: 2 bytes per lane
  EXPECT_EQ(st16.size, 2u);
  EXPECT_EQ(lane_address(st16, 31), kGlobal + 0x2000 + 62);

  const WarpAccess& second_block = c.records[8];  // thread block = 1,0,0
  EXPECT_EQ(second_block.cta, 1u);
  EXPECT_EQ(second_block.warp, 0u);
  const WarpAccess& ldgsts = c.records[9];  // cp.async: its global side, .BYPASS = .cg
  EXPECT_EQ(ldgsts.space, Space::Global);
  EXPECT_EQ(ldgsts.op, Op::AsyncCopy);
  EXPECT_EQ(ldgsts.size, 16u);
  EXPECT_EQ(ldgsts.cache, CacheOp::Cg);
}

// A writer needs a kernel's atomics and lines before its first record: with
// kernel_tables_first they are there on opening (a first pass), without they fill in.
TEST(AccelSimTrace, KernelTablesFirstForWriters) {
  TraceReadOptions first;
  first.kernel_tables_first = true;
  auto ahead = open_trace(kData / "kernelslist.g", first);
  WarpAccess r;
  ASSERT_TRUE(ahead->next(r));
  EXPECT_EQ(ahead->kernels()[0].atomics.size(), 1u);  // pc 0xa0, five records later
  auto lazy = open_trace(kData / "kernelslist.g");
  ASSERT_TRUE(lazy->next(r));
  EXPECT_TRUE(lazy->kernels()[0].atomics.empty());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(lazy->next(r));
  EXPECT_EQ(r.atomic_op, AtomicOp::Add);  // the record carries it either way
  EXPECT_EQ(lazy->kernels()[0].atomics.at(0xa0), AtomicOp::Add);
}

TEST(AccelSimTrace, KernelsListIsOneTraceInLaunchOrder) {
  const TraceContent c = read_all(kData / "kernelslist.g");
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].id, 0u);
  EXPECT_EQ(c.kernels[1].id, 1u);
  EXPECT_EQ(c.kernels[1].name, "copy(float*, float*)");
  // -enable lineinfo = 1: each line starts with its source line (the file is not recorded).
  EXPECT_EQ(c.kernels[1].lines.at(0x40).line, 12u);
  EXPECT_EQ(c.kernels[1].lines.at(0x50).line, 13u);
  ASSERT_EQ(c.records.size(), 12u);
  EXPECT_EQ(c.records[10].kernel, 1u);
  EXPECT_EQ(c.records[10].cache, CacheOp::Nc);  // LDG.E.128.CONSTANT: __ldg
  EXPECT_EQ(c.records[10].size, 16u);
  EXPECT_EQ(c.records[11].op, Op::Store);
  EXPECT_EQ(c.summary.note, "");
}

// Converted to the native form and back, nothing changes: the kernels (their atomics
// and line tables included) and every record. (The Accel-Sim reader also puts each
// atomic's operation in its record; the native reader leaves that to the table.)
TEST(AccelSimTrace, ConvertsToNativeWithoutLoss) {
  const TraceContent a = read_all(kData / "kernelslist.g");
  const auto native = scratch_dir() / "accelsim.wst";
  write_all(native, TraceFormat::Native, a.kernels, a.records);
  const TraceContent b = read_all(native);
  EXPECT_EQ(a.kernels, b.kernels);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (std::size_t i = 0; i < a.records.size(); ++i) {
    EXPECT_EQ(a.records[i].addr, b.records[i].addr) << i;
    EXPECT_EQ(a.records[i].space, b.records[i].space) << i;
    EXPECT_EQ(a.records[i].size, b.records[i].size) << i;
    EXPECT_EQ(a.records[i].cache, b.records[i].cache) << i;
    EXPECT_EQ(a.records[i].cta, b.records[i].cta) << i;
  }
}

// A kernel file built from parts, for the error cases.
std::string kernel_file(const std::string& body, const std::string& header_extra = "") {
  return "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-shmem = 0\n"
         "-binary version = 80\n-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0002000000\n" +
         header_extra + "\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width\n\n" + body;
}

std::string block(const std::string& warp0) { return "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n" + warp0 + "#END_TB\n"; }

// An .x1 ldmatrix keeps the 8 lanes whose rows the hardware reads; the other lanes' registers are
// traced but ignored. Memory instructions of kinds warpscope does not model are counted and skipped.
TEST(AccelSimTrace, MatrixRowLanesAndSkippedKinds) {
  const std::string rows = "0020 ffffffff 1 R2 LDSM.16.M88 1 R4 2 1 0x7f0000000100 16\n";
  const std::string tma = "0030 ffffffff 0 UTMALDG.2D 1 R4 16 1 0x7f1000000000 16\n";
  auto src = open_trace_buffer(kernel_file(block("insts = 2\n" + rows + tma)), "t");
  WarpAccess r;
  ASSERT_TRUE(src->next(r));
  EXPECT_EQ(r.op, Op::LoadMatrix);
  EXPECT_EQ(r.active.bits(), 0xffu);
  EXPECT_EQ(lane_address(r, 7), 0x100u + 7u * 16u);
  EXPECT_FALSE(src->next(r));
  EXPECT_EQ(src->summary().note, "1 memory instruction of kinds warpscope does not model skipped (UTMALDG 1)");
}

TEST(AccelSimTrace, ScatteredAddressesListedOneByOne) {
  std::string list;
  for (int l = 0; l < 32; ++l) list += fmt_address(kGlobal + 4096u * static_cast<unsigned>(31 - l));
  auto src = open_trace_buffer(kernel_file(block("insts = 1\n0010 ffffffff 1 R2 LDG.E 1 R4 4 0 " + list + "\n")), "t");
  WarpAccess r;
  ASSERT_TRUE(src->next(r));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(lane_address(r, l), kGlobal + 4096u * static_cast<unsigned>(31 - l));
  EXPECT_EQ(src->kernels()[0].arch, "sm_80");
  EXPECT_FALSE(src->next(r));
}

struct BadCase {
  const char* what;
  std::string file;
  const char* message;
};

TEST(AccelSimTrace, EveryMalformedFileIsOneErrorNamingItsLine) {
  const std::string ldg = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f1000000000 4\n";
  const std::vector<BadCase> cases = {
      {"no #END_TB", kernel_file("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n" + ldg),
       "the file ends inside block (0,0,0) (no #END_TB): truncated?"},
      {"fewer instructions than declared", kernel_file(block("insts = 2\n" + ldg)),
       "warp 0 of block (0,0,0) declared 2 instructions, 1 are missing"},
      {"more instructions than declared", kernel_file(block("insts = 1\n" + ldg + ldg)),
       "warp 0 of block (0,0,0) declared 1 instructions; this is one more"},
      {"block outside the grid", kernel_file("#BEGIN_TB\nthread block = 2,0,0\n#END_TB\n"),
       "thread block (2,0,0) is outside the grid (2,1,1)"},
      {"warp outside the block", kernel_file("#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\ninsts = 0\n#END_TB\n"),
       "expected 'warp = N' with N below the block's 2 warps"},
      {"address not hex", kernel_file(block("insts = 1\n0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0xzz 4\n")),
       "expected a hex base address, found '0xzz'"},
      {"a lane address missing", kernel_file(block("insts = 1\n0010 00000003 1 R2 LDG.E 1 R4 4 0 0x7f1000000000\n")),
       "the instruction ends before its lane addresses"},
      {"unknown address format", kernel_file(block("insts = 1\n0010 ffffffff 1 R2 LDG.E 1 R4 4 3 0x0\n")),
       "expected address format 0, 1 or 2, found '3'"},
      {"misaligned lane", kernel_file(block("insts = 1\n0010 ffffffff 1 R2 LDG.E.64 1 R4 8 1 0x7f1000000004 8\n")),
       "LDG.E.64 at PC 0x10: lane 0 address 0x7f1000000004 is not a multiple of the record's size, 8 bytes"},
      {"instruction outside a block", kernel_file(ldg), "expected #BEGIN_TB, found '0010 ffffffff"},
      // An LDGSTS.BYPASS (cp.async.cg) copies 16 bytes a lane; one of 8 is no cp.async (fuzz_trace_reader).
      {"bypassing LDGSTS of 8 bytes", kernel_file(block("insts = 1\n00c0 ffffffff 0 LDGSTS.E.BYPASS.64 2 R2 R4 8 1 0x7f1000004000 8\n")),
       "LDGSTS.E.BYPASS.64 at PC 0xc0: an LDGSTS copies 4, 8 or 16 bytes a lane (BYPASS: 16), not 8"},
      {"header without its grid", "-kernel name = k\n-block dim = (32,1,1)\n#traces\n", "the kernel header lacks '-grid dim'"},
      {"bad grid", "-kernel name = k\n-grid dim = (1,x,1)\n", "-grid dim: expected x,y,z, found '1,x,1'"},
      {"header never ends", "-kernel name = k\n-grid dim = (1,1,1)\n", "the file ends in the kernel header"},
  };
  for (const auto& c : cases) {
    const std::string e = read_error(c.file, "bad.traceg");
    EXPECT_NE(e.find(c.message), std::string::npos) << c.what << ": " << e;
    EXPECT_EQ(e.rfind("bad.traceg line ", 0), 0u) << c.what << ": " << e;
  }
}

// The error message of opening and reading all of `bytes` ("no error" when none).
std::string any_error(const std::string& bytes, const std::string& name) {
  try {
    auto src = open_trace_buffer(bytes, name);
    read_all(*src);
  } catch (const InputError& e) {  // TraceError, or a decompression error
    return e.what();
  }
  return "no error";
}

// Accel-Sim distributes kernel traces as .traceg.xz: read as they decompress, in a list
// (kernelslist_xz.g names kernel-1.traceg.xz, made with xz -9 from kernel-1.traceg) or alone.
TEST(AccelSimTrace, XzCompressedKernelFiles) {
  const TraceContent plain = read_all(kData / "kernelslist.g");
  const TraceContent xz = read_all(kData / "kernelslist_xz.g");
  EXPECT_EQ(plain.kernels, xz.kernels);  // atomics and lines read ahead through the decompressor too
  ASSERT_EQ(plain.records.size(), xz.records.size());
  for (std::size_t i = 0; i < plain.records.size(); ++i) EXPECT_EQ(plain.records[i].addr, xz.records[i].addr) << i;
  auto src = open_trace(kData / "kernel-1.traceg.xz");
  const TraceContent one = read_all(*src);
  EXPECT_EQ(one.records.size(), 10u);
  EXPECT_EQ(src->bytes_read(), src->file_size());  // progress counts compressed bytes, as the file's size does

  const std::string compressed = read_bytes(kData / "kernel-1.traceg.xz");
  EXPECT_NE(any_error(compressed.substr(0, 300), "cut.traceg.xz").find("cannot decompress cut.traceg.xz (xz): the "
                                                                         "compressed data ends early (truncated?)"),
            std::string::npos);
  std::string corrupt = compressed;
  corrupt[200] = static_cast<char>(corrupt[200] ^ 0x55);
  EXPECT_NE(any_error(corrupt, "bad.traceg.xz").find("cannot decompress bad.traceg.xz (xz)"), std::string::npos);
  // An xz file that is not an Accel-Sim trace: said, with the way out.
  EXPECT_EQ(any_error(std::string("\xFD" "7zXZ\0", 6) + "garbage", "x.xz").rfind("cannot decompress x.xz (xz)", 0), 0u);
  EXPECT_NE(any_error(read_bytes(kData / "kernel-1.traceg"), "k.tracez").find("Accel-Sim 2.0's .tracez container is "
                                                                             "not read"),
            std::string::npos);
}

// The error of opening a kernelslist holding `list` ("no error" when it opens).
std::string list_error(const std::string& list) {
  const auto dir = scratch_dir() / "accelsim_list";
  std::filesystem::create_directories(dir);
  write_bytes(dir / "kernelslist.g", list);
  try {
    open_trace(dir / "kernelslist.g");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "no error";
}

TEST(AccelSimTrace, KernelsListErrors) {
  EXPECT_NE(list_error("MemcpyHtoD,0x00007f1000000000,4096\nkernel-9.traceg\n")
                .find("line 2 (byte 35): cannot read the kernel trace"),
            std::string::npos);
  // Names are relative to the list's folder: kernel-1.traceg is not in this one.
  EXPECT_NE(list_error("kernel-1.traceg\n").find("line 1 (byte 0): cannot read the kernel trace"), std::string::npos);
  EXPECT_NE(list_error("MemcpyHtoD,0x0,4\nkernel 1.traceg\n")
                .find("line 2 (byte 17): expected a kernel trace file name or 'MemcpyHtoD,ADDRESS,BYTES', found "
                      "'kernel 1.traceg'"),
            std::string::npos);
  EXPECT_NE(list_error("MemcpyHtoD,0x0,4\n").find("the list names no kernel trace file"), std::string::npos);
  // A .tracez named by a list is refused as when opened alone, when the list reaches it.
  const auto dir = scratch_dir() / "accelsim_list";
  write_bytes(dir / "kernel-1.tracez", read_bytes(kData / "kernel-1.traceg"));
  write_bytes(dir / "kernelslist.g", "kernel-1.tracez\n");
  auto src = open_trace(dir / "kernelslist.g");
  WarpAccess r;
  try {
    src->next(r);
    FAIL() << "a .tracez in a list";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("Accel-Sim 2.0's .tracez container is not read"), std::string::npos)
        << e.what();
  }
  // From memory (or standard input) a list's files cannot be found.
  EXPECT_NE(read_error("kernel-1.traceg\n", "list").find("an Accel-Sim kernelslist names its kernel files"),
            std::string::npos);
}

}  // namespace
}  // namespace warpscope::test
