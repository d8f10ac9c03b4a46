// The text form: a hand-written file reads as documented, the writer prints
// the documented lines, and every malformed line is reported with its line
// and column.
#include <gtest/gtest.h>

#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

TraceContent read_text(const std::string& text) {
  auto src = open_trace_buffer(text, "t.txt");
  return read_all(*src);
}

TEST(TextTrace, HandWrittenFile) {
  const auto got = read_text(
      "# a hand-written trace\n"
      "\n"
      "wstrace 1\n"
      "kernel 0 name=\"void transpose<float>(float*)\" grid=64,64 block=32,8,1 regs=32 arch=sm_90  # trailing\r\n"
      "loc k=0 pc=0x1a0 file=transpose.cu line=42\n"
      "rec k=0 pc=0x1a0 cta=5 warp=1 sm=-1 global ld 4 default mask=ffffffff addr=0x7f0000000000+4\n"
      "rec pc=416 shared st 8 mask=0x0000000f addr=0x1000,0x1008,0x2000,16,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,"
      "-,-,-,-,-,-,-,-\n"
      "rec global ld 16 ldg mask=80000000 addr=0x1000-0x10\n"
      "rec const ld 4 addr=0x40\n"
      "rec local red 2 cv mask=0\n");
  ASSERT_EQ(got.kernels.size(), 1u);
  const KernelInfo& k = got.kernels[0];
  EXPECT_EQ(k.name, "void transpose<float>(float*)");
  EXPECT_EQ(k.grid, (Dim3{64, 64, 1}));
  EXPECT_EQ(k.block, (Dim3{32, 8, 1}));
  EXPECT_EQ(k.registers, 32u);
  EXPECT_EQ(k.arch, "sm_90");
  EXPECT_EQ(k.gpu, "");
  ASSERT_EQ(k.lines.size(), 1u);
  EXPECT_EQ(k.lines.at(0x1a0), (SourceLocation{"transpose.cu", 42}));

  ASSERT_EQ(got.records.size(), 5u);
  const WarpAccess& a = got.records[0];
  EXPECT_EQ(a.pc, 0x1a0u);
  EXPECT_EQ(a.cta, 5u);
  EXPECT_EQ(a.warp, 1u);
  EXPECT_EQ(a.sm, -1);
  EXPECT_EQ(a.addr[0], 0x7f0000000000u);
  EXPECT_EQ(a.addr[31], 0x7f000000007cu);

  const WarpAccess& b = got.records[1];
  EXPECT_EQ(b.pc, 416u);
  EXPECT_EQ(b.space, Space::Shared);
  EXPECT_EQ(b.op, Op::Store);
  EXPECT_EQ(b.size, 8);
  EXPECT_EQ(b.cache, CacheOp::Default);
  EXPECT_EQ(b.active.bits(), 0xfu);
  EXPECT_EQ(b.addr[2], 0x2000u);
  EXPECT_EQ(b.addr[3], 16u);
  EXPECT_EQ(b.addr[4], 0u);

  // BASE-STRIDE: lane i at BASE - 16 i; only lane 31 is active.
  const WarpAccess& c = got.records[2];
  EXPECT_EQ(c.cache, CacheOp::Nc);
  EXPECT_EQ(c.addr[31], 0x1000u - 31u * 16u);
  EXPECT_EQ(c.addr[0], 0u);
  // A bare BASE is a broadcast; the mask defaults to the full warp.
  EXPECT_EQ(got.records[3].addr[17], 0x40u);
  EXPECT_EQ(got.records[3].active, LaneMask::full());
  EXPECT_TRUE(got.records[4].active.none());
  EXPECT_EQ(got.records[4].op, Op::Reduction);
}

