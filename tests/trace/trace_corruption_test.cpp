// A damaged native trace is reported, never crashes: truncation at every byte,
// every single-bit flip, wrong magic and version, absurd lengths, footer
// mismatches; and a footer-less ".partial" file is recovered up to its last
// complete chunk.
#include <gtest/gtest.h>

#include <cstring>

#include "trace/native_format.hpp"
#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

// Five records of one kernel, two per chunk: header, kernel block, chunks of
// 2, 2 and 1 records, footer.
std::string small_trace(const std::filesystem::path& path, bool close = true) {
  TraceWriteOptions o;
  o.records_per_chunk = 2;
  o.remove_partial_on_failure = false;
  {
    auto sink = create_trace(path, TraceFormat::Native, o);
    KernelInfo k;
    k.name = "k";
    k.lines[0x10] = {"k.cu", 3};
    sink->begin_kernel(k);
    for (std::uint32_t i = 0; i < 5; ++i)
      sink->write(record(0, 0x10 * i, 0xffffffffu >> i, [&](int l) { return 0x1000u * i + 4u * unsigned(l); }));
    if (close) sink->close();
  }
  return read_bytes(close ? path : std::filesystem::path(path.string() + ".partial"));
}

struct Block {
  std::size_t start, end;
  std::uint8_t type;
  std::uint32_t records;  // chunks only
};

// The block layout, walked with the documented framing: u8 type at +0, u32
// body size at +4, 16-byte header.
std::vector<Block> blocks(const std::string& b) {
  std::vector<Block> out;
  for (std::size_t at = 8; at + 16 <= b.size();) {
    std::uint32_t size = 0, records = 0;
    std::memcpy(&size, b.data() + at + 4, 4);
    const auto type = static_cast<std::uint8_t>(b[at]);
    if (type == 2) std::memcpy(&records, b.data() + at + 16, 4);
    out.push_back({at, at + 16 + size, type, records});
    at += 16 + size;
  }
  return out;
}

TraceContent read_buffer(const std::string& bytes, const TraceReadOptions& o = {}) {
  auto src = open_trace_buffer(bytes, "t.wst", o);
  return read_all(*src);
}

TEST(TraceCorruption, SmallTraceLayout) {
  const std::string b = small_trace(scratch_dir() / "layout.wst");
  const auto bl = blocks(b);
  ASSERT_EQ(bl.size(), 5u);
  EXPECT_EQ(bl[0].type, 1);
  EXPECT_EQ(bl[1].records, 2u);
  EXPECT_EQ(bl[2].records, 2u);
  EXPECT_EQ(bl[3].records, 1u);
  EXPECT_EQ(bl[4].type, 3);
  EXPECT_EQ(bl[4].end, b.size());
  EXPECT_EQ(read_buffer(b).records.size(), 5u);
}

TEST(TraceCorruption, TruncatedAtEveryByte) {
  const std::string b = small_trace(scratch_dir() / "truncate.wst");
  const auto bl = blocks(b);
  for (std::size_t len = 0; len < b.size(); ++len) {
    const std::string cut = b.substr(0, len);
    std::uint64_t expected_offset = 0;
    std::uint32_t complete_records = 0;
    for (const auto& k : bl) {
      if (k.start <= len) expected_offset = k.start;
      if (k.end <= len) complete_records += k.records;
    }
    if (len < 8) expected_offset = 0;
    try {
      read_buffer(cut);
      ADD_FAILURE() << "no error for a trace cut at " << len;
    } catch (const TraceError& e) {
      EXPECT_EQ(e.offset(), expected_offset) << len << ": " << e.what();
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("t.wst:", 0), 0u) << what;
      if (len > 0) {
        EXPECT_NE(what.find("at byte " + std::to_string(expected_offset)), std::string::npos) << what;
      }
    }
    // Recovery mode reads every complete chunk and says what it dropped.
    if (len < 8) {
      EXPECT_THROW(read_buffer(cut, {.recover = true}), TraceError) << len;
      continue;
    }
    const auto got = read_buffer(cut, {.recover = true});
    EXPECT_EQ(got.records.size(), complete_records) << len;
    EXPECT_TRUE(got.summary.recovered);
    EXPECT_EQ(got.summary.ignored_bytes, len - expected_offset) << len;
    EXPECT_NE(got.summary.note.find("recovered " + std::to_string(complete_records) + " records"), std::string::npos)
        << got.summary.note;
  }
}

