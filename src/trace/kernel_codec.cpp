// Kernel block bodies (docs/TRACE_FORMAT.md "Kernel block"): the launch
// description and the optional PC -> file:line table, with a file-name table.
#include <fmt/format.h>
#include <zstd.h>

#include <string_view>
#include <unordered_map>

#include "trace/native_format.hpp"

namespace warpscope::trace {

std::uint32_t max_chunk_body_bytes() {
  return kChunkCountsBytes + static_cast<std::uint32_t>(ZSTD_compressBound(kMaxChunkBytes));
}

namespace {

void put_string(std::string& out, const std::string& s, const char* what) {
  if (s.size() > kMaxStringBytes)
    throw Error(fmt::format("cannot write a trace: kernel {} is {} bytes long (the limit is {})", what, s.size(),
                            kMaxStringBytes));
  put_varint(out, s.size());
  out += s;
}

// Reads a kernel (or atomic operations) block body; every failure names the
// file and the block.
class KernelCursor {
 public:
  KernelCursor(const std::uint8_t* p, std::size_t n, const std::string& file, std::uint64_t offset,
               const char* block = "kernel block")
      : p_(p), end_(p + n), file_(file), offset_(offset), block_(block) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw TraceError(fmt::format("{}: bad {} at byte {}: {}", file_, block_, offset_, what), offset_);
  }
  std::uint8_t byte(const char* what) {
    if (p_ == end_) fail(fmt::format("expected a byte for {}, found the end of the block", what));
    return *p_++;
  }
  std::uint64_t u64(const char* what) {
    std::uint64_t v = 0;
    if (!get_varint(p_, end_, v)) fail(fmt::format("expected a varint for {}, found the end of the block", what));
    return v;
  }
  std::uint32_t u32(const char* what) {
    const std::uint64_t v = u64(what);
    if (v > UINT32_MAX) fail(fmt::format("{} is {}, more than 32 bits", what, v));
    return static_cast<std::uint32_t>(v);
  }
  std::string str(const char* what) {
    const std::uint64_t n = u64(what);
    if (n > kMaxStringBytes) fail(fmt::format("{} is {} bytes long (the limit is {})", what, n, kMaxStringBytes));
    if (n > left()) fail(fmt::format("{} is {} bytes long but only {} bytes are left", what, n, left()));
    std::string s(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
    p_ += n;
    return s;
  }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  // The PC of table entry i: `pc` plus the next delta, PCs strictly increasing.
  std::uint64_t next_pc(std::uint64_t pc, std::uint64_t i, const char* entry) {
    const std::uint64_t delta = u64("PC delta");
    if (i > 0 && delta == 0) fail(fmt::format("{} {}: PCs must increase", entry, i));
    if (pc + delta < pc) fail(fmt::format("{} {}: PC overflows 64 bits", entry, i));
    return pc + delta;
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
  const std::string& file_;
  std::uint64_t offset_;
  const char* block_;
};

}  // namespace

std::string encode_kernel(const KernelInfo& k) {
  std::string out;
  put_varint(out, k.id);
  put_string(out, k.name, "name");
  for (std::uint32_t v : {k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z, k.dynamic_shared,
                          k.static_shared, k.registers})
    put_varint(out, v);
  put_string(out, k.arch, "arch");
  put_string(out, k.gpu, "gpu");
  put_string(out, k.source, "source");

  std::vector<const std::string*> files;
  std::unordered_map<std::string_view, std::uint32_t> file_index;
  for (const auto& [pc, loc] : k.lines) {
    if (file_index.emplace(loc.file, static_cast<std::uint32_t>(files.size())).second) files.push_back(&loc.file);
  }
  put_varint(out, files.size());
  for (const std::string* f : files) put_string(out, *f, "source file name");
  put_varint(out, k.lines.size());
  std::uint64_t prev = 0;
  for (const auto& [pc, loc] : k.lines) {
    put_varint(out, pc - prev);
    put_varint(out, file_index.at(loc.file));
    put_varint(out, loc.line);
    prev = pc;
  }
  if (out.size() > kMaxKernelBlockBytes)
    throw Error(fmt::format("cannot write a trace: the description of kernel {} takes {} bytes (the limit is {})",
                            k.id, out.size(), kMaxKernelBlockBytes));
  return out;
}

KernelInfo decode_kernel(const std::uint8_t* data, std::size_t size, const std::string& file, std::uint64_t offset) {
  KernelCursor c(data, size, file, offset);
  KernelInfo k;
  k.id = c.u32("kernel id");
  k.name = c.str("kernel name");
  k.grid = {c.u32("grid.x"), c.u32("grid.y"), c.u32("grid.z")};
  k.block = {c.u32("block.x"), c.u32("block.y"), c.u32("block.z")};
  k.dynamic_shared = c.u32("dynamic shared size");
  k.static_shared = c.u32("static shared size");
  k.registers = c.u32("register count");
  k.arch = c.str("arch");
  k.gpu = c.str("gpu");
  k.source = c.str("source");
  const std::uint64_t nfiles = c.u64("file count");
  if (nfiles > c.left())
    c.fail(fmt::format("{} source files cannot fit in the {} bytes left", nfiles, c.left()));
  std::vector<std::string> files;
  files.reserve(static_cast<std::size_t>(nfiles));
  for (std::uint64_t i = 0; i < nfiles; ++i) files.push_back(c.str("source file name"));
  const std::uint64_t nlines = c.u64("line count");
  if (nlines > c.left() / 3)
    c.fail(fmt::format("{} line entries cannot fit in the {} bytes left", nlines, c.left()));
  std::uint64_t pc = 0;
  for (std::uint64_t i = 0; i < nlines; ++i) {
    pc = c.next_pc(pc, i, "line entry");
    const std::uint64_t f = c.u64("file index");
    if (f >= nfiles) c.fail(fmt::format("line entry {}: file index {} but {} files", i, f, nfiles));
    const std::uint32_t line = c.u32("line number");
    k.lines.emplace_hint(k.lines.end(), pc, SourceLocation{files[static_cast<std::size_t>(f)], line});
  }
  if (c.left() != 0) c.fail(fmt::format("{} unexpected bytes after the line table", c.left()));
  return k;
}

std::string encode_atomics(const KernelInfo& k) {
  std::string out;
  put_varint(out, k.id);
  std::size_t known = 0;
  for (const auto& [pc, op] : k.atomics) known += op != AtomicOp::Unknown ? 1 : 0;
  put_varint(out, known);
  std::uint64_t prev = 0;
  for (const auto& [pc, op] : k.atomics) {
    if (op == AtomicOp::Unknown) continue;  // what a missing entry says
    put_varint(out, pc - prev);
    out += static_cast<char>(op);
    prev = pc;
  }
  if (out.size() > kMaxOptionalBlockBytes)
    throw Error(fmt::format("cannot write a trace: the atomic operations of kernel {} take {} bytes (the limit is {})",
                            k.id, out.size(), kMaxOptionalBlockBytes));
  return out;
}

std::uint32_t decode_atomics(const std::uint8_t* data, std::size_t size, const std::string& file,
                             std::uint64_t offset, std::map<std::uint64_t, AtomicOp>& into) {
  KernelCursor c(data, size, file, offset, "atomic operations block");
  const std::uint32_t id = c.u32("kernel id");
  const std::uint64_t n = c.u64("entry count");
  if (n > c.left() / 2) c.fail(fmt::format("{} entries cannot fit in the {} bytes left", n, c.left()));
  std::uint64_t pc = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    pc = c.next_pc(pc, i, "entry");
    const std::uint8_t code = c.byte("atomic operation");
    if (code == 0) c.fail(fmt::format("entry {}: operation code 0 (unknown is never stored)", i));
    // A code from a newer writer is an atomic all the same: read as `other`.
    into.emplace_hint(into.end(), pc, code < kAtomicOpCount ? static_cast<AtomicOp>(code) : AtomicOp::Other);
  }
  if (c.left() != 0) c.fail(fmt::format("{} unexpected bytes after the entries", c.left()));
  return id;
}

std::string encode_generic_pcs(const KernelInfo& k) {
  std::string out;
  put_varint(out, k.id);
  put_varint(out, k.generic_pcs.size());
  std::uint64_t prev = 0;
  for (const std::uint64_t pc : k.generic_pcs) {
    put_varint(out, pc - prev);
    prev = pc;
  }
  if (out.size() > kMaxOptionalBlockBytes)
    throw Error(fmt::format("cannot write a trace: the generic-address PCs of kernel {} take {} bytes (the limit is {})",
                            k.id, out.size(), kMaxOptionalBlockBytes));
  return out;
}

std::uint32_t decode_generic_pcs(const std::uint8_t* data, std::size_t size, const std::string& file, std::uint64_t offset,
                                 std::set<std::uint64_t>& into) {
  KernelCursor c(data, size, file, offset, "generic-address PCs block");
  const std::uint32_t id = c.u32("kernel id");
  const std::uint64_t n = c.u64("PC count");
  if (n > c.left()) c.fail(fmt::format("{} PCs cannot fit in the {} bytes left", n, c.left()));
  std::uint64_t pc = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    pc = c.next_pc(pc, i, "PC");
    into.insert(into.end(), pc);
  }
  if (c.left() != 0) c.fail(fmt::format("{} unexpected bytes after the PCs", c.left()));
  return id;
}

