// The size of a kernel's machine code (KernelInfo::code_bytes): stored in both
// trace forms (native optional block 0x81, the text kernel key code_bytes=),
// so that `analyze` of a fresh `warpscope trace` recording counts the
// launch's own DRAM reads without a SASS listing (memory/launch_reads.hpp;
// docs/VALIDATION.md "Every launch's own DRAM reads").
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdint>

#include "trace/native_format.hpp"
#include "trace/trace_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::test {
namespace {

KernelInfo kernel_with_code(std::uint64_t bytes) {
  KernelInfo k;
  k.name = "sgemm_tiled16";
  k.grid = {1, 1, 1};
  k.block = {32, 1, 1};
  k.code_bytes = bytes;
  return k;
}

WarpAccess load() {
  return record(0, 0x40, 0xffffffffu, [](int l) { return 0x10000u + 4u * static_cast<unsigned>(l); });
}

TEST(CodeSize, BothFormsKeepIt) {
  for (const TraceFormat format : {TraceFormat::Native, TraceFormat::Text}) {
    const auto path = scratch_dir() / (format == TraceFormat::Native ? "code.wst" : "code.txt");
    write_all(path, format, {kernel_with_code(5888), kernel_with_code(0)}, {load()});
    const TraceContent got = read_all(path);
    ASSERT_EQ(got.kernels.size(), 2u);
    EXPECT_EQ(got.kernels[0].code_bytes, 5888u) << to_string(format);
    EXPECT_EQ(got.kernels[1].code_bytes, 0u) << to_string(format);  // unknown stays unknown
    EXPECT_EQ(got.records.size(), 1u);
  }
  // The text form: a key at the end of the kernel line, only where the size is known.
  const std::string text = read_bytes(scratch_dir() / "code.txt");
  EXPECT_NE(text.find("source=\"\" code_bytes=5888\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("code_bytes=0"), std::string::npos) << text;
}

// Block 0x81 follows its kernel block, after the atomics block when there is one;
// readers that predate it skip it as any optional block.
TEST(CodeSize, NativeBlockFollowsItsKernel) {
  const auto path = scratch_dir() / "code_layout.wst";
  KernelInfo k = kernel_with_code(5888);
  k.atomics = {{0x90, AtomicOp::Add}};
  write_all(path, TraceFormat::Native, {k, kernel_with_code(0)}, {load()});
  const std::string b = read_bytes(path);
  const std::size_t atomics = next_block(b, 8), code = next_block(b, atomics), second = next_block(b, code);
  EXPECT_EQ(static_cast<std::uint8_t>(b[8]), 1);
  EXPECT_EQ(static_cast<std::uint8_t>(b[atomics]), 0x80);
  EXPECT_EQ(static_cast<std::uint8_t>(b[code]), 0x81);
  EXPECT_GE(0x81, trace::kOptionalBlockTypes);
  // Body: kernel 0 (varint), 5888 = 0x1700 (varint 80 2e).
  EXPECT_EQ(b.substr(code + 16, next_block(b, code) - code - 16), std::string("\x00\x80\x2e", 3));
  // The second kernel's size is unknown: a chunk, no 0x81 block, follows its kernel block.
  EXPECT_EQ(static_cast<std::uint8_t>(b[second]), 1);
  EXPECT_EQ(static_cast<std::uint8_t>(b[next_block(b, second)]), 2);
}

// The block right after the kernel block (`before` first), or after the chunk that follows it.
std::string code_error(const std::string& body, bool after_chunk = false, const std::string& before = "") {
  const auto path = scratch_dir() / "code_bad.wst";
  write_all(path, TraceFormat::Native, {kernel_with_code(0)}, {load()});
  const std::string blocks = before + native_block(0x81, body);
  return read_error(with_blocks_after_kernel(read_bytes(path), blocks, after_chunk), "t.wst");
}

TEST(CodeSize, BadBlocksNameTheByteAndTheProblem) {
  const std::size_t at = 8 + 16 + trace::encode_kernel(kernel_with_code(0)).size();
  EXPECT_EQ(code_error(std::string("\x00\x80\x2e", 3)), "no error");
  EXPECT_EQ(code_error(std::string("\x00\x00", 2)),
            fmt::format("t.wst: bad code size block at byte {}: code size 0 (an unknown size is never stored)", at));
  EXPECT_EQ(code_error(std::string("\x00\x80\x01\x00", 4)),
            fmt::format("t.wst: bad code size block at byte {}: 1 unexpected bytes after the code size", at));
  EXPECT_EQ(code_error(std::string("\x00", 1)),
            fmt::format("t.wst: bad code size block at byte {}: expected a varint for code size, found the end of the "
                        "block", at));
  EXPECT_EQ(code_error(std::string("\x00\x80\x80\x80\x80\x10", 6)),
            fmt::format("t.wst: bad code size block at byte {}: code size is 4294967296, more than 32 bits", at));
  EXPECT_EQ(code_error(std::string("\x02\x10", 2)),
            fmt::format("t.wst: code size block at byte {} names kernel 2; it must come after that kernel's "
                        "block, before any chunk", at));
  // After a chunk: a chunk read ahead would see its kernel change.
  const std::string after_chunk = code_error(std::string("\x00\x10", 2), true);
  EXPECT_NE(after_chunk.find("it must come after that kernel's block, before any chunk"), std::string::npos);
  // Twice for one kernel.
  const std::string once = native_block(0x81, std::string("\x00\x10", 2));
  EXPECT_EQ(code_error(std::string("\x00\x20", 2), false, once),
            fmt::format("t.wst: code size block at byte {}: kernel 0 already has one", at + once.size()));
  // An unknown optional block between the kernel and its size is skipped, as any.
  EXPECT_EQ(code_error(std::string("\x00\x10", 2), false, native_block(0xc0, "future")), "no error");
}

TEST(CodeSize, TheTextKeyIsChecked) {
  auto error = [](const std::string& text) { return read_error(text, "t.txt"); };
  EXPECT_EQ(error("wstrace 1\nkernel 0 code_bytes=0x1700\n"), "no error");
  EXPECT_EQ(error("wstrace 1\nkernel 0 code_bytes=0\n"), "no error");  // 0: unknown, as when absent
  EXPECT_EQ(error("wstrace 1\nkernel 0 code_bytes=4294967296\n"),
            "t.txt:2:21: a byte count 4294967296 is out of range (at most 4294967295)");
  EXPECT_EQ(error("wstrace 1\nkernel 0 code_bytes=1 code_bytes=2\n"), "t.txt:2:23: code_bytes given twice");
}

// No writer stores a size the format cannot hold (32 bits), and it says so before writing the kernel.
TEST(CodeSize, WritersRefuseASizeOver32Bits) {
  for (const TraceFormat format : {TraceFormat::Native, TraceFormat::Text}) {
    auto sink = create_trace(scratch_dir() / "code_big.trace", format);
    try {
      sink->begin_kernel(kernel_with_code(std::uint64_t{1} << 32));
      ADD_FAILURE() << "no error for " << to_string(format);
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "cannot write a trace: the code of kernel 0 is 4294967296 bytes (the limit is "
                                       "4294967295)");
    }
    EXPECT_EQ(sink->begin_kernel(kernel_with_code(16)), 0u);  // the writer goes on, the bad kernel not counted
    sink->close();
    EXPECT_EQ(read_all(scratch_dir() / "code_big.trace").kernels.at(0).code_bytes, 16u);
  }
}

}  // namespace
}  // namespace warpscope::test
