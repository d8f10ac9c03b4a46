// Builds the message stream the injection library sends (tracer/protocol.hpp),
// for tests of the host half of the tracer without a GPU.
#pragma once

#include <string>
#include <vector>

#include "tracer/protocol.hpp"

namespace warpscope::test {

using namespace warpscope::tracer;

struct StreamBuilder {
  std::string bytes;

  StreamBuilder& hello(std::uint32_t pid = 4242) {
    MessageWriter m(MessageType::Hello);
    m.put_u32(kProtocolVersion);
    m.put_u32(pid);
    bytes += m.finish();
    return *this;
  }
  StreamBuilder& device(const std::string& name = "NVIDIA H100 80GB HBM3") {
    MessageWriter m(MessageType::Device);
    for (std::uint32_t v : {0u, 9u, 0u, 132u}) m.put_u32(v);
    m.put_blob(name);
    bytes += m.finish();
    return *this;
  }
  StreamBuilder& module(std::uint64_t handle, const std::string& cubin) {
    MessageWriter m(MessageType::Module);
    m.put_u64(handle);
    m.put_blob(cubin);
    bytes += m.finish();
    return *this;
  }
  StreamBuilder& launch(std::uint32_t id, std::uint64_t module, std::uint64_t function_pc, const std::string& mangled,
                        bool traced = true, std::uint32_t cta_stride = 1) {
    LaunchHead h{};
    h.launch = id;
    h.module = module;
    h.function_pc = function_pc;
    h.function_size = 0x1000;
    h.grid[0] = 4, h.grid[1] = 1, h.grid[2] = 1;
    h.block[0] = 128, h.block[1] = 1, h.block[2] = 1;
    h.dynamic_shared = 512;
    h.traced = traced;
    h.cta_stride = cta_stride;
    MessageWriter m(MessageType::Launch);
    m.put_raw(&h, sizeof h);
    m.put_blob(mangled);
    bytes += m.finish();
    return *this;
  }
  // One record message; strided when addrs is empty (base, stride), per lane otherwise.
  struct Rec {
    std::uint32_t launch = 0, cta = 0, mask = 0xffffffffu;
    std::uint64_t pc = 0;
    std::uint16_t warp = 0, sm = 0;
    std::uint8_t space = 3, flags = kFlagRead, size = 4;
    std::uint64_t base = 0;
    std::int64_t stride = 4;
    std::vector<std::uint64_t> addrs;  // one per active lane, in lane order
  };
  StreamBuilder& records(const std::vector<Rec>& recs) {
    MessageWriter m(MessageType::Records);
    m.put_u32(static_cast<std::uint32_t>(recs.size()));
    for (const auto& r : recs) {
      PackedRecordHead h{r.launch, r.cta, r.pc, r.mask, r.warp, r.sm, r.space, r.flags, r.size,
                         static_cast<std::uint8_t>(r.addrs.empty() ? 0 : 1)};
      m.put_raw(&h, sizeof h);
      if (r.addrs.empty()) {
        m.put_u64(r.base);
        m.put_u64(static_cast<std::uint64_t>(r.stride));
      } else {
        for (auto a : r.addrs) m.put_u64(a);
      }
    }
    bytes += m.finish();
    return *this;
  }
  StreamBuilder& launch_end(std::uint32_t id, std::uint64_t executed, std::uint64_t written, bool complete = true) {
    LaunchEndBody b{id, complete ? 1u : 0u, executed, written};
    MessageWriter m(MessageType::LaunchEnd);
    m.put_raw(&b, sizeof b);
    bytes += m.finish();
    return *this;
  }
  StreamBuilder& note(const std::string& text) {
    MessageWriter m(MessageType::Note);
    m.put_blob(text);
    bytes += m.finish();
    return *this;
  }
  StreamBuilder& bye(std::uint64_t records) {
    MessageWriter m(MessageType::Bye);
    m.put_u64(records);
    bytes += m.finish();
    return *this;
  }
};

}  // namespace warpscope::test
