// Records inside a native chunk (docs/TRACE_FORMAT.md "Records"): a tag byte
// saying which fields differ from the previous record, the PC as a delta
// from the kernel's previous PC, and the lane addresses as base + stride or
// base + per-lane deltas.
#include <algorithm>
#include <bit>

#include "trace/native_format.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {

void CodecState::reset() {
  kernel = 0;
  cta = 0;
  warp = 0;
  sm = -1;
  type_a = 0x40;
  type_b = 0;
  mask = 0xffffffffu;
  last_base.fill(0);
  if (++generation == 0) {  // wrapped: forget every stamp
    std::fill(pc_stamp.begin(), pc_stamp.end(), 0u);
    generation = 1;
  }
}

std::uint64_t& CodecState::new_pc_slot(std::uint32_t k) {
  if (k >= last_pc.size()) {
    last_pc.resize(std::size_t{k} + 1);
    pc_stamp.resize(std::size_t{k} + 1);
  }
  pc_stamp[k] = generation;
  last_pc[k] = 0;
  return last_pc[k];
}

namespace {

// Records reach the encoder through check_record(): sizes are powers of two up to 16.
std::uint8_t type_byte_a(const WarpAccess& r) {
  const auto size_log2 = static_cast<unsigned>(std::countr_zero(unsigned{r.size}));
  const Op op = r.op == Op::LoadMatrix || r.op == Op::AsyncCopy || r.op == Op::BulkLoad || r.op == Op::GmmaRead ||
                       is_texture_sample(r.op)
                   ? Op::Load
               : r.op == Op::StoreMatrix || r.op == Op::BulkStore || r.op == Op::StoreAsync ? Op::Store
                                                                                        : r.op;
  return static_cast<std::uint8_t>(static_cast<unsigned>(r.space) | static_cast<unsigned>(op) << 3 | size_log2 << 5);
}
std::uint8_t type_byte_b(const WarpAccess& r) {
  return static_cast<std::uint8_t>(static_cast<unsigned>(r.cache) | (is_matrix(r.op) ? kTypeMatrix : 0u) |
                                   (r.op == Op::AsyncCopy ? kTypeAsyncCopy : 0u) | (is_bulk(r.op) ? kTypeBulk : 0u) |
                                   (r.op == Op::GmmaRead ? kTypeGmma : 0u) | (r.op == Op::TexSample ? kTypeTexSample : 0u) |
                                   (r.op == Op::TexTexels ? kTypeTexTexels : 0u) | (r.op == Op::StoreAsync ? kTypeStoreAsync : 0u));
}

}  // namespace

std::uint8_t* RecordEncoder::encode(const WarpAccess& r, std::uint8_t* out) {
  CodecState& s = state_;
  const std::uint8_t a = type_byte_a(r);
  const std::uint8_t b = type_byte_b(r);
  std::uint8_t* tag = out++;
  unsigned bits = 0;
  if (r.kernel != s.kernel) {
    bits |= kTagKernel;
    out = put_varint(out, r.kernel);
    s.kernel = r.kernel;
  }
  if (r.cta != s.cta) {
    bits |= kTagCta;
    out = put_varint(out, r.cta);
    s.cta = r.cta;
  }
  if (r.warp != s.warp) {
    bits |= kTagWarp;
    out = put_varint(out, r.warp);
    s.warp = r.warp;
  }
  if (r.sm != s.sm) {
    bits |= kTagSm;
    out = put_varint(out, zigzag(r.sm));
    s.sm = r.sm;
  }
  if (a != s.type_a || b != s.type_b) {
    bits |= kTagType;
    *out++ = a;
    *out++ = b;
    s.type_a = a;
    s.type_b = b;
  }
  const std::uint32_t m = r.active.bits();
  if (m != s.mask) {
    bits |= kTagMask;
    for (int i = 0; i < 4; ++i) *out++ = static_cast<std::uint8_t>(m >> (8 * i));
    s.mask = m;
  }
  std::uint64_t& last_pc = s.pc_slot(r.kernel);
  out = put_varint(out, zigzag(static_cast<std::int64_t>(r.pc - last_pc)));
  last_pc = r.pc;

  AddrMode mode = AddrMode::None;
  if (m != 0) {
    const std::uint64_t base = r.addr[static_cast<unsigned>(std::countr_zero(m))];
    std::uint64_t& last_base = s.last_base[(r.pc >> 3) & 255u];
    out = put_varint(out, zigzag(static_cast<std::int64_t>(base - last_base)));
    last_base = base;
    std::int64_t stride = 0;
    const bool strided = lane_stride(r, stride);
    if (strided) {
      mode = AddrMode::Stride;
      out = put_varint(out, zigzag(stride));
    } else {
      mode = AddrMode::Deltas;
      std::uint64_t prev = base;
      for (std::uint32_t left = m & (m - 1); left != 0; left &= left - 1) {
        const std::uint64_t a_l = r.addr[static_cast<unsigned>(std::countr_zero(left))];
        out = put_varint(out, zigzag(static_cast<std::int64_t>(a_l - prev)));
        prev = a_l;
      }
    }
  }
  *tag = static_cast<std::uint8_t>(bits | static_cast<unsigned>(mode) << kAddrModeShift);
  return out;
}

