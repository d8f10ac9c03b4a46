#include "report/access_picture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/html.hpp"
#include "rules/local_layout.hpp"

namespace warpscope::report {
namespace {

std::uint64_t aligned(std::uint64_t address, unsigned size) { return address & ~(std::uint64_t{size} - 1); }

bool byte_set(const LineBytes& b, unsigned i) { return ((b.w[i >> 6] >> (i & 63)) & 1u) != 0; }

// Shades of the reports' blue (series_colour(0)).
constexpr const char* kUsed = "#0072B2";
constexpr const char* kMoved = "#b9d9ee";
constexpr const char* kIdle = "#ffffff";

}  // namespace

std::vector<LineUse> lines_touched(const WarpAccess& access, unsigned line_bytes) {
  std::map<std::uint64_t, LineUse> by_line;
  const unsigned size = access.size == 0 ? 1u : access.size;
  for (int l = 0; l < kWarpSize; ++l) {
    if (!access.active.test(l)) continue;
    const std::uint64_t a = aligned(access.addr[static_cast<unsigned>(l)], size);
    const std::uint64_t last = a + (size - 1);  // no wrap: a is aligned to size
    // An access wider than a line (16 B in 8 B lines) spans several; the last
    // line may end at 2^64, so stop on it rather than past it.
    for (std::uint64_t line = aligned(a, line_bytes);; line += line_bytes) {
      LineUse& u = by_line[line];
      u.address = line;
      const std::uint64_t first = std::max(a, line), end = std::min<std::uint64_t>(last, line + (line_bytes - 1));
      u.bytes.mark(static_cast<unsigned>(first - line), static_cast<unsigned>(end - first + 1));
      u.lanes |= 1u << l;
      if (line == aligned(last, line_bytes)) break;
    }
  }
  std::vector<LineUse> out;
  for (auto& [line, u] : by_line) out.push_back(u);
  return out;
}

std::string lane_ranges(std::uint32_t mask) {
  std::string out;
  for (int l = 0; l < kWarpSize;) {
    if (((mask >> l) & 1u) == 0) {
      ++l;
      continue;
    }
    int end = l;
    while (end + 1 < kWarpSize && ((mask >> (end + 1)) & 1u) != 0) ++end;
    out += fmt::format("{}{}", out.empty() ? "" : ", ", end == l ? fmt::format("{}", l) : fmt::format("{}-{}", l, end));
    l = end + 1;
  }
  return out.empty() ? "none" : out;
}

std::string svg_line_picture(const WarpAccess& access, unsigned line_bytes, unsigned sector_bytes) {
  const std::vector<LineUse> lines = lines_touched(access, line_bytes);
  constexpr int kLabel = 140, kRow = 18, kLanes = 150;  // labels: up to 16 hex digits of address
  const int cell = line_bytes <= 32 ? 8 : line_bytes <= 64 ? 5 : 3;
  const int width = kLabel + cell * static_cast<int>(line_bytes) + 8 + kLanes;
  const int height = 20 + kRow * static_cast<int>(lines.size());
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lines-picture\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\">\n",
      width, height);
  // Byte offsets along the top, at each sector boundary.
  for (unsigned s = 0; s <= line_bytes; s += sector_bytes)
    out += fmt::format("<text x=\"{}\" y=\"12\" text-anchor=\"middle\">{}</text>\n", kLabel + cell * static_cast<int>(s),
                       s);
  int y = 18;
  for (const LineUse& u : lines) {
    const SectorMask touched = u.bytes.touched(sector_bytes);
    out += fmt::format("<text class=\"mono\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{:#x}</text>\n", kLabel - 6, y + 12,
                       u.address);
    // Runs of bytes of one kind as one rectangle each (a picture of 32 lines stays small).
    for (unsigned b = 0; b < line_bytes;) {
      const bool used = byte_set(u.bytes, b);
      const bool moved = touched.test(static_cast<int>(b / sector_bytes));
      unsigned e = b + 1;
      while (e < line_bytes && byte_set(u.bytes, e) == used && touched.test(static_cast<int>(e / sector_bytes)) == moved &&
             e % sector_bytes != 0)
        ++e;
      out += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
                         used ? "used" : moved ? "moved" : "idle", kLabel + cell * static_cast<int>(b), y + 2,
                         cell * static_cast<int>(e - b), kRow - 4, used ? kUsed : moved ? kMoved : kIdle);
      b = e;
    }
    for (unsigned s = 0; s < line_bytes; s += sector_bytes)  // sector outlines
      out += fmt::format("<rect class=\"sector\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                         "stroke=\"#555\" stroke-width=\"1\"/>\n",
                         kLabel + cell * static_cast<int>(s), y + 2, cell * static_cast<int>(sector_bytes), kRow - 4);
    out += fmt::format("<text x=\"{}\" y=\"{}\">lanes {}</text>\n", kLabel + cell * static_cast<int>(line_bytes) + 8,
                       y + 12, lane_ranges(u.lanes));
    y += kRow;
  }
  out += "</svg>\n";
  return out;
}

