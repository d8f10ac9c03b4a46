// Replays a probe's launches through the PTX interpreter in the order the H100 ran them
// (validation/<app>/<app>.run beside the device's run.txt): the kernel lines of run.txt name each
// launch, the lines after one (checksums, register dumps) are what the H100 computed in it.
#pragma once

#include <gtest/gtest.h>
#include <fmt/format.h>
#include <algorithm>

#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ptx/ptx_test_support.hpp"
#include "test_support.hpp"
#include "ptx/buffer_fill.hpp"
#include "ptx/tensor_map.hpp"
#include "ptx/texture_object.hpp"
#include "trace/trace_test_util.hpp"
#include "tracer/demangle.hpp"
#include "warpscope/ptx.hpp"
#include "warpscope/validate.hpp"

namespace warpscope::test {

struct ProbeReplay {
  PtxScript script;
  PtxRun run;
  std::map<std::string, std::uint64_t> address;  // buffer -> device address
  std::map<std::string, std::string> mangled;    // "kernel<T>" -> its PTX name
  std::size_t launches = 0;
  // run.txt's names of launches whose script line names the kernel otherwise ("memcpy_barrier16" for
  // "memcpy_barrier<true>": the name a probe's main() printed).
  std::map<std::string, std::string> aliases;
  // run.txt's names are the kernel and then what the launch does ("tload2d A 32x32 x0"): its first word names it.
  bool label_first_word = false;

  // `dir`: validation/<app> (PTX and script).
  ProbeReplay(const std::string& dir, const std::string& app)
      : script(parse_ptx_script(read_bytes(dir + "/" + app + ".run"), app + ".run")),
        run(read_bytes(dir + "/" + app + ".ptx")) {
    for (const auto& b : script.buffers) {
      address[b.name] = run.buffer(b.name, b.bytes);
      if (b.fill != PtxBuffer::Fill::File && b.fill != PtxBuffer::Fill::Bytes) ptx::fill_buffer(*run.state->memory.allocation(b.name), b);
    }
    for (const auto& [name, index] : run.module.function_index) {
      std::string d = tracer::demangle(name);
      if (d.rfind("void ", 0) == 0) d = d.substr(5);
      mangled[d.substr(0, d.find('('))] = name;
    }
  }

  // Reads the H100's run.txt: each "kernel NAME" line runs the next launch of the script (which must be
  // NAME), each other line goes to `line(kind, label, rest, kernel, args)` with the launch's arguments.
  void replay(const std::string& run_txt,
              const std::function<void(const std::string& kind, const std::string& label, std::istringstream& rest,
                                       const std::string& kernel, const std::vector<std::uint64_t>& args)>& line) {
    std::istringstream in(read_bytes(run_txt));
    std::string kernel;
    std::vector<std::uint64_t> args;
    for (std::string text; std::getline(in, text);) {
      std::istringstream ls(text);
      std::string kind, label;
      ls >> kind >> label;
      // Names of templates of several arguments have spaces: "kernel tile_copy<0, 1> ms=0.02",
      // "checksum tile_copy<0, 1> ebcc639d8d0c30f8".
      if (kind == "kernel" || kind == "checksum") {
        const std::size_t first = text.find(' ') + 1;
        const std::size_t last = kind == "kernel" ? text.rfind(" ms=") : text.rfind(' ');
        if (last != std::string::npos && last > first) {
          label = text.substr(first, last - first);
          ls = std::istringstream(text.substr(last + 1));
        }
      }
      if (kind == "kernel") {
        ASSERT_LT(launches, script.launches.size());
        const PtxLaunch& l = script.launches[launches++];
        const std::string word = label_first_word ? label.substr(0, label.find(' ')) : label;
        const std::string name = aliases.count(word) ? aliases.at(word) : word;
        ASSERT_EQ(l.kernel, name) << "launch " << launches;
        kernel = label;
        args.clear();
        const std::string& k = mangled.at(name);
        for (std::size_t i = 0; i < l.args.size(); ++i) {
          const std::string& a = l.args[i];
          if (a.rfind("tmap(", 0) == 0) {  // a CUtensorMap by value (ptx/tensor_map.hpp)
            const auto map = ptx::encode_tensor_map(ptx::parse_tensor_map(a, [&](std::string_view b) -> std::optional<std::uint64_t> {
              if (const auto it = address.find(std::string(b)); it != address.end()) return it->second;
              return std::nullopt;
            }));
            run.set_param(k, i, map.data(), map.size());
            args.push_back(0);
            continue;
          }
          if (a.rfind("tex(", 0) == 0) {  // a texture object: its handle (ptx/texture_object.hpp)
            run.state->textures.push_back(ptx::make_texture(a, run.state->memory));
            args.push_back(run.state->textures.size());
            run.set_param(k, i, &args.back(), 8);
            continue;
          }
          if (const auto dot = a.find('.'); dot != std::string::npos && a.find_first_not_of("0123456789.-") == std::string::npos) {
            const float v = std::stof(a);  // a float argument
            std::uint32_t bits = 0;
            std::memcpy(&bits, &v, 4);
            args.push_back(bits);
            run.set_param(k, i, &bits, 4);
            continue;
          }
          args.push_back(address.count(a) ? address.at(a) : std::stoull(a, nullptr, 0));
          run.set_param(k, i, &args.back(), 8);
        }
        run.launch_with(k, l.grid, l.block, 1u << 26, l.dynamic_shared);
      } else {
        line(kind, label, ls, kernel, args);
      }
    }
  }

