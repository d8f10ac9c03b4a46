// libFuzzer target for the architecture-file reader: arbitrary bytes as a
// data/arch file. Only InputError may escape; anything else is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "warpscope/arch.hpp"
#include "warpscope/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("warpscope_fuzz_arch_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  {
    std::ofstream f(dir / "fuzz.toml", std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    auto db = warpscope::ArchDatabase::load({dir});
    for (const auto* e : db.all()) (void)e->spec.cc();
  } catch (const warpscope::InputError&) {
  }
  return 0;
}
