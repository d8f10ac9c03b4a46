// The L2 requests of a bulk copy (cp.async.bulk, SASS UBLKCP; 9.0+), as the H100's TMA unit makes them
// (validation/h100/barrier_probe, bulk_g2s and bulk_s2g: 42 copies of 16 B to 16 KB at offsets 0, 16, 48
// and 112 within a line into 128-byte-aligned shared memory; validation/h100/bulk_pipeline: rows of 128 and
// 144 B into shared rows 144 B apart; docs/VALIDATION.md "mbarrier and bulk copies"):
//  - the copy is cut where its *shared* side crosses a 128-byte boundary, not where its global side crosses a
//    line: a row that starts on a line but lands 16 B into a shared 128-byte block is two pieces, 112 and
//    16 B, whose sectors count apart (a 128 B copy 4 or 5 sectors, averaged over the 8 shared offsets 4.5:
//    bulk_pipeline r32 9,216 for 2,048 copies); a sector two pieces share is fetched by both
//    (l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld = the pieces' sectors: 42 of 42 probe launches,
//    6 of 6 pipeline launches);
//  - reads: within a piece, each sector the copy covers only in part is a request of its own, and the
//    sectors it covers whole go as one request per line (lts__t_requests_srcunit_tex_op_read: 36 of 42;
//    the other 6, copies 16 B past a line of 144 B and more, are smaller by requests the L2 merged);
//  - writes: one request per line a piece touches, with the piece's bytes (lts__t_requests_srcunit_tex_op_write
//    and _sectors: 15 of 15).
#pragma once

#include <cstdint>

#include "warpscope/cache.hpp"

namespace warpscope::rules {

struct BulkRequest {
  std::uint64_t line = 0;  // 128-byte line number
  SectorMask sectors;      // the sectors it asks for (a read) or writes
  LineBytes bytes;         // a write's bytes within the line
};

// Calls f(offset, length) for each piece of a copy of `bytes` bytes whose shared side starts at `shared`: the
// pieces end where the shared side crosses 128 bytes.
template <class F>
void for_each_bulk_piece(std::uint64_t shared, std::uint64_t bytes, F&& f) {
  constexpr std::uint64_t kPiece = 128;
  for (std::uint64_t at = 0; at < bytes;) {
    const std::uint64_t to_boundary = kPiece - (shared + at) % kPiece;  // the shared block's end
    const std::uint64_t length = to_boundary < bytes - at ? to_boundary : bytes - at;
    f(at, length);
    at += length;
  }
}

// The sectors the TMA counts for a tensor load's row out of bounds above dimension 0, which it does not read:
// each piece's bytes in 32-byte sectors, wherever the row would lie (validation/h100/tma_kernels: stencil5's
// halo rows of 160 B above and below the grid count 5 sectors, where their addresses would touch 7).
inline std::uint64_t unread_row_sectors(std::uint64_t shared, std::uint64_t bytes) {
  std::uint64_t sectors = 0;
  for_each_bulk_piece(shared, bytes, [&](std::uint64_t, std::uint64_t length) { sectors += (length + 31) / 32; });
  return sectors;
}

// Calls f(const BulkRequest&) for each L2 request of a bulk read (`write` false) or write of `bytes` bytes
// at global address `address` whose shared side is at `shared`, in order.
template <class F>
void for_each_bulk_request(std::uint64_t address, std::uint64_t shared, std::uint64_t bytes, bool write, F&& f) {
  constexpr std::uint64_t kLine = 128, kSector = 32;
  for_each_bulk_piece(shared, bytes, [&](std::uint64_t offset, std::uint64_t length) {
    const std::uint64_t a = address + offset, b = a + length;
    for (std::uint64_t line = a / kLine; line <= (b - 1) / kLine; ++line) {
      const std::uint64_t lo = a > line * kLine ? a : line * kLine, hi = b < (line + 1) * kLine ? b : (line + 1) * kLine;
      BulkRequest whole{line, {}, {}};
      if (write) {
        whole.bytes.mark(static_cast<unsigned>(lo - line * kLine), static_cast<unsigned>(hi - lo));
        whole.sectors = whole.bytes.touched(static_cast<unsigned>(kSector));
        f(whole);
        continue;
      }
      for (std::uint64_t s = lo / kSector; s <= (hi - 1) / kSector; ++s) {
        const auto bit = SectorMask(static_cast<std::uint8_t>(1u << (s % 4)));
        const bool full = lo <= s * kSector && hi >= (s + 1) * kSector;
        if (full) {
          whole.sectors |= bit;
        } else {
          f(BulkRequest{line, bit, {}});
        }
      }
      if (whole.sectors.any()) f(whole);
    }
  });
}

}  // namespace warpscope::rules
