// run_ptx: the interpreter as a trace source. Launches run one after another;
// each is interpreted a few thousand records at a time as the reader asks for
// them, so memory stays bounded whatever the kernel's length.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

#include "core/parse_number.hpp"
#include "core/splitmix.hpp"
#include "ptx/buffer_fill.hpp"
#include "ptx/interpreter.hpp"
#include "ptx/parser.hpp"
#include "ptx/tensor_map.hpp"
#include "report/output_file.hpp"
#include "tracer/demangle.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope {

// A buffer's bytes as its fill asks (ptx/buffer_fill.hpp).
void ptx::fill_buffer(ptx::DeviceMemory::Allocation& a, const PtxBuffer& b) {
  switch (b.fill) {
    case PtxBuffer::Fill::Zero: break;
    case PtxBuffer::Fill::Iota:
      for (std::uint64_t i = 0; i + 4 <= a.size; i += 4) {
        const auto v = static_cast<std::uint32_t>(i / 4);
        std::memcpy(a.bytes.data() + i, &v, 4);
      }
      break;
    case PtxBuffer::Fill::Random: {
      std::uint64_t s = b.seed;
      for (std::uint64_t i = 0; i < a.size; i += 8) {
        const std::uint64_t v = splitmix_next(s);
        std::memcpy(a.bytes.data() + i, &v, std::min<std::uint64_t>(8, a.size - i));
      }
      break;
    }
    case PtxBuffer::Fill::Index: {
      std::uint64_t s = b.seed;
      for (std::uint64_t i = 0; i + 4 <= a.size; i += 4) {
        const auto v = static_cast<std::uint32_t>(splitmix_next(s) % b.range);
        std::memcpy(a.bytes.data() + i, &v, 4);
      }
      break;
    }
    case PtxBuffer::Fill::File: case PtxBuffer::Fill::Bytes: break;
  }
}

namespace {

using ptx::Function;
using ptx::Module;
using ptx::Type;
using ptx::type_name;

// The name a user types: the demangled name up to its parameter list ("transpose_tiled<32>").
std::string short_name(const std::string& mangled) {
  const std::string d = tracer::demangle(mangled);
  if (d == mangled) return d;
  int depth = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == '<') ++depth;
    else if (d[i] == '>') --depth;
    else if (d[i] == '(' && depth == 0) {
      std::string s = d.substr(0, i);
      // "void transpose_tiled<32>", "void tile_copy<0, 1>": a template's return type comes first (the
      // last space before the template's '<'; the arguments have spaces of their own).
      if (const auto lt = s.find('<'); lt != std::string::npos)
        if (const auto sp = s.rfind(' ', lt); sp != std::string::npos) s = s.substr(sp + 1);
      return s;
    }
  }
  return d;
}

// The parameters whose value the kernel uses as a texture object's handle: loaded from the parameter into a register
// that a tex instruction names (nvcc's ld.param.u64 %rd1, [k_param_0]; ... tex.2d ... [%rd1, {..}]).
std::set<std::int32_t> texture_params(const Function& f) {
  std::set<std::int32_t> handles, out;
  for (const auto& in : f.code)
    if (in.op == ptx::Opcode::Tex && in.operands.size() > 1 && in.operands[1].reg >= 0) handles.insert(in.operands[1].reg);
  for (const auto& in : f.code)
    if (in.op == ptx::Opcode::Ld && in.space == ptx::StateSpace::Param && in.operands.size() > 1 && in.operands[0].kind == ptx::OperandKind::Reg &&
        handles.count(in.operands[0].reg) != 0 && in.operands[1].symbol >= 0)
      out.insert(in.operands[1].symbol);
  return out;
}

std::string signature(const Module& m, const Function& f) {
  std::vector<std::string> params;
  const std::set<std::int32_t> textures = texture_params(f);
  for (auto s : f.params) {
    const auto& v = m.symbols[static_cast<std::size_t>(s)];
    params.push_back(textures.count(s) != 0                                       ? fmt::format("{}: tex(...)", type_name(v.type))
                     : v.type == Type::B8 && v.size == ptx::kTensorMapBytes ? std::string("b8[128]: tmap(...)")
                     : v.type == Type::B8 && v.size != 1                  ? fmt::format("b8[{}]", v.size)
                                                                          : std::string(type_name(v.type)));
  }
  const std::string user = short_name(f.name);
  // A kernel compiled with a cluster shape (__cluster_dims__) runs in clusters of it: the grid must be a multiple.
  const std::string cluster =
      f.cluster[0] > 0 ? fmt::format("  cluster ({},{},{})", f.cluster[0], f.cluster[1], f.cluster[2]) : std::string();
  return fmt::format("{}({}){}{}", user, fmt::join(params, ", "), cluster, user == f.name ? "" : fmt::format("  [{}]", f.name));
}

