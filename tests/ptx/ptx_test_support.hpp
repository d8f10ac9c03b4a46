// Running hand-written PTX through the interpreter in tests: the records it
// emits and the global memory it leaves.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "ptx/interpreter.hpp"
#include "ptx/parser.hpp"

namespace warpscope::test {

// A kernel body between the usual module header and a closing brace.
inline std::string ptx_module(const std::string& body) {
  return ".version 8.0\n.target sm_90\n.address_size 64\n\n" + body;
}

struct PtxRun {
  ptx::Module module;
  std::unique_ptr<ptx::ModuleState> state;
  std::vector<WarpAccess> records;

  explicit PtxRun(const std::string& text) : module(ptx::parse_module(text, "test.ptx")) {
    state = std::make_unique<ptx::ModuleState>(module);
  }
  std::uint64_t buffer(const std::string& name, std::uint64_t bytes) { return state->memory.allocate(name, bytes); }
  template <class T>
  T read(const std::string& name, std::size_t index) {
    T v{};
    std::memcpy(&v, state->memory.allocation(name)->bytes.data() + index * sizeof(T), sizeof(T));
    return v;
  }
  template <class T>
  void write(const std::string& name, std::size_t index, T v) {
    std::memcpy(state->memory.allocation(name)->bytes.data() + index * sizeof(T), &v, sizeof(T));
  }
  // Runs kernel `name` with 8-byte arguments, all of it; returns this launch's records.
  std::vector<WarpAccess> launch(const std::string& name, Dim3 grid, Dim3 block, const std::vector<std::uint64_t>& args,
                                 std::uint64_t max_instructions = 1u << 24, std::uint32_t dynamic_shared = 0) {
    ptx::LaunchParams p;
    p.function = module.function_index.at(name);
    p.grid = grid;
    p.block = block;
    p.dynamic_shared = dynamic_shared;
    p.max_warp_instructions = max_instructions;
    const auto& f = module.functions[p.function];
    p.params.assign(f.param_bytes, 0);
    for (std::size_t i = 0; i < args.size() && i < f.params.size(); ++i) {
      const auto& v = module.symbols[static_cast<std::size_t>(f.params[i])];
      std::memcpy(p.params.data() + v.offset, &args[i], std::min<std::size_t>(8, v.size));
    }
    ptx::Interpreter in(*state, std::move(p));
    std::vector<WarpAccess> out;
    while (in.run(out, 1000)) {
    }
    records.insert(records.end(), out.begin(), out.end());
    return out;
  }
};

}  // namespace warpscope::test
