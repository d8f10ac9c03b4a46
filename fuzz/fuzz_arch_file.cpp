// libFuzzer target for the architecture-file reader: arbitrary bytes as a
// data/arch file. Only InputError may escape; anything else is a bug. A file
// that loads is then used the way `warpscope --arch-dir` uses it: its rules on
// one warp of every space, op and size, its memory system (shrunk to 2 SMs
// and at most a 64 KB L2) on the same records, and the occupancy of a launch:
// a value the reader accepts must not crash, hang or divide by zero there.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "warpscope/arch.hpp"
#include "warpscope/error.hpp"
#include "warpscope/memory_system.hpp"
#include "warpscope/occupancy.hpp"
#include "warpscope/rules.hpp"

namespace {

using namespace warpscope;

// Every space x op x size, lanes at a stride that makes bank and line conflicts.
void exercise(const ArchSpec& arch) {
  std::vector<WarpAccess> records;
  for (Space space : {Space::Global, Space::Shared, Space::Local, Space::Const, Space::Texture})
    for (Op op : {Op::Load, Op::Store, Op::Atomic, Op::Reduction, Op::LoadMatrix, Op::StoreMatrix, Op::AsyncCopy})
      for (std::uint8_t size : {1, 2, 4, 8, 16}) {
        if ((space == Space::Const || space == Space::Texture) && op != Op::Load) continue;
        if (is_matrix(op) && (space != Space::Shared || size != 16)) continue;  // ldmatrix / stmatrix rows
        if (op == Op::AsyncCopy && !async_copy_record_ok(space, size, CacheOp::Ca)) continue;  // cp.async sides
        WarpAccess a;
        a.space = space;
        a.op = op;
        a.size = size;
        if (op == Op::AsyncCopy) a.cache = CacheOp::Ca;
        a.cta = static_cast<std::uint32_t>(records.size() % 3);
        a.warp = static_cast<std::uint16_t>(records.size() % 5);
        for (unsigned l = 0; l < kWarpSize; ++l) a.addr[l] = 0x10000 + std::uint64_t{l} * 3 * size * (1u + size % 3);
        records.push_back(a);
      }
  // Bulk copies (cp.async.bulk): one descriptor each way, 16 B past a line so that pieces straddle lines.
  for (Op op : {Op::BulkLoad, Op::BulkStore}) {
    WarpAccess a;
    a.op = op;
    a.size = 16;
    a.active = LaneMask(0x7u);
    a.addr = {0x20010, 0x400, 4096};
    records.push_back(a);
  }
  // A record this generation cannot execute (an atomic size it lacks) is an
  // InputError of its own: the others must still run.
  for (const WarpAccess& a : records) try {
      (void)analyze(a, arch);
    } catch (const InputError&) {
    }
  MemoryConfig config;
  config.num_sms = 2;
  config.l2_size = 64 * 1024;
  MemorySystem memory(arch, config);
  OccupancyInput launch;
  launch.threads = 256;
  launch.regs = 32;
  launch.smem = 4096;
  memory.begin_kernel(launch);
  for (const WarpAccess& a : records) try {
      (void)memory.access(a, static_cast<int>(a.cta % 2));
    } catch (const InputError&) {
    }
  memory.end_kernel(true);
  (void)compute_occupancy(arch, launch);
}

}  // namespace

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
    for (const auto* e : db.all()) {
      (void)e->spec.cc();
      try {
        exercise(e->spec);
      } catch (const warpscope::InputError&) {
      }
    }
  } catch (const warpscope::InputError&) {
  }
  return 0;
}