std::uint32_t find_kernel(const Module& m, const std::string& name) {
  std::vector<std::uint32_t> matches;
  for (std::uint32_t i = 0; i < m.functions.size(); ++i) {
    const Function& f = m.functions[i];
    if (!f.is_kernel || f.is_extern) continue;
    if (f.name == name) return i;
    if (short_name(f.name) == name) matches.push_back(i);
  }
  if (matches.size() == 1) return matches[0];
  std::vector<std::string> kernels;
  for (const auto& f : m.functions)
    if (f.is_kernel && !f.is_extern) kernels.push_back(short_name(f.name));
  if (matches.size() > 1) {
    std::vector<std::string> names;
    for (auto i : matches) names.push_back(m.functions[i].name);
    throw InputError(fmt::format("{}: '{}' names {} kernels (overloads); give the PTX name: {}", m.path, name, matches.size(), fmt::join(names, ", ")));
  }
  if (kernels.empty()) throw InputError(fmt::format("{}: no kernel (.entry) in this file", m.path));
  if (kernels.size() > 12) {
    kernels.resize(12);
    kernels.push_back("...");
  }
  throw InputError(fmt::format("{}: no kernel named '{}'; its kernels: {}", m.path, name, fmt::join(kernels, ", ")));
}


// The bytes of one argument for a parameter of `type` and `size` bytes.
void pack_argument(const Module& m, const Function& k, std::size_t index, const std::string& arg, ptx::ModuleState& state,
                   std::vector<std::uint8_t>& out) {
  const auto& v = m.symbols[static_cast<std::size_t>(k.params[index])];
  const std::string where = fmt::format("kernel {} argument {} ('{}', a .{} parameter)", short_name(k.name), index + 1, arg, type_name(v.type));
  // The argument's first n bytes into the parameter's place.
  const auto place = [&](const void* bytes, std::size_t n) {
    const std::size_t at = static_cast<std::size_t>(v.offset);
    if (out.size() < at + v.size) out.resize(at + v.size, 0);
    std::memcpy(out.data() + at, bytes, std::min<std::size_t>(n, v.size));
  };
  // A tensor map (a CUtensorMap by value, docs/PTX.md "Tensor maps").
  if (std::string_view(arg).starts_with("tmap(")) {
    if (v.size != ptx::kTensorMapBytes)
      throw InputError(fmt::format("{}: a tensor map fills a 128-byte parameter (a CUtensorMap), this one has {} bytes", where, v.size));
    try {
      const ptx::TensorMap map = ptx::parse_tensor_map(arg, [&](std::string_view name) -> std::optional<std::uint64_t> {
        if (const auto* a = state.memory.allocation(std::string(name))) return a->base;
        return std::nullopt;
      });
      const auto bytes = ptx::encode_tensor_map(map);
      place(bytes.data(), bytes.size());
      return;
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", where, e.what()));
    }
  }
  // A texture object (a cudaTextureObject_t: a 64-bit handle, docs/PTX.md "Textures").
  if (std::string_view(arg).starts_with("tex(")) {
    if (v.size != 8)
      throw InputError(fmt::format("{}: a texture object is a 64-bit handle (cudaTextureObject_t), this parameter has {} bytes", where, v.size));
    try {
      state.textures.push_back(ptx::make_texture(arg, state.memory));
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", where, e.what()));
    }
    const std::uint64_t handle = state.textures.size();
    place(&handle, 8);
    return;
  }
  // A small struct by value (a __half2, a char4) takes its bytes as one integer, little endian.
  if (v.type == Type::B8 && v.size == ptx::kTensorMapBytes)
    throw InputError(fmt::format("{}: a 128-byte parameter is a CUtensorMap: give it as tmap(BUFFER, TYPE, (DIMS), (BOX)[, ...]) "
                                 "(docs/PTX.md \"Tensor maps\")", where));
  if (v.type == Type::B8 && v.size > 8)
    throw InputError(fmt::format("{}: parameters passed by value as {} bytes (structs over 8 bytes) are not supported", where, v.size));
  std::uint64_t bits = 0;
  const int bytes = static_cast<int>(v.size);
  // A buffer, or a buffer plus a byte offset.
  std::string name = arg;
  std::int64_t offset = 0;
  if (auto plus = arg.find_first_of("+-"); plus != std::string::npos && plus > 0 && !std::isdigit(static_cast<unsigned char>(arg[0]))) {
    name = arg.substr(0, plus);
    const auto n = parse_plain_u64(arg.substr(plus + 1));
    if (!n) throw InputError(fmt::format("{}: expected BUFFER+BYTES", where));
    offset = arg[plus] == '-' ? -static_cast<std::int64_t>(*n) : static_cast<std::int64_t>(*n);
  }
  if (const auto* a = state.memory.allocation(name)) {
    if (bytes != 8) throw InputError(fmt::format("{}: a buffer is a 64-bit address, the parameter has {} bytes", where, bytes));
    bits = a->base + static_cast<std::uint64_t>(offset);
  } else if (!arg.empty() && (std::isalpha(static_cast<unsigned char>(arg[0])) || arg[0] == '_') && arg != "nan" && arg != "inf") {
    std::vector<std::string> names;
    for (const auto& al : state.memory.allocations()) names.push_back(al.name);
    throw InputError(fmt::format("{}: no buffer named '{}' ({})", where, name,
                                 names.empty() ? std::string("declare buffers with --buffer NAME=SIZE") : "buffers: " + fmt::format("{}", fmt::join(names, ", "))));
  } else if (v.type == Type::F32 || v.type == Type::F64) {
    double d = 0;
    auto [p, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), d);
    if (ec != std::errc() || p != arg.data() + arg.size()) throw InputError(fmt::format("{}: expected a number", where));
    bits = v.type == Type::F32 ? std::bit_cast<std::uint32_t>(static_cast<float>(d)) : std::bit_cast<std::uint64_t>(d);
  } else {
    const bool negative = !arg.empty() && arg[0] == '-';
    const auto n = parse_plain_u64(negative ? arg.substr(1) : arg);
    if (!n) throw InputError(fmt::format("{}: expected an integer or a buffer name", where));
    bits = negative ? ~*n + 1 : *n;
    const bool fits = bytes >= 8 || (negative ? *n <= (1ull << (bytes * 8 - 1)) : *n < (1ull << (bytes * 8)));
    if (!fits) throw InputError(fmt::format("{}: does not fit in {} bytes", where, bytes));
  }
  place(&bits, 8);
}

