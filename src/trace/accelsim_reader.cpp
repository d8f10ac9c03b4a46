// Reads one Accel-Sim kernel trace (accelsim_reader.hpp; docs/TRACE_FORMAT.md
// "Accel-Sim traces"). Each memory instruction the model knows
// (LDG/STG/LDS/STS/LDL/STL/LD/ST, ATOM*/RED*, LDGSTS) becomes one warp record;
// other instructions are read, checked and skipped, and the summary names what
// was skipped. Format facts: reference/accelsim.md §1 (Accel-Sim's tracer_tool.cu
// writer and trace_parser.cc reader).
#include "trace/accelsim_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <vector>

#include "trace/line_reader.hpp"
#include "trace/trace_impl.hpp"
#include "tracer/demangle.hpp"

namespace warpscope::trace {
namespace {

using namespace accelsim;

class AccelSimReader final : public AccelSimKernelReader {
 public:
  // `id`: the kernel id to give this file's kernel (its place in a kernelslist).
  AccelSimReader(std::unique_ptr<ByteInput> in, std::uint32_t id, bool tables_first) : lines_(std::move(in)) {
    read_header(id);
    // The kernel's atomic operations and line numbers fill in as its lines are read
    // (each record carries its operation too). A writer needs them before the first
    // record, in the kernel's block: then read them ahead, in a quick pass over the
    // same bytes (TraceReadOptions::kernel_tables_first; not from standard input).
    if (tables_first)
      if (auto again = lines_.input().reopen()) scan_ahead(std::move(again));
  }

  bool next(WarpAccess& rec) override {
    std::string_view line;
    while (lines_.next(line)) {
      words(line, words_);
      const auto& w = words_;
      if (w.empty()) continue;
      if (w[0] == "#BEGIN_TB") {
        if (in_block_) lines_.fail("#BEGIN_TB inside a thread block (expected #END_TB first)");
        in_block_ = true;
        have_block_ = have_warp_ = false;
        continue;
      }
      if (w[0] == "#END_TB") {
        if (!in_block_) lines_.fail("#END_TB without #BEGIN_TB");
        close_warp();
        in_block_ = false;
        continue;
      }
      if (w[0][0] == '#') continue;  // a comment
      if (!in_block_) lines_.fail(fmt::format("expected #BEGIN_TB, found '{}'", shown(line)));
      if (w.size() >= 3 && w[0] == "thread" && w[1] == "block") {
        parse_block(line);
        continue;
      }
      if (w.size() >= 3 && w[0] == "warp" && w[1] == "=") {
        parse_warp(w);
        continue;
      }
      if (w.size() >= 3 && w[0] == "insts" && w[1] == "=") {
        if (!have_warp_ || counted_) lines_.fail("'insts =' must follow 'warp = N'");
        const auto n = number<std::uint64_t>(w[2], 10);
        if (!n || w.size() != 3) lines_.fail(fmt::format("expected 'insts = N', found '{}'", shown(line)));
        left_ = declared_ = *n;
        counted_ = true;
        continue;
      }
      if (w[0] == "cluster") continue;  // tracer v6: the block's cluster, not modelled
      if (!counted_) lines_.fail(fmt::format("an instruction before 'thread block =', 'warp =' and 'insts =': '{}'",
                                             shown(line)));
      if (left_ == 0)
        lines_.fail(fmt::format("warp {} of block {} declared {} instructions; this is one more", warp_, block_text_,
                                declared_));
      --left_;
      if (parse_instruction(w, rec)) {
        ++summary_.records;
        return true;
      }
    }
    if (in_block_) lines_.fail(fmt::format("the file ends inside block {} (no #END_TB): truncated?", block_text_));
    summary_.note = skipped_note(skipped_);
    return false;
  }

