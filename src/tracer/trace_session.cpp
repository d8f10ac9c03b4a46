#include "tracer/trace_session.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "warpscope/error.hpp"

namespace warpscope::tracer {
namespace {

// Reads a payload front to back; throws naming the message and what was short.
class Cursor {
 public:
  Cursor(std::string_view data, const char* what, std::uint64_t offset) : data_(data), what_(what), offset_(offset) {}
  void raw(void* out, std::size_t n) {
    need(n);
    std::memcpy(out, data_.data(), n);
    data_.remove_prefix(n);
  }
  std::uint32_t u32() {
    std::uint32_t v;
    raw(&v, 4);
    return v;
  }
  std::uint64_t u64() {
    std::uint64_t v;
    raw(&v, 8);
    return v;
  }
  std::string_view blob() {
    const std::uint32_t n = u32();
    need(n);
    auto s = data_.substr(0, n);
    data_.remove_prefix(n);
    return s;
  }
  bool empty() const { return data_.empty(); }

 private:
  void need(std::size_t n) const {
    if (data_.size() < n)
      throw InputError(fmt::format("tracer stream byte {}: {} message is truncated ({} bytes left, {} needed)", offset_,
                                   what_, data_.size(), n));
  }
  std::string_view data_;
  const char* what_;
  std::uint64_t offset_;
};

Op op_from_flags(std::uint8_t flags) {
  const bool r = flags & kFlagRead, w = flags & kFlagWrite;
  if (r && w) return Op::Atomic;
  return w ? Op::Store : Op::Load;
}

}  // namespace

TraceSession::TraceSession(TraceSink& sink, Disassembler& disassembler, Warn warn)
    : sink_(sink), disassembler_(disassembler), warn_(std::move(warn)) {}

void TraceSession::feed(const char* data, std::size_t size) {
  pending_.append(data, size);
  std::size_t pos = 0;
  while (pending_.size() - pos >= 8) {
    std::uint32_t type, len;
    std::memcpy(&type, pending_.data() + pos, 4);
    std::memcpy(&len, pending_.data() + pos + 4, 4);
    if (type < static_cast<std::uint32_t>(MessageType::Hello) || type > static_cast<std::uint32_t>(MessageType::Bye))
      throw InputError(fmt::format("tracer stream byte {}: unknown message type {} (expected 1-8)", offset_, type));
    if (len > kMaxMessageBytes)
      throw InputError(fmt::format("tracer stream byte {}: message of {} bytes exceeds the {} byte limit", offset_, len,
                                   kMaxMessageBytes));
    if (pending_.size() - pos - 8 < len) break;
    handle(static_cast<MessageType>(type), std::string_view(pending_).substr(pos + 8, len));
    pos += 8 + std::size_t{len};
    offset_ += 8 + std::uint64_t{len};
  }
  pending_.erase(0, pos);
}

bool TraceSession::finish() { return pending_.empty(); }

void TraceSession::handle(MessageType type, std::string_view payload) {
  if (!hello_ && type != MessageType::Hello)
    throw InputError(fmt::format("tracer stream byte {}: expected a Hello message first", offset_));
  switch (type) {
    case MessageType::Hello: {
      Cursor c(payload, "Hello", offset_);
      const auto version = c.u32();
      if (version != kProtocolVersion)
        throw InputError(fmt::format("tracer stream byte {}: injection library speaks protocol {}, this warpscope {}",
                                     offset_, version, kProtocolVersion));
      pid_ = c.u32();
      hello_ = true;
      return;
    }
    case MessageType::Device: {
      Cursor c(payload, "Device", offset_);
      const auto ordinal = c.u32();
      Device d;
      d.cc_major = c.u32();
      d.cc_minor = c.u32();
      d.sms = c.u32();
      d.name = std::string(c.blob());
      devices_[ordinal] = d;
      return;
    }
    case MessageType::Module: {
      Cursor c(payload, "Module", offset_);
      const auto handle = c.u64();
      Module m;
      m.cubin = std::string(c.blob());
      modules_[handle] = std::move(m);
      return;
    }
    case MessageType::Launch: return on_launch(payload);
    case MessageType::Records: return on_records(payload);
    case MessageType::LaunchEnd: return on_launch_end(payload);
    case MessageType::Note: {
      Cursor c(payload, "Note", offset_);
      warn_(std::string(c.blob()));
      return;
    }
    case MessageType::Bye: bye_ = true; return;
  }
}

TraceSession::Module& TraceSession::decoded_module(std::uint64_t handle) {
  Module& m = modules_[handle];
  if (m.decoded) return m;
  m.decoded = true;
  if (m.cubin.empty()) {
    warn_(fmt::format("module {:#x} was launched from but never loaded: no SASS, cache operators unknown", handle));
    return m;
  }
  if (auto text = disassembler_.listing(m.cubin)) {
    try {
      m.sass = parse_sass_listing(*text);
    } catch (const InputError& e) {
      warn_(fmt::format("could not read the disassembly of module {:#x} ({}): cache operators unknown", handle, e.what()));
    }
  } else {
    warn_("nvdisasm not found or failed: cache operators and atomic-vs-reduction unknown (records keep the "
          "default cache operator)");
  }
  if (auto text = disassembler_.resources(m.cubin)) m.resources = parse_resource_usage(*text);
  m.cubin.clear();
  m.cubin.shrink_to_fit();
  return m;
}

void TraceSession::on_launch(std::string_view payload) {
  Cursor c(payload, "Launch", offset_);
  LaunchHead h;
  c.raw(&h, sizeof h);
  const std::string mangled(c.blob());
  LaunchStats stats;
  stats.launch = h.launch;
  stats.name = demangle(mangled);
  stats.traced = h.traced != 0;
  if (active_.count(h.launch))
    throw InputError(fmt::format("tracer stream byte {}: launch {} announced twice", offset_, h.launch));
  ActiveLaunch a;
  a.stats = launches_.size();
  a.function_pc = h.function_pc;
  if (stats.traced) {
    Module& m = decoded_module(h.module);
    a.sass = m.sass.function(mangled);
    if (a.sass != nullptr && !a.sass->unrecorded.empty() && warned_unrecorded_.insert(mangled).second) {
      std::string what;
      for (const auto& [op, n] : a.sass->unrecorded) what += fmt::format("{}{} x{}", what.empty() ? "" : ", ", op, n);
      warn_(fmt::format("kernel {}: its SASS has memory instructions the tracer cannot record ({}: the TMA's tensor "
                        "copies and bulk reductions); their traffic is not in the trace or its counters",
                        stats.name, what));
    }
    KernelInfo info;
    info.name = stats.name;
    info.grid = {h.grid[0], h.grid[1], h.grid[2]};
    info.block = {h.block[0], h.block[1], h.block[2]};
    info.dynamic_shared = h.dynamic_shared;
    if (auto r = m.resources.find(mangled); r != m.resources.end()) {
      info.registers = r->second.registers;
      info.static_shared = r->second.shared;
    }
    if (auto d = devices_.find(h.device); d != devices_.end()) {
      info.arch = fmt::format("sm_{}{}", d->second.cc_major, d->second.cc_minor);
      info.gpu = d->second.name;
    }
    info.source = "warpscope trace";
    if (h.cta_stride > 1) info.source += fmt::format(" (CTAs sampled: 1 in {})", h.cta_stride);
    if (h.graph) info.source += " (CUDA graph node)";
    if (a.sass) {
      info.code_bytes = a.sass->code_bytes;  // the launch's own DRAM reads depend on it
      for (const auto& [offset, ins] : a.sass->memory) {
        if (ins.line) info.lines[offset] = *ins.line;
        if (ins.atomic_op != AtomicOp::Unknown) info.atomics[offset] = ins.atomic_op;
        if (ins.generic && counted_as_generic(ins.op)) info.generic_pcs.insert(offset);
      }
    }
    stats.kernel = sink_.begin_kernel(std::move(info));
  }
  launches_.push_back(std::move(stats));
  active_[h.launch] = a;
}

void TraceSession::on_records(std::string_view payload) {
  Cursor c(payload, "Records", offset_);
  const std::uint32_t count = c.u32();
  WarpAccess rec;
  for (std::uint32_t i = 0; i < count; ++i) {
    PackedRecordHead h;
    c.raw(&h, sizeof h);
    auto it = active_.find(h.launch);
    if (it == active_.end())
      throw InputError(fmt::format("tracer stream byte {}: record of launch {}, which was never announced", offset_,
                                   h.launch));
    LaunchStats& stats = launches_[it->second.stats];
    if (!stats.kernel)
      throw InputError(fmt::format("tracer stream byte {}: record of launch {}, which is not traced", offset_, h.launch));
    const bool matrix = h.space == kSpaceMatrix;  // ldmatrix / stmatrix rows (shared offsets)
    const bool async = h.space == kSpaceAsyncGlobal || h.space == kSpaceAsyncShared;  // cp.async sides
    const bool bulk = h.space == kSpaceBulkToShared || h.space == kSpaceBulkToGlobal;  // cp.async.bulk
    if (((h.space < 3 || h.space > 5) && !matrix && !async && !bulk) || h.mask == 0 || h.form > 1)
      throw InputError(fmt::format("tracer stream byte {}: malformed record (space {}, mask {:#x}, form {})", offset_,
                                   h.space, h.mask, h.form));
    rec.kernel = *stats.kernel;
    rec.cta = h.cta;
    rec.warp = h.warp;
    rec.sm = static_cast<std::int16_t>(h.sm);
    rec.pc = h.pc - it->second.function_pc;
    rec.space = h.space == 3 || h.space == kSpaceAsyncGlobal || bulk ? Space::Global
                : h.space == 5                             ? Space::Local
                                                           : Space::Shared;
    rec.active = LaneMask{h.mask};
    rec.addr.fill(0);
    if (h.form == static_cast<std::uint8_t>(AddressForm::Strided)) {
      const std::uint64_t base = c.u64();
      const std::uint64_t stride = c.u64();
      std::uint64_t rank = 0;
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (h.mask >> lane & 1u) rec.addr[lane] = base + stride * rank++;
    } else {
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (h.mask >> lane & 1u) rec.addr[lane] = c.u64();
    }
    ++stats.received;
    if (h.size == 0 || h.size > 16 || !std::has_single_bit(unsigned{h.size})) {
      continue;  // e.g. 32-byte accesses of sm_100: not in the record format; counted as received, not written
    }
    rec.size = h.size;
    if (bulk) {
      rec.op = h.space == kSpaceBulkToShared ? Op::BulkLoad : Op::BulkStore;
      rec.cache = CacheOp::Default;
      rec.atomic_op = AtomicOp::Unknown;
      if (!bulk_record_ok(rec))
        throw InputError(fmt::format("tracer stream byte {}: a bulk-copy record that is not one ({})", offset_, kBulkRecordRule));
      sink_.write(rec);
      ++records_;
      continue;
    }
    const SassInstruction* ins = it->second.sass ? it->second.sass->at(rec.pc) : nullptr;
    if (async) {
      // LDGSTS: .ca or .cg from the SASS (LDGSTS.E.BYPASS: cg); ca without a listing.
      rec.op = Op::AsyncCopy;
      rec.cache = ins && ins->op == Op::AsyncCopy ? ins->cache : CacheOp::Ca;
      rec.atomic_op = AtomicOp::Unknown;
      if (!async_copy_record_ok(rec.space, rec.size, rec.cache))
        throw InputError(fmt::format("tracer stream byte {}: a cp.async record of {} bytes a lane", offset_, h.size));
      auto& reads = it->second.async_reads;
      const auto key = std::make_tuple(rec.cta, rec.warp, rec.pc);
      if (h.space == kSpaceAsyncGlobal) {
        reads[key] = rec;  // written with its shared write, next
        continue;
      }
      if (auto r = reads.find(key); r != reads.end()) {
        sink_.write(r->second);
        ++records_;
        reads.erase(r);
      }
      sink_.write(rec);
      ++records_;
      continue;
    }
    if (matrix) {
      if (h.size != 16)
        throw InputError(fmt::format("tracer stream byte {}: a matrix record of {} bytes a lane (ldmatrix rows are 16)",
                                     offset_, h.size));
      rec.op = (h.flags & kFlagWrite) ? Op::StoreMatrix : Op::LoadMatrix;
      rec.cache = CacheOp::Default;
      rec.atomic_op = AtomicOp::Unknown;
    } else if (ins) {
      rec.op = ins->op;
      rec.cache = ins->cache;
      rec.atomic_op = ins->atomic_op;  // also in the kernel's table, which the trace stores
    } else {
      rec.op = op_from_flags(h.flags);
      rec.cache = CacheOp::Default;
      rec.atomic_op = AtomicOp::Unknown;
      ++stats.without_sass;
    }
    sink_.write(rec);
    ++records_;
  }
  if (!c.empty()) throw InputError(fmt::format("tracer stream byte {}: Records message has trailing bytes", offset_));
}

void TraceSession::on_launch_end(std::string_view payload) {
  Cursor c(payload, "LaunchEnd", offset_);
  LaunchEndBody b;
  c.raw(&b, sizeof b);
  auto it = active_.find(b.launch);
  if (it == active_.end())
    throw InputError(fmt::format("tracer stream byte {}: end of launch {}, which was never announced", offset_, b.launch));
  LaunchStats& stats = launches_[it->second.stats];
  for (const auto& [key, read] : it->second.async_reads) {  // reads whose writes never came: kept alone
    sink_.write(read);
    ++records_;
  }
  stats.ended = true;
  stats.complete = b.complete != 0;
  stats.executed = b.executed;
  stats.written = b.written;
  if (stats.traced && stats.received != stats.written)
    warn_(fmt::format("launch {} ({}): the GPU wrote {} records but {} arrived", b.launch, stats.name, stats.written,
                      stats.received));
  active_.erase(it);
}

}  // namespace warpscope::tracer
