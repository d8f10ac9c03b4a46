#include "rules/texture_requests.hpp"

#include "rules/local_layout.hpp"

namespace warpscope::rules {

std::uint32_t lanes_on_texels(const WarpAccess& a) {
  std::uint32_t lanes = a.active.bits();
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (a.addr[l] == kNoTexel) lanes &= ~(1u << l);
  return lanes;
}

TextureRequests texture_requests(const WarpAccess& a) {
  TextureRequests out;
  const unsigned width = texture_request_lanes(a);
  const std::uint32_t group = (1u << width) - 1u;
  const std::uint32_t on_texel = lanes_on_texels(a);
  for (unsigned first = 0; first < kWarpSize; first += width) {
    const std::uint32_t active = a.active.bits() & (group << first), lanes = on_texel & (group << first);
    if (active == 0 || (lanes == 0 && a.op == Op::TexTexels)) continue;
    out.requests[out.count++] = TextureRequest{lanes, lanes == 0};
  }
  return out;
}

InstructionCounts empty_texture_request() {
  InstructionCounts c;
  c.path = MemoryPath::ReadOnly;
  c.applies = InstructionCounts::kRequests | InstructionCounts::kBytes;
  c.requests = 1;
  c.transactions = 1;
  c.sectors = 1;
  return c;
}

WarpAccess texture_request_access(const WarpAccess& a, std::uint32_t lanes) {
  WarpAccess p = a;
  p.op = Op::Load;
  p.active = LaneMask(lanes);
  return p;
}

InstructionCounts texture_counts(const WarpAccess& a, const ArchSpec& arch, const RulesOptions& options) {
  if (!texture_by_requests(a, arch)) {  // before 7.0: the whole warp as one read-only load (not measured per request)
    InstructionCounts c = analyze_at_addresses(texture_request_access(a, lanes_on_texels(a)), arch, options);
    if (a.op == Op::TexTexels) c.requests = 0;
    return c;
  }
  const TextureRequests rs = texture_requests(a);
  InstructionCounts total;
  total.path = MemoryPath::ReadOnly;
  total.applies = InstructionCounts::kRequests | InstructionCounts::kBytes;
  for (unsigned i = 0; i < rs.count; ++i) {
    const TextureRequest& r = rs.requests[i];
    InstructionCounts c = r.empty ? empty_texture_request() : analyze_at_addresses(texture_request_access(a, r.lanes), arch, options);
    if (i == 0) {
      const std::uint32_t applies = total.applies | c.applies;
      total = c;
      total.applies = applies;
    } else {
      add_part(total, c);
    }
  }
  if (a.op == Op::TexTexels) total.requests = 0;
  return total;
}

}  // namespace warpscope::rules
