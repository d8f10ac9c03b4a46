// The drain's record packer (src/inject/record_packer.hpp): the records the
// GPU finished, and only those, become packed records in ring order; a record
// whose check word does not match (copied half written) and everything after
// it wait for the next copy.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "inject/record_packer.hpp"

namespace warpscope::test {
namespace {

using tracer::pack_records;

// A ring image as the GPU leaves it (patches.cu): records from slot 0, the
// first with sequence number `seq`; every 3rd record has per-lane addresses.
struct Ring {
  std::vector<WsSlot> slots;
  std::vector<std::size_t> starts;  // slot of each record

  Ring(std::size_t records, unsigned long long seq, std::uint32_t launches) {
    std::mt19937_64 rng(5);
    for (std::size_t r = 0; r < records; ++r) {
      const bool per_lane = r % 3 == 2;
      const std::size_t at = slots.size();
      starts.push_back(at);
      slots.resize(at + (per_lane ? 1 + WS_ADDRESS_SLOTS : 1));
      WsSlot& s = slots[at];
      s.pc = 0x1000 + 16 * (r % 5);
      s.base = 0x7f0000000000ull + 128 * r;
      s.stride = per_lane ? 0 : 4;
      s.launch = static_cast<std::uint32_t>(r % launches);
      s.cta = static_cast<std::uint32_t>(r / 8);
      s.mask = r % 7 == 0 ? 0x0000ffffu : 0xffffffffu;
      s.warp = static_cast<std::uint16_t>(r % 8);
      s.sm = static_cast<std::uint16_t>(r % 132);
      s.space = 3, s.flags = 1, s.size = 4, s.form = per_lane ? 1 : 0;
      // The GPU's check word, from the fields as patches.cu builds it.
      const std::uint64_t slot_seq = seq + at;
      std::uint64_t check = slot_seq ^ s.pc ^ s.base ^ static_cast<std::uint64_t>(s.stride) ^
                            (s.launch | std::uint64_t{s.cta} << 32) ^
                            (s.mask | std::uint64_t{s.warp} << 32 | std::uint64_t{s.sm} << 48) ^
                            (s.space | std::uint64_t{s.flags} << 8 | std::uint64_t{s.size} << 16 |
                             std::uint64_t{s.form} << 24);
      if (per_lane) {
        auto* addr = reinterpret_cast<std::uint64_t*>(&slots[at + 1]);
        for (unsigned lane = 0; lane < 32; ++lane)
          if (s.mask >> lane & 1u) check ^= addr[lane] = rng() & ~3ull;
      }
      s.check = check;
      s.seq = slot_seq;
    }
  }
};

// What the packer must produce for records [0, n): each record's head then its addresses.
std::string expected(const Ring& ring, std::size_t n) {
  std::string out;
  for (std::size_t r = 0; r < n; ++r) {
    const WsSlot& s = ring.slots[ring.starts[r]];
    tracer::PackedRecordHead h{};
    h.launch = s.launch, h.cta = s.cta, h.pc = s.pc, h.mask = s.mask, h.warp = s.warp, h.sm = s.sm;
    h.space = s.space, h.flags = s.flags, h.size = s.size, h.form = s.form;
    out.append(reinterpret_cast<const char*>(&h), sizeof h);
    if (s.form == 0) {
      out.append(reinterpret_cast<const char*>(&s.base), 8);
      out.append(reinterpret_cast<const char*>(&s.stride), 8);
    } else {
      const auto* addr = reinterpret_cast<const std::uint64_t*>(&ring.slots[ring.starts[r] + 1]);
      for (unsigned lane = 0; lane < 32; ++lane)
        if (s.mask >> lane & 1u) out.append(reinterpret_cast<const char*>(&addr[lane]), 8);
    }
  }
  return out;
}

TEST(RecordPacker, PacksEveryCompleteRecordInOrder) {
  const Ring ring(20000, 1001, 3);
  std::string out = "prefix";
  std::map<std::uint32_t, unsigned long long> written{{0, 5}};
  const auto r = pack_records(ring.slots.data(), ring.slots.size(), 1001, out, written);
  EXPECT_EQ(r.records, 20000u);
  EXPECT_EQ(r.slots, ring.slots.size());
  EXPECT_TRUE(out == "prefix" + expected(ring, 20000));  // (no dump of megabytes of bytes)
  EXPECT_EQ(written[0], 5u + 6667u);
  EXPECT_EQ(written[1], 6667u);
  EXPECT_EQ(written[2], 6666u);
}

TEST(RecordPacker, StopsAtTheFirstRecordTheCopyCaughtHalfWritten) {
  Ring ring(12000, 1, 1);
  // Record 9002 (per-lane: 9002 % 3 == 2) lost one address to a racing copy.
  reinterpret_cast<std::uint64_t*>(&ring.slots[ring.starts[9002] + 1])[3] ^= 0x40;
  std::string out;
  std::map<std::uint32_t, unsigned long long> written;
  const auto r = pack_records(ring.slots.data(), ring.slots.size(), 1, out, written);
  EXPECT_EQ(r.records, 9002u);
  EXPECT_EQ(r.slots, ring.starts[9002]);
  EXPECT_TRUE(out == expected(ring, 9002));
  EXPECT_EQ(written[0], 9002u);
}

TEST(RecordPacker, StopsWhereASequenceNumberOrAnAddressSlotIsMissing) {
  Ring ring(100, 7, 1);
  std::string out;
  std::map<std::uint32_t, unsigned long long> written;
  ring.slots[ring.starts[40]].seq = 0;  // claimed, not written yet
  EXPECT_EQ(pack_records(ring.slots.data(), ring.slots.size(), 7, out, written).records, 40u);
  // Only part of a per-lane record was copied: it waits for the rest.
  const Ring whole(100, 7, 1);
  out.clear();
  const auto r = pack_records(whole.slots.data(), whole.starts[5] + 2, 7, out, written);  // record 5 is per-lane
  EXPECT_EQ(r.records, 5u);
  EXPECT_EQ(r.slots, whole.starts[5]);
  // Nothing there at all.
  out.clear();
  EXPECT_EQ(pack_records(whole.slots.data(), whole.slots.size(), 8, out, written).records, 0u);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace warpscope::test
