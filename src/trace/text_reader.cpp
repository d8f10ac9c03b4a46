// Reads the text form (docs/TRACE_FORMAT.md "Text form"): the `wstrace 1`
// header, then `kernel`, `loc`, `atomic` and `rec` lines. Strict: unknown keys,
// repeated keys and out-of-range values are errors naming line and column.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <charconv>
#include <optional>

#include "trace/text_lexer.hpp"
#include "trace/text_syntax.hpp"
#include "trace/trace_impl.hpp"

namespace warpscope::trace {
namespace {

std::string shown(std::string_view v) {
  std::string s;
  append_string(s, v.substr(0, 40));
  return v.size() > 40 ? s + "..." : s;
}

class TextReader final : public TraceSource {
 public:
  explicit TextReader(std::unique_ptr<ByteInput> in) : lex_(std::move(in)) { read_header(); }

  bool next(WarpAccess& rec) override {
    while (lex_.next_line()) {
      const auto& t = lex_.tokens();
      if (t.empty()) continue;
      const std::string_view what = t[0].has_key ? std::string_view() : t[0].value;
      if (what == "rec") {
        parse_record(rec);
        after_kernel_ = false;
        ++summary_.records;
        return true;
      }
      if (what == "kernel") {
        parse_kernel();
        after_kernel_ = true;
      } else if (what == "loc") {
        parse_loc();
      } else if (what == "atomic") {
        parse_atomic();
      } else if (what == "generic") {
        parse_generic();
      } else {
        lex_.fail(t[0].column, fmt::format("expected kernel, loc, atomic, generic or rec, found {}",
                                           shown(t[0].has_key ? t[0].key : t[0].value)));
      }
    }
    return false;
  }

  const std::vector<KernelInfo>& kernels() const override { return kernels_; }
  std::uint64_t bytes_read() const override { return lex_.bytes_consumed(); }
  std::uint64_t file_size() const override { return lex_.input().size(); }
  TraceSummary summary() const override { return summary_; }

 private:
  void read_header() {
    const std::string expected = fmt::format("{} {}", kTextHeader, kTraceFormatVersion);
    for (;;) {
      bool more = false;
      try {
        more = lex_.next_line();
      } catch (const TraceError& e) {
        if (lex_.line_number() > 1) throw;
        throw TraceError(fmt::format("{} (not a warpscope trace? a text trace starts with '{}', a native one with "
                                     "the bytes 89 57 53 54)", e.what(), expected), e.offset());
      }
      if (!more)
        lex_.fail(1, fmt::format("not a warpscope trace: the file is empty (a text trace starts with '{}', a "
                                 "native trace with the bytes 89 57 53 54)", expected));
      const auto& t = lex_.tokens();
      if (t.empty()) continue;
      if (t[0].has_key || t[0].value != kTextHeader)
        lex_.fail(t[0].column, fmt::format("not a warpscope trace: expected the header '{}' (or the native magic "
                                           "89 57 53 54, or an Accel-Sim trace's '-kernel name'), found {}",
                                           expected, shown(lex_.line())));
      if (t.size() != 2 || t[1].has_key) lex_.fail(t[0].column, fmt::format("expected the header '{}'", expected));
      const auto v = parse_text_u64(t[1].value);
      if (!v) lex_.fail(t[1].column, fmt::format("expected a version number, found {}", shown(t[1].value)));
      if (*v != kTraceFormatVersion)
        lex_.fail(t[1].column, fmt::format("unsupported text trace version {} (this warpscope reads version {})",
                                           *v, kTraceFormatVersion));
      return;
    }
  }

  std::uint64_t number(const TextToken& t, std::uint64_t max, const char* what) const {
    const auto v = parse_text_u64(t.value);
    if (!v) lex_.fail(t.value_column, fmt::format("expected {} (decimal or 0x hex), found {}", what, shown(t.value)));
    if (*v > max) lex_.fail(t.value_column, fmt::format("{} {} is out of range (at most {})", what, *v, max));
    return *v;
  }

