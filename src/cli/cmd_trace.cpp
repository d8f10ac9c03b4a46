// `warpscope trace [-o FILE] [--kernel REGEX] [--launches N] [--max-records N]
// [--sample-ctas K] -- APP ARGS...`: runs an unmodified CUDA application with
// the Compute Sanitizer injection library (src/tracer/inject/) and writes the
// warp records it sends to a native trace (docs/TRACER.md).
//
// This process owns the trace file: the application only writes to a socket,
// so a crash or early exit of the application still leaves a closed, valid
// trace of what completed.
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <bit>
#include <regex>

#include "cli/cli.hpp"
#include "tracer/shm_channel.hpp"
#include "tracer/trace_session.hpp"
#include "warpscope/error.hpp"
#include "warpscope/trace.hpp"

namespace warpscope::cli {
namespace {

namespace fs = std::filesystem;

struct TraceArgs {
  std::string output = "warpscope.wst";
  std::string kernel;
  std::uint64_t launches = 0;     // 0: all
  std::uint64_t max_records = 0;  // 0: no limit
  std::uint64_t sample_ctas = 0;  // 0: every CTA
  std::uint64_t ring_records = 1u << 22;  // 64-byte slots: 256 MB of GPU memory
  std::uint64_t buffer_mb = 256;  // the shared-memory channel; 0: the socket alone
  int threads = 0;                // trace writer threads (0: auto)
  std::string injection_library;  // default: next to this executable
  bool quiet = false;
  std::vector<std::string> command;
};

fs::path self_directory() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(".") : exe.parent_path();
}

// libwarpscope_inject.so and warpscope_patches.fatbin, built next to the
// warpscope binary when the CUDA toolkit was found (CMake WARPSCOPE_TRACER).
fs::path find_injection_library(const TraceArgs& a) {
  if (!a.injection_library.empty()) {
    if (!fs::exists(a.injection_library))
      throw InputError(fmt::format("--injection-library {}: no such file", a.injection_library));
    return fs::absolute(a.injection_library);
  }
  const fs::path dir = self_directory();
  for (const auto& candidate : {dir / "libwarpscope_inject.so", dir / "../lib/warpscope/libwarpscope_inject.so"})
    if (fs::exists(candidate)) return fs::canonical(candidate);
  throw InputError(
      "this warpscope was built without the GPU tracer: its injection library (libwarpscope_inject.so) needs the "
      "CUDA toolkit with compute-sanitizer headers at build time (cmake -DWARPSCOPE_TRACER=ON "
      "-DCUDAToolkit_ROOT=...; docs/TRACER.md)");
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return fmt::format("was killed by signal {} ({})", sig, name ? name : "unknown");
  }
  return "ended";
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

pid_t child_pid = 0;
void forward_signal(int sig) {
  if (child_pid > 0) ::kill(child_pid, sig);
}

// Starts the application with the injection library and its end of the socket.
pid_t launch(const TraceArgs& a, const fs::path& library, int write_fd, int shm_fd) {
  const fs::path patches = library.parent_path() / "warpscope_patches.fatbin";
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("cannot start {}: {}", a.command.front(), std::strerror(errno)));
  if (pid > 0) return pid;
  // Child: only async-signal-safe work until exec, plus setenv: this process has
  // no other thread yet (the trace writer starts its workers at its first chunk).
  ::setenv("CUDA_INJECTION64_PATH", library.c_str(), 1);
  ::setenv("WARPSCOPE_TRACE_FD", std::to_string(write_fd).c_str(), 1);
  ::setenv("WARPSCOPE_TRACE_PID", std::to_string(::getpid()).c_str(), 1);
  if (shm_fd >= 0) ::setenv("WARPSCOPE_TRACE_SHM_FD", std::to_string(shm_fd).c_str(), 1);
  ::setenv("WARPSCOPE_PATCHES", patches.c_str(), 0);  // a set WARPSCOPE_PATCHES wins (patch experiments)
  ::setenv("WARPSCOPE_KERNEL", a.kernel.c_str(), 1);
  ::setenv("WARPSCOPE_LAUNCHES", std::to_string(a.launches).c_str(), 1);
  ::setenv("WARPSCOPE_MAX_RECORDS", std::to_string(a.max_records).c_str(), 1);
  ::setenv("WARPSCOPE_SAMPLE_CTAS", std::to_string(a.sample_ctas).c_str(), 1);
  ::setenv("WARPSCOPE_RING_RECORDS", std::to_string(a.ring_records).c_str(), 1);
  // Patching happens when a module loads; lazy loading would defer it per function.
  ::setenv("CUDA_MODULE_LOADING", "EAGER", 1);
  std::vector<char*> argv;
  for (const auto& s : a.command) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::fprintf(stderr, "warpscope: error: cannot run %s: %s\n", argv[0], std::strerror(errno));
  ::_exit(127);
}

