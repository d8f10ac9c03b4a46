// CC 2.x and later: global/local accesses through L1 lines, L2 segments, the
// read-only query path, or the sectored L1TEX.
//
// Sources, rule by rule:
//  - request split: 8-byte accesses per half-warp, 16-byte per quarter-warp,
//    each then broken into cache-line requests (seed000 G.3.2, G.4.2);
//    Maxwell/Pascal split 8/4/2 threads per request (reference/ncu_and_microbench.md 1.1);
//    Volta+ one request per warp instruction (same note; validation/h100/rules).
//  - caching loads: 128 B lines, N lines -> N transactions, N x 128 B moved
//    (seed001 "Caching Load" scenarios; seed004 targets 1/2/4 per request).
//  - non-caching loads and stores: 32 B segments, only the needed segments
//    move (seed001 "Non-caching Load", "GMEM Writes").
//  - read-only path (3.5/3.7): 32 B queries, 4 threads at a time, each segment
//    fetched at most once per warp (seed001 "Read-Only Cache Operation").
//  - 5.x+: 128 B lines of 32 B sectors, misses fetch sectors, not lines
//    (reference/ncu_and_microbench.md 1.1).
#include "rules/global_rules.hpp"
#include "rules/line_scan.hpp"

namespace warpscope::rules {

void cached_global(const WarpAccess& a, const ArchSpec& arch, MemoryPath path, InstructionCounts& c) {
  const int line_shift = log2_exact(static_cast<unsigned>(arch.l1_line));
  const int sector_shift = log2_exact(static_cast<unsigned>(arch.l1_sector));
  const int sector_bytes = arch.l1_sector;
  c.applies |= InstructionCounts::kTransactions | InstructionCounts::kSectors;

  if (path == MemoryPath::ReadOnly && arch.readonly_threads_per_query > 0) {
    const LineScan q = scan_lines(a, arch.readonly_threads_per_query, line_shift, sector_shift);
    c.sub_requests = q.sub_requests;
    c.transactions = q.sub_sectors;  // queries
    c.sectors = q.sectors;           // each segment misses at most once
    c.bytes_moved = q.sectors * static_cast<std::uint32_t>(arch.readonly_query_bytes);
    c.bytes_needed = q.bytes_needed;
    return;
  }

  const int lanes = arch.request_lanes[static_cast<unsigned>(size_index(a.size))];
  const LineScan s = scan_lines(a, lanes, line_shift, sector_shift);
  c.sub_requests = s.sub_requests;
  c.bytes_needed = s.bytes_needed;
  c.transactions = s.sub_lines;

  const bool sectored_l1 = arch.rules == RulesFamily::Maxwell || arch.rules == RulesFamily::Volta;
  if (sectored_l1) {
    // L1TEX looks up lines, moves sectors; a sector shared by sub-requests moves once.
    c.sectors = s.sectors;
    c.bytes_moved = s.sectors * static_cast<std::uint32_t>(sector_bytes);
  } else if (path == MemoryPath::L1) {
    // Fermi/Kepler caching load: whole 128 B lines; the line fetched for one
    // half/quarter-warp serves the next from L1.
    c.sectors = s.lines * static_cast<std::uint32_t>(arch.l1_line / sector_bytes);
    c.bytes_moved = s.lines * static_cast<std::uint32_t>(arch.l1_line);
  } else {
    // L2-only: each line request carries just its own 32 B segments.
    c.sectors = s.sub_sectors;
    c.bytes_moved = s.sub_sectors * static_cast<std::uint32_t>(arch.l2_segment);
  }
}

}  // namespace warpscope::rules
