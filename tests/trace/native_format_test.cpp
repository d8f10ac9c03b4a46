// The native format byte by byte, against docs/TRACE_FORMAT.md: checksum
// vectors, the empty trace, a kernel block body and record encodings. Every
// expected byte here was worked out by hand from the document.
#include <gtest/gtest.h>

#include <vector>

#include "trace/encoding.hpp"
#include "trace/native_format.hpp"
#include "trace/trace_test_util.hpp"

namespace warpscope::test {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}

TEST(TraceChecksum, Fnv1a64PublishedVectors) {
  EXPECT_EQ(trace::fnv1a("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(trace::fnv1a("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(trace::fnv1a("foobar", 6), 0x85944171f73967e8ull);
}

TEST(TraceVarint, ZigZagAndLeb128) {
  EXPECT_EQ(trace::zigzag(0), 0u);
  EXPECT_EQ(trace::zigzag(-1), 1u);
  EXPECT_EQ(trace::zigzag(1), 2u);
  EXPECT_EQ(trace::zigzag(INT64_MIN), UINT64_MAX);
  EXPECT_EQ(trace::unzigzag(UINT64_MAX), INT64_MIN);
  std::string out;
  trace::put_varint(out, 300);
  EXPECT_EQ(out, bytes({0xac, 0x02}));
  out.clear();
  trace::put_varint(out, UINT64_MAX);
  EXPECT_EQ(out, bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  const auto* p = reinterpret_cast<const std::uint8_t*>(out.data());
  std::uint64_t v = 0;
  EXPECT_TRUE(trace::get_varint(p, p + out.size(), v));
  EXPECT_EQ(v, UINT64_MAX);
  // An 11th byte, a 10th byte above 1, and a varint cut short are all refused.
  const std::string too_long = bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
  p = reinterpret_cast<const std::uint8_t*>(too_long.data());
  EXPECT_FALSE(trace::get_varint(p, p + too_long.size(), v));
  const std::string cut = bytes({0x80, 0x80});
  p = reinterpret_cast<const std::uint8_t*>(cut.data());
  EXPECT_FALSE(trace::get_varint(p, p + cut.size(), v));
}

TEST(NativeFormat, EmptyTraceIsHeaderAndFooter) {
  const auto path = scratch_dir() / "empty_exact.wst";
  create_trace(path, TraceFormat::Native)->close();
  std::string expected = bytes({0x89, 'W', 'S', 'T', 0x01, 0x00, 0x00, 0x00,     // magic, version 1, flags 0
                                0x03, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,  // footer block, 24-byte body
                                0xbe, 0xec, 0x30, 0x2d, 0x93, 0x32, 0xf3, 0x33}); // FNV-1a of header[0..8) + body
  expected.append(24, '\0');                                                     // 0 records, 0 kernels, 0 chunks
  EXPECT_EQ(read_bytes(path), expected);
  EXPECT_FALSE(std::filesystem::exists(path.string() + ".partial"));
}

TEST(NativeFormat, KernelBlockBody) {
  KernelInfo k;
  k.name = "k";
  k.grid = {2, 1, 1};
  k.block = {32, 1, 1};
  k.arch = "sm_90";
  k.source.assign(1, 't');  // not = "t": a GCC 12 -Wrestrict false positive
  k.lines = {{0x10, {"a.cu", 3}}, {0x20, {"a.cu", 4}}, {0x200, {"b.cu", 300}}};
  const std::string expected = bytes({
      0x00,                                  // id
      0x01, 'k',                             // name
      0x02, 0x01, 0x01, 0x20, 0x01, 0x01,    // grid, block
      0x00, 0x00, 0x00,                      // dynamic shared, static shared, registers
      0x05, 's', 'm', '_', '9', '0',         // arch
      0x00,                                  // gpu
      0x01, 't',                             // source
      0x02, 0x04, 'a', '.', 'c', 'u', 0x04, 'b', '.', 'c', 'u',  // file table
      0x03,                                  // 3 line entries: pc delta, file, line
      0x10, 0x00, 0x03,                      //
      0x10, 0x00, 0x04,                      //
      0xe0, 0x03, 0x01, 0xac, 0x02});        // pc += 0x1e0, b.cu:300
  EXPECT_EQ(trace::encode_kernel(k), expected);
  const auto* p = reinterpret_cast<const std::uint8_t*>(expected.data());
  EXPECT_EQ(trace::decode_kernel(p, expected.size(), "f", 8), k);
}

// The three records of docs/TRACE_FORMAT.md's example chunk.
std::vector<WarpAccess> example_records() {
  WarpAccess a = record(0, 0x1a0, 0xffffffffu, [](int l) { return 0x7f0000000000ull + 4u * unsigned(l); });
  a.cta = 5;
  a.warp = 1;
  const std::uint64_t lanes[4] = {0x1000, 0x1008, 0x2000, 0x10};
  WarpAccess b = record(0, 0x1b0, 0xf, [&](int l) { return lanes[l]; });
  b.cta = 5;
  b.warp = 1;
  b.sm = 3;
  b.space = Space::Shared;
  b.op = Op::Store;
  b.size = 8;
  b.cache = CacheOp::Wb;
  WarpAccess c = record(0, 0x1c0, 0, [](int) { return 0; });
  c.op = Op::Atomic;
  c.size = 16;
  return {a, b, c};
}

TEST(NativeFormat, RecordEncoding) {
  const std::string expected = bytes({
      // tag 0x46: cta, warp, base+stride; cta 5; warp 1; pc +0x1a0; base +0x7f0000000000; stride 4
      0x46, 0x05, 0x01, 0xc0, 0x06, 0x80, 0x80, 0x80, 0x80, 0x80, 0xc0, 0x3f, 0x08,
      // tag 0xb8: sm, type, mask, deltas; sm 3; shared st 8 B; wb; mask f; pc +0x10;
      // base +0x1000 (first shared base); lanes +8, +0xff8, -0x1ff0
      0xb8, 0x06, 0x6a, 0x07, 0x0f, 0x00, 0x00, 0x00, 0x20, 0x80, 0x40, 0x10, 0xf0, 0x3f, 0xdf, 0x7f,
      // tag 0x3e: cta, warp, sm, type, mask, no addresses; 0; 0; -1; global atom 16 B; default; mask 0; pc +0x10
      0x3e, 0x00, 0x00, 0x01, 0x90, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20});
  trace::RecordEncoder enc;
  std::vector<std::uint8_t> buf(3 * trace::kMaxRecordBytes);
  std::uint8_t* end = buf.data();
  for (const auto& r : example_records()) end = enc.encode(r, end);
  EXPECT_EQ(std::string(buf.data(), end), expected);

  trace::RecordDecoder dec;
  dec.start(reinterpret_cast<const std::uint8_t*>(expected.data()), expected.size(), 1);
  for (const auto& want : example_records()) {
    WarpAccess got;
    got.addr.fill(0xdead);  // inactive lanes must come back as 0
    ASSERT_TRUE(dec.decode(got)) << dec.error();
    EXPECT_EQ(got.pc, want.pc);
    EXPECT_EQ(got.addr, want.addr);
  }
  EXPECT_TRUE(dec.at_end());
}

TEST(NativeFormat, DecoderRefusesMalformedRecords) {
  struct Case {
    std::string data;
    std::uint32_t kernels;
    const char* error;
  };
  const Case cases[] = {
      {bytes({0x00, 0x00}), 0, "record of a kernel not declared before it"},
      {bytes({0x01, 0x05, 0x00}), 1, "record of a kernel not declared before it"},
      {bytes({0xc0, 0x00, 0x00}), 1, "bad address mode"},
      {bytes({0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}), 1, "addresses for a record with no active lane"},
      {bytes({0x00, 0x00}), 1, "bad address mode"},  // active lanes but no addresses
      {bytes({0x10, 0x07, 0x00, 0x00}), 1, "bad space, size or cache operator code"},  // space 7 (6 is texture_pitch)
      {bytes({0x10, 0xa0, 0x00, 0x00}), 1, "bad space, size or cache operator code"},
      {bytes({0x10, 0x00, 0x09, 0x00}), 1, "bad space, size or cache operator code"},
      // cp.async bit 0x20 (types.hpp async_copy_record_ok): local space, .cg of 4 B, a store, with 0x10
      {bytes({0x10, 0x41, 0x21, 0x00}), 1, "a cp.async (ldgsts) record that is not a global or shared copy"},
      {bytes({0x10, 0x40, 0x22, 0x00}), 1, "a cp.async (ldgsts) record that is not a global or shared copy"},
      {bytes({0x10, 0x88, 0x21, 0x00}), 1, "a cp.async (ldgsts) record that is not a global or shared copy"},
      {bytes({0x10, 0x82, 0x30, 0x00}), 1, "record that is not"},
      // bulk bit 0x40: a shared record, 4 bytes, a cache operator, with 0x20; then mask 3 (kTagMask, 3, pc, base)
      {bytes({0x10, 0x82, 0x40, 0x00}), 1, "a bulk-copy (tma_ld/tma_st) record that is not a 16-byte global load or store"},
      {bytes({0x10, 0x40, 0x40, 0x00}), 1, "a bulk-copy (tma_ld/tma_st) record that is not a 16-byte global load or store"},
      {bytes({0x10, 0x80, 0x41, 0x00}), 1, "a bulk-copy (tma_ld/tma_st) record that is not a 16-byte global load or store"},
      {bytes({0x10, 0x80, 0x60, 0x00}), 1, "record that is not"},
      {bytes({0x30, 0x80, 0x40, 0x03, 0x00, 0x00, 0x00, 0x00}), 1, "a bulk-copy (tma_ld/tma_st) record whose mask is not 7"},
      // mask 7 in stride mode: base 0x20 (zigzag 0x40), stride 8 (zigzag 0x10): lanes 0x20, 0x28, 0x30, and the
      // shared address (lane 1) is not a multiple of 16
      {bytes({0x70, 0x80, 0x40, 0x07, 0x00, 0x00, 0x00, 0x00, 0x40, 0x10}), 1, "addresses or byte count are not multiples of 16"},
      // a tensor-copy row (mask f), stride 16 from 0: lane 3 (its flags) is 48
      {bytes({0x70, 0x80, 0x40, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20}), 1, "lane 3 (flags) is not 0 to 31 (8 only with 4, 16 only with 1)"},
      // mask f, stride 8 from 0x20: the shared address (lane 1, 0x28) is not a multiple of 16
      {bytes({0x70, 0x80, 0x40, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x40, 0x10}), 1, "whose addresses are not multiples of 16"},
      // mask 7, stride 0 from 0: global 0, shared 0, a count of 0
      {bytes({0x70, 0x80, 0x40, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}), 1, "byte count are not multiples of 16, or whose count is not 16 to 1 MiB"},
      {bytes({0x04, 0x80, 0x80, 0x04, 0x00}), 1, "bad warp id"},
      {bytes({0x40, 0x00, 0x00}), 1, "bad stride"},
      {bytes({0x80, 0x00, 0x00, 0x00}), 1, "bad lane address delta"},
  };
  for (const auto& c : cases) {
    trace::RecordDecoder dec;
    dec.start(reinterpret_cast<const std::uint8_t*>(c.data.data()), c.data.size(), c.kernels);
    WarpAccess r;
    EXPECT_FALSE(dec.decode(r)) << c.error;
    EXPECT_NE(std::string(dec.error()).find(c.error), std::string::npos) << dec.error() << " vs " << c.error;
  }
}

// A GPU faults on a misaligned access, so a record with an active lane whose
// address is not a multiple of its size cannot come from a kernel: the
// decoder refuses it naming the lane, in both address modes, and accepts a
// stride that is not a multiple of the size where every active lane still
// lands aligned (lanes 0 and 2 at stride 2 for 4-byte words).
TEST(NativeFormat, DecoderRefusesMisalignedLanes) {
  struct Case {
    WarpAccess record;
    const char* error;  // nullptr: decodes
  };
  auto sized = [](WarpAccess r, std::uint8_t size) {
    r.size = size;
    return r;
  };
  const Case cases[] = {
      {record(0, 0, 0xffffffffu, [](int l) { return 0x1002 + 4u * unsigned(l); }), "lane 0 address 0x1002"},
      {record(0, 0, 0x5, [](int l) { return 0x1000 + 2u * unsigned(l); }), nullptr},
      {record(0, 0, 0x7, [](int l) { return 0x1000 + 2u * unsigned(l); }), "lane 1 address 0x1002"},
      {record(0, 0, 0xf, [](int l) { return l == 3 ? 0x2006u : 0x1000 + 64u * unsigned(l); }),
       "lane 3 address 0x2006"},
      {sized(record(0, 0, 0x80000001u, [](int l) { return 0x100 + 8u * unsigned(l); }), 16), "lane 31 address 0x1f8"},
      {sized(record(0, 0, 0x1, [](int) { return 0x101; }), 2), "lane 0 address 0x101"},
      {sized(record(0, 0, 0xffffffffu, [](int l) { return 0x101 + unsigned(l); }), 1), nullptr},
  };
  for (const auto& c : cases) {
    trace::RecordEncoder enc;  // the encoder does not check: the writers do (below)
    std::vector<std::uint8_t> buf(trace::kMaxRecordBytes);
    const std::uint8_t* end = enc.encode(c.record, buf.data());
    trace::RecordDecoder dec;
    dec.start(buf.data(), static_cast<std::size_t>(end - buf.data()), 1);
    WarpAccess got;
    if (c.error == nullptr) {
      ASSERT_TRUE(dec.decode(got)) << dec.error();
      EXPECT_EQ(got.addr, c.record.addr);
      continue;
    }
    EXPECT_FALSE(dec.decode(got)) << c.error;
    EXPECT_NE(std::string(dec.error()).find(c.error), std::string::npos) << dec.error() << " vs " << c.error;
    EXPECT_NE(std::string(dec.error()).find("not a multiple of the record's size"), std::string::npos);
  }
}

TEST(NativeFormat, WritersRefuseMisalignedLanes) {
  for (TraceFormat format : {TraceFormat::Native, TraceFormat::Text}) {
    const auto path = scratch_dir() / (format == TraceFormat::Text ? "misaligned.txt" : "misaligned.wst");
    auto sink = create_trace(path, format);
    sink->begin_kernel(KernelInfo{});
    WarpAccess r = record(0, 0x30, 0x3, [](int l) { return 0x1000 + 12u * unsigned(l); });
    r.size = 8;
    try {
      sink->write(r);
      ADD_FAILURE() << "a misaligned record was written";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "cannot write a trace record of kernel 0 at PC 0x30: lane 1 address 0x100c is not a multiple of the "
                "record's size, 8 bytes (a GPU faults on a misaligned access, so no kernel makes one)");
    }
    r.size = 4;
    sink->write(r);  // the same lanes are aligned for 4-byte words
    sink->close();
    EXPECT_EQ(read_all(path).records.size(), 1u);
  }
}

}  // namespace
}  // namespace warpscope::test