void RecordDecoder::start(const std::uint8_t* data, std::size_t size, std::uint32_t kernel_count) {
  state_.reset();
  begin_ = p_ = data;
  end_ = data + size;
  kernel_count_ = kernel_count;
  error_ = "";
}

bool RecordDecoder::decode(WarpAccess& r) {
  PackedAccess packed;
  if (!decode(packed, lanes_.data())) return false;
  packed.expand(r);
  return true;
}

bool RecordDecoder::decode(PackedAccess& r, std::uint64_t* lanes) {
  CodecState& s = state_;
  if (p_ == end_) return fail("the chunk data ends before its last record");
  const std::uint8_t tag = *p_++;
  std::uint64_t v = 0;
  if (tag & kTagKernel) {
    if (!get_varint(p_, end_, v) || v > UINT32_MAX) return fail("bad kernel id");
    s.kernel = static_cast<std::uint32_t>(v);
  }
  if (s.kernel >= kernel_count_) return fail("record of a kernel not declared before it");
  if (tag & kTagCta) {
    if (!get_varint(p_, end_, v) || v > UINT32_MAX) return fail("bad CTA id");
    s.cta = static_cast<std::uint32_t>(v);
  }
  if (tag & kTagWarp) {
    if (!get_varint(p_, end_, v) || v > UINT16_MAX) return fail("bad warp id");
    s.warp = static_cast<std::uint16_t>(v);
  }
  if (tag & kTagSm) {
    if (!get_varint(p_, end_, v) || v > 0xffff) return fail("bad SM id");
    s.sm = static_cast<std::int16_t>(unzigzag(v));
  }
  if (tag & kTagType) {
    if (end_ - p_ < 2) return fail("the chunk data ends inside a record");
    const std::uint8_t a = p_[0], b = p_[1];
    if ((a & 7u) > static_cast<unsigned>(kLastSpace) || (a >> 5) > 4 ||
        (b & ~(kTypeMatrix | kTypeAsyncCopy | kTypeBulk | kTypeGmma)) > static_cast<unsigned>(CacheOp::Wt))
      return fail("bad space, size or cache operator code");
    // A texture sample (0x10) or its further texels (0x30): a texture ld with the default cache operator.
    if (is_texture(static_cast<Space>(a & 7u)) && (b & kTypeMatrix) != 0) {
      if (((a >> 3) & 3u) != 0 || (b != kTypeTexSample && b != kTypeTexTexels))
        return fail("a texture sample (tex/texels) record that is not a texture load with the default cache operator");
    } else if ((b & kTypeMatrix) != 0) {  // ldmatrix / stmatrix: shared ld / st of 16 bytes, default cache operator
      constexpr unsigned kSharedLd16 = static_cast<unsigned>(Space::Shared) | 4u << 5, kSharedSt16 = kSharedLd16 | 1u << 3;
      if ((a != kSharedLd16 && a != kSharedSt16) || b != kTypeMatrix)
        return fail("a matrix (ldsm/stsm) record that is not a 16-byte shared load or store");
    }
    // On a dshared record the bit is st.async (a store, the default cache operator); elsewhere cp.async: a global or
    // shared "load" of 4, 8 or 16 bytes, ca or cg (0x30 on a texture: a sample's texels, above).
    if ((a & 7u) == static_cast<unsigned>(Space::DShared) && (b & kTypeAsyncCopy) != 0) {
      if (((a >> 3) & 3u) != 1u || b != kTypeStoreAsync)
        return fail("an st.async (stas) record that is not a dshared store with the default cache operator");
    } else if ((b & kTypeAsyncCopy) != 0 && b != kTypeTexTexels) {
      const auto space = static_cast<Space>(a & 7u);
      const auto cache = static_cast<CacheOp>(b & ~kTypeAsyncCopy);
      if ((b & kTypeMatrix) != 0 || ((a >> 3) & 3u) != 0 || !async_copy_record_ok(space, 1u << (a >> 5), cache))
        return fail("a cp.async (ldgsts) record that is not a global or shared copy of 4, 8 or 16 bytes, ca or cg");
    }
    // cp.async.bulk: a global ld or st of 16 bytes with the default cache operator and no other flag.
    if ((b & kTypeBulk) != 0) {
      constexpr unsigned kGlobal16 = static_cast<unsigned>(Space::Global) | 4u << 5;
      if ((a & ~(1u << 3)) != kGlobal16 || b != kTypeBulk)
        return fail("a bulk-copy (tma_ld/tma_st) record that is not a 16-byte global load or store");
    }
    // wgmma: a shared ld of 16 bytes with the default cache operator and no other flag.
    if ((b & kTypeGmma) != 0) {
      constexpr unsigned kSharedLd16 = static_cast<unsigned>(Space::Shared) | 4u << 5;
      if (a != kSharedLd16 || b != kTypeGmma) return fail("a wgmma (gmma) record that is not a 16-byte shared load");
    }
    s.type_a = a;
    s.type_b = b;
    p_ += 2;
  }
  if (tag & kTagMask) {
    if (end_ - p_ < 4) return fail("the chunk data ends inside a record");
    s.mask = load_u32(p_);
    p_ += 4;
  }
  if (!get_varint(p_, end_, v)) return fail("bad PC delta");
  std::uint64_t& last_pc = s.pc_slot(s.kernel);
  last_pc += static_cast<std::uint64_t>(unzigzag(v));

  r.pc = last_pc;
  r.kernel = s.kernel;
  r.cta = s.cta;
  r.warp = s.warp;
  r.sm = s.sm;
  r.space = static_cast<Space>(s.type_a & 7u);
  r.op = static_cast<Op>((s.type_a >> 3) & 3u);
  if (r.space == Space::DShared && s.type_b == kTypeStoreAsync) {
    r.op = Op::StoreAsync;
  } else if (is_texture(r.space) && (s.type_b & kTypeMatrix) != 0) {
    r.op = s.type_b == kTypeTexTexels ? Op::TexTexels : Op::TexSample;
  } else {
    if (s.type_b & kTypeMatrix) r.op = r.op == Op::Load ? Op::LoadMatrix : Op::StoreMatrix;
    if (s.type_b & kTypeAsyncCopy) r.op = Op::AsyncCopy;
  }
  if (s.type_b & kTypeBulk) r.op = r.op == Op::Load ? Op::BulkLoad : Op::BulkStore;
  if (s.type_b & kTypeGmma) r.op = Op::GmmaRead;
  r.size = static_cast<std::uint8_t>(1u << (s.type_a >> 5));
  r.cache = static_cast<CacheOp>(s.type_b & ~(kTypeMatrix | kTypeAsyncCopy | kTypeBulk | kTypeGmma));
  const std::uint32_t m = s.mask;
  r.mask = m;
  r.stride = 0;
  r.lanes = nullptr;

  if (is_bulk(r.op)) {
    if (m != kBulkMask && m != kTensorRowMask) return fail("a bulk-copy (tma_ld/tma_st) record whose mask is not 7 or f");
    if (!decode_addresses(r, lanes, tag, m)) return false;
    if (m == kBulkMask && !bulk_lanes_ok(r.address(0), r.address(1), r.address(2)))
      return fail("a bulk-copy (tma_ld/tma_st) record whose addresses or byte count are not multiples of 16, or whose count is not 16 to 1 MiB");
    if (m == kTensorRowMask && !tensor_row_lanes_ok(r.address(0), r.address(1), r.address(2), r.address(3)))
      return fail("a tensor-copy row (tma_ld/tma_st, mask f) whose addresses are not multiples of 16, whose count is over 1 MiB, or whose lane 3 (flags) is not 0 to 31 (8 only with 4, 16 only with 1)");
    return true;
  }
  if (r.op == Op::GmmaRead) {
    if (m != kGmmaMask) return fail("a wgmma (gmma) record whose mask is not 3");
    if (!decode_addresses(r, lanes, tag, m)) return false;
    if (!gmma_lanes_ok(r.address(0), r.address(1)))
      return fail("a wgmma (gmma) record whose shared address is not a multiple of 16 or whose byte count is not a multiple of 128 up to 8704");
    return true;
  }
  return decode_addresses(r, lanes, tag, m);
}

