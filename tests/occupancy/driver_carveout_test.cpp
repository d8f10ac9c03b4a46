// The driver's per-launch carveout (driver_shared_capacity) against the H100:
// every launch of validation/h100/suite and validation/h100/carveout_probe, where
// Nsight Compute recorded the shared-memory configuration the driver chose
// (launch__shared_mem_config_size) next to the launch's block size, registers
// and shared memory.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "test_support.hpp"
#include "validate/ncu_csv.hpp"
#include "validation/csv_table.hpp"
#include "warpscope/occupancy.hpp"

namespace warpscope::test {
namespace {

TEST(DriverCarveout, WorkedExamplesOnSm90) {
  const ArchSpec& h100 = arch("sm_90");
  // 256 threads, 16 registers: 8 blocks per SM by warps.
  OccupancyInput in;
  in.threads = 256;
  in.regs = 16;
  in.smem = 0;  // 8 x 1 KB reserved = 8 KB: the 32 KB floor
  EXPECT_EQ(driver_shared_capacity(h100, in), 32 * 1024);
  in.smem = 16 * 1024;  // 8 x 17 KB = 136 KB -> 164 KB
  EXPECT_EQ(driver_shared_capacity(h100, in), 164 * 1024);
  in.smem = 32 * 1024;  // 33 KB per block: 6 fit in 228 KB (198 KB) -> 228 KB
  EXPECT_EQ(driver_shared_capacity(h100, in), 228 * 1024);
  in.threads = 1024;  // 2 blocks of 33 KB = 66 KB -> 100 KB
  EXPECT_EQ(driver_shared_capacity(h100, in), 100 * 1024);
  in.smem = 4 * 1024;  // 1024-thread blocks get just what fits, below the 32 KB default: 2 x 5 KB -> 16 KB
  EXPECT_EQ(driver_shared_capacity(h100, in), 16 * 1024);
  in.threads = 256;  // twice the 8 warp-limited blocks: 16 x 5 KB = 80 KB -> 100 KB
  EXPECT_EQ(driver_shared_capacity(h100, in), 100 * 1024);
  in.smem = 8 * 1024;  // 16 x 9 KB = 144 KB is above the 132 KB cap: 132 KB (8 x 9 KB fit)
  EXPECT_EQ(driver_shared_capacity(h100, in), 132 * 1024);
  // Before 7.0 the split is not chosen per kernel: the database's default.
  EXPECT_EQ(driver_shared_capacity(arch("sm_35"), in), arch("sm_35").default_shared_capacity);
}

TEST(DriverCarveout, MatchesTheH100OnTheSuite) {
  const ArchSpec& h100 = arch("sm_90");
  int launches = 0, exact = 0, one_step_small = 0;
  std::string others;
  for (const auto& entry : std::filesystem::directory_iterator(WARPSCOPE_SOURCE_DIR "/validation/h100/suite")) {
    if (entry.path().string().find(".ncu.csv") == std::string::npos) continue;
    for (const auto& l : validate::read_ncu_csv(entry.path()).launches) {
      const auto config = l.number("launch__shared_mem_config_size");
      const auto block = l.number("launch__block_size");
      if (!config || !block) continue;
      OccupancyInput in;
      in.threads = static_cast<int>(*block);
      in.regs = static_cast<int>(l.number("launch__registers_per_thread").value_or(0));
      in.smem = static_cast<std::int64_t>(l.number("launch__shared_mem_per_block_static").value_or(0) +
                                          l.number("launch__shared_mem_per_block_dynamic").value_or(0));
      const std::int64_t model = driver_shared_capacity(h100, in);
      const auto hw = static_cast<std::int64_t>(*config);
      ++launches;
      if (model == hw) {
        ++exact;
        continue;
      }
      // The next capacity above the model's.
      std::int64_t next = -1;
      for (auto c : h100.shared_capacities)
        if (c > model && (next < 0 || c < next)) next = c;
      if (hw == next) ++one_step_small;
      else others += l.kernel + " ";
    }
  }
  std::printf("driver carveout: %d of %d launches exact, %d one capacity step small\n", exact, launches,
              one_step_small);
  EXPECT_EQ(launches, 210);
  EXPECT_EQ(exact, launches) << "one step small: " << one_step_small << "; further off: " << others;
}

// validation/h100/carveout_probe: 241 launches of 64-1024 threads with 0.25-96 KB
// of shared memory each (dynamic, and five static sizes).
TEST(DriverCarveout, MatchesTheH100OnTheProbe) {
  const ArchSpec& h100 = arch("sm_90");
  const CsvTable t = read_csv(WARPSCOPE_SOURCE_DIR "/validation/h100/carveout_probe/summary.csv");
  const auto col = [&](const char* name) { return static_cast<std::size_t>(t.column(name)); };
  const std::size_t threads = col("launch__block_size"), regs = col("launch__registers_per_thread"),
                    dyn = col("launch__shared_mem_per_block_dynamic"), stat = col("launch__shared_mem_per_block_static"),
                    config = col("launch__shared_mem_config_size");
  int launches = 0, exact = 0;
  std::string misses;
  for (const auto& f : t.rows) {
    ASSERT_GT(f.size(), config);
    OccupancyInput launch;
    launch.threads = std::stoi(f[threads]);
    launch.regs = std::stoi(f[regs]);
    launch.smem = std::stoll(f[dyn]) + std::stoll(f[stat]);
    ++launches;
    if (driver_shared_capacity(h100, launch) == std::stoll(f[config])) ++exact;
    else misses += f[0] + " ";
  }
  std::printf("driver carveout, probe: %d of %d launches exact (misses: %s)\n", exact, launches, misses.c_str());
  EXPECT_EQ(launches, 241);
  EXPECT_GE(exact, 240) << misses;
}

}  // namespace
}  // namespace warpscope::test
