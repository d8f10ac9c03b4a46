// validation/h100/constant_probe (README there; docs/VALIDATION.md "Constant data"): 21 launches
// that read chosen bytes of a __constant__ array and touch no global memory, so that their
// dram__bytes_read is the launch's own reads plus the constant data. Each configuration is replayed
// through the sm_90 model (constant.dram_fetch_bytes = 256, launch.dram_read_bytes and the code
// size from the probe's listing) and set against the H100.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analyze/analyzer.hpp"
#include "memory/launch_reads.hpp"
#include "test_support.hpp"
#include "validation/csv_table.hpp"
#include "warpscope/memory_system.hpp"

namespace warpscope::test {
namespace {

const std::string kProbe = WARPSCOPE_SOURCE_DIR "/validation/h100/constant_probe/";

struct Launch {
  std::string config;
  std::string kernel;  // cread | cdiv
  int ctas = 0;
  std::vector<std::uint64_t> offsets;  // bytes of c_data (offset 0 of constant bank 3)
  double hardware = 0;                 // dram__bytes_read.sum
};

std::vector<Launch> launches() {
  const CsvTable t = read_csv(kProbe + "summary.csv");
  std::vector<Launch> out;
  for (const auto& row : t.rows) {
    Launch l;
    l.config = row[static_cast<std::size_t>(t.column("config"))];
    l.hardware = std::stod(row[static_cast<std::size_t>(t.column("dram__bytes_read.sum"))]);
    // "cread:C:B0,B1,..." ("-": no offsets)
    std::stringstream ss(l.config);
    std::string ctas, list;
    std::getline(ss, l.kernel, ':');
    std::getline(ss, ctas, ':');
    std::getline(ss, list);
    l.ctas = std::stoi(ctas);
    std::stringstream offsets(list);
    for (std::string b; list != "-" && std::getline(offsets, b, ',');) l.offsets.push_back(std::stoull(b));
    out.push_back(l);
  }
  return out;
}

std::uint64_t code_bytes(const std::string& kernel) {
  std::ifstream f(kProbe + "constant_probe.sass");
  const std::string listing((std::istreambuf_iterator<char>(f)), {});
  const CodeSizes sizes = code_sizes_from_sass(listing);
  for (const auto& [name, bytes] : sizes)
    if (name.rfind(kernel + "(", 0) == 0) return bytes;  // the demangled name
  throw std::runtime_error("no " + kernel + " in the listing");
}

// The model's dram__bytes_read for a launch: its constant loads on sm_90 (CTA c on SM c; cread: one
// warp-uniform load per offset, cdiv: one load, lane l at offset l mod n) plus the launch reads.
double model(const Launch& l, const ArchSpec& a) {
  MemorySystem m(a, MemoryConfig{});
  m.begin_kernel();
  WarpAccess r;
  r.space = Space::Const;
  r.op = Op::Load;
  r.size = 4;
  for (int cta = 0; cta < l.ctas; ++cta) {
    r.cta = static_cast<std::uint32_t>(cta);
    if (l.kernel == "cread") {
      for (const std::uint64_t b : l.offsets) {
        r.addr.fill(b);
        m.access(r, cta % m.num_sms());
      }
    } else if (!l.offsets.empty()) {
      for (std::uint32_t lane = 0; lane < kWarpSize; ++lane) r.addr[lane] = l.offsets[lane % l.offsets.size()];
      m.access(r, cta % m.num_sms());
    }
  }
  return static_cast<double>(m.kernel_counters().dram_read_bytes +
                             memory::launch_dram_read_bytes(a, code_bytes(l.kernel)));
}

TEST(H100ConstantProbe, TheModelReadsWhatTheH100ReadWithinTheLaunchSpread) {
  const auto all = launches();
  ASSERT_EQ(all.size(), 21u);
  const ArchSpec& a = arch("sm_90");
  ASSERT_EQ(a.constant_dram_fetch_bytes, 256);
  std::size_t exact = 0, short_by_256 = 0;
  for (const Launch& l : all) {
    const double m = model(l, a);
    // The launch reads move by 256 B from launch to launch (docs/VALIDATION.md "Every launch's own
    // DRAM reads"): here the H100 read what the model reads or 256 B less, never more.
    EXPECT_TRUE(l.hardware == m || l.hardware == m - 256.0) << l.config << ": model " << m << ", H100 " << l.hardware;
    exact += l.hardware == m ? 1 : 0;
    short_by_256 += l.hardware == m - 256.0 ? 1 : 0;
  }
  EXPECT_EQ(exact, 8u);
  EXPECT_EQ(short_by_256, 13u);
  // The same configuration twice in one process: 256 B apart, both ways.
  std::map<std::string, std::vector<double>> runs;
  for (const Launch& l : all) runs[l.config].push_back(l.hardware);
  EXPECT_EQ(runs["cread:1:-"], (std::vector<double>{3072, 2816}));
  EXPECT_EQ(runs["cread:1:0"], (std::vector<double>{3072, 3328}));
}

// What the probe rules out: 128 B blocks (the 16 offsets 256 B apart read 4,096 B, not 2,048) and a
// block read per SM (132 CTAs read block 0 once: 256 B, not 132 x 256).
TEST(H100ConstantProbe, NeitherSmallerBlocksNorOneReadPerSm) {
  ArchSpec small = arch("sm_90");
  small.constant_dram_fetch_bytes = 128;
  std::size_t off_with_small = 0;
  for (const Launch& l : launches()) {
    off_with_small += std::abs(model(l, small) - l.hardware) > 256.0 ? 1 : 0;
    if (l.config == "cread:132:0") {
      // The launch reads (3,072 B: 640 B of listed code) and one block; a block per SM would add 132 x 256 B.
      EXPECT_EQ(l.hardware, 3072.0 + 256.0);
    }
  }
  EXPECT_EQ(off_with_small, 5u);  // the five launches that read 16 blocks 256 B apart
}

}  // namespace
}  // namespace warpscope::test
