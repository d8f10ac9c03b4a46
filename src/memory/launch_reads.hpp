// The DRAM bytes a launch reads besides its memory instructions' traffic.
//
// Measured on the H100 (validation/h100/suite, docs/VALIDATION.md "Every
// launch's own DRAM reads"): Nsight Compute's dram__bytes_read of a kernel
// that touches no global memory is 2,304 B plus its code rounded up to
// 256 B (2,816 B for 384-512 B of SASS, 8,192 B for 5,888 B), and for every
// other kernel it exceeds the DRAM traffic of its loads and stores by the same
// amount. The fixed part is the launch's own data (the constant bank of its
// parameters, what the front end reads); the rest its instructions, which
// reach the SM through the instruction caches, not L1TEX. Neither is
// attributed to an instruction.
#pragma once

#include <cstdint>

#include "warpscope/arch.hpp"

namespace warpscope::memory {

// 0 where the architecture does not model them (launch.dram_read_bytes = 0)
// or the kernel's code size is unknown (code_bytes = 0).
std::uint64_t launch_dram_read_bytes(const ArchSpec& arch, std::uint64_t code_bytes);

}  // namespace warpscope::memory
