// The occupancy rules of each generation, checked against cases worked out by
// hand from the documented limits and allocation granularities. Each case
// shows its arithmetic and cites its source; docs/OCCUPANCY.md has the formula.
//   cuda_occupancy.h      the CUDA toolkit's occupancy header (CUDA 8.0 for 2.x, 13.0 otherwise)
//   xls                   the legacy CUDA_Occupancy_Calculator.xls (CC 1.x: registers per block)
//   PG 3.x 5.2.3          CUDA C Programming Guide 3.x, "Multiprocessor Level" (the 1.2 example)
//   seed000/001/003       shared/seeds (Programming Guide appendices, tech-spec table)
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "warpscope/error.hpp"
#include "warpscope/occupancy.hpp"

namespace warpscope::test {
namespace {

OccupancyResult occ(const char* a, int threads, int regs, std::int64_t smem = 0,
                    std::optional<int> carveout = std::nullopt, CachePreference cache = CachePreference::None) {
  return compute_occupancy(arch(a), OccupancyInput{threads, regs, smem, carveout, cache});
}

std::string rejection(const char* a, int threads, int regs, std::int64_t smem = 0) {
  try {
    occ(a, threads, regs, smem);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// --- CC 1.x: registers allocated per block (xls; tech-spec table PG 1.x)

// PG 3.x 5.2.3: on 1.2, 512-thread blocks of a 16-register kernel: two blocks fit
// (2 x 512 x 16 = 16 K registers); with 17 registers only one.
TEST(OccupancyRules, Cc12ProgrammingGuideExample) {
  // 16 warps (even) x 32 x 16 = 8192, a multiple of 512; 16384 / 8192 = 2.
  OccupancyResult r = occ("sm_12", 512, 16);
  EXPECT_EQ(r.blocks_per_sm, 2);
  EXPECT_EQ(r.registers_per_block, 8192);
  EXPECT_EQ(r.warps_per_sm, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  // 16 x 32 x 17 = 8704 (17 units of 512); 16384 / 8704 = 1.
  r = occ("sm_12", 512, 17);
  EXPECT_EQ(r.blocks_per_sm, 1);
  EXPECT_EQ(r.registers_per_block, 8704);
  EXPECT_EQ(r.limiters, unsigned{kLimitRegisters});
}

// xls CC 1.x: per block, warps rounded up to 2, then to the register unit.
TEST(OccupancyRules, Cc1xAllocatesPerBlockWithEvenWarps) {
  // sm_13: 96 threads = 3 warps -> 4; 4 x 32 x 20 = 2560 (5 x 512); 16384 / 2560 = 6 blocks.
  OccupancyResult r = occ("sm_13", 96, 20);
  EXPECT_EQ(r.registers_per_block, 2560);
  EXPECT_EQ(r.registers_per_warp, 0);  // no per-warp allocation on 1.x
  EXPECT_EQ(r.limit_registers, 6);
  EXPECT_EQ(r.limit_warps, 10);  // 32 warps / 3
  EXPECT_EQ(r.blocks_per_sm, 6);
  EXPECT_EQ(r.warps_per_sm, 18);
  EXPECT_DOUBLE_EQ(r.occupancy, 18.0 / 32.0);
  // sm_10: 256-register unit, 8 K registers, 24 warps: 2560 -> 8192 / 2560 = 3 blocks, 9 of 24 warps.
  r = occ("sm_10", 96, 20);
  EXPECT_EQ(r.blocks_per_sm, 3);
  EXPECT_DOUBLE_EQ(r.occupancy, 9.0 / 24.0);
  // 64 threads x 10 registers on sm_13: 2 x 32 x 10 = 640 -> 1024; 16 by registers, 8 resident blocks.
  r = occ("sm_13", 64, 10);
  EXPECT_EQ(r.blocks_per_sm, 8);
  EXPECT_EQ(r.limiters, unsigned{kLimitBlocks});
  // Shared memory in 512-byte units on a 16 KB SM: 5000 B -> 5120; 16384 / 5120 = 3.
  r = occ("sm_13", 64, 10, 5000);
  EXPECT_EQ(r.shared_per_block, 5120);
  EXPECT_EQ(r.blocks_per_sm, 3);
}

// --- CC 2.x: per warp in units of 64, 2 sub-partitions (cuda_occupancy.h, CUDA 8.0)

TEST(OccupancyRules, Cc20With63RegistersAnd256Threads) {
  // 63 x 32 = 2016 -> 2048 per warp; (32768 / 2) / 2048 = 8 warps per sub-partition x 2 = 16 warps;
  // 16 / 8 warps per block = 2 blocks (warps alone would allow 48 / 8 = 6, blocks 8).
  const OccupancyResult r = occ("sm_20", 256, 63);
  EXPECT_EQ(r.registers_per_warp, 2048);
  EXPECT_EQ(r.registers_per_block, 16384);
  EXPECT_EQ(r.limit_registers, 2);
  EXPECT_EQ(r.limit_warps, 6);
  EXPECT_EQ(r.limit_blocks, 8);
  EXPECT_EQ(r.blocks_per_sm, 2);
  EXPECT_EQ(r.threads_per_sm, 512);
  EXPECT_DOUBLE_EQ(r.occupancy, 16.0 / 48.0);
  EXPECT_EQ(r.limiters, unsigned{kLimitRegisters});
  // One more block (24 warps) needs 16384 / regs-per-warp >= 12: 42 x 32 = 1344 (16384 / 1344 = 12),
  // 43 x 32 = 1376 -> 1408 (11).
  ASSERT_TRUE(r.raise_registers.at_most);
  EXPECT_EQ(*r.raise_registers.at_most, 42);
  EXPECT_EQ(occ("sm_20", 256, 42).blocks_per_sm, 3);
  EXPECT_EQ(occ("sm_20", 256, 43).blocks_per_sm, 2);
  // No shared memory used: shared memory cannot help, registers are in the way.
  EXPECT_FALSE(r.raise_shared.at_most);
  EXPECT_EQ(r.raise_shared.blocked_by, unsigned{kLimitRegisters});
  EXPECT_EQ(r.limit_shared, kUnlimited);
}

// cuda_occupancy.h (CUDA 8.0) cudaOccRegAllocationGranularity: 21, 22, 29, 30, 37, 38,
// 45, 46 registers per thread are allocated in units of 128 on 2.x.
TEST(OccupancyRules, Cc20OddRegisterCountsUse128RegisterUnits) {
  // 45 x 32 = 1440 -> 1536; 16384 / 1536 = 10 warps x 2 = 20; 352 threads = 11 warps -> 1 block.
  OccupancyResult r = occ("sm_20", 352, 45);
  EXPECT_EQ(r.registers_per_warp, 1536);
  EXPECT_EQ(r.blocks_per_sm, 1);
  // 44 x 32 = 1408 (a multiple of 64); 16384 / 1408 = 11 x 2 = 22 warps -> 2 blocks.
  r = occ("sm_20", 352, 44);
  EXPECT_EQ(r.registers_per_warp, 1408);
  EXPECT_EQ(r.blocks_per_sm, 2);
}

// seed000 G.3.1: 48 KB shared + 16 KB L1 (default) or 16 KB + 48 KB (cudaFuncCachePreferL1);
// cuda_occupancy.h: PreferEqual means 48 KB on 2.x.
TEST(OccupancyRules, Cc20CacheConfiguration) {
  EXPECT_EQ(occ("sm_20", 64, 16, 12 * 1024).blocks_per_sm, 4);                                     // 48 K / 12 K
  EXPECT_EQ(occ("sm_20", 64, 16, 12 * 1024, std::nullopt, CachePreference::L1).blocks_per_sm, 1);  // 16 K / 12 K
  EXPECT_EQ(occ("sm_20", 64, 16, 12 * 1024, std::nullopt, CachePreference::Equal).blocks_per_sm, 4);
  // A block that needs more than the preferred 16 KB gets the 48 KB configuration.
  EXPECT_EQ(occ("sm_20", 64, 16, 20 * 1024, std::nullopt, CachePreference::L1).blocks_per_sm, 2);
}

// --- CC 3.x: 256-register units, 4 sub-partitions, 16 blocks; L1 16/32/48 KB (seed000 G.4.1)

TEST(OccupancyRules, Cc35With48KBSharedMemory) {
  // 48 KB in 256-byte units = 49152 on a 48 KB SM: 1 block. Registers: 32 x 32 = 1024 per warp,
  // 16384 / 1024 x 4 = 64 warps / 4 = 16 blocks; warps 64 / 4 = 16; blocks 16.
  const OccupancyResult r = occ("sm_35", 128, 32, 48 * 1024);
  EXPECT_EQ(r.shared_per_block, 49152);
  EXPECT_EQ(r.shared_per_sm, 49152);
  EXPECT_EQ(r.blocks_per_sm, 1);
  EXPECT_EQ(r.limit_registers, 16);
  EXPECT_EQ(r.limit_warps, 16);
  EXPECT_EQ(r.limit_blocks, 16);
  EXPECT_EQ(r.limiters, unsigned{kLimitSharedMemory});
  EXPECT_DOUBLE_EQ(r.occupancy, 4.0 / 64.0);
  EXPECT_FALSE(r.raise_registers.at_most);
  EXPECT_EQ(r.raise_registers.blocked_by, unsigned{kLimitSharedMemory});
  ASSERT_TRUE(r.raise_shared.at_most);
  EXPECT_EQ(*r.raise_shared.at_most, 24 * 1024);  // two blocks of 24 KB fill 48 KB
}

TEST(OccupancyRules, Cc35CacheConfigurationChoosesTheSharedSize) {
  // 12 KB blocks: prefer shared / none 48 KB -> 4; equal 32 KB -> 2; prefer L1 16 KB -> 1 (cuda_occupancy.h).
  EXPECT_EQ(occ("sm_35", 128, 32, 12 * 1024).blocks_per_sm, 4);
  EXPECT_EQ(occ("sm_35", 128, 32, 12 * 1024, std::nullopt, CachePreference::Shared).blocks_per_sm, 4);
  EXPECT_EQ(occ("sm_35", 128, 32, 12 * 1024, std::nullopt, CachePreference::Equal).blocks_per_sm, 2);
  EXPECT_EQ(occ("sm_35", 128, 32, 12 * 1024, std::nullopt, CachePreference::L1).blocks_per_sm, 1);
  // 3.7: 112/96/80 KB (seed000 G.4.1): 12 KB blocks -> 9 / 8 / 6.
  EXPECT_EQ(occ("sm_37", 128, 32, 12 * 1024).blocks_per_sm, 9);
  EXPECT_EQ(occ("sm_37", 128, 32, 12 * 1024, std::nullopt, CachePreference::Equal).blocks_per_sm, 8);
  EXPECT_EQ(occ("sm_37", 128, 32, 12 * 1024, std::nullopt, CachePreference::L1).blocks_per_sm, 6);
}

TEST(OccupancyRules, Cc30Allows63RegistersPerThread) {
  EXPECT_NO_THROW(occ("sm_30", 128, 63));
  EXPECT_NE(rejection("sm_30", 128, 64).find("max_registers_per_thread = 63"), std::string::npos);  // seed003
  EXPECT_NO_THROW(occ("sm_35", 128, 255));
}

// --- CC 6.0: 2 sub-partitions, but checked as 6.1 too (cuda_occupancy.h, "forward compatibility")

TEST(OccupancyRules, Cc60IsAlsoCheckedAsCc61) {
  // 192 x 32 = 6144 per warp. 256 threads (8 warps): 6.0 32768 / 6144 = 5 x 2 = 10 warps -> 1 block;
  // 6.1 16384 / 6144 = 2 x 4 = 8 warps -> 1 block: fine.
  EXPECT_EQ(occ("sm_60", 256, 192).blocks_per_sm, 1);
  // 288 threads (9 warps): 6.0 alone: 10 warps -> 1 block, but 6.1's hardware check needs
  // 12 x 6144 = 73728 > 65536: refused on both.
  EXPECT_NE(rejection("sm_60", 288, 192).find("6.1"), std::string::npos);
  EXPECT_NE(rejection("sm_61", 288, 192).find("max_registers_per_block = 65536"), std::string::npos);
}

// --- CC 7.x: carveout (seed001 20.6.4) and Turing's limits (seed003 tech-spec table)

TEST(OccupancyRules, Cc70CarveoutRoundsUpToTheNextCapacity) {
  // seed001 20.6.4: "50% of the 96 KB maximum is 48 KB ... rounded up to 64 KB": 20 KB blocks -> 3.
  EXPECT_EQ(occ("sm_70", 128, 32, 20 * 1024, 50).shared_per_sm, 64 * 1024);
  EXPECT_EQ(occ("sm_70", 128, 32, 20 * 1024, 50).blocks_per_sm, 3);
  // 25 % = 24 KB -> 32 KB: 1 block; no carveout: 96 KB -> 4; 0 % -> 0 KB, raised to the 32 KB that
  // one block needs (cuda_occupancy.h: never below one block on 7.0+).
  EXPECT_EQ(occ("sm_70", 128, 32, 20 * 1024, 25).blocks_per_sm, 1);
  EXPECT_EQ(occ("sm_70", 128, 32, 20 * 1024).blocks_per_sm, 4);
  const OccupancyResult r = occ("sm_70", 128, 32, 20 * 1024, 0);
  EXPECT_EQ(r.shared_per_sm, 32 * 1024);
  EXPECT_EQ(r.blocks_per_sm, 1);
  // The cache preference stands for a carveout when none is given (L1 = 0 %).
  EXPECT_EQ(occ("sm_70", 128, 32, 20 * 1024, std::nullopt, CachePreference::L1).blocks_per_sm, 1);
  // No reserved shared memory before 8.0; 256-byte units on 7.x.
  EXPECT_EQ(occ("sm_70", 128, 32, 1000).shared_per_block, 1024);
}

TEST(OccupancyRules, Cc75Has16BlocksAnd32Warps) {
  // seed003: 7.5 has 16 resident blocks and 32 warps (1024 threads) per SM.
  OccupancyResult r = occ("sm_75", 32, 16);
  EXPECT_EQ(r.blocks_per_sm, 16);
  EXPECT_EQ(r.warps_per_sm, 16);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limiters, unsigned{kLimitBlocks});
  r = occ("sm_75", 1024, 32);  // 32 warps: one block fills the SM
  EXPECT_EQ(r.blocks_per_sm, 1);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limiters, unsigned{kLimitWarps});
  // 64 x 32 = 2048 per warp; 16384 / 2048 x 4 = 32 warps: registers tie with warps.
  EXPECT_EQ(occ("sm_75", 1024, 64).limiters, unsigned{kLimitWarps | kLimitRegisters});
  // Carveout on Turing: 32 or 64 KB (seed001 20.6.4); 0 % -> 32 KB: 10 KB blocks -> 3, default 64 KB -> 6.
  EXPECT_EQ(occ("sm_75", 128, 32, 10 * 1024, 0).blocks_per_sm, 3);
  EXPECT_EQ(occ("sm_75", 128, 32, 10 * 1024).blocks_per_sm, 6);
}

// --- CC 8.x: 1 KB reserved per block, 128-byte units (seed001 20.7.3; cuda_occupancy.h)

TEST(OccupancyRules, Cc86Has1536Threads) {
  // PG 13.x Table 30: 8.6 has 48 warps (1536 threads) and 16 blocks per SM.
  OccupancyResult r = occ("sm_86", 512, 32);
  EXPECT_EQ(r.blocks_per_sm, 3);
  EXPECT_EQ(r.threads_per_sm, 1536);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  r = occ("sm_86", 1024, 32);
  EXPECT_EQ(r.blocks_per_sm, 1);
  EXPECT_DOUBLE_EQ(r.occupancy, 32.0 / 48.0);
  EXPECT_EQ(occ("sm_86", 768, 32).blocks_per_sm, 2);
  EXPECT_EQ(occ("sm_86", 32, 32).blocks_per_sm, 16);
}

TEST(OccupancyRules, Cc86IssueExample) {
  // 256 threads, 64 registers, 48 KB: shared 48 K + 1 K reserved = 50176 (a multiple of 128);
  // 100 KB / 50176 = 2 blocks. Registers: 2048 per warp, 16384 / 2048 x 4 = 32 warps / 8 = 4 blocks.
  const OccupancyResult r = occ("sm_86", 256, 64, 48 * 1024);
  EXPECT_EQ(r.shared_per_block, 50176);
  EXPECT_EQ(r.shared_per_sm, 100 * 1024);
  EXPECT_EQ(r.blocks_per_sm, 2);
  EXPECT_EQ(r.warps_per_sm, 16);
  EXPECT_EQ(r.threads_per_sm, 512);
  EXPECT_DOUBLE_EQ(r.occupancy, 16.0 / 48.0);
  EXPECT_EQ(r.limiters, unsigned{kLimitSharedMemory});
  EXPECT_EQ(r.limit_registers, 4);
  EXPECT_EQ(r.limit_warps, 6);
  EXPECT_EQ(r.limit_blocks, 16);
  EXPECT_FALSE(r.needs_optin);  // 48 KB is the default per-block limit; one byte more needs the opt-in
  EXPECT_TRUE(occ("sm_86", 256, 64, 48 * 1024 + 1).needs_optin);
  // Three blocks: 102400 / 3 = 34133 -> 34048 per block in 128-byte units, less 1 KB reserved.
  ASSERT_TRUE(r.raise_shared.at_most);
  EXPECT_EQ(*r.raise_shared.at_most, 33024);
  EXPECT_EQ(occ("sm_86", 256, 64, 33024).blocks_per_sm, 3);
  EXPECT_EQ(occ("sm_86", 256, 64, 33025).blocks_per_sm, 2);
  EXPECT_FALSE(r.raise_registers.at_most);
  EXPECT_EQ(r.raise_registers.blocked_by, unsigned{kLimitSharedMemory});
}

TEST(OccupancyRules, Cc80ReservesOneKilobytePerBlock) {
  // seed001 20.7.3: 1 KB reserved per block; 164 KB per SM. 10 KB blocks: 11 KB each -> 14 blocks.
  EXPECT_EQ(occ("sm_80", 64, 32, 10 * 1024).blocks_per_sm, 14);
  // No shared memory at all still allocates the reserved 1 KB: 164 blocks' worth, so 32 (blocks).
  EXPECT_EQ(occ("sm_80", 64, 32).limit_shared, 164);
}

// --- Impossible configurations name the limit they break

TEST(OccupancyRules, ImpossibleConfigurationsNameTheLimit) {
  EXPECT_NE(rejection("sm_13", 1024, 16).find("max_threads_per_block = 512"), std::string::npos);
  EXPECT_NE(rejection("sm_90", 2048, 16).find("max_threads_per_block = 1024"), std::string::npos);
  EXPECT_NE(rejection("sm_90", 0, 16).find("at least 1 thread"), std::string::npos);
  EXPECT_NE(rejection("sm_90", 128, 256).find("max_registers_per_thread = 255"), std::string::npos);
  EXPECT_NE(rejection("sm_20", 128, 64).find("max_registers_per_thread = 63"), std::string::npos);
  // 65 x 32 = 2080 -> 2304 per warp x 32 warps = 73728 > 65536.
  EXPECT_NE(rejection("sm_90", 1024, 65).find("max_registers_per_block = 65536"), std::string::npos);
  // 1.0: 16 warps x 32 x 32 = 16384 > 8192.
  EXPECT_NE(rejection("sm_10", 512, 32).find("max_registers_per_block = 8192"), std::string::npos);
  EXPECT_NE(rejection("sm_86", 128, 32, 100 * 1024).find("max_shared_per_block_optin = 99 KB"), std::string::npos);
  EXPECT_NO_THROW(occ("sm_86", 128, 32, 99 * 1024));
  EXPECT_NE(rejection("sm_35", 128, 32, 48 * 1024 + 1).find("max_shared_per_block_optin = 48 KB"), std::string::npos);
  EXPECT_THROW(occ("sm_90", 128, 32, 0, 101), InputError);
}

// Every architecture of the database: a small block fits, occupancy stays within (0, 1],
// and the blocks respect every limit.
TEST(OccupancyRules, EveryArchitectureGivesConsistentResults) {
  for (const auto* e : db().all()) {
    const ArchSpec& a = e->spec;
    int fitted = 0;
    for (int threads : {32, 64, 96, 128, 192, 256, 384, 512}) {
      for (int regs : {0, 16, 32, 63}) {
        OccupancyResult r;
        try {
          r = compute_occupancy(a, OccupancyInput{threads, regs, 4096, std::nullopt, {}});
        } catch (const InputError&) {
          EXPECT_EQ(a.cc_major, 1) << a.name << " " << threads << " x "
                                   << regs;  // only 1.x register files are this small
          continue;
        }
        ++fitted;
        EXPECT_GE(r.blocks_per_sm, 1) << a.name;
        EXPECT_LE(r.blocks_per_sm, a.max_blocks_per_sm) << a.name;
        EXPECT_LE(r.warps_per_sm, a.max_warps_per_sm) << a.name;
        EXPECT_LE(static_cast<std::int64_t>(r.blocks_per_sm) * r.registers_per_block, a.registers_per_sm) << a.name;
        EXPECT_LE(r.blocks_per_sm * r.shared_per_block, r.shared_per_sm) << a.name;
        EXPECT_GT(r.occupancy, 0.0);
        EXPECT_LE(r.occupancy, 1.0);
        EXPECT_NE(r.limiters, 0u);
      }
    }
    EXPECT_GE(fitted, 24) << a.name;
  }
}

TEST(OccupancyRules, SweepCoversEveryBlockSize) {
  const auto points =
      sweep_occupancy(arch("sm_86"), OccupancyInput{256, 64, 0, std::nullopt, {}}, SweepAxis::BlockSize);
  ASSERT_EQ(points.size(), 32u);  // 32, 64, ..., 1024
  EXPECT_EQ(points.front().value, 32);
  EXPECT_EQ(points.back().value, 1024);
  for (const auto& p : points) ASSERT_TRUE(p.result) << p.value << ": " << p.error;
  // 1024 threads x 64 registers = 65536: fits exactly (one block).
  EXPECT_EQ(points.back().result->blocks_per_sm, 1);
  // 1.x: up to 512 threads per block.
  const auto tesla = sweep_occupancy(arch("sm_13"), OccupancyInput{256, 8, 0, std::nullopt, {}}, SweepAxis::BlockSize);
  ASSERT_EQ(tesla.size(), 16u);
  const auto regs = sweep_occupancy(arch("sm_20"), OccupancyInput{256, 8, 0, std::nullopt, {}}, SweepAxis::Registers);
  EXPECT_EQ(regs.back().value, 63);
  const auto smem =
      sweep_occupancy(arch("sm_90"), OccupancyInput{128, 32, 0, std::nullopt, {}}, SweepAxis::SharedMemory);
  EXPECT_EQ(smem.back().value, 227 * 1024);
  EXPECT_LE(smem.size(), 34u);
}

}  // namespace
}  // namespace warpscope::test
