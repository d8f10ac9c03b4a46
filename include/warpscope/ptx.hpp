// `warpscope run`: kernels of a PTX file run by warpscope's own interpreter,
// no GPU needed. The interpreter executes nvcc's PTX warp by warp with GPU
// semantics (SIMT divergence and reconvergence, barriers, shuffles and votes,
// PTX integer and floating-point rules) and streams the memory records its
// warps issue, the same records a GPU trace holds (docs/PTX.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/trace.hpp"

namespace warpscope {

// A buffer in the interpreter's global memory that kernel arguments name.
struct PtxBuffer {
  enum class Fill { Zero, Iota, Random, Index, File, Bytes };
  std::string name;
  std::uint64_t bytes = 0;       // File: 0 takes the file's size, a larger size repeats it; Bytes: 0 takes data's
  // Iota: 32-bit words 0, 1, 2, ...; Random: splitmix64 bytes; Index: 32-bit words splitmix64(seed)
  // modulo range, a random gather's indices (the validation suite's index tables are made so).
  Fill fill = Fill::Zero;
  std::uint64_t seed = 1;        // Random, Index
  std::uint64_t range = 0;       // Index
  std::string file;              // File
  std::vector<std::uint8_t> data;  // Bytes (the library's callers)
};

// One kernel launch: kernel<<<grid, block, dynamic shared>>>(args).
struct PtxLaunch {
  std::string kernel;  // the PTX (mangled) name, or the name before '(' of the demangled one
  Dim3 grid, block;
  std::uint32_t dynamic_shared = 0;
  Dim3 cluster{0, 0, 0};  // cluster=(X,Y,Z) (cudaLaunchAttributeClusterDimension); count 0: the kernel's own shape
  // One per kernel parameter: a buffer name with an optional byte offset ("in", "in+64"), an
  // integer ("1024", "-1", "0x10") or, for .f32/.f64 parameters, a decimal number ("0.5").
  std::vector<std::string> args;
};

// A buffer (or .global variable) written to a file after the last launch: what the kernels computed,
// to compare with a GPU run's output.
struct PtxDump {
  std::string buffer, path;
};

struct PtxRunOptions {
  std::uint64_t max_warp_instructions = 1ull << 36;  // per launch; an endless loop stops here with an error
  std::vector<PtxDump> dumps;  // written when the last launch is done (each file whole, or not at all)
};

// "NAME=FILE". Throws InputError.
PtxDump parse_ptx_dump(std::string_view text);

// "NAME=SIZE[:zero|:iota|:random[:SEED]|:index:RANGE[:SEED]|:@FILE]" or "NAME=@FILE" (the file's
// bytes; SIZE:@FILE repeats them to fill SIZE).
// Throws InputError.
PtxBuffer parse_ptx_buffer(std::string_view text);
// "KERNEL<<<GRID, BLOCK[, SHARED]>>>(ARG, ...)"; GRID and BLOCK are N or (X,Y[,Z]). Throws InputError.
PtxLaunch parse_ptx_launch(std::string_view text);

// A file of buffers and launches, one per line: "buffer SPEC" or "launch SPEC" as the options take
// them; '#' starts a comment. @FILE buffers are relative to the script's directory. Throws
// InputError naming path:line.
struct PtxScript {
  std::vector<PtxBuffer> buffers;
  std::vector<PtxLaunch> launches;
};
PtxScript parse_ptx_script(std::string_view text, const std::string& path);

// The kernels a PTX text defines, each as "name(param types)" with its demangled name when it has one.
std::vector<std::string> ptx_kernel_signatures(std::string_view ptx, const std::string& path);

// Parses the PTX, places the buffers and runs the launches one after another (buffers keep their
// contents from launch to launch), streaming their records as a trace. Kernel i of the trace is launch i.
// Throws InputError (a malformed file, an unknown kernel, bad arguments) before any record; a fault
// of a kernel (an access outside every buffer, misalignment, trap) is thrown by next().
std::unique_ptr<TraceSource> run_ptx(std::string ptx, const std::string& path, const std::vector<PtxBuffer>& buffers,
                                     const std::vector<PtxLaunch>& launches, const PtxRunOptions& options = {});

}  // namespace warpscope
