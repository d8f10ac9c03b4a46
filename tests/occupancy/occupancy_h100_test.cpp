// The occupancy calculator against the H100 (sm_90): 38,152 launch
// configurations answered by cuOccupancyMaxActiveBlocksPerMultiprocessor /
// cudaOccupancyMaxActiveBlocksPerMultiprocessor on this project's H100
// (validation/h100/occupancy/sweep.csv, validation/h100/README.md "Program 2").
// warpscope must give exactly the recorded blocks per SM for every row, and
// reject every configuration the driver refused (an error, or 0 blocks).
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "validation/csv_table.hpp"
#include "warpscope/error.hpp"
#include "warpscope/occupancy.hpp"

namespace warpscope::test {
namespace {

const std::string kSweep = WARPSCOPE_SOURCE_DIR "/validation/h100/occupancy/sweep.csv";

struct Row {
  std::string text;  // the CSV line, for messages
  OccupancyInput input;
  int max_threads = 0, blocks = 0;
  bool error = false;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> r = [] {
    const CsvTable t = read_csv(kSweep);
    const int kernel = t.column("kernel"), regs = t.column("regs_per_thread"), st = t.column("static_smem"),
              dyn = t.column("dynamic_smem"), block = t.column("block_size"), carve = t.column("carveout_pct"),
              maxt = t.column("max_threads_per_block"), blocks = t.column("blocks_per_sm"), err = t.column("error");
    std::vector<Row> out;
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      const auto& c = t.rows[i];
      auto at = [&](int col) {
        return static_cast<std::size_t>(col) < c.size() ? c[static_cast<std::size_t>(col)] : "";
      };
      Row row;
      row.text = "row " + std::to_string(i + 2) + ": " + at(kernel) + " regs " + at(regs) + " static " + at(st) +
                 " dynamic " + at(dyn) + " block " + at(block) + " carveout " + at(carve);
      row.input.threads = std::stoi(at(block));
      row.input.regs = std::stoi(at(regs));
      row.input.smem = std::stoll(at(st)) + std::stoll(at(dyn));
      const int pct = std::stoi(at(carve));
      if (pct >= 0) row.input.carveout_pct = pct;  // -1: the attribute was not set
      row.max_threads = std::stoi(at(maxt));
      row.error = !at(err).empty();
      row.blocks = row.error ? -1 : std::stoi(at(blocks));  // empty where the query failed
      out.push_back(std::move(row));
    }
    return out;
  }();
  return r;
}

TEST(OccupancyH100, RecordsAreComplete) {
  ASSERT_EQ(rows().size(), 38152u);  // validation/h100/README.md
  int errors = 0, zero = 0;
  for (const auto& r : rows()) {
    EXPECT_LE(r.input.threads, r.max_threads) << r.text;  // the sweep never exceeds the kernel's limit
    errors += r.error;
    zero += !r.error && r.blocks == 0;
  }
  EXPECT_EQ(errors, 557);  // CUDA_ERROR_INVALID_VALUE: 40960 static + 204800 dynamic > 232448
  EXPECT_EQ(zero, 23);     // the same sizes with the max-dynamic attribute held at its maximum
}

TEST(OccupancyH100, EveryRowMatchesExactly) {
  const ArchSpec& h100 = arch("sm_90");
  int compared = 0, matched = 0, rejected = 0;
  std::string mismatches;
  for (const auto& r : rows()) {
    ++compared;
    const bool refused = r.error || r.blocks == 0;
    std::string got;
    bool ok = false;
    try {
      const OccupancyResult res = compute_occupancy(h100, r.input);
      ok = !refused && res.blocks_per_sm == r.blocks;
      got = std::to_string(res.blocks_per_sm) + " blocks";
    } catch (const InputError& e) {
      ok = refused;
      rejected += ok;
      got = std::string("rejected (") + e.what() + ")";
    }
    if (ok) {
      ++matched;
    } else if (compared - matched <= 20) {
      mismatches += "  " + r.text + ": H100 " + (r.error ? "error" : std::to_string(r.blocks) + " blocks") +
                    ", warpscope " + got + "\n";
    }
  }
  EXPECT_EQ(matched, compared) << compared - matched << " mismatches, first ones:\n" << mismatches;
  EXPECT_EQ(compared, 38152);
  EXPECT_EQ(rejected, 557 + 23);
}

// validation/h100/occupancy/kernels.csv: the compiler's max threads per block of
// each kernel (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) is the largest block whose
// registers pass the per-block check, warps rounded up to 4 sub-partitions
// (e.g. 80 registers: 2560 per warp, 65536 / 2560 = 25 warps -> 24 -> 768 threads).
TEST(OccupancyH100, LargestAcceptedBlockIsTheKernelsMaxThreadsPerBlock) {
  const ArchSpec& h100 = arch("sm_90");
  const CsvTable t = read_csv(WARPSCOPE_SOURCE_DIR "/validation/h100/occupancy/kernels.csv");
  const int regs = t.column("regs_per_thread"), maxt = t.column("max_threads_per_block");
  ASSERT_EQ(t.rows.size(), 187u);
  for (const auto& row : t.rows) {
    const int r = std::stoi(row[static_cast<std::size_t>(regs)]);
    int largest = 0;
    for (int threads = 32; threads <= h100.max_threads_per_block; threads += 32) {
      try {
        compute_occupancy(h100, OccupancyInput{threads, r, 0, std::nullopt, {}});
        largest = threads;
      } catch (const InputError&) {
      }
    }
    EXPECT_EQ(largest, std::stoi(row[static_cast<std::size_t>(maxt)])) << row[0] << " (" << r << " registers)";
  }
}

// validation/h100/README.md: `tiny` (10 registers), 128 threads, 16 KB dynamic
// shared memory: carveout unset/100/50/25/0 % gives 13/13/7/3/1 blocks; without
// dynamic shared memory 16 blocks, but 8 at 0 % (one 1 KB reserved block rounds
// the 0 KB carveout up to the 8 KB capacity).
TEST(OccupancyH100, CarveoutIsACapButNeverBelowOneBlock) {
  const ArchSpec& h100 = arch("sm_90");
  OccupancyInput in{128, 10, 16384, std::nullopt, CachePreference::None};
  EXPECT_EQ(compute_occupancy(h100, in).blocks_per_sm, 13);
  const std::pair<int, int> expected[] = {{100, 13}, {50, 7}, {25, 3}, {0, 1}};
  for (auto [pct, blocks] : expected) {
    in.carveout_pct = pct;
    EXPECT_EQ(compute_occupancy(h100, in).blocks_per_sm, blocks) << pct << " %";
  }
  in.smem = 0;
  in.carveout_pct = 0;
  const OccupancyResult r = compute_occupancy(h100, in);
  EXPECT_EQ(r.blocks_per_sm, 8);
  EXPECT_EQ(r.shared_per_sm, 8 * 1024);
  EXPECT_EQ(r.limiters, unsigned{kLimitSharedMemory});
}

}  // namespace
}  // namespace warpscope::test
