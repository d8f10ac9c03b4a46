#include "memory/launch_reads.hpp"

namespace warpscope::memory {

std::uint64_t launch_dram_read_bytes(const ArchSpec& arch, std::uint64_t code_bytes) {
  if (arch.launch_dram_read_bytes <= 0 || code_bytes == 0) return 0;
  const auto fixed = static_cast<std::uint64_t>(arch.launch_dram_read_bytes);
  if (arch.launch_code_fetch_bytes <= 0) return fixed;
  const auto piece = static_cast<std::uint64_t>(arch.launch_code_fetch_bytes);
  return fixed + (code_bytes + piece - 1) / piece * piece;
}

}  // namespace warpscope::memory
