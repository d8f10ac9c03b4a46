// The run script's buffer fills (zero, iota, random, index, file bytes: docs/PTX.md "Launches and buffers"), for
// `warpscope run` and for tests that replay a probe's launches.
#pragma once

#include "ptx/device_memory.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope::ptx {

// Writes `b`'s fill into the allocation `a` (its bytes already sized and zeroed).
void fill_buffer(DeviceMemory::Allocation& a, const PtxBuffer& b);

}  // namespace warpscope::ptx
