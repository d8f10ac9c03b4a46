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
    params_.assign(module.functions[module.function_index.at(name)].param_bytes, 0);
    for (std::size_t i = 0; i < args.size(); ++i) set_param(name, i, &args[i], 8);
    return launch_with(name, grid, block, max_instructions, dynamic_shared);
  }
  // Parameter `index` of kernel `name` for the next launch_with(): its first min(bytes, its size) bytes.
  void set_param(const std::string& name, std::size_t index, const void* bytes, std::size_t n) {
    const auto& f = module.functions[module.function_index.at(name)];
    if (params_.size() != f.param_bytes) params_.assign(f.param_bytes, 0);
    if (index >= f.params.size()) return;
    const auto& v = module.symbols[static_cast<std::size_t>(f.params[index])];
    std::memcpy(params_.data() + v.offset, bytes, std::min<std::size_t>(n, v.size));
  }
  // Runs kernel `name` with the parameters set_param() gave, all of it; returns this launch's records.
  std::vector<WarpAccess> launch_with(const std::string& name, Dim3 grid, Dim3 block, std::uint64_t max_instructions = 1u << 24,
                                      std::uint32_t dynamic_shared = 0) {
    ptx::LaunchParams p;
    p.function = module.function_index.at(name);
    p.grid = grid;
    p.block = block;
    p.dynamic_shared = dynamic_shared;
    p.max_warp_instructions = max_instructions;
    p.params = std::move(params_);
    params_.clear();
    p.params.resize(module.functions[p.function].param_bytes, 0);
    ptx::Interpreter in(*state, std::move(p));
    std::vector<WarpAccess> out;
    while (in.run(out, 1000)) {
    }
    records.insert(records.end(), out.begin(), out.end());
    return out;
  }

 private:
  std::vector<std::uint8_t> params_;
};

}  // namespace warpscope::test