TEST(TextTrace, WriterPrintsTheDocumentedLines) {
  const auto path = scratch_dir() / "doc_example.txt";
  KernelInfo k;
  k.name = "transpose";
  k.grid = {64, 64, 1};
  k.block = {32, 8, 1};
  k.static_shared = 4224;
  k.registers = 32;
  k.arch = "sm_90";
  k.gpu = "NVIDIA H100 80GB HBM3";
  k.source = "synthetic";
  k.lines[0x1a0] = {"transpose.cu", 42};
  WarpAccess a = record(0, 0x1a0, 0xffffffffu, [](int l) { return 0x7f0000000000ull + 4u * unsigned(l); });
  a.cta = 5;
  a.warp = 1;
  WarpAccess b = record(0, 0x1b0, 0x0000000fu, [](int l) { return l == 3 ? 0x10u : 0x1000u + 8u * unsigned(l); });
  WarpAccess c = record(0, 0x1c0, 0xffff0000u, [](int l) { return 0x800u - 4u * unsigned(l); });
  // Lane 0 would sit at 0x10 - 64, below 0: the list form.
  WarpAccess d = record(0, 0x1d0, 0x00030000u, [](int l) { return 0x10u + 4u * unsigned(l - 16); });
  write_all(path, TraceFormat::Text, {k}, {a, b, c, d});
  std::string list_b = "0x1000,0x1008,0x1010,0x10";
  for (int l = 4; l < 32; ++l) list_b += ",-";
  std::string list_d = "-";
  for (int l = 1; l < 16; ++l) list_d += ",-";
  list_d += ",0x10,0x14";
  for (int l = 18; l < 32; ++l) list_d += ",-";
  EXPECT_EQ(read_bytes(path),
            "wstrace 1\n"
            "kernel 0 name=transpose grid=64,64,1 block=32,8,1 dyn_smem=0 static_smem=4224 regs=32 arch=sm_90 "
            "gpu=\"NVIDIA H100 80GB HBM3\" source=synthetic\n"
            "loc k=0 pc=0x1a0 file=transpose.cu line=42\n"
            "rec k=0 pc=0x1a0 cta=5 warp=1 sm=-1 global ld 4 default mask=ffffffff addr=0x7f0000000000+4\n"
            "rec k=0 pc=0x1b0 cta=0 warp=0 sm=-1 global ld 4 default mask=0000000f addr=" + list_b + "\n"
            "rec k=0 pc=0x1c0 cta=0 warp=0 sm=-1 global ld 4 default mask=ffff0000 addr=0x800-4\n"
            "rec k=0 pc=0x1d0 cta=0 warp=0 sm=-1 global ld 4 default mask=00030000 addr=" + list_d + "\n");
  const auto back = read_all(path);
  ASSERT_EQ(back.records.size(), 4u);
  EXPECT_EQ(back.records[3].addr, d.addr);
  EXPECT_EQ(back.records[2].addr, c.addr);
}

struct BadText {
  const char* text;
  const char* error;  // the whole message
};

// A byte order mark before `wstrace 1` (a file saved by an editor that adds
// one) is skipped; anywhere else it is an error like any non-ASCII byte.
TEST(TextTrace, ByteOrderMarkAtTheStart) {
  const std::string body =
      "kernel 0 name=a grid=1,1,1 block=32,1,1\n"
      "rec k=0 global ld 4 mask=ffffffff addr=0x1000+4\n";
  const auto plain = read_text("wstrace 1\n" + body), marked = read_text("\xEF\xBB\xBFwstrace 1\n" + body);
  ASSERT_EQ(marked.kernels.size(), 1u);
  ASSERT_EQ(marked.records.size(), plain.records.size());
  EXPECT_EQ(marked.records[0].addr, plain.records[0].addr);
  EXPECT_THROW(read_text("wstrace 1\n\xEF\xBB\xBF" + body), TraceError);
  try {  // an error after the mark: the column from after it, the offset in the file
    read_text("\xEF\xBB\xBFwstrace 2\n");
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_EQ(e.offset(), 3u + 8u) << e.what();
    EXPECT_NE(std::string(e.what()).find("t.txt:1:9:"), std::string::npos) << e.what();
  }
}

