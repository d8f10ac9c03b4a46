// Pictures of one warp instruction for the HTML reports: which bytes of which
// 128-byte lines the active lanes touch (global, texture), or which shared-memory
// bank and row each lane's words fall in. The pictures show the addresses; the
// counts beside them (sectors, wavefronts) come from the rules engine, so the
// two can never disagree about a rule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/arch.hpp"
#include "warpscope/cache.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::report {

// The bytes active lanes touch in one line, addresses rounded down to the
// access size as the hardware does.
struct LineUse {
  std::uint64_t address = 0;  // first byte of the line
  LineBytes bytes;            // bit i: byte i of the line
  std::uint32_t lanes = 0;    // bit l: lane l touches it
};
// Every line the active lanes touch, by address (at most 32: an access of at
// most 16 aligned bytes never crosses a line of 16 bytes or more).
std::vector<LineUse> lines_touched(const WarpAccess& access, unsigned line_bytes);

// The lanes of `mask` as ranges: "0-7, 9, 12-31" ("none" when empty).
std::string lane_ranges(std::uint32_t mask);

// A row per line, a cell per byte: bytes the lanes use dark, the other bytes of
// the `sector_bytes` sectors they touch light (moved, not used), the rest white.
std::string svg_line_picture(const WarpAccess& access, unsigned line_bytes, unsigned sector_bytes);

// Shared memory: a column per bank, a row per distinct bank row; each cell shows
// how many lanes read a word there (several lanes on one word: a broadcast).
// Below each column, its distinct rows: the most of them bounds the wavefronts
// of a 4-byte access.
struct BankCell {
  int bank = 0;
  std::uint64_t row = 0;
  int lanes = 0;  // lanes whose access covers this word
};
std::vector<BankCell> bank_cells(const WarpAccess& access, int banks, int bank_width);
std::string svg_bank_picture(const WarpAccess& access, int banks, int bank_width);

// The picture that fits the access's space, in a <figure> with a caption that
// says how to read it: lines for global and texture accesses, banks for shared
// memory (one picture per bank geometry among `archs`; `bank_width` > 0
// replaces their bank width, as Kepler's 8-byte mode does), a sentence otherwise.
std::string access_figure(const WarpAccess& access, const std::vector<const ArchSpec*>& archs, int bank_width = 0);

}  // namespace warpscope::report