class PtxRunSource : public TraceSource {
 public:
  PtxRunSource(std::string text, const std::string& path, const std::vector<PtxBuffer>& buffers,
               const std::vector<PtxLaunch>& launches, const PtxRunOptions& options)
      : module_(ptx::parse_module(text, path)), state_(module_), options_(options) {
    for (const auto& b : buffers) {
      if (state_.memory.allocation(b.name)) throw InputError(fmt::format("--buffer {}: a buffer or .global variable of that name exists", b.name));
      std::vector<char> file;
      std::uint64_t size = b.bytes;
      if (b.fill == PtxBuffer::Fill::File) {
        std::ifstream in(b.file, std::ios::binary);
        if (!in) throw InputError(fmt::format("--buffer {}=@{}: cannot open the file", b.name, b.file));
        file.assign(std::istreambuf_iterator<char>(in), {});
        if (file.empty()) throw InputError(fmt::format("--buffer {}: {} is empty", b.name, b.file));
        if (size == 0) size = file.size();
        if (file.size() > size)
          throw InputError(fmt::format("--buffer {}: {} has {} bytes, more than the buffer's {}", b.name, b.file, file.size(), size));
        // A buffer larger than its file repeats the file.
        const std::size_t n = file.size();
        file.resize(static_cast<std::size_t>(size));
        for (std::size_t i = n; i < file.size(); ++i) file[i] = file[i - n];
      } else if (b.fill == PtxBuffer::Fill::Bytes) {
        file.assign(b.data.begin(), b.data.end());
        if (size == 0) size = file.size();
        if (file.size() > size || size == 0) throw InputError(fmt::format("buffer {}: {} bytes of data for {} bytes", b.name, file.size(), size));
      }
      state_.memory.allocate(b.name, size);
      auto* a = state_.memory.allocation(b.name);
      ptx::fill_buffer(*a, b);
      std::copy(file.begin(), file.end(), a->bytes.begin());
    }
    for (const auto& d : options_.dumps)
      if (!state_.memory.allocation(d.buffer))
        throw InputError(fmt::format("--dump {}={}: no buffer or .global variable {}", d.buffer, d.path, d.buffer));
    for (const auto& l : launches) {
      Prepared p;
      p.function = find_kernel(module_, l.kernel);
      const Function& k = module_.functions[p.function];
      if (l.args.size() != k.params.size())
        throw InputError(fmt::format("--launch {}: the kernel takes {} arguments ({}), {} given", l.kernel, k.params.size(),
                                     signature(module_, k), l.args.size()));
      p.params.assign(k.param_bytes, 0);
      for (std::size_t i = 0; i < l.args.size(); ++i) pack_argument(module_, k, i, l.args[i], state_, p.params);
      p.launch = l;
      total_ctas_ += l.grid.count();
      prepared_.push_back(std::move(p));
    }
  }

