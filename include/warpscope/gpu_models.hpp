// GPU models: what one product adds to its compute capability for the memory
// model (SM count, L2 size). data/gpus/gpus.toml, every entry with its source.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

struct GpuModel {
  std::string key;     // "h100-sxm"
  std::string name;    // "NVIDIA H100 SXM5 80GB HBM3"
  std::string arch;    // "sm_90"
  int sms = 0;
  std::int64_t l2_size = 0;
  std::string source;
};

// Reads a gpus.toml file; InputError naming the file, entry and key on any problem.
std::vector<GpuModel> load_gpu_models(const std::filesystem::path& file);
// data/gpus/gpus.toml (installed: share/warpscope/gpus/gpus.toml), loaded once.
const std::vector<GpuModel>& builtin_gpu_models();
// By key (case-insensitive); InputError listing the known keys.
const GpuModel& find_gpu_model(std::string_view key);

}  // namespace warpscope