  const std::vector<KernelInfo>& kernels() const override { return kernels_; }
  // Stored bytes (compressed ones of a .traceg.xz), as file_size() counts them.
  std::uint64_t bytes_read() const override { return lines_.input().stored_offset(); }
  std::uint64_t file_size() const override { return lines_.input().size(); }
  TraceSummary summary() const override { return summary_; }
  // Memory instructions read but not turned into records, by base opcode.
  const SkipCounts& skipped() const override { return skipped_; }

 private:
  static std::string shown(std::string_view s) {
    return s.size() > 60 ? std::string(s.substr(0, 60)) + "..." : std::string(s);
  }

  // "-kernel name = NAME", "-grid dim = (x,y,z)", ... up to the first line that starts with '#'.
  void read_header(std::uint32_t id) {
    KernelInfo k;
    k.id = id;
    k.source = "accel-sim";
    bool named = false, grid = false, block = false;
    std::string_view line;
    for (;;) {
      if (!lines_.next(line))
        lines_.fail("the file ends in the kernel header (expected the '#traces format' line before the blocks)");
      if (line.empty()) continue;
      if (line[0] == '#') break;
      if (line[0] != '-') {
        if (lines_.line_number() == 1)
          lines_.fail("not a warpscope or Accel-Sim trace: an Accel-Sim kernel trace starts with '-kernel name = '");
        lines_.fail(fmt::format("expected a header line '-key = value', found '{}'", shown(line)));
      }
      const std::size_t eq = line.find(" = ");
      if (eq == std::string_view::npos) lines_.fail(fmt::format("expected '-key = value', found '{}'", shown(line)));
      const std::string_view key = line.substr(1, eq - 1), value = line.substr(eq + 3);
      if (key == "kernel name") {
        k.name = tracer::demangle(std::string(value));  // as warpscope trace records names
        named = true;
      } else if (key == "grid dim") {
        k.grid = dim(value, key);
        grid = true;
      } else if (key == "block dim") {
        k.block = dim(value, key);
        block = true;
      } else if (key == "shmem") {
        k.dynamic_shared = header_u32(value, key);  // static + dynamic: the tracer does not tell them apart
      } else if (key == "nregs") {
        k.registers = header_u32(value, key);
      } else if (key == "binary version") {
        const std::uint32_t v = header_u32(value, key);
        if (v != 0) k.arch = fmt::format("sm_{}", v);
      } else if (key == "shmem base_addr") {
        shared_base_ = header_u64(value, key);
      } else if (key == "local mem base_addr") {
        local_base_ = header_u64(value, key);
      } else if (key == "enable lineinfo") {
        line_numbers_ = header_u32(value, key) != 0;
      }
      // Other keys (kernel id, stream, nvbit and tracer versions) change nothing here.
    }
    if (!named || !grid || !block)
      lines_.fail(fmt::format("the kernel header lacks '-{}'", !named ? "kernel name" : !grid ? "grid dim" : "block dim"));
    kernels_.push_back(std::move(k));
  }

  // Every instruction line's PC, opcode and line number, leniently: the main
  // pass reports what is malformed.
  void scan_ahead(std::unique_ptr<ByteInput> in) {
    LineReader scan(std::move(in));
    KernelInfo& k = kernels_.front();
    std::string_view line;
    std::vector<std::string_view> w;
    bool body = false;
    try {
      while (scan.next(line)) {
        if (!body) {
          body = !line.empty() && line[0] == '#';
          continue;
        }
        if (line.empty() || !std::isxdigit(static_cast<unsigned char>(line[0]))) continue;
        // Without line numbers only atomics and generic LD / ST matter: most lines are passed over unsplit.
        const auto has = [&](std::string_view s) { return line.find(s) != std::string_view::npos; };
        if (!line_numbers_ && !has("ATOM") && !has("RED") && !has(" LD.") && !has(" LD ") && !has(" ST.") && !has(" ST "))
          continue;
        words(line, w);
        std::size_t i = line_numbers_ ? 1 : 0;
        if (w.size() < i + 5) continue;
        const auto pc = number<std::uint64_t>(w[i], 16);
        const auto dests = number<unsigned>(w[i + 2], 10);
        if (!pc || !dests || i + 3 + *dests >= w.size()) continue;
        note_instruction(k, *pc, w[i + 3 + *dests], line_numbers_ ? number<std::uint32_t>(w[0], 10) : std::nullopt);
      }
    } catch (const TraceError&) {
      // The main pass meets the same line and says what is wrong with it.
    }
  }

