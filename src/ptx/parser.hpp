// Reads the PTX that nvcc writes (`nvcc -ptx`, `cuobjdump -ptx`) into the
// interpreter's decoded module (ptx/ir.hpp). PTX ISA chapters 4-7 and 11:
// directives, variables with initialisers, kernels and functions with their
// parameters, scoped register declarations, labels, guarded instructions with
// their modifiers. An instruction the interpreter cannot run is kept as
// Opcode::Unsupported, so a module parses whole and only a launch that would
// execute it is refused.
#pragma once

#include <string>
#include <string_view>

#include "ptx/ir.hpp"
#include "ptx/ptx_error.hpp"

namespace warpscope::ptx {

// Throws PtxError naming path:line and what was expected.
Module parse_module(std::string_view text, const std::string& path);

}  // namespace warpscope::ptx