  bool next(WarpAccess& rec) override {
    while (pos_ == buf_.size()) {
      buf_.clear();
      pos_ = 0;
      if (!current_) {
        if (next_launch_ >= prepared_.size()) {
          finish_note();
          write_dumps();
          return false;
        }
        start(next_launch_++);
      }
      if (!current_->run(buf_, 4096)) {
        warp_insts_ += current_->warp_instructions();
        thread_insts_ += current_->thread_instructions();
        done_ctas_ += prepared_[next_launch_ - 1].launch.grid.count();
        current_.reset();
      }
    }
    rec = buf_[pos_++];
    ++records_;
    return true;
  }

  const std::vector<KernelInfo>& kernels() const override { return kernels_; }
  // Progress: CTAs started of all launches' (`analyze`'s progress bar counts bytes of a file).
  std::uint64_t bytes_read() const override { return done_ctas_ + (current_ ? current_->ctas_started() : 0); }
  std::uint64_t file_size() const override { return total_ctas_; }
  TraceSummary summary() const override {
    TraceSummary s;
    s.records = records_;
    s.note = note_;
    return s;
  }

 private:
  struct Prepared {
    std::uint32_t function = 0;
    std::vector<std::uint8_t> params;
    PtxLaunch launch;
  };

  void start(std::size_t i) {
    const Prepared& p = prepared_[i];
    ptx::LaunchParams lp;
    lp.function = p.function;
    lp.grid = p.launch.grid;
    lp.block = p.launch.block;
    lp.dynamic_shared = p.launch.dynamic_shared;
    lp.cluster = p.launch.cluster;
    lp.params = p.params;
    lp.kernel_id = static_cast<std::uint32_t>(i);
    lp.max_warp_instructions = options_.max_warp_instructions;
    current_ = std::make_unique<ptx::Interpreter>(state_, std::move(lp));
    const Function& k = module_.functions[p.function];
    KernelInfo info;
    info.id = static_cast<std::uint32_t>(i);
    info.name = tracer::demangle(k.name);
    info.grid = p.launch.grid;
    info.block = p.launch.block;
    info.dynamic_shared = p.launch.dynamic_shared;
    info.static_shared = current_->static_shared_bytes();
    info.arch = module_.target;
    info.source = "warpscope run (PTX interpreter)";
    info.lines = current_->lines();
    info.atomics = current_->atomics();
    info.generic_pcs = current_->generic_pcs();
    wmma_ = wmma_ || current_->moves_wmma_fragments();
    kernels_.push_back(std::move(info));
  }

  void write_dumps() {
    for (const auto& d : options_.dumps) {
      const auto& bytes = state_.memory.allocation(d.buffer)->bytes;
      report::write_file_atomically(d.path, std::string(bytes.begin(), bytes.end()));
    }
    options_.dumps.clear();  // once
  }

  void finish_note() {
    if (!note_.empty()) return;
    // The memory instructions of a wmma load or store are ptxas's for sm_80 and later (validation/h100/
    // wmma_probe); sm_75's differ (HMMA.1688, LDSM.x2), and that is worth saying where they ran.
    note_ = fmt::format("PTX interpreter: {} launches, {} warp instructions ({} thread instructions){}", prepared_.size(),
                        warp_insts_, thread_insts_,
                        wmma_ ? "; wmma loads and stores issue the memory instructions ptxas makes for sm_80 and later" : "");
  }

  Module module_;
  ptx::ModuleState state_;
  PtxRunOptions options_;
  std::vector<Prepared> prepared_;
  std::size_t next_launch_ = 0;
  std::unique_ptr<ptx::Interpreter> current_;
  std::vector<WarpAccess> buf_;
  std::size_t pos_ = 0;
  std::vector<KernelInfo> kernels_;
  bool wmma_ = false;  // a launched kernel moves wmma fragments
  std::uint64_t records_ = 0, warp_insts_ = 0, thread_insts_ = 0, total_ctas_ = 0, done_ctas_ = 0;
  std::string note_;
};

}  // namespace

std::vector<std::string> ptx_kernel_signatures(std::string_view text, const std::string& path) {
  const Module m = ptx::parse_module(text, path);
  std::vector<std::string> out;
  for (const auto& f : m.functions)
    if (f.is_kernel && !f.is_extern) out.push_back(signature(m, f));
  return out;
}

std::unique_ptr<TraceSource> run_ptx(std::string ptx, const std::string& path, const std::vector<PtxBuffer>& buffers,
                                     const std::vector<PtxLaunch>& launches, const PtxRunOptions& options) {
  return std::make_unique<PtxRunSource>(std::move(ptx), path, buffers, launches, options);
}

}  // namespace warpscope
