// The texture unit's requests on 7.0+. A texture fetch (SASS TLD, Op::Load in space texture) is served in requests
// of 8 lanes (4 lanes of 16-byte texels), a sample (SASS TEX, Op::TexSample) in quads of 4 lanes, and each request
// looks up the 32-byte sectors of its own texels: a sector two requests of one instruction share counts twice, the
// second time a hit, where a global load counts it once (validation/h100/texture_probe: a warp's 32 consecutive
// bytes fetched as bytes is 4 requests and 4 sectors, 1 miss; 32 floats sampled along a row, 8 requests and 8
// sectors, 4 misses). A request whose lanes all fall on border texels (kNoTexel) reads nothing and still counts one
// sector, a hit (validation/h100/texture_probe "border"). A sample's further texels (Op::TexTexels) add sectors to
// the requests of their quads, not requests.
#pragma once

#include <array>
#include <cstdint>

#include "warpscope/arch.hpp"
#include "warpscope/counts.hpp"
#include "warpscope/rules.hpp"
#include "warpscope/warp_access.hpp"

namespace warpscope::rules {

// Whether `a` is served request by request by the texture unit: a texture record on a 7.0+ L1TEX.
inline bool texture_by_requests(const WarpAccess& a, const ArchSpec& arch) {
  return is_texture(a.space) && arch.rules == RulesFamily::Volta;
}

// Lanes per request: 4 for a sample (a quad) or a fetch of 16-byte texels, 8 for other fetches.
inline unsigned texture_request_lanes(const WarpAccess& a) { return is_texture_sample(a.op) || a.size == 16 ? 4 : 8; }

struct TextureRequest {
  std::uint32_t lanes = 0;  // the request's active lanes on a texel
  bool empty = false;       // active lanes, all on border texels: counts a request and a sector, reads nothing
};
struct TextureRequests {
  unsigned count = 0;
  std::array<TextureRequest, kWarpSize / 4> requests{};
};

// The active lanes of `a` on a texel (not kNoTexel).
std::uint32_t lanes_on_texels(const WarpAccess& a);

// The requests of `a` in lane order; a TexTexels record's groups without a texel are none.
TextureRequests texture_requests(const WarpAccess& a);

// The counts of a request whose lanes all fell on border texels: one request, one sector.
InstructionCounts empty_texture_request();

// The counts of `a`, request by request, each through analyze_at_addresses (local_layout.hpp): requests add up,
// a TexTexels record's requests are 0.
InstructionCounts texture_counts(const WarpAccess& a, const ArchSpec& arch, const RulesOptions& options);

// `a` restricted to `lanes` (the op a load: the L1TEX looks a request up as a load's).
WarpAccess texture_request_access(const WarpAccess& a, std::uint32_t lanes);

}  // namespace warpscope::rules
