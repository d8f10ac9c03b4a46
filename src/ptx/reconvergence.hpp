// Where the lanes of a divergent branch meet again: the immediate
// post-dominator of the branch's basic block (the IPDOM reconvergence of
// GPGPU-Sim's SIMT stack; reference/tracing_and_ptx.md section 3).
#pragma once

#include <cstdint>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

// Reconvergence point of a branch whose paths only meet at the function's exit.
inline constexpr std::uint32_t kNoReconvergence = UINT32_MAX;

// Sets Instruction::reconverge of every bra in f.
void set_reconvergence(Function& f);

}  // namespace warpscope::ptx