  Dim3 dim3(const TextToken& t) const {
    std::uint32_t d[3] = {1, 1, 1};
    std::string_view rest = t.value;
    for (int i = 0;; ++i) {
      const std::size_t comma = rest.find(',');
      TextToken part = t;
      part.value = rest.substr(0, comma);
      part.value_column = t.value_column + static_cast<std::size_t>(part.value.data() - t.value.data());
      if (i == 3) lex_.fail(part.value_column, "expected at most 3 dimensions x,y,z");
      d[i] = static_cast<std::uint32_t>(number(part, UINT32_MAX, "a dimension"));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    return {d[0], d[1], d[2]};
  }

  // Marks key `index` seen; a repeat is an error.
  // The index of `tok`'s key among a `what` line's keys; an error naming them all otherwise.
  template <std::size_t N>
  unsigned field(const TextToken& tok, const std::string_view (&keys)[N], std::string_view what) const {
    unsigned key = 0;
    while (key < N && (!tok.has_key || keys[key] != tok.key)) ++key;
    if (key == N)
      lex_.fail(tok.column, fmt::format("unknown {} field {} (known: {})", what,
                                        shown(tok.has_key ? tok.key : tok.value), fmt::join(keys, ", ")));
    return key;
  }

  void once(unsigned& seen, unsigned index, const TextToken& t) const {
    if (seen & (1u << index)) lex_.fail(t.column, fmt::format("{} given twice", t.key));
    seen |= 1u << index;
  }

  void parse_kernel() {
    const auto& t = lex_.tokens();
    if (t.size() < 2 || t[1].has_key) lex_.fail(t[0].column + 7, "expected the kernel id after 'kernel'");
    const std::uint64_t id = number(t[1], UINT32_MAX, "a kernel id");
    if (id != kernels_.size())
      lex_.fail(t[1].value_column,
                fmt::format("kernel id {}, expected {} (kernels are numbered 0, 1, 2, ... in order)", id,
                            kernels_.size()));
    KernelInfo k;
    k.id = static_cast<std::uint32_t>(id);
    static constexpr std::string_view kKeys[] = {"name", "grid", "block",  "dyn_smem",  "static_smem",
                                                 "regs", "arch", "gpu",    "source",    "code_bytes"};
    unsigned seen = 0;
    for (std::size_t i = 2; i < t.size(); ++i) {
      const TextToken& tok = t[i];
      const unsigned key = field(tok, kKeys, "kernel");
      once(seen, key, tok);
      switch (key) {
        case 0: k.name = tok.value; break;
        case 1: k.grid = dim3(tok); break;
        case 2: k.block = dim3(tok); break;
        case 3: k.dynamic_shared = static_cast<std::uint32_t>(number(tok, UINT32_MAX, "a byte count")); break;
        case 4: k.static_shared = static_cast<std::uint32_t>(number(tok, UINT32_MAX, "a byte count")); break;
        case 5: k.registers = static_cast<std::uint32_t>(number(tok, UINT32_MAX, "a register count")); break;
        case 6: k.arch = tok.value; break;
        case 7: k.gpu = tok.value; break;
        case 8: k.source = tok.value; break;
        default: k.code_bytes = number(tok, UINT32_MAX, "a byte count"); break;
      }
    }
    kernels_.push_back(std::move(k));
  }

  // The keys a `loc` or `atomic` line shares: it follows its kernel line (`follow` otherwise), k=
  // names that kernel, pc= the instruction; keys from index 2 on go to `value(key, token)`; every key
  // must be given (`needs` otherwise). Returns the PC.
  template <std::size_t N, class Value>
  std::uint64_t parse_pc_line(std::string_view what, const std::string_view (&keys)[N], const char* follow,
                              const char* needs, Value&& value) {
    const auto& t = lex_.tokens();
    if (!after_kernel_) lex_.fail(t[0].column, follow);
    const KernelInfo& k = kernels_.back();
    unsigned seen = 0;
    std::uint64_t pc = 0;
    for (std::size_t i = 1; i < t.size(); ++i) {
      const TextToken& tok = t[i];
      const unsigned key = field(tok, keys, what);
      once(seen, key, tok);
      if (key == 0 && number(tok, UINT32_MAX, "a kernel id") != k.id)
        lex_.fail(tok.value_column, fmt::format("this {} line follows kernel {}", what, k.id));
      if (key == 1) pc = number(tok, UINT64_MAX, "a PC");
      if (key >= 2) value(key, tok);
    }
    if (seen != (1u << N) - 1) lex_.fail(t[0].column, needs);
    return pc;
  }

  void parse_loc() {
    static constexpr std::string_view kKeys[] = {"k", "pc", "file", "line"};
    SourceLocation loc;
    const std::uint64_t pc = parse_pc_line(
        "loc", kKeys, "a loc line must follow its kernel line (or its other loc, atomic and generic lines)",
        "a loc line needs k=, pc=, file= and line=", [&](unsigned key, const TextToken& tok) {
          if (key == 2) loc.file = tok.value;
          if (key == 3) loc.line = static_cast<std::uint32_t>(number(tok, UINT32_MAX, "a line number"));
        });
    KernelInfo& k = kernels_.back();
    if (!k.lines.emplace(pc, std::move(loc)).second)
      lex_.fail(lex_.tokens()[0].column, fmt::format("PC {:#x} of kernel {} already has a loc line", pc, k.id));
  }

  // `atomic k=ID pc=PC op=NAME`: the operation of the atomic at PC.
  void parse_atomic() {
    static constexpr std::string_view kKeys[] = {"k", "pc", "op"};
    AtomicOp op = AtomicOp::Unknown;
    const std::uint64_t pc = parse_pc_line(
        "atomic", kKeys, "an atomic line must follow its kernel line (or its loc, atomic and generic lines)",
        "an atomic line needs k=, pc= and op=", [&](unsigned, const TextToken& tok) {
          const auto parsed = parse_atomic_op(tok.value);
          if (!parsed || *parsed == AtomicOp::Unknown)
            lex_.fail(tok.value_column, fmt::format("expected an atomic operation (add, min, max, inc, dec, and, or, "
                                                    "xor, exch, cas, popc.inc, other), found {}", shown(tok.value)));
          op = *parsed;
        });
    KernelInfo& k = kernels_.back();
    if (!k.atomics.emplace(pc, op).second)
      lex_.fail(lex_.tokens()[0].column, fmt::format("PC {:#x} of kernel {} already has an atomic line", pc, k.id));
  }

  // `generic k=ID pc=PC`: the load or store at PC takes a generic address (SASS LD / ST).
  void parse_generic() {
    static constexpr std::string_view kKeys[] = {"k", "pc"};
    const std::uint64_t pc = parse_pc_line("generic", kKeys,
                                           "a generic line must follow its kernel line (or its loc, atomic and generic lines)",
                                           "a generic line needs k= and pc=", [](unsigned, const TextToken&) {});
    KernelInfo& k = kernels_.back();
    if (!k.generic_pcs.insert(pc).second)
      lex_.fail(lex_.tokens()[0].column, fmt::format("PC {:#x} of kernel {} already has a generic line", pc, k.id));
  }

  void parse_record(WarpAccess& r) {
    const auto& t = lex_.tokens();
    r = WarpAccess{};
    static constexpr std::string_view kKeys[] = {"k", "pc", "cta", "warp", "sm", "mask", "addr"};
    unsigned seen = 0, positional = 0;
    const TextToken* addr = nullptr;
    for (std::size_t i = 1; i < t.size(); ++i) {
      const TextToken& tok = t[i];
      if (!tok.has_key) {
        positional_field(r, positional++, tok);
        continue;
      }
      unsigned key = 0;
      while (key < std::size(kKeys) && kKeys[key] != tok.key) ++key;
      if (key == std::size(kKeys))
        lex_.fail(tok.column, fmt::format("unknown record field {} (known: k, pc, cta, warp, sm, mask, addr, and "
                                          "space op size cache without a key)", shown(tok.key)));
      once(seen, key, tok);
      switch (key) {
        case 0: r.kernel = static_cast<std::uint32_t>(number(tok, UINT32_MAX, "a kernel id")); break;
        case 1: r.pc = number(tok, UINT64_MAX, "a PC"); break;
        case 2: r.cta = static_cast<std::uint32_t>(number(tok, UINT32_MAX, "a CTA id")); break;
        case 3: r.warp = static_cast<std::uint16_t>(number(tok, UINT16_MAX, "a warp id")); break;
        case 4: {
          const auto v = parse_text_i64(tok.value);
          if (!v || *v < INT16_MIN || *v > INT16_MAX)
            lex_.fail(tok.value_column, fmt::format("expected an SM id from -1 to 32767, found {}", shown(tok.value)));
          r.sm = static_cast<std::int16_t>(*v);
          break;
        }
        case 5: r.active = LaneMask(mask(tok)); break;
        default: addr = &tok; break;
      }
    }
    if (positional < 3)
      lex_.fail(lex_.line().size() + 1, "a record needs its space, op and size (e.g. 'global ld 4'), then an "
                                        "optional cache operator");
    if (is_matrix(r.op) && !matrix_record_ok(r.space, r.size, r.cache))
      lex_.fail(t[0].column, fmt::format("a {} record is a 16-byte shared access with the default cache operator "
                                         "(e.g. 'shared {} 16')", to_string(r.op), to_string(r.op)));
    if (r.op == Op::AsyncCopy && !async_copy_record_ok(r.space, r.size, r.cache))
      lex_.fail(t[0].column, "an ldgsts (cp.async) record is a global read or a shared write of 4, 8 or 16 bytes "
                             "with cache operator ca or cg, cg of 16 bytes only (e.g. 'global ldgsts 16 cg')");
    if (r.kernel >= kernels_.size())
      lex_.fail(t[0].column, fmt::format("record of kernel {}, but only {} kernel lines come before it", r.kernel,
                                         kernels_.size()));
    if (is_bulk(r.op) && r.active.bits() != kBulkMask && r.active.bits() != kTensorRowMask) lex_.fail(t[0].column, kBulkRecordRule);
    if (r.op == Op::GmmaRead && !gmma_fields_ok(r.space, r.size, r.cache, r.active.bits())) lex_.fail(t[0].column, kGmmaRecordRule);
    if (!sample_record_ok(r.space, r.op, r.cache)) lex_.fail(t[0].column, kSampleRecordRule);
    if (!async_store_record_ok(r.space, r.op, r.cache)) lex_.fail(t[0].column, kAsyncStoreRecordRule);
    if (r.active.none()) {
      if (addr != nullptr && addr->value != "-")
        lex_.fail(addr->value_column, "mask=0 has no active lane: leave addr out (or write addr=-)");
      return;
    }
    if (addr == nullptr) lex_.fail(lex_.line().size() + 1, "expected addr= (the record has active lanes)");
    addresses(r, *addr);
    if (is_bulk(r.op) && !bulk_record_ok(r)) lex_.fail(t[0].column, kBulkRecordRule);
    if (r.op == Op::GmmaRead && !gmma_record_ok(r)) lex_.fail(t[0].column, kGmmaRecordRule);
  }

  std::uint32_t mask(const TextToken& t) const {
    std::string_view v = t.value;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) v.remove_prefix(2);
    std::uint32_t m = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), m, 16);
    if (v.empty() || v.size() > 8 || ec != std::errc() || end != v.data() + v.size())
      lex_.fail(t.value_column, fmt::format("expected a mask of 1 to 8 hex digits, found {}", shown(t.value)));
    return m;
  }