  const std::vector<std::uint8_t>& bytes(const std::string& buffer) const {
    return run.state->memory.allocation(buffer)->bytes;
  }
};

// The hardware's and the model's value of `counter` in launch `label` of a validate report.
inline std::pair<double, double> hardware_and_model(const ValidationReport& r, const std::string& label,
                                                    const std::string& counter) {
  for (const auto& k : r.kernels)
    if (k.label == label)
      for (const auto& c : k.counters)
        if (c.counter == counter) return {c.hardware, c.model};
  ADD_FAILURE() << "no " << counter << " in " << label;
  return {-1.0, -2.0};
}

// FNV-1a 64, as the probes' checksum() prints it (validation/kernels/suite/suite_common.cuh).
inline std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// Replays run.txt and checks each "checksum LABEL HEX" line against the FNV-1a of buffer `out` after its launch, which is
// then cleared (as the probes' main() clears it); returns how many it checked.
// Launches named in `differ` must give a different checksum (what the model knowingly computes otherwise).
inline std::size_t replay_checksums(ProbeReplay& p, const std::string& run_txt, const std::string& out = "out",
                                    const std::set<std::string>& differ = {}) {
  std::size_t checksums = 0;
  p.replay(run_txt, [&](const std::string& kind, const std::string& label, std::istringstream& rest, const std::string&,
                        const std::vector<std::uint64_t>&) {
    if (kind != "checksum") return;
    std::string hex;
    rest >> hex;
    auto& bytes = p.run.state->memory.allocation(out)->bytes;
    const std::string ours = fmt::format("{:016x}", fnv1a(bytes.data(), bytes.size()));
    if (differ.count(label) != 0) EXPECT_NE(ours, hex) << label;
    else EXPECT_EQ(ours, hex) << label;
    std::fill(bytes.begin(), bytes.end(), 0);
    ++checksums;
  });
  return checksums;
}

// How many of the counters predicted before the H100 ran (validation/<app>/predicted.txt: launch index, label,
// counter, value) the hardware gave, out of how many; the index is the launch's place in the report.
// `hardware(index, counter)`: the measured value, or nullopt where the launch has no such counter.
inline std::pair<std::size_t, std::size_t> predictions_held(
    const std::string& predicted, std::size_t launches,
    const std::function<std::optional<double>(std::size_t, const std::string&)>& hardware) {
  std::istringstream in(read_bytes(predicted));
  std::size_t held = 0, made = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::size_t index = 0;
    std::string label, counter;
    double value = 0;
    ls >> index >> label >> counter >> value;
    if (index >= launches) {
      ADD_FAILURE() << line;
      continue;
    }
    ++made;
    if (hardware(index, counter) == value) ++held;
  }
  return {held, made};
}
inline std::pair<std::size_t, std::size_t> predictions_held(const ValidationReport& r, const std::string& predicted) {
  return predictions_held(predicted, r.kernels.size(), [&](std::size_t index, const std::string& counter) -> std::optional<double> {
    for (const auto& c : r.kernels[index].counters)
      if (c.counter == counter) return c.hardware;
    return std::nullopt;
  });
}

// `warpscope validate validation/h100/APP --ptx validation/APP`.
inline ValidationReport ptx_validation_report(const std::string& app) {
  const std::string root = WARPSCOPE_SOURCE_DIR "/validation/";
  ValidateOptions o;
  o.ptx_dir = root + app;
  return validate_directory(root + "h100/" + app, db(), o);
}

// ptx_validation_report(app), checked to pass with all of its `exact` exact counters matching.
inline ValidationReport passing_ptx_report(const std::string& app, std::size_t exact) {
  ValidationReport r = ptx_validation_report(app);
  const ValidationSummary s = summarize(r);
  EXPECT_TRUE(s.passed()) << (s.failures.empty() ? "" : s.failures.front());
  EXPECT_EQ(s.exact_matched, s.exact);
  EXPECT_EQ(s.exact, exact);
  return r;
}

}  // namespace warpscope::test
