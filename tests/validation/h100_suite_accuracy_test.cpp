// The validation suite's accuracy target as a floor: launches of
// validation/h100/suite whose every hit rate and DRAM byte count is within
// 5 points / 10% (known mismatches counted as outside). 177 of 210 since
// session 5 (docs/VALIDATION.md): the measured L2 partitions brought the
// reductions in and took three L2 hit rates 0.15-0.8 points past the 5-point
// line (179 before, with an assumed partition map); 178 since session 8 (the
// L2 request coalescer within an SM: c_ldcg4_reuse4); 175 since session 21,
// when the DRAM read check lost most of its slack (8 KB -> 512 B) once the
// model read each launch's own 2.3 KB and code (launch.dram_read_bytes): the
// three constant-memory kernels whose __constant__ data, which a trace does
// not record, the slack used to cover are outside now. A model change that
// loses a launch fails here, one that gains launches should raise the floor.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "test_support.hpp"
#include "trace/trace_test_util.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {
namespace {

TEST(H100SuiteAccuracy, LaunchesWithinTheTargetDoNotDecrease) {
  const ValidationReport r = validate_directory(WARPSCOPE_SOURCE_DIR "/validation/h100/suite", db());
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  EXPECT_EQ(s.kernels_toleranced, 210u);
  EXPECT_GE(s.kernels_within, 175u);
  EXPECT_EQ(s.exact_matched, s.exact);
}

// The launch's own DRAM reads (memory/launch_reads.hpp) make the model's
// dram__bytes_read equal the H100's on 141 of the 210 launches (none before:
// every launch read 2.3-8 KB more); the rest differ by the run-to-run spread
// of loading kernels (up to 512 B), constant data, or the known write-back class.
TEST(H100SuiteAccuracy, DramReadBytesEqualTheH100sOnMostLaunches) {
  const ValidationReport r = validate_directory(WARPSCOPE_SOURCE_DIR "/validation/h100/suite", db());
  std::size_t equal = 0, launches = 0;
  for (const KernelValidation& k : r.kernels)
    for (const CounterComparison& c : k.counters)
      if (c.counter == "dram__bytes_read.sum") {
        ++launches;
        equal += c.model == c.hardware ? 1 : 0;
        if (k.label == "driver_api/drv_saxpy") {
          EXPECT_EQ(c.model, c.hardware);  // JitKernelsGetTheirCodeSizeFromTheTrace, below
        }
      }
  EXPECT_EQ(launches, 210u);
  EXPECT_GE(equal, 141u);
}

// driver_api's drv_saxpy is JIT-compiled from PTX at run time, so the
// executable's listing (driver_api.sass) does not have it; the tracer recorded
// its code size from the module the driver loaded (the 2026-11-25 recording,
// docs/VALIDATION.md "The code size in the trace"). With it the model reads
// what the H100 read (DramReadBytesEqualTheH100sOnMostLaunches): the 8 MB of x
// and y plus a 512-byte kernel's 2,816 B. rt_scale, in the listing too, is
// 512 B there (its last instruction at 0x1f0).
TEST(H100SuiteAccuracy, JitKernelsGetTheirCodeSizeFromTheTrace) {
  const std::string dir = WARPSCOPE_SOURCE_DIR "/validation/h100/suite";
  EXPECT_EQ(read_bytes(dir + "/driver_api.sass").find("saxpy"), std::string::npos);
  std::map<std::string, std::uint64_t> code;
  for (const KernelInfo& k : read_all(dir + "/driver_api.wst").kernels) code[k.name] = k.code_bytes;
  const std::map<std::string, std::uint64_t> expected{{"drv_saxpy", 512},
                                                      {"rt_scale(float const*, float*, float)", 512}};
  EXPECT_EQ(code, expected);
}

}  // namespace
}  // namespace warpscope::test
