// libFuzzer target for the tracer's readers of the CUDA tools' text output
// (src/tracer/sass_listing.hpp): `nvdisasm -c -gi` listings (functions, memory
// instructions, cache operators, //## File line tables) and `cuobjdump
// -res-usage`. InputError naming the listing line is the only exception
// allowed; a recorded instruction must be a memory instruction of a function
// the listing declared, with a line-table path in normal form.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "tracer/sass_listing.hpp"
#include "warpscope/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const warpscope::tracer::SassListing listing = warpscope::tracer::parse_sass_listing(text);
    for (const auto& [name, function] : listing.functions) {
      if (function.name != name) std::abort();
      for (const auto& [offset, ins] : function.memory) {
        (void)offset;
        if (ins.opcode.empty() || !warpscope::tracer::classify_memory_opcode(ins.opcode)) std::abort();
        if (ins.line && std::filesystem::path(ins.line->file).lexically_normal().string() != ins.line->file) std::abort();
      }
    }
  } catch (const warpscope::InputError& e) {
    if (std::strstr(e.what(), "SASS listing line ") == nullptr || std::strchr(e.what(), '\n') != nullptr) std::abort();
  }
  (void)warpscope::tracer::parse_resource_usage(text);  // throws nothing: unknown lines are skipped
  return 0;
}
