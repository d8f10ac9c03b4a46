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

// write_probe list l, `gst:E:MASK`: 132 CTAs (one per SM) of 32 warps; the k-th warp
// of MASK stores E bytes per lane at its CTA's 4 KB region + 32 k E. The model's
// L1 store sector hits over the 132 CTAs.
double model_group_store(unsigned e, std::uint32_t mask) {
  auto m = memory("sm_90");
  constexpr std::uint64_t kOut = 0x7f0000000000;
  for (std::uint32_t cta = 0; cta < 132; ++cta) {
    unsigned k = 0;
    for (std::uint16_t warp = 0; warp < 32; ++warp) {
      if (((mask >> warp) & 1u) == 0) continue;
      WarpAccess a = make({Space::Global, Op::Store, e}, [&](int lane) {
        return kOut + std::uint64_t{cta} * 4096 + (std::uint64_t{k} * 32 + static_cast<unsigned>(lane)) * e;
      });
      a.cta = cta;
      a.warp = warp;
      m->access(a, static_cast<int>(cta));
      ++k;
    }
  }
  return static_cast<double>(m->kernel_counters().global_st.sector_hits);
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

}  // namespace
}  // namespace warpscope::test