  void positional_field(WarpAccess& r, unsigned index, const TextToken& t) const {
    switch (index) {
      case 0: {
        const auto s = parse_space(t.value);
        if (!s)
          lex_.fail(t.column, fmt::format("expected an address space (global, local, shared, const, texture), "
                                          "found {}", shown(t.value)));
        r.space = *s;
        return;
      }
      case 1: {
        const auto o = parse_op(t.value);
        if (!o) lex_.fail(t.column, fmt::format("expected an operation (ld, st, atom, red, ldsm, stsm, ldgsts, tma_ld, tma_st), found {}", shown(t.value)));
        r.op = *o;
        return;
      }
      case 2: {
        const auto v = parse_text_u64(t.value);
        if (!v || *v > 16 || !std::has_single_bit(*v))
          lex_.fail(t.column, fmt::format("expected a size of 1, 2, 4, 8 or 16 bytes, found {}", shown(t.value)));
        r.size = static_cast<std::uint8_t>(*v);
        return;
      }
      case 3: {
        const auto c = parse_cache_op(t.value);
        if (!c)
          lex_.fail(t.column, fmt::format("expected a cache operator (default, ca, cg, cs, lu, cv, nc, wb, wt), "
                                          "found {}", shown(t.value)));
        r.cache = *c;
        return;
      }
      default:
        lex_.fail(t.column, fmt::format("unexpected {}: a record has four fields without a key (space op size "
                                        "cache)", shown(t.value)));
    }
  }

