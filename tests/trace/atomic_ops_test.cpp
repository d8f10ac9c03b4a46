// The atomic operation of each atomic instruction (KernelInfo::atomics): stored
// in both trace forms (native optional block 0x80, text `atomic` lines), read
// from SASS listings, and carried by the analyzer to the model, where it
// decides how an atomic is served (validation/h100/atomics_probe).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstring>

#include "analyze/analyzer.hpp"
#include "test_support.hpp"
#include "trace/native_format.hpp"
#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

KernelInfo kernel_with_atomics() {
  KernelInfo k;
  k.name = "cas_kernel(int*)";
  k.grid = {1, 1, 1};
  k.block = {32, 1, 1};
  k.atomics = {{0x90, AtomicOp::Cas}, {0xa0, AtomicOp::PopcInc}, {0x1f0, AtomicOp::Add}};
  return k;
}

// A coalesced 4-byte atomic of one warp at `pc`.
WarpAccess atomic_at(std::uint64_t pc) {
  WarpAccess r = record(0, pc, 0xffffffffu, [](int l) { return 0x10000u + 4u * static_cast<unsigned>(l); });
  r.op = Op::Atomic;
  return r;
}

TEST(AtomicOps, NamesRoundTrip) {
  for (int i = 0; i < kAtomicOpCount; ++i) {
    const auto op = static_cast<AtomicOp>(i);
    EXPECT_EQ(parse_atomic_op(to_string(op)), op) << to_string(op);
  }
  EXPECT_EQ(to_string(AtomicOp::PopcInc), "popc.inc");
  EXPECT_FALSE(parse_atomic_op("CAS"));
}

TEST(AtomicOps, BothFormsKeepTheTable) {
  for (const TraceFormat format : {TraceFormat::Native, TraceFormat::Text}) {
    const auto path = scratch_dir() / (format == TraceFormat::Native ? "atomics.wst" : "atomics.txt");
    KernelInfo plain;
    plain.name = "plain";
    write_all(path, format, {kernel_with_atomics(), plain}, {atomic_at(0x90)});
    const TraceContent got = read_all(path);
    ASSERT_EQ(got.kernels.size(), 2u);
    EXPECT_EQ(got.kernels[0].atomics, kernel_with_atomics().atomics) << to_string(format);
    EXPECT_TRUE(got.kernels[1].atomics.empty());
    EXPECT_EQ(got.records.size(), 1u);
  }
  // The text form spells it out, after the kernel line.
  const std::string text = read_bytes(scratch_dir() / "atomics.txt");
  EXPECT_NE(text.find("atomic k=0 pc=0x90 op=cas\natomic k=0 pc=0xa0 op=popc.inc\natomic k=0 pc=0x1f0 op=add\n"),
            std::string::npos)
      << text;
}

// The table is an optional block right after its kernel block: old readers skip it.
TEST(AtomicOps, NativeBlockFollowsItsKernel) {
  const auto path = scratch_dir() / "atomics_layout.wst";
  write_all(path, TraceFormat::Native, {kernel_with_atomics()}, {atomic_at(0x90)});
  const std::string b = read_bytes(path);
  std::uint32_t kernel_size = 0;
  std::memcpy(&kernel_size, b.data() + 8 + 4, 4);
  const std::size_t next = 8 + 16 + kernel_size;
  ASSERT_LT(next, b.size());
  EXPECT_EQ(static_cast<std::uint8_t>(b[8]), 1);
  EXPECT_EQ(static_cast<std::uint8_t>(b[next]), 0x80);
  EXPECT_GE(0x80, trace::kOptionalBlockTypes);
  // Body: kernel 0, 3 entries of (PC delta varint, operation code): 0x90 cas, +0x10 popc.inc, +0x150 add.
  std::uint32_t size = 0;
  std::memcpy(&size, b.data() + next + 4, 4);
  EXPECT_EQ(b.substr(next + 16, size), std::string("\x00\x03\x90\x01\x0a\x10\x0b\xd0\x02\x01", 10));
}

KernelInfo plain_kernel() {
  KernelInfo k;
  k.name = "k";
  return k;
}

std::string atomics_error(const std::string& body, bool right_after_kernel = true) {
  const auto path = scratch_dir() / "atomics_bad.wst";
  write_all(path, TraceFormat::Native, {plain_kernel()}, {atomic_at(0x90)});
  return read_error(with_blocks_after_kernel(read_bytes(path), native_block(0x80, body), !right_after_kernel), "t.wst");
}

TEST(AtomicOps, BadBlocksNameTheByteAndTheProblem) {
  const std::size_t at = 8 + 16 + trace::encode_kernel(plain_kernel()).size();
  EXPECT_EQ(atomics_error(std::string("\x00\x01\x10\x0a", 4)), "no error");
  EXPECT_EQ(atomics_error(std::string("\x00\x01\x10\x00", 4)),
            fmt::format("t.wst: bad atomic operations block at byte {}: entry 0: operation code 0 (unknown is never "
                        "stored)", at));
  EXPECT_EQ(atomics_error(std::string("\x00\x02\x10\x0a\x00\x01", 6)),
            fmt::format("t.wst: bad atomic operations block at byte {}: entry 1: PCs must increase", at));
  EXPECT_EQ(atomics_error(std::string("\x00\x01\x10\x0a\x00", 5)),
            fmt::format("t.wst: bad atomic operations block at byte {}: 1 unexpected bytes after the entries", at));
  EXPECT_EQ(atomics_error(std::string("\x00\x05\x10\x0a", 4)),
            fmt::format("t.wst: bad atomic operations block at byte {}: 5 entries cannot fit in the 2 bytes left", at));
  EXPECT_EQ(atomics_error(std::string("\x03\x01\x10\x0a", 4)),
            fmt::format("t.wst: atomic operations block at byte {} names kernel 3; it must come after that "
                        "kernel's block, before any chunk", at));
  // After a chunk: a chunk read ahead would see its kernel's table change.
  EXPECT_NE(atomics_error(std::string("\x00\x01\x10\x0a", 4), false).find("before any chunk"),
            std::string::npos);
  // A code from a newer writer is still an atomic: read as `other`.
  std::map<std::uint64_t, AtomicOp> ops;
  const std::string future("\x00\x01\x10\x7f", 4);
  trace::decode_atomics(reinterpret_cast<const std::uint8_t*>(future.data()), future.size(), "t.wst", 0, ops);
  EXPECT_EQ(ops.at(0x10), AtomicOp::Other);
}