TEST(TraceCorruption, EveryBitFlipIsDetected) {
  const std::string b = small_trace(scratch_dir() / "flip.wst");
  for (std::size_t i = 0; i < b.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string f = b;
      f[i] = static_cast<char>(f[i] ^ (1 << bit));
      EXPECT_THROW(read_buffer(f), TraceError) << "byte " << i << " bit " << bit;
    }
  }
}

TEST(TraceCorruption, FlippedChunkByteIsAChecksumMismatch) {
  std::string b = small_trace(scratch_dir() / "checksum.wst");
  const auto chunk = blocks(b)[2];
  b[chunk.start + 30] = static_cast<char>(b[chunk.start + 30] ^ 0x40);
  try {
    read_buffer(b);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_EQ(e.offset(), chunk.start);
    EXPECT_NE(std::string(e.what()).find("t.wst: checksum mismatch in chunk at byte " + std::to_string(chunk.start) +
                                         ": stored 0x"),
              std::string::npos)
        << e.what();
  }
}

TEST(TraceCorruption, WrongMagic) {
  std::string b = small_trace(scratch_dir() / "magic.wst");
  b[3] = 'X';
  try {
    read_buffer(b);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_STREQ(e.what(), "t.wst: not a warpscope native trace: bad magic at byte 0 (expected 89 57 53 54, found 89 "
                           "57 53 58)");
  }
  // Not even the first byte: not a text trace either.
  b[0] = 0x7f;
  try {
    read_buffer(b);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("not a warpscope trace"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("89 57 53 54"), std::string::npos) << e.what();
  }
}

TEST(TraceCorruption, WrongVersion) {
  std::string b = small_trace(scratch_dir() / "version.wst");
  b[4] = 7;
  try {
    read_buffer(b);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_STREQ(e.what(), "t.wst: unsupported trace version 7 at byte 4 (this warpscope reads version 1)");
    EXPECT_EQ(e.offset(), 4u);
  }
  b[4] = 1;
  b[6] = 1;
  EXPECT_THROW(read_buffer(b), TraceError);
}

TEST(TraceCorruption, AbsurdLengthsAreRefusedBeforeAllocating) {
  const std::string b = small_trace(scratch_dir() / "lengths.wst");
  const auto bl = blocks(b);
  std::string f = b;
  const std::uint32_t huge = 0xfffffff0u;
  std::memcpy(f.data() + bl[1].start + 4, &huge, 4);
  try {
    read_buffer(f);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("chunk at byte " + std::to_string(bl[1].start) + " declares 4294967280 bytes"),
              std::string::npos)
        << e.what();
  }
  // A chunk that claims 64 MiB + 1 uncompressed bytes (checksum made right).
  f = b;
  const std::uint32_t usize = (64u << 20) + 1;
  std::memcpy(f.data() + bl[1].start + 20, &usize, 4);
  trace::fix_checksums(f);
  EXPECT_THROW(read_buffer(f), TraceError);
  // A kernel name longer than 1 MiB.
  f = b;
  f[bl[0].start + 17] = static_cast<char>(0xff);
  f.insert(bl[0].start + 18, "\xff\x7f");
  std::uint32_t ksize = 0;
  std::memcpy(&ksize, f.data() + bl[0].start + 4, 4);
  ksize += 2;
  std::memcpy(f.data() + bl[0].start + 4, &ksize, 4);
  trace::fix_checksums(f);
  try {
    read_buffer(f);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel name is 2097151 bytes long (the limit is 1048576)"),
              std::string::npos)
        << e.what();
  }
}