  // What a kernel's block holds of an instruction: its line, its atomic operation, whether it is a
  // generic-address load or store (LD / ST).
  static void note_instruction(KernelInfo& k, std::uint64_t pc, std::string_view opcode,
                               std::optional<std::uint32_t> line) {
    if (line) k.lines.try_emplace(pc, SourceLocation{"?", *line});
    if (starts_with(opcode, "ATOM") || starts_with(opcode, "RED"))
      if (const auto kind = memory_kind(opcode); kind && kind->atomic_op != AtomicOp::Unknown)
        k.atomics.try_emplace(pc, kind->atomic_op);
    if (starts_with(opcode, "LD") || starts_with(opcode, "ST"))
      if (const auto kind = memory_kind(opcode); kind && kind->generic && counted_as_generic(kind->op))
        k.generic_pcs.insert(pc);
  }

  Dim3 dim(std::string_view value, std::string_view key) {
    // "(x,y,z)"
    if (value.size() < 2 || value.front() != '(' || value.back() != ')')
      lines_.fail(fmt::format("-{}: expected (x,y,z), found '{}'", key, shown(value)));
    return triple(value.substr(1, value.size() - 2), fmt::format("-{}", key));
  }

  Dim3 triple(std::string_view text, std::string_view what) {
    std::uint32_t v[3] = {0, 0, 0};
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i) {
      const std::size_t comma = i < 2 ? text.find(',', at) : text.size();
      if (comma == std::string_view::npos) lines_.fail(fmt::format("{}: expected x,y,z, found '{}'", what, shown(text)));
      const auto n = number<std::uint32_t>(text.substr(at, comma - at), 10);
      if (!n) lines_.fail(fmt::format("{}: expected x,y,z, found '{}'", what, shown(text)));
      v[i] = *n;
      at = comma + 1;
    }
    return Dim3{v[0], v[1], v[2]};
  }

  std::uint32_t header_u32(std::string_view value, std::string_view key) {
    const auto v = number<std::uint32_t>(value, 10);
    if (!v) lines_.fail(fmt::format("-{}: expected a number, found '{}'", key, shown(value)));
    return *v;
  }
  std::uint64_t header_u64(std::string_view value, std::string_view key) {
    const auto v = number<std::uint64_t>(value, 16);
    if (!v) lines_.fail(fmt::format("-{}: expected a hex address, found '{}'", key, shown(value)));
    return *v;
  }

  void close_warp() {
    if (counted_ && left_ > 0)
      lines_.fail(fmt::format("warp {} of block {} declared {} instructions, {} are missing", warp_, block_text_,
                              declared_, left_));
    have_warp_ = counted_ = false;
  }

  void parse_block(std::string_view line) {
    close_warp();
    const std::size_t eq = line.find('=');
    std::string_view text = eq == std::string_view::npos ? std::string_view() : line.substr(eq + 1);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    const Dim3 b = triple(text, "thread block");
    const Dim3& g = kernels_.front().grid;
    if (b.x >= g.x || b.y >= g.y || b.z >= g.z)
      lines_.fail(fmt::format("thread block ({},{},{}) is outside the grid ({},{},{})", b.x, b.y, b.z, g.x, g.y, g.z));
    cta_ = static_cast<std::uint32_t>((static_cast<std::uint64_t>(b.z) * g.y + b.y) * g.x + b.x);
    block_text_ = fmt::format("({},{},{})", b.x, b.y, b.z);
    have_block_ = true;
  }

