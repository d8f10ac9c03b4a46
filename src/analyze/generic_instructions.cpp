// Generic loads and stores counted as Nsight Compute counts them (generic_instructions.hpp).
#include "analyze/generic_instructions.hpp"

#include <algorithm>

namespace warpscope {

void count_as_generic(Counters& pc, Counters& kernel, Op op) {
  if (!counted_as_generic(op)) return;
  const bool load = op == Op::Load;
  std::uint64_t moved = 0;
  auto move = [&](std::uint64_t& from_pc, std::uint64_t& from_kernel) {
    moved += from_pc;
    from_kernel -= std::min(from_kernel, from_pc);
    from_pc = 0;
  };
  // An LD / ST reaching another CTA's shared memory counts both as generic and as dshared
  // (validation/h100/cluster_probe): added, not moved.
  if (load) {
    move(pc.global_ld.instructions, kernel.global_ld.instructions);
    move(pc.shared_ld.instructions, kernel.shared_ld.instructions);
    move(pc.local_ld.instructions, kernel.local_ld.instructions);
    moved += pc.dshared_ld.instructions;
    pc.generic_ld_instructions += moved;
    kernel.generic_ld_instructions += moved;
  } else {
    move(pc.global_st.instructions, kernel.global_st.instructions);
    move(pc.shared_st.instructions, kernel.shared_st.instructions);
    move(pc.local_st.instructions, kernel.local_st.instructions);
    moved += pc.dshared_st.instructions;
    pc.generic_st_instructions += moved;
    kernel.generic_st_instructions += moved;
  }
}

}  // namespace warpscope
