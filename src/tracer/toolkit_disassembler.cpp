// nvdisasm / cuobjdump run on a temporary copy of the cubin.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "tracer/trace_session.hpp"

extern char** environ;

namespace warpscope::tracer {
namespace {

namespace fs = std::filesystem;

std::optional<fs::path> find_tool(const char* name) {
  std::vector<fs::path> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) dirs.push_back(fs::path(v) / "bin");
  dirs.emplace_back("/usr/local/cuda/bin");
  if (const char* path = std::getenv("PATH")) {
    std::string_view p(path);
    while (!p.empty()) {
      auto colon = p.find(':');
      dirs.emplace_back(std::string(p.substr(0, colon)));
      p = colon == std::string_view::npos ? std::string_view{} : p.substr(colon + 1);
    }
  }
  for (const auto& d : dirs) {
    std::error_code ec;
    auto candidate = d / name;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

// Runs argv, returns its stdout when it exits 0.
std::optional<std::string> capture(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return std::nullopt;
  }
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

class TempCubin {
 public:
  explicit TempCubin(const std::string& bytes) {
    std::string tmpl = (fs::temp_directory_path() / "warpscope-cubin-XXXXXX").string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) return;
    path_ = tmpl;
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    ok_ = done == bytes.size();
  }
  ~TempCubin() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  TempCubin(const TempCubin&) = delete;
  TempCubin& operator=(const TempCubin&) = delete;
  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool ok_ = false;
};

class ToolkitDisassembler final : public Disassembler {
 public:
  std::optional<std::string> listing(const std::string& cubin) override {
    static const auto tool = find_tool("nvdisasm");
    if (!tool) return std::nullopt;
    TempCubin file(cubin);
    if (!file.ok()) return std::nullopt;
    return capture({tool->string(), "-c", "-gi", file.path()});
  }
  std::optional<std::string> resources(const std::string& cubin) override {
    static const auto tool = find_tool("cuobjdump");
    if (!tool) return std::nullopt;
    TempCubin file(cubin);
    if (!file.ok()) return std::nullopt;
    return capture({tool->string(), "-res-usage", file.path()});
  }
};

}  // namespace

std::unique_ptr<Disassembler> make_toolkit_disassembler() { return std::make_unique<ToolkitDisassembler>(); }

}  // namespace warpscope::tracer