  void parse_warp(const std::vector<std::string_view>& w) {
    close_warp();
    if (!have_block_) lines_.fail("'warp =' before 'thread block ='");
    const auto n = number<std::uint16_t>(w[2], 10);
    const auto threads = kernels_.front().block.count();
    if (!n || w.size() != 3 || static_cast<std::uint64_t>(*n) * kWarpSize >= std::max<std::uint64_t>(threads, 1))
      lines_.fail(fmt::format("expected 'warp = N' with N below the block's {} warps", (threads + kWarpSize - 1) / kWarpSize));
    warp_ = *n;
    have_warp_ = true;
  }

  // One instruction line; true when it is a record (rec filled).
  bool parse_instruction(const std::vector<std::string_view>& w, WarpAccess& rec) {
    std::size_t i = line_numbers_ ? 1 : 0;  // [line_num]
    const auto field = [&](const char* what) {
      if (i >= w.size()) lines_.fail(fmt::format("the instruction ends before its {}", what));
      return w[i++];
    };
    const auto pc = number<std::uint64_t>(field("PC"), 16);
    if (!pc) lines_.fail(fmt::format("expected a hex PC, found '{}'", shown(w[i - 1])));
    const auto mask = number<std::uint32_t>(field("active mask"), 16);
    if (!mask) lines_.fail(fmt::format("expected an 8-digit hex active mask, found '{}'", shown(w[i - 1])));
    const auto registers = [&](const char* what) {
      const auto n = number<unsigned>(field(what), 10);
      if (!n || *n > 8) lines_.fail(fmt::format("expected the number of {} (0-8), found '{}'", what, shown(w[i - 1])));
      for (unsigned r = 0; r < *n; ++r) field("registers");
    };
    registers("destination registers");
    const std::string_view opcode = field("opcode");
    registers("source registers");
    note_instruction(kernels_.front(), *pc, opcode,
                     line_numbers_ ? number<std::uint32_t>(w[0], 10) : std::optional<std::uint32_t>());
    const auto width = number<unsigned>(field("memory width"), 10);
    if (!width) lines_.fail(fmt::format("expected the memory width in bytes, found '{}'", shown(w[i - 1])));
    if (*width == 0) return false;  // not a memory instruction
    const auto mode = number<unsigned>(field("address format"), 10);
    if (!mode || *mode > 2)
      lines_.fail(fmt::format("expected address format 0, 1 or 2, found '{}' (tracer v6 TMA lines are not read)",
                              shown(w[i - 1])));
    std::array<std::uint64_t, kWarpSize> addr{};
    if (*mode == 0) {
      for (int l = 0; l < kWarpSize; ++l)
        if ((*mask >> l) & 1u) {
          const auto a = number<std::uint64_t>(field("lane addresses"), 16);
          if (!a) lines_.fail(fmt::format("expected a hex address of lane {}, found '{}'", l, shown(w[i - 1])));
          addr[static_cast<unsigned>(l)] = *a;
        }
    } else {
      const auto base = number<std::uint64_t>(field("base address"), 16);
      if (!base) lines_.fail(fmt::format("expected a hex base address, found '{}'", shown(w[i - 1])));
      std::uint64_t a = *base;
      std::int64_t stride = 0;
      if (*mode == 1) {
        const auto s = number<std::int64_t>(field("stride"), 10);
        if (!s) lines_.fail(fmt::format("expected a decimal stride, found '{}'", shown(w[i - 1])));
        stride = *s;
      }
      bool first = true;
      for (int l = 0; l < kWarpSize; ++l) {
        if (((*mask >> l) & 1u) == 0) continue;
        if (!first) {
          if (*mode == 2) {
            const auto d = number<std::int64_t>(field("address deltas"), 10);
            if (!d) lines_.fail(fmt::format("expected the decimal delta of lane {}, found '{}'", l, shown(w[i - 1])));
            stride = *d;
          }
          a += static_cast<std::uint64_t>(stride);
        }
        addr[static_cast<unsigned>(l)] = a;
        first = false;
      }
    }
    const auto kind = memory_kind(opcode);
    if (!kind) {
      ++skipped_[std::string(opcode.substr(0, opcode.find('.')))];
      return false;
    }
    rec = WarpAccess{};
    rec.kernel = kernels_.front().id;
    rec.pc = *pc;
    rec.cta = cta_;
    rec.warp = warp_;
    rec.active = LaneMask(*mask);
    rec.op = kind->op;
    rec.cache = kind->cache;
    rec.atomic_op = kind->atomic_op;
    rec.size = static_cast<std::uint8_t>(access_bytes(opcode));
    rec.space = kind->space;
    if (is_matrix(rec.op)) {
      // NVBit gives every active lane's address register; the hardware reads the row addresses of
      // lanes 8m..8m+7 for matrix m and ignores the rest (PTX ISA ldmatrix). Rows are 16 bytes.
      rec.size = 16;
      rec.active = LaneMask(*mask & matrix_row_lanes(matrix_count(opcode)));
      // The other lanes carry no address (types.hpp: inactive lanes hold 0), as readers return them.
      for (int l = 0; l < kWarpSize; ++l)
        if (!rec.active.test(l)) addr[static_cast<unsigned>(l)] = 0;
    }
    if (kind->generic && *mask != 0) {
      const std::uint64_t first = addr[static_cast<unsigned>(std::countr_zero(*mask))];
      if (in_window(first, shared_base_)) rec.space = Space::Shared;
      else if (in_window(first, local_base_)) rec.space = Space::Local;
    }
    // Shared and local records hold offsets within their window.
    const std::uint64_t base = rec.space == Space::Shared ? shared_base_ : rec.space == Space::Local ? local_base_ : 0;
    for (int l = 0; l < kWarpSize; ++l) {
      auto& a = addr[static_cast<unsigned>(l)];
      if (((*mask >> l) & 1u) != 0 && base != 0 && in_window(a, base)) a -= base;
    }
    rec.addr = addr;
    if (rec.op == Op::AsyncCopy && !async_copy_record_ok(rec.space, rec.size, rec.cache))
      lines_.fail(fmt::format("{} at PC {:#x}: an LDGSTS copies 4, 8 or 16 bytes a lane (BYPASS: 16), not {}", opcode, *pc, rec.size));
    if (const int lane = first_misaligned_lane(rec); lane >= 0)
      lines_.fail(fmt::format("{} at PC {:#x}: {}", opcode, *pc,
                              misaligned_lane_message(lane, rec.addr[static_cast<unsigned>(lane)], rec.size)));
    return true;
  }

