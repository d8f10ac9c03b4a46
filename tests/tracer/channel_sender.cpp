// A stand-in for the injection library's shared-memory transport, for
// trace_cli_test: writes a recorded message stream into the channel
// `warpscope trace` passed (WARPSCOPE_TRACE_SHM_FD), as the library would.
//
// usage: warpscope_channel_sender STREAM [BYTES [then]]
//   BYTES: send only the first BYTES of STREAM (default: all);
//   then: "segv" (die by SIGSEGV afterwards), "socket" (also write 8 bytes to
//   the socket, WARPSCOPE_TRACE_FD), "exit3" (exit with status 3).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "tracer/shm_channel.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::ifstream in(argv[1], std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (argc > 2) bytes.resize(std::min<std::size_t>(bytes.size(), std::strtoull(argv[2], nullptr, 10)));
  const char* fd = std::getenv("WARPSCOPE_TRACE_SHM_FD");
  warpscope::tracer::ShmChannel channel;
  if (fd == nullptr || !channel.attach(std::atoi(fd))) {
    std::fprintf(stderr, "channel_sender: no shared-memory channel\n");
    return 4;
  }
  // A byte at a time at first, so that small rings wrap and fill.
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::size_t n = channel.write_some(bytes.data() + done, done < 64 ? 1 : bytes.size() - done);
    if (n == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
    done += n;
  }
  const std::string then = argc > 3 ? argv[3] : "";
  if (then == "segv") {
    ::signal(SIGSEGV, SIG_DFL);  // die by the signal even where a sanitizer catches it
    ::raise(SIGSEGV);
  }
  if (then == "socket") {
    const int sock = std::atoi(std::getenv("WARPSCOPE_TRACE_FD"));
    if (::write(sock, bytes.data(), 8) != 8) return 5;
  }
  return then == "exit3" ? 3 : 0;
}
