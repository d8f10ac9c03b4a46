// The DRAM bytes a launch reads besides its memory instructions' traffic.
//
// Measured on the H100 (validation/h100/suite, docs/VALIDATION.md "Every
// launch's own DRAM reads"): Nsight Compute's dram__bytes_read of a kernel
// that touches no global memory is 2,304 B plus its code rounded up to
// 256 B (2,816 B for 384-512 B of SASS, 3,072 B for 640-768 B), and other
// kernels exceed the DRAM traffic of their loads and stores by the same amount
// (exactly on 140 of the 210 launches, 8,192 B for r_sgemm_tiled16's 5,888 B;
// most others within the 256-512 B that loading kernels move between runs).
// The fixed part is presumably the launch's own data (its parameters' constant
// bank, what the front end reads), the rest its instructions, which reach the
// SM through the instruction caches, not L1TEX. Neither is attributed to an
// instruction.
#pragma once

#include <cstdint>

#include "warpscope/arch.hpp"

namespace warpscope::memory {

// 0 where the architecture does not model them (launch.dram_read_bytes = 0)
// or the kernel's code size is unknown (code_bytes = 0).
std::uint64_t launch_dram_read_bytes(const ArchSpec& arch, std::uint64_t code_bytes);

}  // namespace warpscope::memory