std::vector<BankCell> bank_cells(const WarpAccess& access, int banks, int bank_width) {
  std::map<std::pair<std::uint64_t, int>, int> lanes;  // (row, bank) -> lanes
  const unsigned size = access.size == 0 ? 1u : access.size;
  const auto width = static_cast<std::uint64_t>(bank_width);
  for (int l = 0; l < kWarpSize; ++l) {
    if (!access.active.test(l)) continue;
    const std::uint64_t a = aligned(access.addr[static_cast<unsigned>(l)], size);
    // Every bank word the access covers (an 8- or 16-byte access spans several).
    for (std::uint64_t w = a / width; w <= (a + size - 1) / width; ++w)
      ++lanes[{w / static_cast<std::uint64_t>(banks), static_cast<int>(w % static_cast<std::uint64_t>(banks))}];
  }
  std::vector<BankCell> out;
  for (const auto& [key, n] : lanes) out.push_back({key.second, key.first, n});
  return out;
}

std::string svg_bank_picture(const WarpAccess& access, int banks, int bank_width) {
  const std::vector<BankCell> cells = bank_cells(access, banks, bank_width);
  std::vector<std::uint64_t> rows;
  std::vector<int> rows_per_bank(static_cast<std::size_t>(banks), 0);
  for (const BankCell& c : cells) {
    rows.push_back(c.row);
    ++rows_per_bank[static_cast<std::size_t>(c.bank)];
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  constexpr std::size_t kMaxRows = 40;
  const std::size_t shown = std::min(rows.size(), kMaxRows);
  constexpr int kLabel = 90, kCell = 18, kTop = 18;
  const int worst = *std::max_element(rows_per_bank.begin(), rows_per_bank.end());
  const int width = kLabel + kCell * banks + 10;
  const int height = kTop + kCell * static_cast<int>(shown) + 40;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"banks-picture\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\">\n",
      width, height);
  for (int b = 0; b < banks; b += 4)
    out += fmt::format("<text x=\"{}\" y=\"12\" text-anchor=\"middle\">{}</text>\n", kLabel + kCell * b + kCell / 2, b);
  for (std::size_t r = 0; r < shown; ++r) {
    const int y = kTop + kCell * static_cast<int>(r);
    out += fmt::format("<text class=\"mono\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{:#x}</text>\n", kLabel - 6, y + 13,
                       rows[r] * static_cast<std::uint64_t>(banks * bank_width));
    for (int b = 0; b < banks; ++b)
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#ddd\"/>\n",
                         kLabel + kCell * b, y, kCell, kCell);
  }
  for (const BankCell& c : cells) {
    const auto r = static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), c.row) - rows.begin());
    if (r >= shown) continue;
    const int x = kLabel + kCell * c.bank, y = kTop + kCell * static_cast<int>(r);
    const bool conflict = rows_per_bank[static_cast<std::size_t>(c.bank)] > 1;
    out += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>bank {}, "
                       "row {}: {} lane{}</title></rect>\n",
                       conflict ? "word conflict" : "word", x + 1, y + 1, kCell - 2, kCell - 2,
                       conflict ? "#D55E00" : kUsed, c.bank, rows[r], c.lanes, c.lanes == 1 ? "" : "s");
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#fff\" style=\"fill:#fff\">{}</text>\n",
                       x + kCell / 2, y + 13, c.lanes);
  }
  const int below = kTop + kCell * static_cast<int>(shown);
  for (int b = 0; b < banks; ++b) {
    const int n = rows_per_bank[static_cast<std::size_t>(b)];
    if (n > 0)
      out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\"{}>{}</text>\n", kLabel + kCell * b + kCell / 2,
                         below + 14, n == worst && worst > 1 ? " font-weight=\"bold\"" : "", n);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">rows</text>\n", kLabel - 6, below + 14);
  if (rows.size() > shown)
    out += fmt::format("<text x=\"{}\" y=\"{}\">and {} more rows not drawn</text>\n", kLabel, below + 32,
                       rows.size() - shown);
  out += "</svg>\n";
  return out;
}