std::string encode_code_size(const KernelInfo& k) {
  std::string out;
  put_varint(out, k.id);
  put_varint(out, k.code_bytes);
  return out;
}

std::uint32_t decode_code_size(const std::uint8_t* data, std::size_t size, const std::string& file,
                               std::uint64_t offset, std::uint64_t& code_bytes) {
  KernelCursor c(data, size, file, offset, "code size block");
  const std::uint32_t id = c.u32("kernel id");
  code_bytes = c.u32("code size");
  if (code_bytes == 0) c.fail("code size 0 (an unknown size is never stored)");
  if (c.left() != 0) c.fail(fmt::format("{} unexpected bytes after the code size", c.left()));
  return id;
}

void fix_checksums(std::string& bytes) {
  std::size_t pos = kFileHeaderBytes;
  while (pos <= bytes.size() && bytes.size() - pos >= kBlockHeaderBytes) {
    auto* h = reinterpret_cast<std::uint8_t*>(bytes.data() + pos);
    const std::uint32_t body = load_u32(h + 4);
    if (bytes.size() - pos - kBlockHeaderBytes < body) break;
    const std::uint64_t sum = fnv1a(h + kBlockHeaderBytes, body, fnv1a(h, 8));
    for (int i = 0; i < 8; ++i) h[8 + i] = static_cast<std::uint8_t>(sum >> (8 * i));
    pos += kBlockHeaderBytes + body;
  }
}

}  // namespace warpscope::trace
