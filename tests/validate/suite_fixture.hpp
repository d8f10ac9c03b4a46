// A `warpscope validate` directory built in a temp dir from the committed H100
// cache measurements (validation/h100/cache): one application "cache_kernels"
// whose trace holds the six kernel traces in ncu's launch order.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "warpscope/trace.hpp"

namespace warpscope::test {

inline const std::string kCacheDir = WARPSCOPE_SOURCE_DIR "/validation/h100/cache/";
inline const std::vector<std::string> kCacheKernels = {"stencil2d", "transpose_naive", "transpose_tiled",
                                                       "gather",    "gather_cg",       "copy_ldg"};

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// The traces of `kernels` (names of validation/h100/cache/<name>.wstrace), in order, as one native trace.
inline void merge_traces(const std::vector<std::string>& kernels, const std::filesystem::path& out) {
  auto sink = create_trace(out, TraceFormat::Native);
  for (const auto& k : kernels) {
    auto src = open_trace(kCacheDir + k + ".wstrace");
    WarpAccess rec;
    std::uint32_t id = 0;
    bool begun = false;
    while (src->next(rec)) {
      if (!begun) id = sink->begin_kernel(src->kernels().front());
      begun = true;
      rec.kernel = id;
      sink->write(rec);
    }
  }
  sink->close();
}

inline const char* kFixtureTolerances = R"(version = 1
exact = [
  "smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_st.sum",
  "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
  "l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_set_accesses_pipe_lsu_mem_global_op_st.sum",
  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
  "lts__t_sectors_srcunit_tex_op_write.sum",
]
[[tolerance]]
counter = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
rate_of = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
points = 5
[[tolerance]]
counter = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
rate_of = "lts__t_sectors_srcunit_tex_op_read.sum"
# stencil2d: 5.4 points since the L2 partitions were measured (session 5): its emulated trace has
# no SM ids, so the model's CTA placement decides which partition reads a halo row
points = 6
[[tolerance]]
counter = "dram__bytes_read.sum"
percent = 10
[[tolerance]]
counter = "dram__bytes_write.sum"
percent = 10
slack = 1024
)";

// A fresh directory: environment.txt, tolerances.toml, cache_kernels.ncu.csv, cache_kernels.wst.
inline std::filesystem::path make_suite_dir(const std::string& name, const std::vector<std::string>& kernels = kCacheKernels) {
  const auto dir = std::filesystem::temp_directory_path() / ("warpscope_validate_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  static std::vector<std::filesystem::path> made;  // removed when the test program ends
  static const int cleanup = std::atexit([] {
    std::error_code ec;
    for (const auto& d : made) std::filesystem::remove_all(d, ec);
  });
  (void)cleanup;
  made.push_back(dir);
  write_text(dir / "environment.txt", "gpu: NVIDIA H100 80GB HBM3\ngpu_model: h100-sxm\narch: sm_90\nncu: 2025.3.1.0\n");
  write_text(dir / "tolerances.toml", kFixtureTolerances);
  std::filesystem::copy_file(kCacheDir + "ncu_raw.csv", dir / "cache_kernels.ncu.csv");
  merge_traces(kernels, dir / "cache_kernels.wst");
  return dir;
}

// Makes stencil2d's l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum in the suite
// directory's CSV one more than measured (178,500 -> 178,501): a failing exact counter.
// False when the value is not found.
inline bool corrupt_stencil_sectors(const std::filesystem::path& dir) {
  std::string csv = read_text(dir / "cache_kernels.ncu.csv");
  const auto at = csv.find("\"178,500\"");
  if (at == std::string::npos) return false;
  csv.replace(at, 9, "\"178,501\"");
  write_text(dir / "cache_kernels.ncu.csv", csv);
  return true;
}

}  // namespace warpscope::test