std::string access_figure(const WarpAccess& w, const std::vector<const ArchSpec*>& archs, int bank_width) {
  if (is_bulk(w.op)) {
    // A descriptor, not lanes (types.hpp): picture the start of the block as 16-byte pieces.
    WarpAccess start = w;
    // A tensor row's last chunk may be partial (a store cut at the tensor's end).
    const std::uint64_t chunks = std::min<std::uint64_t>(kWarpSize, (bulk_bytes(w) + 15) / 16);
    start.active = LaneMask(chunks >= 32 ? 0xffffffffu : (1u << chunks) - 1u);
    for (unsigned l = 0; l < chunks; ++l) start.addr[l] = bulk_global(w) + 16 * std::uint64_t{l};
    const std::string what = is_tensor_row(w) ? fmt::format("the first row ({} bytes{}) of a tensor copy, which has a "
                                                            "record a row of its box,", bulk_bytes(w),
                                                            tensor_row_outside(w) ? ", out of bounds: not read" : "")
                                              : fmt::format("a bulk copy of {} bytes", bulk_bytes(w));
    return "<figure>\n" + svg_line_picture(start, 128, 32) +
           fmt::format("<figcaption>The global side of {}{}, a row per 128-byte line: the TMA reads or writes it in "
                       "pieces that end where its shared side crosses 128 bytes, so where those ends fall inside a "
                       "sector it costs that sector twice (rules/bulk_copy.hpp). The lane numbers are its 16-byte "
                       "chunks.</figcaption>\n</figure>\n",
                       what, bulk_bytes(w) > 512 ? " (its first 512 bytes)" : "");
  }
  if (w.op == Op::GmmaRead)  // lanes 0 and 1 are an address and a byte count (types.hpp): nothing to picture
    return fmt::format("<figure><figcaption>A warp's share of a wgmma's shared-memory operands: {} bytes from shared "
                       "0x{:x}, read by the tensor cores in {} wavefronts of 128 bytes without bank conflicts (the "
                       "canonical layouts' core matrices are 128 contiguous or swizzled bytes).</figcaption></figure>\n",
                       w.addr[1], w.addr[0], w.addr[1] / 128);
  if (w.space == Space::Shared) {
    // One picture per bank geometry (16 banks on 1.x, 32 since).
    std::map<std::pair<int, int>, std::string> geometries;
    for (const ArchSpec* a : archs) {
      std::string& names = geometries[{a->shared_banks, bank_width > 0 ? bank_width : a->bank_width}];
      names += (names.empty() ? "" : ", ") + a->name;
    }
    std::string out;
    for (const auto& [g, names] : geometries)
      out += "<figure>\n" + svg_bank_picture(w, g.first, g.second) +
             fmt::format("<figcaption>{} banks of {} B ({}): a cell per bank word the lanes read or write, with the "
                         "number of lanes on it; orange where a bank holds words of several rows (a conflict). Under "
                         "each bank: its distinct rows over the whole warp. Where the hardware serves a warp in parts "
                         "(half-warps on 1.x; 8- and 16-byte accesses) conflicts count within each part: the counts "
                         "give the wavefronts.</figcaption>\n</figure>\n",
                         g.first, g.second, html_escape(names));
    return out;
  }
  if (is_texture(w.space)) {
    WarpAccess texels = w;  // lanes on a border texel (kNoTexel) read nothing
    std::uint32_t mask = w.active.bits();
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (w.addr[l] == kNoTexel) mask &= ~(1u << l);
    texels.active = LaneMask(mask);
    return "<figure>\n" + svg_line_picture(texels, 128, 32) +
           "<figcaption>The texels the lanes fetch, a row per 128-byte line, a cell per byte: dark, bytes of the texels; "
           "light, the rest of the 32-byte sectors. The texture unit counts those sectors per request: 8 lanes of a "
           "fetch (4 of 16-byte texels) or a quad of a sample, so a sector two requests share counts twice, the second "
           "time a hit (validation/h100/texture_probe).</figcaption>\n</figure>\n";
  }
  if (w.space == Space::Global)
    return "<figure>\n" + svg_line_picture(w, 128, 32) +
           "<figcaption>A row per 128-byte line the active lanes touch, a cell per byte: dark, bytes the lanes use; "
           "light, the rest of the 32-byte sectors they touch (moved but not used); white, sectors not "
           "touched.</figcaption>\n</figure>\n";
  if (w.space == Space::DShared)  // counted by lines and sectors as global memory (types.hpp)
    return "<figure>\n" + svg_line_picture(w, 128, 32) +
           "<figcaption>Another CTA's shared memory (distributed shared memory), at its offsets there: a row per "
           "128-byte line the lanes touch, dark the bytes they use, light the rest of the 32-byte sectors the "
           "crossbar carries.</figcaption>\n</figure>\n";
  if (w.space == Space::Local) {
    // Per-thread offsets, interleaved word by word as the hardware lays local memory out
    // (rules/local_layout.hpp): one picture per word access of the instruction.
    std::string out;
    const int parts = rules::local_parts(w);
    for (int part = 0; part < parts; ++part)
      out += "<figure>\n" + svg_line_picture(rules::local_part(w, part), 128, 32) +
             fmt::format("<figcaption>Local memory as the hardware lays it out: byte o of lane l's own window at "
                         "((o / 4 + word) x 32 + l) x 4 + o % 4, so lanes at one offset share lines{}. Dark, bytes "
                         "used; light, the rest of the sectors moved.</figcaption>\n</figure>\n",
                         parts > 1 ? fmt::format(" (word access {} of {} of this {}-byte access)", part + 1, parts,
                                                 unsigned{w.size})
                                   : "");
    return out;
  }
  return "<p class=\"muted\">No picture for const memory: a constant access is served one distinct address at a "
         "time.</p>\n";
}

}  // namespace warpscope::report
