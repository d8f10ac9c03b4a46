#pragma once
// Loads and stores through generic addresses (SASS LD / ST, KernelInfo::generic_pcs). Their lanes'
// accesses count in the space each address falls in, as Nsight Compute's l1tex and shared counters
// do, but ncu counts the instruction itself as smsp__inst_executed_op_generic_ld / _st and not in
// op_global_ld, op_shared_ld or op_local_ld (reference/ncu_and_microbench.md 1.2; measured in
// validation/h100/wmma_probe: 12 launches whose .bf16, .tf32 and .f64 wmma loads and stores are LD.E /
// ST.E). Nsight Compute's generations only (7.0+): nvprof's are left as the spaces count them.
#include "warpscope/counters.hpp"
#include "warpscope/types.hpp"

namespace warpscope {

// Moves the warp instructions of a generic load (op Load) or store (op Store) from the spaces' counters
// in `pc` (that instruction's) to Counters::generic_ld/st_instructions, in `pc` and in `kernel` (the
// totals that include it) alike. `pc` holds no earlier-moved counts: they were moved to generic then.
void count_as_generic(Counters& pc, Counters& kernel, Op op);

}  // namespace warpscope
