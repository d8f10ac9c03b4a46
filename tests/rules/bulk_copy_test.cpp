// The TMA's L2 requests for a bulk copy (rules/bulk_copy.hpp), worked by hand from the H100's counts in
// validation/h100/barrier_probe (bulk_g2s / bulk_s2g: 32 copies a launch, so per copy = the counter / 32).
#include "rules/bulk_copy.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace warpscope::rules {
namespace {

// `shared`: where the copy's shared side starts (the probe's buffers are 128-byte aligned).
std::vector<BulkRequest> requests(std::uint64_t address, std::uint64_t bytes, bool write, std::uint64_t shared = 0) {
  std::vector<BulkRequest> out;
  for_each_bulk_request(address, shared, bytes, write, [&](const BulkRequest& r) { out.push_back(r); });
  return out;
}

unsigned sectors(const std::vector<BulkRequest>& rs) {
  unsigned n = 0;
  for (const auto& r : rs) n += r.sectors.count();
  return n;
}

SectorMask mask(unsigned bits) { return SectorMask(static_cast<std::uint8_t>(bits)); }

// 64 B from a line start: one request for sectors 0-1 (bulk_g2s/s64/o0: 32 requests, 64 sectors).
TEST(BulkCopyRequests, AlignedBlockIsOneRequestPerLine) {
  const auto r = requests(0x1000, 64, false);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].line, 0x1000u / 128);
  EXPECT_EQ(r[0].sectors, mask(0b0011));
  EXPECT_EQ(requests(0x1000, 4096, false).size(), 32u);  // s4096/o0: 1,024 requests
}

// 128 B at 48 B into a line, one piece: sector 1 in part (48-64), 2-3 whole; then line 1, sector 0 whole
// (128-160) and sector 1 in part (160-176): 4 requests, 5 sectors (bulk_g2s/s128/o48: 128 and 160).
TEST(BulkCopyRequests, PartialSectorsAreRequestsOfTheirOwn) {
  const auto r = requests(48, 128, false);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].line, 0u);
  EXPECT_EQ(r[0].sectors, mask(0b0010));
  EXPECT_EQ(r[1].sectors, mask(0b1100));
  EXPECT_EQ(r[2].line, 1u);
  EXPECT_EQ(r[2].sectors, mask(0b0010));
  EXPECT_EQ(r[3].sectors, mask(0b0001));
  EXPECT_EQ(sectors(r), 5u);
}

// 144 B at 16 B past a line into aligned shared memory: the shared side crosses 128 bytes after 128 bytes, so the
// pieces are 16-144 and 144-160, not cut at the line, and sector 0 of line 1 is asked for by both
// (bulk_g2s/s144/o16: 192 TMA sectors = 6 a copy; the L2 merged those two: 160 sectors, 96 requests).
TEST(BulkCopyRequests, PiecesDoNotStopAtTheGlobalSidesLines) {
  const auto r = requests(16, 144, false);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(sectors(r), 6u);
  EXPECT_EQ(r[2].line, 1u);
  EXPECT_EQ(r[2].sectors, mask(0b0001));
  EXPECT_EQ(r[3].line, 1u);
  EXPECT_EQ(r[3].sectors, mask(0b0001));
  // 4 KB at 16 B: 32 pieces of 3 requests and 5 sectors (s4096/o16: 5,120 TMA sectors).
  const auto big = requests(16, 4096, false);
  EXPECT_EQ(big.size(), 96u);
  EXPECT_EQ(sectors(big), 160u);
}

// The pieces end where the shared side crosses 128 bytes: a line-aligned 128 B row landing 16 B into a shared
// block is pieces of 112 and 16 B, 4 + 1 sectors, 3 requests (sectors 0-2 whole, sector 3 in part twice); over the
// eight shared offsets of bulk_pipeline's 144-byte shared rows, 36 sectors for 8 rows (r32: 9,216 for 2,048 rows).
// A 144 B row at the same offset in global and shared memory is cut at the line: 5 sectors wherever it starts
// (r36: 10,240).
TEST(BulkCopyRequests, PiecesEndWhereTheSharedSideCrosses128Bytes) {
  const auto r = requests(0x1000, 128, false, 16);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].sectors, mask(0b1000));  // 96-112 of piece 1
  EXPECT_EQ(r[1].sectors, mask(0b0111));
  EXPECT_EQ(r[2].sectors, mask(0b1000));  // 112-128: piece 2
  unsigned r32 = 0, r36 = 0;
  for (std::uint64_t row = 0; row < 8; ++row) {
    r32 += sectors(requests(0x1000 + 128 * row, 128, false, 144 * row));
    r36 += sectors(requests(0x1000 + 144 * row, 144, false, 144 * row));
  }
  EXPECT_EQ(r32, 36u);
  EXPECT_EQ(r36, 40u);
}

// Writes: a request per line a piece touches, with its bytes (bulk_s2g/s128/o16: 32 requests, 80 sectors).
TEST(BulkCopyRequests, WritesAreOneRequestPerLineWithTheirBytes) {
  const auto r = requests(16, 128, true);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].sectors, mask(0b1111));
  EXPECT_EQ(r[1].sectors, mask(0b0001));
  LineBytes first, second;
  first.mark(16, 112);
  second.mark(0, 16);
  EXPECT_EQ(r[0].bytes, first);
  EXPECT_EQ(r[1].bytes, second);
  EXPECT_EQ(requests(16, 4096, true).size(), 64u);  // s4096/o16: 1,024 requests
  EXPECT_EQ(sectors(requests(16, 4096, true)), 160u);  // 2,560 sectors
}

}  // namespace
}  // namespace warpscope::rules