bool RecordDecoder::decode_addresses(PackedAccess& r, std::uint64_t* lanes, unsigned tag, std::uint32_t m) {
  CodecState& s = state_;
  std::uint64_t v = 0;
  const auto mode = static_cast<AddrMode>(tag >> kAddrModeShift);
  if (m == 0) {
    if (mode != AddrMode::None) return fail("addresses for a record with no active lane");
    r.base = 0;
    return true;
  }
  if (mode != AddrMode::Stride && mode != AddrMode::Deltas) return fail("bad address mode");
  if (!get_varint(p_, end_, v)) return fail("bad base address");
  std::uint64_t& last_base = s.last_base[(r.pc >> 3) & 255u];
  const std::uint64_t base = last_base + static_cast<std::uint64_t>(unzigzag(v));
  last_base = base;
  r.base = base;
  // A bulk copy's lanes are a descriptor (its caller checks them), not addresses of r.size bytes.
  const std::uint64_t align_bits = is_bulk(r.op) || r.op == Op::GmmaRead ? 0u : r.size - 1u;
  if (mode == AddrMode::Stride) {
    if (!get_varint(p_, end_, v)) return fail("bad stride");
    r.stride = unzigzag(v);
    // Lanes sit at base + stride * k for the active lanes' k: a stride that is
    // not a multiple of the size may still land aligned (lanes 0 and 2 at +2).
    if (((base | static_cast<std::uint64_t>(r.stride)) & align_bits) != 0) return check_each_lane(r);
    return true;
  }
  lanes[0] = base;
  std::uint64_t prev = base;
  std::uint64_t any = base;
  std::size_t n = 1;
  for (std::uint32_t left = m & (m - 1); left != 0; left &= left - 1) {
    if (!get_varint(p_, end_, v)) return fail("bad lane address delta");
    prev += static_cast<std::uint64_t>(unzigzag(v));
    lanes[n++] = prev;
    any |= prev;
  }
  r.lanes = lanes;
  if ((any & align_bits) != 0) return check_each_lane(r);
  return true;
}

bool RecordDecoder::check_each_lane(const PackedAccess& r) {
  for (std::uint32_t left = r.mask; left != 0; left &= left - 1) {
    const int lane = std::countr_zero(left);
    if ((r.address(lane) & (r.size - 1u)) != 0) {
      detail_ = misaligned_lane_message(lane, r.address(lane), r.size);
      return fail(detail_.c_str());
    }
  }
  return true;
}

}  // namespace warpscope::trace
