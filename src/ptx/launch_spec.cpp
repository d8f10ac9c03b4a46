// The command line's words for buffers and launches (include/warpscope/ptx.hpp).
#include <fmt/format.h>

#include <cctype>
#include <filesystem>

#include "core/parse_number.hpp"
#include "ptx/arg_syntax.hpp"
#include "warpscope/error.hpp"
#include "warpscope/ptx.hpp"

namespace warpscope {
namespace {

using ptx::split_top;
using ptx::trim;

bool valid_name(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// "256" or "(64,4)" or "(8,8,2)"
Dim3 parse_dim(std::string_view s, const char* what, std::string_view launch) {
  s = trim(s);
  std::vector<std::uint64_t> v;
  auto fail = [&]() -> Dim3 {
    throw InputError(fmt::format("--launch '{}': {} '{}': expected N or (X,Y[,Z]) with positive numbers", launch, what, s));
  };
  std::string_view body = s;
  if (!body.empty() && body.front() == '(') {
    if (body.back() != ')') fail();
    body = body.substr(1, body.size() - 2);
  }
  while (true) {
    const auto comma = body.find(',');
    const auto n = parse_plain_u64(trim(body.substr(0, comma)));
    if (!n || *n == 0 || *n > 0xffffffffull) fail();
    v.push_back(*n);
    if (comma == std::string_view::npos) break;
    body = body.substr(comma + 1);
  }
  if (v.size() > 3 || (v.size() > 1 && s.front() != '(')) fail();
  Dim3 d;
  d.x = static_cast<std::uint32_t>(v[0]);
  if (v.size() > 1) d.y = static_cast<std::uint32_t>(v[1]);
  if (v.size() > 2) d.z = static_cast<std::uint32_t>(v[2]);
  return d;
}

}  // namespace

PtxDump parse_ptx_dump(std::string_view text) {
  const auto eq = text.find('=');
  PtxDump d;
  if (eq != std::string_view::npos) {
    d.buffer = std::string(trim(text.substr(0, eq)));
    d.path = std::string(trim(text.substr(eq + 1)));
  }
  if (!valid_name(d.buffer) || d.path.empty())
    throw InputError(fmt::format("--dump '{}': expected NAME=FILE (a --buffer or .global variable, and the file to write)", text));
  return d;
}

PtxBuffer parse_ptx_buffer(std::string_view text) {
  PtxBuffer b;
  const auto eq = text.find('=');
  auto fail = [&](const std::string& why) -> PtxBuffer {
    throw InputError(fmt::format("--buffer '{}': {} (expected NAME=SIZE[:zero|:iota|:random[:SEED]|:index:RANGE[:SEED]|:@FILE] or NAME=@FILE)", text, why));
  };
  if (eq == std::string_view::npos) return fail("no '='");
  b.name = std::string(trim(text.substr(0, eq)));
  if (!valid_name(b.name)) return fail(fmt::format("'{}' is not a name (letters, digits, _)", b.name));
  std::string_view rest = trim(text.substr(eq + 1));
  if (!rest.empty() && rest.front() == '@') {
    b.fill = PtxBuffer::Fill::File;
    b.file = std::string(rest.substr(1));
    if (b.file.empty()) return fail("no file after '@'");
    return b;
  }
  const auto colon = rest.find(':');
  const auto size = parse_u64(trim(rest.substr(0, colon)));
  if (!size || *size == 0 || *size > (16ull << 30)) return fail("the size must be 1 byte to 16G, e.g. 4096, 64K or 16M");
  b.bytes = *size;
  if (colon == std::string_view::npos) return b;
  std::string_view fill = rest.substr(colon + 1);
  if (!fill.empty() && fill.front() == '@') {  // SIZE:@FILE: the file's bytes repeated to fill SIZE
    b.fill = PtxBuffer::Fill::File;
    b.file = std::string(fill.substr(1));
    if (b.file.empty()) return fail("no file after '@'");
    return b;
  }
  const auto colon2 = fill.find(':');
  const std::string_view kind = fill.substr(0, colon2);
  if (kind == "zero") b.fill = PtxBuffer::Fill::Zero;
  else if (kind == "iota") b.fill = PtxBuffer::Fill::Iota;
  else if (kind == "random") b.fill = PtxBuffer::Fill::Random;
  else if (kind == "index") b.fill = PtxBuffer::Fill::Index;
  else return fail(fmt::format("unknown fill '{}'", kind));
  if (b.fill == PtxBuffer::Fill::Index) {
    if (colon2 == std::string_view::npos) return fail("index needs a range: index:RANGE[:SEED]");
    fill = fill.substr(colon2 + 1);
    const auto colon3 = fill.find(':');
    const auto range = parse_u64(fill.substr(0, colon3));
    if (!range || *range == 0 || *range > 0xffffffffull) return fail("the index range must be 1 to 2^32-1");
    b.range = *range;
    if (colon3 != std::string_view::npos) {
      const auto seed = parse_plain_u64(fill.substr(colon3 + 1));
      if (!seed) return fail("the seed must be a number");
      b.seed = *seed;
    }
    return b;
  }
  if (colon2 != std::string_view::npos) {
    if (b.fill != PtxBuffer::Fill::Random) return fail("only random takes a seed");
    const auto seed = parse_plain_u64(fill.substr(colon2 + 1));
    if (!seed) return fail("the seed must be a number");
    b.seed = *seed;
  }
  return b;
}

PtxLaunch parse_ptx_launch(std::string_view text) {
  PtxLaunch l;
  const auto open = text.find("<<<");
  const auto close = text.find(">>>");
  auto fail = [&](const std::string& why) -> PtxLaunch {
    throw InputError(fmt::format("--launch '{}': {} (expected KERNEL<<<GRID, BLOCK[, SHARED][, cluster=(X,Y,Z)]>>>(ARG, ...))", text, why));
  };
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return fail("no <<<...>>>");
  l.kernel = std::string(trim(text.substr(0, open)));
  if (l.kernel.empty()) return fail("no kernel name");
  const auto config = split_top(text.substr(open + 3, close - open - 3));
  if (config.size() < 2 || config.size() > 4)
    return fail("give a grid and a block, and optionally the dynamic shared memory size and the cluster shape");
  l.grid = parse_dim(config[0], "grid", text);
  l.block = parse_dim(config[1], "block", text);
  if (l.block.count() > 1024) return fail(fmt::format("a block of {} threads (at most 1024)", l.block.count()));
  bool shared_given = false;
  for (std::size_t i = 2; i < config.size(); ++i) {
    const std::string_view c = trim(config[i]);
    if (c.starts_with("cluster=")) {
      if (l.cluster.count() > 0) return fail("two cluster shapes");
      l.cluster = parse_dim(c.substr(8), "cluster", text);
      if (l.cluster.count() == 0 || l.cluster.count() > 16) return fail(fmt::format("a cluster of {} CTAs (1 to 16)", l.cluster.count()));
      continue;
    }
    const auto shared = parse_u64(c);
    if (shared_given || !shared || *shared > (1u << 20))
      return fail(fmt::format("dynamic shared memory '{}': expected bytes, e.g. 4096 or 48K", c));
    l.dynamic_shared = static_cast<std::uint32_t>(*shared);
    shared_given = true;
  }
  std::string_view args = trim(text.substr(close + 3));
  if (args.empty()) return fail("no argument list (write () for a kernel without parameters)");
  if (args.front() != '(' || args.back() != ')') return fail("the arguments must be in parentheses");
  args = trim(args.substr(1, args.size() - 2));
  if (!args.empty())
    for (auto a : split_top(args)) {
      if (a.empty()) return fail("an empty argument");
      l.args.emplace_back(a);
    }
  return l;
}

PtxScript parse_ptx_script(std::string_view text, const std::string& path) {
  PtxScript script;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const auto space = line.find_first_of(" \t");
    const std::string_view word = line.substr(0, space);
    const std::string_view rest = space == std::string_view::npos ? std::string_view() : trim(line.substr(space));
    try {
      if (word == "buffer") {
        PtxBuffer b = parse_ptx_buffer(rest);
        if (b.fill == PtxBuffer::Fill::File && std::filesystem::path(b.file).is_relative()) b.file = (dir / b.file).string();
        script.buffers.push_back(std::move(b));
      } else if (word == "launch") {
        script.launches.push_back(parse_ptx_launch(rest));
      } else {
        throw InputError(fmt::format("expected 'buffer SPEC' or 'launch SPEC', found '{}'", word));
      }
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}:{}: {}", path, line_no, e.what()));
    }
  }
  return script;
}

}  // namespace warpscope
