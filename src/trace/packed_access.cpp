// Packing a WarpAccess into its compact form, and the stride test that the
// native encoder shares with it.
#include "warpscope/packed_access.hpp"

#include <bit>

#include "trace/native_format.hpp"

namespace warpscope {

namespace trace {

bool lane_stride(const WarpAccess& r, std::int64_t& stride) {
  const std::uint32_t m = r.active.bits();
  stride = 0;
  const std::uint32_t rest = m & (m - 1);
  if (m == 0 || rest == 0) return true;  // no lane or one: stride 0
  const int first = std::countr_zero(m), second = std::countr_zero(rest);
  const std::uint64_t base = r.addr[static_cast<unsigned>(first)];
  const auto d = static_cast<std::int64_t>(r.addr[static_cast<unsigned>(second)] - base);
  const std::int64_t gap = second - first;
  if (d % gap != 0) return false;
  stride = d / gap;
  for (std::uint32_t left = rest; left != 0; left &= left - 1) {
    const int l = std::countr_zero(left);
    if (r.addr[static_cast<unsigned>(l)] !=
        base + static_cast<std::uint64_t>(stride) * static_cast<std::uint64_t>(l - first))
      return false;
  }
  return true;
}

}  // namespace trace

int pack(const WarpAccess& rec, PackedAccess& out, std::uint64_t* lanes) {
  const std::uint32_t m = rec.active.bits();
  out.pc = rec.pc;
  out.kernel = rec.kernel;
  out.cta = rec.cta;
  out.warp = rec.warp;
  out.sm = rec.sm;
  out.space = rec.space;
  out.op = rec.op;
  out.size = rec.size;
  out.cache = rec.cache;
  out.atomic_op = rec.atomic_op;
  out.mask = m;
  out.base = m == 0 ? 0 : rec.addr[static_cast<unsigned>(std::countr_zero(m))];
  out.lanes = nullptr;
  if (trace::lane_stride(rec, out.stride)) return 0;
  out.stride = 0;
  int n = 0;
  for (std::uint32_t left = m; left != 0; left &= left - 1)
    lanes[n++] = rec.addr[static_cast<unsigned>(std::countr_zero(left))];
  out.lanes = lanes;
  return n;
}

}  // namespace warpscope
