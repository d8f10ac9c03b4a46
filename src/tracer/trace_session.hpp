// The host half of the GPU tracer: turns the message stream of the injection
// library (tracer/protocol.hpp) into a trace. Runs inside `warpscope trace`,
// never inside the traced application, so a crash of the application leaves
// everything received so far in a valid, closed trace.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tracer/demangle.hpp"
#include "tracer/protocol.hpp"
#include "tracer/sass_listing.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::tracer {

// Disassembles a cubin. Either result is nullopt when the tool is missing or fails.
class Disassembler {
 public:
  virtual ~Disassembler() = default;
  virtual std::optional<std::string> listing(const std::string& cubin) = 0;    // nvdisasm -c -gi
  virtual std::optional<std::string> resources(const std::string& cubin) = 0;  // cuobjdump -res-usage
};

// nvdisasm and cuobjdump of the CUDA toolkit: $CUDA_HOME/bin, $CUDA_PATH/bin,
// /usr/local/cuda/bin, then PATH.
std::unique_ptr<Disassembler> make_toolkit_disassembler();

struct LaunchStats {
  std::uint32_t launch = 0;
  std::string name;  // demangled
  bool traced = false;
  std::optional<std::uint32_t> kernel;  // id in the trace
  bool ended = false;     // a LaunchEnd arrived
  bool complete = false;  // ... saying the kernel finished and was drained
  std::uint64_t executed = 0, written = 0, received = 0;
  std::uint64_t without_sass = 0;  // records whose PC had no SASS instruction
};

class TraceSession {
 public:
  using Warn = std::function<void(const std::string&)>;
  TraceSession(TraceSink& sink, Disassembler& disassembler, Warn warn);

  // Bytes from the socket, split anywhere. Throws InputError on a malformed stream.
  void feed(const char* data, std::size_t size);
  // The socket closed. Returns false when it closed in the middle of a message
  // (the application died while writing); what came before is kept.
  bool finish();

  const std::vector<LaunchStats>& launches() const { return launches_; }
  bool saw_bye() const { return bye_; }
  std::uint64_t records() const { return records_; }
  std::uint32_t pid() const { return pid_; }

 private:
  struct Module {
    std::string cubin;
    bool decoded = false;
    SassListing sass;
    std::map<std::string, ResourceUsage, std::less<>> resources;
  };
  struct Device {
    std::string name;
    std::uint32_t cc_major = 0, cc_minor = 0, sms = 0;
  };
  struct ActiveLaunch {
    std::size_t stats = 0;  // index in launches_
    std::uint64_t function_pc = 0;
    const SassFunction* sass = nullptr;
    // cp.async global reads waiting for their shared writes, by (CTA, warp, PC): the trace holds the two
    // records of one LDGSTS next to each other (types.hpp Op::AsyncCopy), whatever other warps wrote between.
    std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint64_t>, WarpAccess> async_reads;
  };

  void handle(MessageType type, std::string_view payload);
  void on_launch(std::string_view payload);
  void on_records(std::string_view payload);
  void on_launch_end(std::string_view payload);
  Module& decoded_module(std::uint64_t handle);

  TraceSink& sink_;
  Disassembler& disassembler_;
  Warn warn_;
  std::string pending_;
  std::uint64_t offset_ = 0;  // bytes consumed, for error messages
  std::map<std::uint64_t, Module> modules_;
  std::map<std::uint32_t, Device> devices_;
  std::map<std::uint32_t, ActiveLaunch> active_;
  std::vector<LaunchStats> launches_;
  std::set<std::string> warned_unrecorded_;  // kernels (mangled) already said to have unrecordable instructions
  std::uint64_t records_ = 0;
  std::uint32_t pid_ = 0;
  bool hello_ = false, bye_ = false;
};

}  // namespace warpscope::tracer