TEST(TextTrace, ErrorsNameLineAndColumn) {
  const std::string bulk_rule = std::string("t.txt:3:1: ") + kBulkRecordRule;
  const char* const kBulkRule = bulk_rule.c_str();
  const BadText cases[] = {
      {"wstrace 2\n", "t.txt:1:9: unsupported text trace version 2 (this warpscope reads version 1)"},
      {"", "t.txt:1:1: not a warpscope trace: the file is empty (a text trace starts with 'wstrace 1', a native "
           "trace with the bytes 89 57 53 54)"},
      {"hello\n", "t.txt:1:1: not a warpscope trace: expected the header 'wstrace 1' (or the native magic 89 57 53 "
                  "54, or an Accel-Sim trace's '-kernel name'), found hello"},
      {"wstrace 1\nkernel 1\n", "t.txt:2:8: kernel id 1, expected 0 (kernels are numbered 0, 1, 2, ... in order)"},
      {"wstrace 1\nrec global ld 4 addr=0\n", "t.txt:2:1: record of kernel 0, but only 0 kernel lines come before it"},
      {"wstrace 1\nkernel 0 nmae=k\n",
       "t.txt:2:10: unknown kernel field nmae (known: name, grid, block, dyn_smem, static_smem, regs, arch, gpu, "
       "source, code_bytes)"},
      {"wstrace 1\nkernel 0 name=a name=b\n", "t.txt:2:17: name given twice"},
      {"wstrace 1\nkernel 0 grid=1,2,3,4\n", "t.txt:2:21: expected at most 3 dimensions x,y,z"},
      {"wstrace 1\nkernel 0 name=\"abc\n", "t.txt:2:15: unterminated string: no closing '\"'"},
      {"wstrace 1\nkernel 0 name=\"a\\qb\"\n", "t.txt:2:17: unknown escape \\q (known: \\\" \\\\ \\n \\r \\t \\xHH)"},
      {"wstrace 1\nloc k=0 pc=0 file=a line=1\n", "t.txt:2:1: a loc line must follow its kernel line (or its other loc, "
                                                  "atomic and generic lines)"},
      {"wstrace 1\nkernel 0\nloc k=0 pc=0 file=a\n", "t.txt:3:1: a loc line needs k=, pc=, file= and line="},
      {"wstrace 1\nkernel 0\nloc k=1 pc=0 file=a line=1\n", "t.txt:3:7: this loc line follows kernel 0"},
      {"wstrace 1\nkernel 0\nrec glob ld 4 addr=0\n",
       "t.txt:3:5: expected an address space (global, local, shared, const, texture), found glob"},
      {"wstrace 1\nkernel 0\nrec global ldsm 16 addr=0\n",
       "t.txt:3:1: a ldsm record is a 16-byte shared access with the default cache operator (e.g. 'shared ldsm 16')"},
      {"wstrace 1\nkernel 0\nrec shared stsm 4 addr=0\n",
       "t.txt:3:1: a stsm record is a 16-byte shared access with the default cache operator (e.g. 'shared stsm 16')"},
      {"wstrace 1\nkernel 0\nrec global ldgsts 16 addr=0\n",
       "t.txt:3:1: an ldgsts (cp.async) record is a global read or a shared write of 4, 8 or 16 bytes with cache "
       "operator ca or cg, cg of 16 bytes only (e.g. 'global ldgsts 16 cg')"},
      {"wstrace 1\nkernel 0\nrec local ldgsts 4 ca addr=0\n",
       "t.txt:3:1: an ldgsts (cp.async) record is a global read or a shared write of 4, 8 or 16 bytes with cache "
       "operator ca or cg, cg of 16 bytes only (e.g. 'global ldgsts 16 cg')"},
      // A bulk copy's descriptor (types.hpp Op::BulkLoad): mask 7, counts of 16 to 1 MiB, multiples of 16.
      {"wstrace 1\nkernel 0\nrec global tma_ld 16 addr=0+16\n",
       kBulkRule},
      {"wstrace 1\nkernel 0\nrec global tma_st 16 mask=7 addr=0,16,0,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-\n",
       kBulkRule},
      {"wstrace 1\nkernel 0\nrec shared tma_ld 16 mask=7 addr=0,16,32,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-\n",
       kBulkRule},
      {"wstrace 1\nkernel 0\nrec global tma_ld 16 mask=7 addr=0,16,0x200000,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-\n",
       kBulkRule},
      // A tensor copy's row (mask f): any count to 1 MiB, addresses multiples of 16, lane 3 flags 0 to 31, 8 only with 4, 16 only with 1.
      {"wstrace 1\nkernel 0\nrec global tma_ld 16 mask=f addr=8,16,4,0,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-\n",
       kBulkRule},
      {"wstrace 1\nkernel 0\nrec global tma_ld 16 mask=f addr=0,16,4,8,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-\n",
       kBulkRule},
      {"wstrace 1\nkernel 0\nrec global tma_ld 16 mask=f addr=0,16,4,16,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-\n",
       kBulkRule},
      {"wstrace 1\nkernel 0\nrec global tma_st 16 mask=3 addr=0,16,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-\n",
       kBulkRule},
      {"wstrace 1\nkernel 0\nrec global load 3 addr=0\n", "t.txt:3:17: expected a size of 1, 2, 4, 8 or 16 bytes, "
                                                         "found 3"},
      {"wstrace 1\nkernel 0\nrec global ld 4 cg extra addr=0\n",
       "t.txt:3:20: unexpected extra: a record has four fields without a key (space op size cache)"},
      {"wstrace 1\nkernel 0\nrec global ld\n", "t.txt:3:14: a record needs its space, op and size (e.g. 'global ld "
                                               "4'), then an optional cache operator"},
      {"wstrace 1\nkernel 0\nrec global ld 4\n", "t.txt:3:16: expected addr= (the record has active lanes)"},
      {"wstrace 1\nkernel 0\nrec global ld 4 mask=1ffffffff addr=0\n",
       "t.txt:3:22: expected a mask of 1 to 8 hex digits, found 1ffffffff"},
      {"wstrace 1\nkernel 0\nrec global ld 4 mask=3 addr=0,4,8\n",
       "t.txt:3:33: lane 2 is not in mask=00000003: write '-' for it"},
      {"wstrace 1\nkernel 0\nrec global ld 4 mask=7 addr=0,4,-\n",
       "t.txt:3:33: expected the address of active lane 2, found -"},
      {"wstrace 1\nkernel 0\nrec global ld 4 mask=1 addr=4,-\n", "t.txt:3:31: expected 32 addresses, found 2"},
      // A GPU faults on a misaligned access: such a record names the lane (docs/TRACE_FORMAT.md).
      {"wstrace 1\nkernel 0\nrec global ld 4 mask=3 addr=0,6\n",
       "t.txt:3:31: lane 1 address 0x6 is not a multiple of the record's size, 4 bytes (a GPU faults on a misaligned "
       "access, so no kernel makes one)"},
      {"wstrace 1\nkernel 0\nrec shared st 16 addr=0x100+24\n",
       "t.txt:3:23: lane 1 address 0x118 is not a multiple of the record's size, 16 bytes (a GPU faults on a "
       "misaligned access, so no kernel makes one)"},
      {"wstrace 1\nkernel 0\nrec global ld 8 mask=80000000 addr=0x1004+8\n",
       "t.txt:3:36: lane 31 address 0x10fc is not a multiple of the record's size, 8 bytes (a GPU faults on a "
       "misaligned access, so no kernel makes one)"},
      {"wstrace 1\nkernel 0\nrec global ld 4 addr=0x10+\n",
       "t.txt:3:22: expected BASE+STRIDE (lane i at BASE + STRIDE*i) or 32 comma-separated addresses, found 0x10+"},
      {"wstrace 1\nkernel 0\nrec global ld 4 mask=0 addr=0+4\n",
       "t.txt:3:29: mask=0 has no active lane: leave addr out (or write addr=-)"},
      {"wstrace 1\nkernel 0\nrec global ld 4 sm=40000 addr=0\n",
       "t.txt:3:20: expected an SM id from -1 to 32767, found 40000"},
      {"wstrace 1\nkernel 0\nrec global ld 4 warp=65536 addr=0\n",
       "t.txt:3:22: a warp id 65536 is out of range (at most 65535)"},
      {"wstrace 1\nkernel 0\nrec global ld 4 pc=0x1g addr=0\n",
       "t.txt:3:20: expected a PC (decimal or 0x hex), found 0x1g"},
      {"wstrace 1\nkernel 0\nrec global ld 4 colour=red\n",
       "t.txt:3:17: unknown record field colour (known: k, pc, cta, warp, sm, mask, addr, and space op size cache "
       "without a key)"},
      {"wstrace 1\nkernel 0\nrec global ld 4 addr=0\x01\n",
       "t.txt:3:23: unexpected byte 0x01 (outside quotes a line holds printable ASCII only)"},
      {"wstrace 1\nkernel 0\nrecord\n", "t.txt:3:1: expected kernel, loc, atomic, generic or rec, found record"},
      {"\x7f\x45LF\n", "t.txt:1:1: unexpected byte 0x7f (outside quotes a line holds printable ASCII only) (not a "
                       "warpscope trace? a text trace starts with 'wstrace 1', a native one with the bytes 89 57 53 54)"},
  };
  for (const auto& c : cases) {
    try {
      read_text(c.text);
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const TraceError& e) {
      EXPECT_EQ(std::string(e.what()), c.error) << "input: " << c.text;
    }
  }
}

TEST(TextTrace, ErrorOffsetIsTheByteOfTheColumn) {
  try {
    read_text("wstrace 1\nkernel 0\nrec glob ld 4 addr=0\n");
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_EQ(e.offset(), 10u + 9u + 4u);  // two lines, then column 5
  }
}

TEST(TextTrace, LongLinesAreRefused) {
  std::string text = "wstrace 1\nkernel 0 name=";
  text.append((16u << 20) + 10, 'x');
  try {
    read_text(text);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("t.txt:2:1: line is longer than"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpscope::test