  static bool in_window(std::uint64_t a, std::uint64_t base) { return base != 0 && a >= base && a - base < kWindowBytes; }

  LineReader lines_;
  std::vector<std::string_view> words_;  // of the line being read
  std::vector<KernelInfo> kernels_;
  TraceSummary summary_;
  std::uint64_t shared_base_ = 0, local_base_ = 0;
  bool line_numbers_ = false;
  bool in_block_ = false, have_block_ = false, have_warp_ = false, counted_ = false;
  std::uint32_t cta_ = 0;
  std::uint16_t warp_ = 0;
  std::uint64_t left_ = 0, declared_ = 0;
  std::string block_text_;
  SkipCounts skipped_;
};

}  // namespace

std::unique_ptr<AccelSimKernelReader> AccelSimKernelReader::open(std::unique_ptr<ByteInput> in, std::uint32_t id,
                                                                 bool tables_first) {
  // Here, not in open_trace alone: a kernelslist may name such a file too.
  const std::string& name = in->name();
  if (name.size() >= 7 && name.compare(name.size() - 7, 7, ".tracez") == 0)
    throw TraceError(fmt::format("{}: Accel-Sim 2.0's .tracez container is not read; its text form is (.traceg, or "
                                 ".traceg.xz)",
                                 name),
                     0);
  return std::make_unique<AccelSimReader>(std::move(in), id, tables_first);
}

}  // namespace warpscope::trace