// A finished launch whose records do not add up: the GPU's own count of its
// warp instructions against the records that arrived (--max-records aside).
bool records_lost(const tracer::LaunchStats& l, const TraceArgs& a) {
  if (!l.traced || !l.ended) return false;
  if (l.received != l.written) return true;
  return a.max_records == 0 && l.written != l.executed;
}

void print_summary(const tracer::TraceSession& session, const TraceArgs& a) {
  std::size_t traced = 0;
  for (const auto& l : session.launches()) traced += l.traced;
  fmt::print(stderr, "warpscope trace: {} records of {} traced kernel launch{} ({} launches seen) -> {}\n",
             session.records(), traced, traced == 1 ? "" : "es", session.launches().size(), a.output);
  if (a.quiet) return;
  std::size_t shown = 0;
  for (const auto& l : session.launches()) {
    if (!l.traced) continue;
    if (++shown > 20) {
      fmt::print(stderr, "  ... {} more\n", traced - 20);
      break;
    }
    std::string status = !l.ended      ? "INCOMPLETE: the application ended before the kernel was drained"
                         : !l.complete ? "INCOMPLETE"
                         : records_lost(l, a)
                             ? fmt::format("RECORDS LOST: the GPU executed {} warp instructions, {} records arrived",
                                           l.executed, l.received)
                         : l.written < l.executed
                             ? fmt::format("truncated by --max-records ({} of {} written)", l.written, l.executed)
                             : "complete";
    fmt::print(stderr, "  launch {:>4}  {:>10} records  {}  [{}]\n", l.launch, l.received, l.name, status);
    if (l.without_sass)
      fmt::print(stderr, "               {} records had no SASS instruction at their PC (cache operator unknown)\n",
                 l.without_sass);
  }
}

int run_trace(const TraceArgs& a) {
  if (a.command.empty()) throw InputError("no application given: warpscope trace [options] -- ./app args...");
  if (!a.kernel.empty()) {
    try {
      std::regex check(a.kernel);
    } catch (const std::regex_error& e) {
      throw InputError(fmt::format("--kernel '{}': not a valid regular expression ({})", a.kernel, e.what()));
    }
  }
  if (a.output == "-")
    throw InputError("-o -: the traced application writes to standard output too; name a trace file (.wst or .txt)");
  if (a.buffer_mb != 0 && (!std::has_single_bit(a.buffer_mb) || a.buffer_mb > 16384))
    throw InputError(fmt::format("--buffer-mb {}: must be 0 or a power of two up to 16384", a.buffer_mb));
  if (a.ring_records < 1024 || !std::has_single_bit(a.ring_records) || a.ring_records > (1u << 26))
    throw InputError(fmt::format("--ring-records {}: must be a power of two from 1024 to 67108864", a.ring_records));
  const fs::path library = find_injection_library(a);

  TraceWriteOptions options;
  options.remove_partial_on_failure = false;  // if warpscope itself dies, the .partial stays readable
  options.threads = a.threads;
  auto sink = create_trace(a.output, trace_format_for_path(a.output), options);
  auto disassembler = tracer::make_toolkit_disassembler();
  std::uint64_t warnings = 0;
  tracer::TraceSession session(*sink, *disassembler, [&](const std::string& w) {
    ++warnings;
    fmt::print(stderr, "warpscope trace: warning: {}\n", w);
  });

  // A socket rather than a pipe: the injection library sends with MSG_NOSIGNAL,
  // so the application survives if warpscope goes away.
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw Error(fmt::format("cannot create a socket pair: {}", std::strerror(errno)));
  // The child's end must survive exec: a duplicate without close-on-exec.
  const int child_fd = ::fcntl(fds[1], F_DUPFD, 3);
  const int buffer_bytes = 4 << 20;
  ::setsockopt(fds[0], SOL_SOCKET, SO_RCVBUF, &buffer_bytes, sizeof buffer_bytes);
  struct sigaction ignore{}, forward{}, old_int{}, old_term{};
  ignore.sa_handler = SIG_IGN;
  forward.sa_handler = forward_signal;
  ::sigaction(SIGINT, &ignore, &old_int);  // Ctrl-C reaches the application; we finish the trace
  ::sigaction(SIGTERM, &forward, &old_term);
  // The shared-memory channel (tracer/shm_channel.hpp); without one the
  // application sends down the socket.
  tracer::ShmChannel channel;
  int shm_fd = -1;
  if (a.buffer_mb != 0) {
    const int fd = ::memfd_create("warpscope-trace", 0);
    if (fd >= 0 && channel.create(fd, a.buffer_mb << 20)) shm_fd = ::fcntl(fd, F_DUPFD, 3);
    if (fd >= 0) ::close(fd);
    if (shm_fd < 0)
      fmt::print(stderr, "warpscope trace: warning: no shared-memory channel ({}): records go through the socket, "
                         "and the application waits for this process to write them\n",
                 std::strerror(errno));
  }
  child_pid = launch(a, library, child_fd, shm_fd);
  ::close(fds[1]);
  ::close(child_fd);
  if (shm_fd >= 0) ::close(shm_fd);  // the mapping stays

  // One stream arrives, on the channel or on the socket; bytes on both mean
  // a confused sender.
  std::string error;
  enum class Source { None, Socket, Channel } source = Source::None;
  const auto feed = [&](Source from, const char* data, std::size_t size) {
    if (source == Source::None) source = from;
    if (source != from)
      throw InputError("tracer stream: bytes arrived on both the shared-memory channel and the socket");
    session.feed(data, size);
  };
  const auto drain_channel = [&] {
    if (!channel.mapped()) return false;
    const auto to_session = [&](const char* data, std::size_t size) { feed(Source::Channel, data, size); };
    bool any = false;
    while (channel.read_some(to_session, 1 << 20) != 0) any = true;
    return any;
  };
  std::vector<char> buffer(1 << 20);
  try {
    for (;;) {
      const bool got = drain_channel();
      pollfd p{fds[0], POLLIN, 0};
      const int ready = ::poll(&p, 1, got ? 0 : 1);
      if (ready < 0 && errno != EINTR) break;
      if (ready <= 0) continue;
      const ssize_t n = ::read(fds[0], buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {  // the application has gone: what it put in the channel is still there
        drain_channel();
        break;
      }
      feed(Source::Socket, buffer.data(), static_cast<std::size_t>(n));
    }
  } catch (const InputError& e) {
    error = e.what();
    ::kill(child_pid, SIGKILL);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child_pid, &status, 0) < 0 && errno == EINTR) {
  }
  child_pid = 0;
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  const bool clean_end = session.finish();
  sink->close();

  if (!error.empty()) throw InputError(fmt::format("{} (the trace keeps what came before)", error));
  if (session.pid() == 0)
    fmt::print(stderr,
               "warpscope trace: warning: the injection library never reported: the application made no CUDA call, "
               "or the CUDA driver did not load {}\n",
               library.string());
  else if (!clean_end)
    fmt::print(stderr, "warpscope trace: warning: the application ended in the middle of a message; the trace keeps "
                       "every complete one\n");
  print_summary(session, a);
  const std::string app = fs::path(a.command.front()).filename().string();
  fmt::print(stderr, "warpscope trace: {} {}\n", app, describe_status(status));
  std::uint64_t lost = 0;
  for (const auto& l : session.launches()) lost += records_lost(l, a);
  if (lost)
    fmt::print(stderr, "warpscope trace: error: records of {} launch{} were lost (a tracer bug: please report it)\n",
               lost, lost == 1 ? "" : "es");
  if (exit_code_of(status) != 0) return exit_code_of(status);
  return lost ? 1 : 0;
}

}  // namespace