TEST(TraceCorruption, FooterMustMatchAndEndTheFile) {
  const std::string b = small_trace(scratch_dir() / "footer.wst");
  const auto footer = blocks(b).back();
  std::string f = b;
  f[footer.start + 16] = 6;  // six records claimed
  trace::fix_checksums(f);
  try {
    read_buffer(f);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()), "t.wst: footer at byte " + std::to_string(footer.start) +
                                         " says 6 records, 1 kernels, 3 chunks; the file holds 5, 1, 3");
  }
  try {
    read_buffer(b + "x");
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()), "t.wst: unexpected data after the footer at byte " + std::to_string(b.size()));
  }
}

std::string block(std::uint8_t type, const std::string& body) {
  std::string h(1, static_cast<char>(type));
  h.append(3, '\0');
  const auto n = static_cast<std::uint32_t>(body.size());
  h.append(reinterpret_cast<const char*>(&n), 4);
  h.append(8, '\0');
  std::string out = h + body;
  const std::uint64_t sum = trace::fnv1a(out.data(), 8);
  const std::uint64_t full = trace::fnv1a(body.data(), body.size(), sum);
  std::memcpy(out.data() + 8, &full, 8);
  return out;
}

// Found by fuzz_trace_reader: a footer of 0 bytes with a valid checksum was
// read past its end.
TEST(TraceCorruption, FooterOfTheWrongSize) {
  std::string b = small_trace(scratch_dir() / "footer_size.wst");
  const auto footer = blocks(b).back();
  b.resize(footer.start);
  b += block(3, "");
  try {
    read_buffer(b);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.wst: footer at byte " + std::to_string(footer.start) + " declares 0 bytes (a footer is 24)");
  }
}

TEST(TraceCorruption, OptionalBlocksAreSkippedUnknownOnesRefused) {
  const std::string b = small_trace(scratch_dir() / "optional.wst");
  const auto footer = blocks(b).back();
  std::string f = b;
  f.insert(footer.start, block(0xa7, "future metadata"));  // 0x80 is the atomics table
  EXPECT_EQ(read_buffer(f).records.size(), 5u);
  f = b;
  f.insert(footer.start, block(0x05, ""));
  try {
    read_buffer(f);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown block type 0x05 at byte " + std::to_string(footer.start)),
              std::string::npos)
        << e.what();
  }
}

TEST(TraceRecovery, PartialFileOfAnUnfinishedWriter) {
  const auto path = scratch_dir() / "crashed.wst";
  std::filesystem::remove(path);
  const std::string partial = small_trace(path, /*close=*/false);
  EXPECT_FALSE(std::filesystem::exists(path));
  const auto partial_path = std::filesystem::path(path.string() + ".partial");
  ASSERT_TRUE(std::filesystem::exists(partial_path));

  // The ".partial" name turns recovery on; every written record is there.
  auto got = read_all(partial_path);
  EXPECT_EQ(got.records.size(), 5u);
  EXPECT_EQ(got.kernels.size(), 1u);
  EXPECT_TRUE(got.summary.recovered);
  EXPECT_EQ(got.summary.ignored_bytes, 0u);
  EXPECT_EQ(got.summary.note, "no footer: recovered 5 records of 1 kernels in 3 complete chunks");

  // A crash in the middle of the last chunk: the chunks before it remain.
  const auto bl = blocks(partial);
  write_bytes(partial_path, partial.substr(0, bl[3].start + 20));
  got = read_all(partial_path);
  EXPECT_EQ(got.records.size(), 4u);
  EXPECT_EQ(got.summary.ignored_bytes, 20u);
  EXPECT_NE(got.summary.note.find("recovered 4 records of 1 kernels in 2 complete chunks; ignored 20 bytes at byte " +
                                  std::to_string(bl[3].start)),
            std::string::npos)
      << got.summary.note;

  // Under another name the missing footer is an error unless recovery is asked for.
  const auto renamed = scratch_dir() / "crashed_renamed.wst";
  write_bytes(renamed, partial);
  try {
    read_all(renamed);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("missing footer at byte " + std::to_string(partial.size())),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_all(renamed, {.recover = true}).records.size(), 5u);
}

}  // namespace
}  // namespace warpscope::test
