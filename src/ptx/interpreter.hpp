// Runs one kernel launch of a parsed PTX module on the CPU, warp by warp, and
// produces the memory records (WarpAccess) its warps issue: the same stream the
// GPU tracer records, without a GPU.
//
// Execution model (docs/PTX.md): warps are 32 consecutive threads of a CTA;
// each warp runs under an IPDOM SIMT stack (divergent branches reconverge at
// their immediate post-dominator), so a warp issues one record per memory
// instruction and converged subgroup, as the hardware does. CTAs run one after
// another in linear order; inside a CTA each warp runs until it reaches a
// barrier or exits, and a barrier releases once every warp that has not exited
// waits there. This is one legal schedule of a race-free kernel.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ptx/device_memory.hpp"
#include "ptx/ir.hpp"
#include "ptx/texture_object.hpp"
#include "warpscope/trace.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::ptx {

// What every launch of a module shares: the module, global memory (with the
// module's .global variables) and the constant bank.
struct ModuleState {
  const Module* module = nullptr;
  DeviceMemory memory;
  std::vector<std::uint8_t> const_bank;      // the module's .const variables
  std::vector<std::uint64_t> global_address;  // per symbol: the address of a .global variable (0 for others)
  std::vector<TextureObject> textures;        // the run script's tex(...) arguments: handle k + 1 is textures[k]

  explicit ModuleState(const Module& m);
};

struct LaunchParams {
  std::uint32_t function = 0;  // the kernel's index in the module
  Dim3 grid, block;
  std::uint32_t dynamic_shared = 0;
  Dim3 cluster{0, 0, 0};  // CTAs a cluster (count 0: the kernel's .reqnctapercluster, or clusters of one)
  std::vector<std::uint8_t> params;  // the kernel's parameter bytes, laid out as it declares them
  std::uint32_t kernel_id = 0;       // WarpAccess::kernel of the records
  std::uint64_t max_warp_instructions = 0;  // 0: no limit
};

class Interpreter {
 public:
  // Throws PtxError when the launch cannot run: an instruction the interpreter
  // does not support on a path from the kernel, recursion, bad dimensions.
  Interpreter(ModuleState& state, LaunchParams launch);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Runs until `out` has grown by at least `want` records or the grid is
  // done; returns false once the grid is done. Throws PtxError on a fault of
  // the kernel (an access outside every buffer, misalignment, trap), naming the
  // PTX line, the CTA and the thread.
  bool run(std::vector<WarpAccess>& out, std::size_t want);

  std::uint32_t static_shared_bytes() const;
  std::uint64_t local_bytes_per_thread() const;
  std::uint64_t warp_instructions() const;
  std::uint64_t thread_instructions() const;
  std::uint64_t ctas_started() const;  // for progress
  // PC -> source line of every instruction the launch can execute (.loc, or the PTX line).
  std::map<std::uint64_t, SourceLocation> lines() const;
  // PC -> operation of every atom and red the launch can execute (KernelInfo::atomics).
  std::map<std::uint64_t, AtomicOp> atomics() const;
  // PCs of the loads and stores (ld, st, wmma.load, wmma.store) without a state space: ptxas keeps them
  // generic (LD / ST; validation/h100/wmma_probe), which Nsight Compute counts as op_generic.
  std::set<std::uint64_t> generic_pcs() const;
  // Whether the kernel or a function it calls has a wmma.load or wmma.store (whose memory instructions
  // are ptxas's for sm_80 and later: wmma_layout.hpp).
  bool moves_wmma_fragments() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpscope::ptx
