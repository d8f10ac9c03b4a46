// tex for the interpreter (PTX ISA 9.7.10.3): a warp's texture fetches through texture objects
// (ptx/texture_object.hpp). Integer coordinates fetch one texel (SASS TLD); float coordinates sample (SASS TEX), with
// linear filtering blending 2 (1D) or 2 x 2 texels. Records (types.hpp, docs/TRACE_FORMAT.md "Textures"): a fetch is
// one `texture ld` record of the texels; a sample is a `texture tex` record of each lane's first texel inside the
// texture, then `texture texels` records of its others, each lane only where the texel's 32-byte sector is new to
// its quad (the texture unit looks a quad's sectors up once each: validation/h100/texture_probe "bilinear").
// Lanes that read only border texels have kNoTexel in the first record.
#include <algorithm>

#include "ptx/interpreter_impl.hpp"
#include "ptx/texture_object.hpp"

namespace warpscope::ptx {

void Interpreter::Impl::texture_fetch(Cta& c, Warp& w, Frame& f, std::uint32_t pc, const Instruction& in, std::uint32_t exec) {
  const Operand& d = in.operands[0];
  const Operand& at = in.operands[1];
  const bool sample = in.type2 == Type::F32;
  std::array<std::array<std::uint64_t, 4>, kWarpSize> texels{};  // per lane its footprint's addresses, kNoTexel: none
  std::array<unsigned, kWarpSize> count{};
  unsigned texel_bytes = 0;
  int pitched = -1;  // whether the lanes' texture is pitch-linear 2D memory (types.hpp Space::TexturePitch)
  for (std::uint32_t bits = exec; bits; bits &= bits - 1) {
    const int l = std::countr_zero(bits);
    const auto lane = static_cast<std::size_t>(l);
    const std::uint64_t handle = reg(f, at.reg, l);
    if (handle == 0 || handle > state.textures.size())
      fault(w, in, l, fmt::format("texture object {} is not one the run script made (pass cudaTextureObject_t arguments as "
                                  "tex(...): docs/PTX.md \"Textures\")", handle));
    const TextureObject& t = state.textures[handle - 1];
    if (t.dims != in.vec)
      fault(w, in, l, fmt::format("a {}d fetch from the {}d texture {}", in.vec, t.dims, t.text));
    if (t.float_result() != (in.type == Type::F32))
      fault(w, in, l, fmt::format("a .{} result from the texture {}, which returns {}", type_name(in.type), t.text,
                                  t.float_result() ? ".f32" : "integers (.u32 or .s32)"));
    if (texel_bytes != 0 && texel_bytes != t.texel_bytes())
      fault(w, in, l, "lanes of one instruction fetch texels of different sizes (textures of different formats)");
    texel_bytes = t.texel_bytes();
    const int is_pitched = t.dims == 2 && !t.array ? 1 : 0;
    if (pitched >= 0 && pitched != is_pitched)
      fault(w, in, l, "lanes of one instruction fetch from pitched and other textures");
    pitched = is_pitched;
    const auto coord = [&](unsigned k) { return reg(f, at.regs[k], l); };
    TexFootprint fp;
    if (sample) {
      fp = sample_footprint(t, std::bit_cast<float>(static_cast<std::uint32_t>(coord(0))),
                            in.vec > 1 ? std::bit_cast<float>(static_cast<std::uint32_t>(coord(1))) : 0.0f);
    } else {
      fp = fetch_footprint(t, static_cast<std::int32_t>(coord(0)), in.vec > 1 ? static_cast<std::int32_t>(coord(1)) : 0);
    }
    std::array<float, 4> sum{};
    std::array<std::uint32_t, 4> bits_out{};
    for (unsigned k = 0; k < fp.count; ++k) {
      if (!fp.inside[k]) continue;  // border: the texel reads as 0
      const std::uint64_t a = t.texel_address(static_cast<std::uint64_t>(fp.x[k]), static_cast<std::uint64_t>(fp.y[k]));
      Place p;
      locate(c, w, f, in, l, StateSpace::Global, a, texel_bytes, p);
      texels[lane][count[lane]++] = p.record_addr;
      for (unsigned ch = 0; ch < 4; ++ch) {
        if (t.float_result()) sum[ch] += fp.weight[k] * texel_float(t, p.p, ch);
        else bits_out[ch] = texel_bits(t, p.p, ch);
      }
    }
    for (unsigned ch = 0; ch < 4; ++ch)
      if (d.regs[ch] >= 0) set(f, d.regs[ch], l, t.float_result() ? std::bit_cast<std::uint32_t>(sum[ch]) : bits_out[ch]);
  }

  WarpAccess a = record_of(c, w, f, pc);
  a.space = pitched == 1 ? Space::TexturePitch : Space::Texture;
  a.op = sample ? Op::TexSample : Op::Load;
  a.size = static_cast<std::uint8_t>(texel_bytes == 0 ? 4 : texel_bytes);
  a.active = LaneMask(exec);
  for (std::uint32_t bits = exec; bits; bits &= bits - 1) {
    const auto l = static_cast<std::size_t>(std::countr_zero(bits));
    a.addr[l] = count[l] > 0 ? texels[l][0] : kNoTexel;
  }
  out->push_back(a);
  if (!sample) return;
  // Further texels: per quad, the sectors its records have named so far.
  std::array<std::array<std::uint64_t, 16>, kWarpSize / 4> named{};
  std::array<unsigned, kWarpSize / 4> named_count{};
  const auto remember = [&](std::size_t quad, std::uint64_t sector) {
    auto& s = named[quad];
    if (std::find(s.begin(), s.begin() + named_count[quad], sector) == s.begin() + named_count[quad]) s[named_count[quad]++] = sector;
  };
  for (std::size_t l = 0; l < kWarpSize; ++l)
    if (count[l] > 0) remember(l / 4, texels[l][0] / 32);
  for (unsigned k = 1; k < 4; ++k) {
    WarpAccess more = a;
    more.op = Op::TexTexels;
    std::uint32_t lanes = 0;
    for (std::size_t l = 0; l < kWarpSize; ++l) {
      if (count[l] <= k) continue;
      const auto& s = named[l / 4];
      const std::uint64_t sector = texels[l][k] / 32;
      if (std::find(s.begin(), s.begin() + named_count[l / 4], sector) != s.begin() + named_count[l / 4]) continue;
      lanes |= 1u << l;
      more.addr[l] = texels[l][k];
    }
    if (lanes == 0) continue;
    for (std::size_t l = 0; l < kWarpSize; ++l)
      if ((lanes >> l) & 1u) remember(l / 4, more.addr[l] / 32);
    more.active = LaneMask(lanes);
    for (std::size_t l = 0; l < kWarpSize; ++l)
      if (((lanes >> l) & 1u) == 0) more.addr[l] = 0;
    out->push_back(more);
  }
}

}  // namespace warpscope::ptx