  void addresses(WarpAccess& r, const TextToken& t) const {
    const std::string_view v = t.value;
    const std::uint32_t m = r.active.bits();
    if (v.find(',') == std::string_view::npos) {  // BASE[+STRIDE|-STRIDE]: lane i at BASE + STRIDE * i
      const std::size_t sign = v.find_first_of("+-", 1);
      const auto base = parse_text_u64(v.substr(0, sign));
      const auto stride = sign == std::string_view::npos ? std::optional<std::int64_t>(0)
                                                         : parse_text_i64(v.substr(sign));
      if (!base || !stride)
        lex_.fail(t.value_column, fmt::format("expected BASE+STRIDE (lane i at BASE + STRIDE*i) or 32 comma-separated "
                                              "addresses, found {}", shown(v)));
      for (int l = 0; l < kWarpSize; ++l)
        r.addr[static_cast<unsigned>(l)] =
            ((m >> l) & 1u) ? *base + static_cast<std::uint64_t>(*stride) * static_cast<std::uint64_t>(l) : 0;
      if (const int l = first_misaligned_lane(r); l >= 0)
        lex_.fail(t.value_column, misaligned_lane_message(l, r.addr[static_cast<unsigned>(l)], r.size));
      return;
    }
    std::string_view rest = v;
    for (int l = 0; l < kWarpSize; ++l) {
      const std::size_t comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      const std::size_t col = t.value_column + static_cast<std::size_t>(item.data() - v.data());
      if (r.active.test(l)) {
        const auto a = parse_text_u64(item);
        if (!a) lex_.fail(col, fmt::format("expected the address of active lane {}, found {}", l, shown(item)));
        r.addr[static_cast<unsigned>(l)] = *a;
        if (!is_bulk(r.op) && r.op != Op::GmmaRead && (*a & (r.size - 1u)) != 0) lex_.fail(col, misaligned_lane_message(l, *a, r.size));
      } else if (item != "-") {
        lex_.fail(col, fmt::format("lane {} is not in mask={:08x}: write '-' for it", l, m));
      }
      if (comma == std::string_view::npos) {
        if (l != kWarpSize - 1) lex_.fail(col, fmt::format("expected 32 addresses, found {}", l + 1));
        return;
      }
      rest.remove_prefix(comma + 1);
    }
    lex_.fail(t.value_column + (v.size() - rest.size()) - 1, "expected 32 addresses, found more");
  }

  TextLexer lex_;
  std::vector<KernelInfo> kernels_;
  bool after_kernel_ = false;
  TraceSummary summary_;
};

}  // namespace

std::unique_ptr<TraceSource> make_text_reader(std::unique_ptr<ByteInput> in) {
  return std::make_unique<TextReader>(std::move(in));
}

}  // namespace warpscope::trace