TEST(AtomicOps, TextLinesAreChecked) {
  auto error = [](const std::string& text) { return read_error(text, "t.txt"); };
  EXPECT_EQ(error("wstrace 1\nkernel 0\natomic k=0 pc=0x90 op=cas\n"), "no error");
  EXPECT_EQ(error("wstrace 1\natomic k=0 pc=0x90 op=cas\n"),
            "t.txt:2:1: an atomic line must follow its kernel line (or its loc, atomic and generic lines)");
  EXPECT_EQ(error("wstrace 1\nkernel 0\natomic k=0 pc=0x90 op=swap\n"),
            "t.txt:3:23: expected an atomic operation (add, min, max, inc, dec, and, or, xor, exch, cas, popc.inc, "
            "other), found swap");
  EXPECT_EQ(error("wstrace 1\nkernel 0\natomic k=0 pc=0x90 op=unknown\n").substr(0, 43),
            "t.txt:3:23: expected an atomic operation (a");
  EXPECT_EQ(error("wstrace 1\nkernel 0\natomic k=0 pc=0x90\n"), "t.txt:3:1: an atomic line needs k=, pc= and op=");
  EXPECT_EQ(error("wstrace 1\nkernel 0\natomic k=0 pc=0x90 op=cas\natomic k=0 pc=0x90 op=add\n"),
            "t.txt:4:1: PC 0x90 of kernel 0 already has an atomic line");
  EXPECT_EQ(error("wstrace 1\nkernel 0\nkernel 1\natomic k=0 pc=0x90 op=cas\n"),
            "t.txt:4:10: this atomic line follows kernel 1");
}

// The analyzer gives each record its PC's operation: the same coalesced atomic is one set access
// as an add and two as a compare-and-swap on sm_90 (one 64-byte half each).
TEST(AtomicOps, TheAnalyzerCarriesTheOperationToTheModel) {
  const auto path = scratch_dir() / "atomics_analyze.wst";
  WarpAccess cas = atomic_at(0x90), add = atomic_at(0x1f0), unrecorded = atomic_at(0x300);
  cas.sm = add.sm = unrecorded.sm = 0;
  write_all(path, TraceFormat::Native, {kernel_with_atomics()}, {cas, add, unrecorded});
  auto src = open_trace(path);
  const AnalyzeResult r = analyze_trace(*src, {&arch("sm_90")}, AnalyzeOptions{});
  const auto& pcs = r.archs.at(0).pcs;
  std::map<std::uint64_t, std::uint64_t> set_accesses;
  for (const auto& p : pcs) set_accesses[p.pc] = p.counters.global_atom.transactions;
  EXPECT_EQ(set_accesses, (std::map<std::uint64_t, std::uint64_t>{{0x90, 2}, {0x1f0, 1}, {0x300, 1}}));
}

// A trace without the table takes it from a SASS listing, by the kernel's (demangled) name.
TEST(AtomicOps, ASassListingFillsWhatATraceLacks) {
  const std::string listing =
      "\t\tFunction : _Z10cas_kernelPi\n"
      "        /*0090*/                   ATOMG.E.CAS.STRONG.GPU PT, R7, [R6], R2, R3 ;\n"
      "        /*01f0*/                   ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR4][R4.64], R7 ;\n"
      "\t\tFunction : _Z5otherPi\n"
      "        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;\n";
  const AtomicTables tables = atomic_tables_from_sass(listing);
  const std::map<std::uint64_t, AtomicOp> expected{{0x90, AtomicOp::Cas}, {0x1f0, AtomicOp::Add}};
  EXPECT_EQ(tables.at("_Z10cas_kernelPi"), expected);
  EXPECT_EQ(tables.at("cas_kernel(int*)"), expected);
  EXPECT_EQ(tables.count("other(int*)"), 0u);  // no atomic there

  const auto path = scratch_dir() / "atomics_sass.wst";
  KernelInfo k = kernel_with_atomics();
  k.atomics.clear();
  WarpAccess cas = atomic_at(0x90);
  cas.sm = 0;
  write_all(path, TraceFormat::Native, {k}, {cas});
  AnalyzeOptions o;
  auto without = open_trace(path);
  EXPECT_EQ(analyze_trace(*without, {&arch("sm_90")}, o).archs.at(0).pcs.at(0).counters.global_atom.transactions, 1u);
  o.atomics_by_kernel = tables;
  auto with = open_trace(path);
  EXPECT_EQ(analyze_trace(*with, {&arch("sm_90")}, o).archs.at(0).pcs.at(0).counters.global_atom.transactions, 2u);
}

}  // namespace
}  // namespace warpscope::test
