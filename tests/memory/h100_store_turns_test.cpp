// L1 store hits of sub-word stores against the H100 (validation/h100/write_probe/a,
// kernel `turns` of validation/kernels/write_probe): 256 CTAs x 8 warps, thread t
// stores E bytes at t * E, so 128 / (32 E) neighbouring warps share each line.
// When the warps of a CTA store one at a time (a barrier between them, MODE 1 and 2)
// the H100 counts exactly what sm_90's l1.store_hit = "line" rule says: every
// sector of a store whose line's tag is present is a hit. When they store at once
// (MODE 0, the suite's g_st1/g_st2_coalesced) it counts fewer, as many fewer as the
// program's timing makes it, which an untimed model cannot see: the model is the
// upper bound. List l narrows it down: four warps storing into one new line at
// once count exactly as the rule says; several lines stored at once lose hits.
// Lists n and o force the order (the k-th store k x SPIN cycles after the barrier):
// with 128 cycles or more between them, every order of new lines counts as the
// rule says; closer together, a sub-partition's stores lose hits, also into
// lines loaded before.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "memory/memory_test_support.hpp"
#include "validation/csv_table.hpp"

namespace warpscope::test {
namespace {

// config -> metric -> value, from a write_probe summary.csv.
std::map<std::string, std::map<std::string, double>> measured(const std::string& file) {
  const CsvTable t = read_csv(std::string(WARPSCOPE_SOURCE_DIR) + "/validation/h100/write_probe/" + file);
  std::map<std::string, std::map<std::string, double>> out;
  for (const auto& f : t.rows)
    for (std::size_t i = 2; i < f.size() && i < t.header.size(); ++i) out[f[0]][t.header[i]] = std::stod(f[i]);
  return out;
}

// The model's L1 store sector hits and sectors for `turns` with E-byte elements,
// the warps of each CTA storing in turn.
std::pair<std::uint64_t, std::uint64_t> model_in_turn(unsigned e) {
  auto m = memory("sm_90");
  constexpr std::uint64_t kOut = 0x7f0000000000;  // cudaMalloc-like, 256 B aligned
  for (std::uint32_t cta = 0; cta < 256; ++cta)
    for (std::uint16_t warp = 0; warp < 8; ++warp) {
      WarpAccess a = make({Space::Global, Op::Store, e}, [&](int lane) {
        return kOut + (std::uint64_t{cta} * 256 + warp * 32u + static_cast<unsigned>(lane)) * e;
      });
      a.cta = cta;
      a.warp = warp;
      m->access(a, static_cast<int>(cta % static_cast<std::uint32_t>(m->num_sms())));
    }
  const L1Traffic& st = m->kernel_counters().global_st;
  return {st.sector_hits, st.sectors};
}

TEST(H100StoreTurns, StoresInTurnHitAsTheLineRuleSays) {
  const auto hw = measured("a/summary.csv");
  ASSERT_FALSE(hw.empty()) << "validation/h100/write_probe/a/summary.csv";
  const std::string hit = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum";
  const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
  for (unsigned e : {1u, 2u, 4u}) {
    const auto [model_hits, model_sectors] = model_in_turn(e);
    for (int mode : {1, 2}) {
      const std::string cfg = "turns:" + std::to_string(e) + ":" + std::to_string(mode);
      ASSERT_TRUE(hw.count(cfg)) << cfg;
      EXPECT_EQ(hw.at(cfg).at(sectors), static_cast<double>(model_sectors)) << cfg;
      EXPECT_EQ(hw.at(cfg).at(hit), static_cast<double>(model_hits)) << cfg;
    }
    // All at once: never more than the rule, and fewer where warps share lines.
    const std::string at_once = "turns:" + std::to_string(e) + ":0";
    EXPECT_LE(hw.at(at_once).at(hit), static_cast<double>(model_hits)) << at_once;
    if (e < 4) {
      EXPECT_LT(hw.at(at_once).at(hit), static_cast<double>(model_hits)) << at_once;
    }
  }
  // Worked by hand: 1 B -> 4 warps per line, 3 of 4 store sectors hit (1,536 of 2,048);
  // 2 B -> 2 warps per line, 1 of 2 (2,048 of 4,096); 4 B -> a line per warp, none.
  EXPECT_EQ(model_in_turn(1).first, 1536u);
  EXPECT_EQ(model_in_turn(2).first, 2048u);
  EXPECT_EQ(model_in_turn(4).first, 0u);
}

// The model's L1 store sector hits over write_probe's 132 CTAs (one per SM) of 32
// warps: the k-th warp of MASK stores `e` bytes per lane from its CTA's 4 KB region +
// offset(k), after (`preload`) every warp of MASK has loaded the region's 16 lines.
template <typename Offset>
double model_store_hits(std::uint32_t mask, unsigned e, bool preload, Offset offset) {
  auto m = memory("sm_90");
  constexpr std::uint64_t kOut = 0x7f0000000000;  // cudaMalloc-like
  for (std::uint32_t cta = 0; cta < 132; ++cta) {
    const std::uint64_t region = kOut + std::uint64_t{cta} * 4096;
    for (std::uint16_t warp = 0; preload && warp < 32; ++warp) {
      if (((mask >> warp) & 1u) == 0) continue;
      for (std::uint64_t j = 0; j < 16; ++j) {
        WarpAccess ld = line_access(region + j * 128, Op::Load, CacheOp::Ca);
        ld.cta = cta;
        ld.warp = warp;
        m->access(ld, static_cast<int>(cta));
      }
    }
    unsigned k = 0;
    for (std::uint16_t warp = 0; warp < 32; ++warp) {
      if (((mask >> warp) & 1u) == 0) continue;
      const std::uint64_t at = region + offset(k);
      WarpAccess a = make({Space::Global, Op::Store, e},
                          [&](int lane) { return at + std::uint64_t{static_cast<unsigned>(lane)} * e; });
      a.cta = cta;
      a.warp = warp;
      m->access(a, static_cast<int>(cta));
      ++k;
    }
  }
  return static_cast<double>(m->kernel_counters().global_st.sector_hits);
}

// write_probe list l, `gst:E:MASK`: the k-th warp of MASK stores E bytes per lane at
// its CTA's region + 32 k E.
double model_group_store(unsigned e, std::uint32_t mask) {
  return model_store_hits(mask, e, false, [e](unsigned k) { return std::uint64_t{k} * 32 * e; });
}

// Four warps storing into one new line at once count as the rule says, whatever the SM
// sub-partitions and spacing; several lines at once lose hits on the H100, never gain.
TEST(H100StoreTurns, OneNewLineStoredByFourWarpsAtOnceMatchesTheRule) {
  const auto hw = measured("l/summary.csv");
  ASSERT_FALSE(hw.empty()) << "validation/h100/write_probe/l/summary.csv";
  const std::string hit = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum";
  // "gst:E:MASK[:SPIN]" -> the model's hits for that shape (the spin does not change them).
  const auto model_of = [](const std::string& cfg) {
    return model_group_store(static_cast<unsigned>(cfg[4] - '0'),
                             static_cast<std::uint32_t>(std::stoul(cfg.substr(6, 8), nullptr, 16)));
  };
  for (const std::string cfg : {"gst:1:0000000f", "gst:1:00001111", "gst:1:00000003", "gst:1:00000011", "gst:2:00000003",
                                "gst:2:00000011", "gst:1:0000000f:16", "gst:1:0000000f:1024", "gst:1:00001111:256"}) {
    ASSERT_TRUE(hw.count(cfg)) << cfg;
    EXPECT_EQ(hw.at(cfg).at(hit), model_of(cfg)) << cfg;
  }
  for (const std::string cfg : {"gst:1:000000ff", "gst:1:11111111", "gst:1:ffffffff", "gst:2:000000ff", "gst:2:11111111",
                                "gst:2:ffffffff"})
    EXPECT_LT(hw.at(cfg).at(hit), model_of(cfg)) << cfg;
  // Worked by hand: 4 warps, 1 B: 3 hits per CTA; 8 warps: 6; 32 warps, 2 B: 32.
  EXPECT_EQ(model_group_store(1, 0x0000000fu), 3 * 132);
  EXPECT_EQ(model_group_store(1, 0x11111111u), 6 * 132);
  EXPECT_EQ(model_group_store(2, 0xffffffffu), 32 * 132);
}

// write_probe lists n and o, `gseq:MASK:LINES:SPIN[:P]`: as gst with 1 B per lane, but the
// k-th warp of MASK stores into line LINES[k] of its CTA's region, at that line's next
// sector (the count of earlier ranks on the line, mod 4); P = 1: the warps taking part
// first load all 16 lines of the region (4 B per lane, ld.ca). The model's L1 store
// sector hits over the 132 CTAs (the spin does not change them).
double model_sequence_store(const std::string& cfg) {
  const std::size_t a = cfg.find(':'), b = cfg.find(':', a + 1), c = cfg.find(':', b + 1);
  const auto mask = static_cast<std::uint32_t>(std::stoul(cfg.substr(a + 1, b - a - 1), nullptr, 16));
  const std::string lines = cfg.substr(b + 1, c - b - 1);
  const std::size_t d = cfg.find(':', c + 1);
  const bool preload = d != std::string::npos && cfg.substr(d + 1) == "1";
  const auto line_of = [&](unsigned k) { return std::stoi(lines.substr(k, 1), nullptr, 16); };
  return model_store_hits(mask, 1, preload, [&](unsigned k) {
    unsigned sector = 0;  // the line's next sector: earlier ranks on the same line
    for (unsigned j = 0; j < k; ++j) sector += line_of(j) == line_of(k);
    return static_cast<std::uint64_t>(line_of(k)) * 128 + (sector & 3u) * 32;
  });
}

// Stores 128 cycles or more apart hit as the rule says, whatever the order of new
// lines (in turn, alternating, cycles of 3 and 4 lines), the sub-partitions and
// whether the lines were loaded first; closer together, one sub-partition's stores
// into the same line lose hits on the H100 (never gain), loaded lines too.
TEST(H100StoreTurns, StoresFarApartHitAsTheRuleSaysInAnyOrder) {
  auto hw = measured("n/summary.csv");
  for (const auto& [cfg, metrics] : measured("o/summary.csv")) hw[cfg + " (list o)"] = metrics;
  ASSERT_FALSE(hw.empty()) << "validation/h100/write_probe/n/summary.csv";
  const std::string hit = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum";
  const auto base = [](std::string cfg) {
    const auto at = cfg.find(' ');
    return at == std::string::npos ? cfg : cfg.substr(0, at);
  };
  const auto spin = [&](const std::string& cfg) {
    const std::string c = base(cfg);
    const std::size_t a = c.find(':', c.find(':', c.find(':') + 1) + 1);
    return std::stol(c.substr(a + 1, c.find(':', a + 1) - a - 1));
  };
  int far = 0, close = 0;
  for (const auto& [cfg, metrics] : hw) {
    if (cfg.rfind("gseq:", 0) != 0) continue;
    const double model = model_sequence_store(base(cfg));
    if (spin(cfg) >= 128) {
      EXPECT_EQ(metrics.at(hit), model) << cfg;
      ++far;
    } else {
      EXPECT_LE(metrics.at(hit), model) << cfg;
      ++close;
    }
  }
  EXPECT_EQ(far, 14);  // distinct configurations: 10 of list n (512 and 4,096 cycles), 4 of list o (128, 256)
  EXPECT_GT(close, 20);
  // A line per warp, loaded first, all at once: no store shares a line, none misses.
  EXPECT_EQ(hw.at("gseq:11111111:01234567:0:1 (list o)").at(hit), model_sequence_store("gseq:11111111:01234567:0:1"));
  // Close together, one sub-partition's warps sharing lines lose hits, loaded lines too.
  for (const std::string cfg : {"gseq:11111111:00001111:0", "gseq:11111111:01010101:0", "gseq:11111111:01010101:0:1"})
    EXPECT_LT(hw.at(cfg).at(hit), model_sequence_store(cfg)) << cfg;
  // Worked by hand: 8 stores into 2, 3, 4 lines: 6, 5, 4 hits per CTA; loaded lines: all 8.
  EXPECT_EQ(model_sequence_store("gseq:11111111:01010101:512"), 6 * 132);
  EXPECT_EQ(model_sequence_store("gseq:11111111:01201201:512"), 5 * 132);
  EXPECT_EQ(model_sequence_store("gseq:11111111:01230123:512"), 4 * 132);
  EXPECT_EQ(model_sequence_store("gseq:11111111:01010101:512:1"), 8 * 132);
}

}  // namespace
}  // namespace warpscope::test
