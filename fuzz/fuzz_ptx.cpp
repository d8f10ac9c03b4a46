// libFuzzer target for the PTX front end: parse arbitrary bytes as PTX and,
// when they parse, run each kernel (a few) on small buffers under an
// instruction limit. PtxError (InputError) is the only exception allowed to
// escape; a crash, a sanitizer report or a record that breaks the record's
// invariants is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ptx/interpreter.hpp"
#include "ptx/parser.hpp"
#include "ptx/tensor_map.hpp"
#include "ptx/texture_object.hpp"
#include "warpscope/warp_access.hpp"

namespace {

using namespace warpscope;

void check(const WarpAccess& a, const ptx::DeviceMemory& memory) {
  if (a.active.none()) std::abort();
  if (a.size != 1 && a.size != 2 && a.size != 4 && a.size != 8 && a.size != 16) std::abort();
  // A bulk or tensor copy's lanes are a descriptor (a tensor load's rows may lie out of bounds on purpose).
  if (is_bulk(a.op)) {
    if (!bulk_record_ok(a)) std::abort();
    return;
  }
  if (a.op == Op::GmmaRead) {
    if (!gmma_record_ok(a)) std::abort();
    return;
  }
  if (!sample_record_ok(a.space, a.op, a.cache)) std::abort();
  if (is_texture(a.space)) {  // each texel inside a buffer, or none (a border texel)
    for (int l = 0; l < 32; ++l) {
      const std::uint64_t addr = a.addr[static_cast<std::size_t>(l)];
      if (!a.active.test(l) || addr == kNoTexel) continue;
      bool inside = false;
      for (const auto& b : memory.allocations()) inside = inside || (addr >= b.base && addr - b.base < b.size);
      if (!inside) std::abort();
    }
    return;
  }
  if (a.space != Space::Global) return;
  // The interpreter checks every global access against the buffers before it records it.
  for (int l = 0; l < 32; ++l) {
    if (!a.active.test(l)) continue;
    const std::uint64_t addr = a.addr[static_cast<std::size_t>(l)];
    bool inside = false;
    for (const auto& b : memory.allocations()) inside = inside || (addr >= b.base && addr - b.base < b.size);
    if (!inside) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1 << 16) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ptx::Module module;
  try {
    module = ptx::parse_module(text, "fuzz.ptx");
  } catch (const InputError&) {
    return 0;
  }
  ptx::ModuleState state(module);
  // Texture objects 1-3 (a kernel's handle: a constant such as mov.u64 %rd1, 2): 1D floats, 2D floats filtered with
  // border addressing, 2D bytes normalized and wrapped.
  {
    const std::uint64_t base = state.memory.allocate("tex", 64 * 64 * 4);
    const auto buffer = [&](std::string_view) { return std::optional<std::pair<std::uint64_t, std::uint64_t>>({base, 64 * 64 * 4}); };
    for (const char* t : {"tex(tex, f32, (4096))", "tex(tex, f32, (64, 64), filter=linear, address=border)",
                          "tex(tex, u8x2, (96, 64), pitch=256, read=normalized, filter=linear, address=wrap, coords=normalized)"})
      state.textures.push_back(ptx::parse_texture_object(t, buffer));
  }
  int kernels = 0;
  for (std::uint32_t f = 0; f < module.functions.size() && kernels < 3; ++f) {
    const auto& fn = module.functions[f];
    if (!fn.is_kernel || fn.is_extern) continue;
    ++kernels;
    ptx::LaunchParams p;
    p.function = f;
    p.grid = {2, 1, 1};
    p.block = {40, 2, 1};
    p.dynamic_shared = 256;
    p.max_warp_instructions = 20000;
    p.params.assign(fn.param_bytes, 0);
    for (std::size_t i = 0; i < fn.params.size(); ++i) {
      const auto& v = module.symbols[static_cast<std::size_t>(fn.params[i])];
      std::uint64_t value = 3;
      if (v.size == ptx::kTensorMapBytes) {  // a CUtensorMap: 64 x 64 floats, 16 x 16 boxes, swizzled
        const std::uint64_t base = state.memory.allocate("t" + std::to_string(state.memory.allocations().size()), 64 * 64 * 4);
        const auto map = ptx::encode_tensor_map(ptx::parse_tensor_map(
            "tmap(t, f32, (64, 64), (16, 16), swizzle=64B)", [&](std::string_view) { return std::optional<std::uint64_t>(base); }));
        std::memcpy(p.params.data() + v.offset, map.data(), map.size());
        continue;
      }
      if (v.size == 8) value = state.memory.allocate("b" + std::to_string(state.memory.allocations().size()), 4096);
      std::memcpy(p.params.data() + v.offset, &value, std::min<std::size_t>(8, v.size));
    }
    try {
      ptx::Interpreter in(state, std::move(p));
      std::vector<WarpAccess> out;
      bool more = true;
      while (more) {
        more = in.run(out, 512);
        for (const auto& a : out) check(a, state.memory);
        out.clear();
      }
    } catch (const InputError&) {
    }
  }
  return 0;
}