Action add_trace_command(CLI::App& app, const GlobalOptions&) {
  auto args = std::make_shared<TraceArgs>();
  auto* cmd = app.add_subcommand("trace", "run a CUDA application and record its warp-level memory accesses (needs "
                                          "an NVIDIA GPU and the tracer built with the CUDA toolkit)");
  cmd->add_option("-o,--output", args->output, "trace file to write (.wst native, .txt text)")
      ->capture_default_str();
  cmd->add_option("--kernel", args->kernel, "trace only kernels whose (demangled) name matches this regex");
  cmd->add_option("--launches", args->launches, "trace at most N launches of the selected kernels (0: all)");
  cmd->add_option("--max-records", args->max_records,
                  "stop recording after N warp records in all (later ones are counted, not written; 0: no limit)");
  cmd->add_option("--sample-ctas", args->sample_ctas,
                  "record only about K CTAs per launch, evenly spaced (0: every CTA)");
  cmd->add_option("--ring-records", args->ring_records,
                  "64-byte slots of the device-memory ring the GPU writes records to (power of two; a record takes 1, or 5 "
                  "when its lanes are not evenly strided)")
      ->capture_default_str();
  cmd->add_option("--buffer-mb", args->buffer_mb,
                  "MiB of shared memory between the application and warpscope (power of two; 0: send through a "
                  "socket, slower)")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads,
                  "threads that encode and compress the trace (0: one per core, at most 8; 1: none beside the reader)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  cmd->add_option("--injection-library", args->injection_library, "the tracer's injection library (default: the "
                                                                  "one built next to warpscope)");
  cmd->add_flag("-q,--quiet", args->quiet, "print only the one-line summary");
  cmd->add_option("command", args->command, "the application and its arguments, after --")->required();
  cmd->positionals_at_end();
  return [args] { return run_trace(*args); };
}

}  // namespace warpscope::cli
