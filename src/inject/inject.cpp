// Host half of the GPU tracer, loaded into the traced application by the CUDA
// driver (CUDA_INJECTION64_PATH → InitializeInjection) or LD_PRELOAD. It
// patches every loaded module with the device functions of patches.cu, gives
// each launch its parameters, drains the ring the GPU writes, and forwards
// everything to `warpscope trace` over the socket in WARPSCOPE_TRACE_FD
// (src/tracer/protocol.hpp). Decoding and file writing happen over there.
//
// Sanitizer API rules followed here (Compute Sanitizer API guide): one
// subscriber; in callbacks only the sanitizer memory/stream API touches
// streams, except the tracer's private copy stream, created at context
// creation as the guide's samples do; copies and stream synchronisation are
// allowed in launch callbacks.
#include <dlfcn.h>
#include <sanitizer.h>
#include <fcntl.h>
#include <poll.h>
#include <generated_cuda_meta.h>
#include <generated_cuda_runtime_api_meta.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "inject/record_packer.hpp"
#include "inject/ring.h"
#include "tracer/demangle.hpp"
#include "tracer/protocol.hpp"
#include "tracer/shm_channel.hpp"

namespace {

using namespace warpscope::tracer;

struct Options {
  int fd = -1;
  std::string patches;
  std::string kernel;  // regex ("" = all)
  unsigned long long launches = 0, max_records = 0, sample_ctas = 0, ring_records = 1u << 22;
  bool debug = false;
};

Options g_opt;
bool g_enabled = false;
std::mutex g_send_mutex;
ShmChannel g_channel;  // mapped when warpscope passed WARPSCOPE_TRACE_SHM_FD
Sanitizer_SubscriberHandle g_subscriber;
thread_local std::uint32_t t_dynamic_shared = 0;  // from the launch API call in progress

unsigned long long env_u64(const char* name, unsigned long long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// The peer of the socket has gone (warpscope ended): stop tracing, let the application run on.
bool peer_gone(int fd) {
  pollfd p{fd, 0, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

void stop_sending() {
  ::close(g_opt.fd);
  g_opt.fd = -1;
}

// Into the shared-memory channel when warpscope gave one (waiting while it is
// full), else down the socket.
void send_bytes(const std::string& bytes) {
  std::lock_guard lock(g_send_mutex);
  if (g_opt.fd < 0) return;
  std::size_t done = 0;
  if (g_channel.mapped()) {
    unsigned waits = 0;
    while (done < bytes.size()) {
      const std::size_t n = g_channel.write_some(bytes.data() + done, bytes.size() - done);
      done += n;
      if (n != 0) continue;
      if (++waits % 1024 == 0 && peer_gone(g_opt.fd)) return stop_sending();
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    return;
  }
  while (done < bytes.size()) {
    const ssize_t n = ::send(g_opt.fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return stop_sending();
    done += static_cast<std::size_t>(n);
  }
}

void note(const std::string& text) {
  MessageWriter m(MessageType::Note);
  m.put_blob(text);
  send_bytes(m.finish());
}

SanitizerResult check(SanitizerResult r, const char* what) {
  if (r == SANITIZER_SUCCESS) return r;
  const char* s = nullptr;
  sanitizerGetResultString(r, &s);
  note(std::string(what) + " failed: " + (s ? s : "unknown error"));
  return r;
}

// An entry point of the CUDA driver the application already loaded (nullptr if none).
template <class F>
F cuda_symbol(const char* name) {
  static void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr;
}

// ---- per-context state: the ring, its drain, launch parameters ----

struct PendingLaunch {
  std::uint32_t launch;
  std::uint32_t param_slot;
};

constexpr unsigned long long kStagingSlots = 65536;  // 4 MB of pinned memory

struct Context {
  CUcontext ctx = nullptr;
  WsSlot* ring = nullptr;                         // device
  WsSlot* staging = nullptr;                      // pinned host: the drain copies slots here
  unsigned long long* consumed = nullptr;         // pinned host: slots drained, read by the GPU when full
  unsigned long long* epoch_source = nullptr;     // pinned host: copied to the epoch counter after a launch
  unsigned long long* device_counters = nullptr;  // device: WS_COUNTER_* (ring.h)
  WsLaunchParams* params = nullptr;               // device, WS_PARAM_SLOTS entries
  std::vector<WsLaunchParams> host_params;        // sources of the async parameter copies
  Sanitizer_StreamHandle copy_stream = nullptr;   // ours: copies run beside the application's kernel
  unsigned long long slots = 0, next = 0, epoch = 0;
  bool patches_added = false, ready = false;
  std::map<std::uint32_t, unsigned long long> launch_written;
  std::vector<PendingLaunch> pending;  // graph nodes, reported after their graph launch
};

std::mutex g_contexts_mutex;
std::map<CUcontext, Context*> g_contexts;
std::mutex g_drain_mutex;  // one drain at a time: launches from several threads take turns
std::atomic<std::uint32_t> g_next_launch{0};
std::atomic<unsigned long long> g_traced_launches{0};
std::atomic<unsigned long long> g_records_sent{0};

// Drains the ring while the work just enqueued on `stream` runs, until it has
// finished and every slot it claimed is read. Runs in the launching thread,
// inside the launch-end callback: the Sanitizer API's copies may be used
// there, and no other thread makes CUDA calls (a drain thread calling the
// driver during callbacks deadlocked on the H100).
void drain_until_finished(Context* c, Sanitizer_StreamHandle stream) {
  std::lock_guard drain_lock(g_drain_mutex);
  const unsigned long long epoch = ++c->epoch;
  *c->epoch_source = epoch;
  check(sanitizerMemcpyHostToDeviceAsync(c->device_counters + WS_COUNTER_EPOCH, c->epoch_source, sizeof epoch, stream),
        "mark the end of the launch");
  // The Records message is built in place: header (type, length, count) first,
  // then the packed records; the buffer keeps its pages from drain to drain
  // (fresh multi-MB allocations cost a page fault per 4 KB).
  static std::string batch;
  constexpr std::size_t kHeader = 12;
  batch.assign(kHeader, '\0');
  std::uint32_t count = 0;
  const auto flush = [&] {
    if (!count) return;
    const auto type = static_cast<std::uint32_t>(MessageType::Records);
    const auto length = static_cast<std::uint32_t>(batch.size() - 8);
    std::memcpy(batch.data(), &type, 4);
    std::memcpy(batch.data() + 4, &length, 4);
    std::memcpy(batch.data() + 8, &count, 4);
    send_bytes(batch);
    g_records_sent += count;
    batch.resize(kHeader);
    count = 0;
  };
  const unsigned long long mask = c->slots - 1;
  int idle = 0;
  for (;;) {
    unsigned long long counters[WS_COUNTER_EPOCH + 1] = {};
    if (check(sanitizerMemcpyDeviceToHost(counters, c->device_counters, sizeof counters, c->copy_stream),
              "read the ring counters") != SANITIZER_SUCCESS)
      break;
    const bool finished = counters[WS_COUNTER_EPOCH] == epoch;
    const unsigned long long target = counters[WS_COUNTER_RESERVE];
    bool progress = false;
    while (c->next < target) {
      // Slots [next, next + want) into the staging area, in two pieces where they wrap.
      const unsigned long long want = std::min(kStagingSlots, target - c->next);
      const unsigned long long at = c->next & mask;
      const unsigned long long first = std::min(want, c->slots - at);
      if (check(sanitizerMemcpyDeviceToHost(c->staging, c->ring + at, first * sizeof(WsSlot), c->copy_stream),
                "copy the record ring") != SANITIZER_SUCCESS)
        return flush();
      if (first < want &&
          check(sanitizerMemcpyDeviceToHost(c->staging + first, c->ring, (want - first) * sizeof(WsSlot), c->copy_stream),
                "copy the record ring") != SANITIZER_SUCCESS)
        return flush();
      const PackResult got = pack_records(c->staging, want, c->next + 1, batch, c->launch_written);
      count += got.records;
      c->next += got.slots;
      if (!got.records) break;  // claimed but not written yet
      progress = true;
      *c->consumed = c->next;  // the GPU reads this only when the ring is full
      if (batch.size() > (4u << 20)) flush();  // batches bounded: the channel may be smaller than a launch
    }
    if (finished && c->next >= target) break;
    if (progress) {
      idle = 0;
      continue;
    }
    if (++idle > 2000000) {  // ~10 minutes without a record or the end of the kernel
      note("the traced kernel made no progress for minutes: giving up on it");
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(idle < 100 ? 5 : 100));
  }
  flush();
}

// Reports a launch whose kernel has finished and been drained.
void finish_launch(Context* c, const PendingLaunch& p, bool complete_launch) {
  WsLaunchParams params{};
  check(sanitizerMemcpyDeviceToHost(&params, c->params + p.param_slot, sizeof params, c->copy_stream),
        "read launch counters");
  LaunchEndBody b{};
  b.launch = p.launch;
  b.complete = complete_launch ? 1 : 0;
  for (const auto& counter : params.executed) b.executed += counter[0];
  {
    std::lock_guard lock(g_drain_mutex);
    b.written = c->launch_written[p.launch];
    c->launch_written.erase(p.launch);
  }
  MessageWriter m(MessageType::LaunchEnd);
  m.put_raw(&b, sizeof b);
  send_bytes(m.finish());
}

void send_device(CUdevice device) {
  using GetName = CUresult (*)(char*, int, CUdevice);
  using GetAttr = CUresult (*)(int*, CUdevice_attribute, CUdevice);
  auto get_name = cuda_symbol<GetName>("cuDeviceGetName");
  auto get_attr = cuda_symbol<GetAttr>("cuDeviceGetAttribute");
  char name[256] = "";
  int major = 0, minor = 0, sms = 0;
  if (get_name) get_name(name, sizeof name, device);
  if (get_attr) {
    get_attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    get_attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    get_attr(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  }
  MessageWriter m(MessageType::Device);
  m.put_u32(static_cast<std::uint32_t>(device));
  m.put_u32(static_cast<std::uint32_t>(major));
  m.put_u32(static_cast<std::uint32_t>(minor));
  m.put_u32(static_cast<std::uint32_t>(sms));
  m.put_blob(name);
  send_bytes(m.finish());
}

// Called when a context is created: the place the Sanitizer API guide's
// samples create private streams.
Context* create_context(CUcontext ctx) {
  auto* c = new Context;
  c->ctx = ctx;
  c->slots = g_opt.ring_records;
  void* p = nullptr;
  check(sanitizerAlloc(ctx, &p, sizeof(WsSlot) * c->slots), "sanitizerAlloc(ring)");
  c->ring = static_cast<WsSlot*>(p);
  // seq 0 never matches: a fresh ring holds no complete slot.
  if (c->ring) check(sanitizerMemset(c->ring, 0, sizeof(WsSlot) * c->slots, nullptr), "sanitizerMemset(ring)");
  p = nullptr;
  check(sanitizerAllocHost(ctx, &p, sizeof(WsSlot) * kStagingSlots), "sanitizerAllocHost(staging)");
  c->staging = static_cast<WsSlot*>(p);
  p = nullptr;
  check(sanitizerAllocHost(ctx, &p, 2 * sizeof(unsigned long long)), "sanitizerAllocHost(consumed)");
  c->consumed = static_cast<unsigned long long*>(p);
  c->epoch_source = c->consumed ? c->consumed + 1 : nullptr;
  if (c->consumed) *c->consumed = 0;
  p = nullptr;
  check(sanitizerAlloc(ctx, &p, WS_COUNTER_WORDS * sizeof(unsigned long long)), "sanitizerAlloc(counters)");
  c->device_counters = static_cast<unsigned long long*>(p);
  if (c->device_counters)
    check(sanitizerMemset(c->device_counters, 0, WS_COUNTER_WORDS * sizeof(unsigned long long), nullptr),
          "sanitizerMemset");
  p = nullptr;
  check(sanitizerAlloc(ctx, &p, sizeof(WsLaunchParams) * WS_PARAM_SLOTS), "sanitizerAlloc(params)");
  c->params = static_cast<WsLaunchParams*>(p);
  c->host_params.resize(WS_PARAM_SLOTS);
  using StreamCreate = CUresult (*)(CUstream*, unsigned);
  auto stream_create = cuda_symbol<StreamCreate>("cuStreamCreate");
  CUstream stream = nullptr;
  if (stream_create && stream_create(&stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS)
    check(sanitizerGetStreamHandle(ctx, stream, &c->copy_stream), "sanitizerGetStreamHandle");
  else
    note("could not create the tracer's copy stream: nothing will be recorded");
  c->ready = c->ring && c->staging && c->consumed && c->device_counters && c->params && c->copy_stream;
  return c;
}

Context* context_for(CUcontext ctx) {
  std::lock_guard lock(g_contexts_mutex);
  auto it = g_contexts.find(ctx);
  if (it != g_contexts.end()) return it->second;
  Context* c = create_context(ctx);
  g_contexts[ctx] = c;
  return c;
}

// ---- callbacks ----

void on_module_loaded(const Sanitizer_ResourceModuleData* md) {
  Context* c = context_for(md->context);
  if (!c->patches_added) {
    check(sanitizerAddPatchesFromFile(g_opt.patches.c_str(), md->context), "sanitizerAddPatchesFromFile");
    c->patches_added = true;
  }
  check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, md->module, "ws_global"),
        "sanitizerPatchInstructions(global)");
  check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, md->module, "ws_shared"),
        "sanitizerPatchInstructions(shared)");
  check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, md->module, "ws_local"),
        "sanitizerPatchInstructions(local)");
  check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS, md->module, "ws_matrix"),
        "sanitizerPatchInstructions(matrix)");
  check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_MEMCPY_ASYNC, md->module, "ws_memcpy_async"),
        "sanitizerPatchInstructions(memcpy async)");
  check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BULK_COPY_GLOBAL_TO_SHARED, md->module, "ws_bulk_to_shared"),
        "sanitizerPatchInstructions(bulk copy to shared)");
  check(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_GLOBAL, md->module, "ws_bulk_to_global"),
        "sanitizerPatchInstructions(bulk copy to global)");
  check(sanitizerPatchModule(md->module), "sanitizerPatchModule");
  MessageWriter m(MessageType::Module);
  m.put_u64(reinterpret_cast<std::uint64_t>(md->module));
  m.put_blob(std::string_view(md->pCubin ? md->pCubin : "", md->pCubin ? md->cubinSize : 0));
  send_bytes(m.finish());
}

bool selected(const std::string& name) {
  if (g_opt.launches && g_traced_launches.load() >= g_opt.launches) return false;
  if (g_opt.kernel.empty()) return true;
  static const std::regex re(g_opt.kernel);
  return std::regex_search(name, re);
}

struct LaunchState {
  std::uint32_t launch = 0, slot = 0;
  bool traced = false;
};
std::mutex g_launch_mutex;
std::map<Sanitizer_LaunchHandle, LaunchState> g_launches;

void on_launch_begin(const Sanitizer_LaunchData* ld, bool graph_node) {
  Context* c = context_for(ld->context);
  if (!c->ready) return;
  const std::uint32_t launch = g_next_launch++;
  const std::string name = demangle(ld->functionName);
  const bool traced = selected(name);
  if (traced) ++g_traced_launches;
  std::uint64_t pc = 0, size = 0;
  check(sanitizerGetFunctionPcAndSize(ld->module, ld->functionName, &pc, &size), "sanitizerGetFunctionPcAndSize");

  LaunchHead h{};
  h.launch = launch;
  h.device = static_cast<std::uint32_t>(ld->device);
  h.module = reinterpret_cast<std::uint64_t>(ld->module);
  h.function_pc = pc;
  h.function_size = size;
  h.grid[0] = ld->gridDim_x, h.grid[1] = ld->gridDim_y, h.grid[2] = ld->gridDim_z;
  h.block[0] = ld->blockDim_x, h.block[1] = ld->blockDim_y, h.block[2] = ld->blockDim_z;
  h.dynamic_shared = graph_node ? 0 : t_dynamic_shared;
  h.traced = traced;
  const unsigned long long ctas = std::uint64_t{ld->gridDim_x} * ld->gridDim_y * ld->gridDim_z;
  h.cta_stride = g_opt.sample_ctas && ctas > g_opt.sample_ctas
                     ? static_cast<std::uint32_t>((ctas + g_opt.sample_ctas - 1) / g_opt.sample_ctas)
                     : 1;
  h.graph = graph_node;
  MessageWriter m(MessageType::Launch);
  m.put_raw(&h, sizeof h);
  m.put_blob(ld->functionName);
  send_bytes(m.finish());

  const std::uint32_t slot = launch % WS_PARAM_SLOTS;
  WsLaunchParams& p = c->host_params[slot];
  p = WsLaunchParams{};
  p.ring = c->ring;
  p.counters = c->device_counters;
  p.consumed = c->consumed;
  p.ring_mask = c->slots - 1;
  p.max_records = g_opt.max_records;
  p.launch = launch;
  p.enabled = traced && g_opt.fd >= 0;
  p.cta_stride = h.cta_stride;
  Sanitizer_StreamHandle stream = ld->hStream ? ld->hStream : ld->hApiStream;
  check(sanitizerMemcpyHostToDeviceAsync(c->params + slot, &p, sizeof p, stream), "copy launch parameters");
  // Graph nodes of one graph launch share launch data (measured: the last
  // node's wins), so they get theirs per function instead.
  if (graph_node)
    check(sanitizerSetCallbackData(ld->function, c->params + slot), "sanitizerSetCallbackData");
  else
    check(sanitizerSetLaunchCallbackData(ld->hLaunch, ld->function, stream, c->params + slot),
          "sanitizerSetLaunchCallbackData");
  std::lock_guard lock(g_launch_mutex);
  g_launches[ld->hLaunch] = LaunchState{launch, slot, traced};
}

void on_launch_end(const Sanitizer_LaunchData* ld, bool graph_node) {
  LaunchState st;
  {
    std::lock_guard lock(g_launch_mutex);
    auto it = g_launches.find(ld->hLaunch);
    if (it == g_launches.end()) return;
    st = it->second;
    g_launches.erase(it);
  }
  Context* c = context_for(ld->context);
  const PendingLaunch p{st.launch, st.slot};
  if (graph_node) {  // runs inside its graph: reported at the end of the graph launch
    std::lock_guard lock(g_drain_mutex);
    c->pending.push_back(p);
    return;
  }
  // Traced launches run synchronously: drained here, while the kernel runs.
  if (st.traced) drain_until_finished(c, ld->hStream);
  finish_launch(c, p, true);
}

void on_graph_launch_end(const Sanitizer_GraphLaunchData* gd) {
  Context* c = context_for(gd->context);
  if (!c->ready) return;
  drain_until_finished(c, gd->hStream);
  std::vector<PendingLaunch> done;
  {
    std::lock_guard lock(g_drain_mutex);
    done.swap(c->pending);
  }
  for (const auto& p : done) finish_launch(c, p, true);
}

void on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const Sanitizer_CallbackData* cd) {
  if (cd->callbackSite != SANITIZER_API_ENTER || !cd->functionParams) return;
  if (domain == SANITIZER_CB_DOMAIN_DRIVER_API) {
    if (cbid == SANITIZER_CBID_DRIVER_API_cuLaunchKernel || cbid == SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz)
      t_dynamic_shared = static_cast<const cuLaunchKernel_params*>(cd->functionParams)->sharedMemBytes;
    else if (cbid == SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx || cbid == SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz) {
      const auto* cfg = static_cast<const cuLaunchKernelEx_params*>(cd->functionParams)->config;
      t_dynamic_shared = cfg ? cfg->sharedMemBytes : 0;
    }
  } else if (domain == SANITIZER_CB_DOMAIN_RUNTIME_API) {
    if (cbid == SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel || cbid == SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz)
      t_dynamic_shared =
          static_cast<std::uint32_t>(static_cast<const cudaLaunchKernel_v7000_params*>(cd->functionParams)->sharedMem);
  }
}

void SANITIZERAPI callback(void*, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* cbdata) {
  if (g_opt.debug) std::fprintf(stderr, "[warpscope inject] domain %d cbid %u\n", int(domain), unsigned(cbid));
  switch (domain) {
    case SANITIZER_CB_DOMAIN_DRIVER_API:
    case SANITIZER_CB_DOMAIN_RUNTIME_API:
      on_api(domain, cbid, static_cast<const Sanitizer_CallbackData*>(cbdata));
      return;
    case SANITIZER_CB_DOMAIN_RESOURCE:
      if (cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED) {
        const auto* d = static_cast<const Sanitizer_ResourceContextData*>(cbdata);
        send_device(d->device);
        context_for(d->context);
      } else if (cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED) {
        on_module_loaded(static_cast<const Sanitizer_ResourceModuleData*>(cbdata));
      }
      return;
    case SANITIZER_CB_DOMAIN_LAUNCH: {
      const auto* ld = static_cast<const Sanitizer_LaunchData*>(cbdata);
      if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) on_launch_begin(ld, false);
      else if (cbid == SANITIZER_CBID_LAUNCH_END) on_launch_end(ld, false);
      return;
    }
    case SANITIZER_CB_DOMAIN_GRAPHS: {
      // Kernel nodes of a graph launch come here, not through the launch domain.
      if (cbid == SANITIZER_CBID_GRAPHS_LAUNCH_END) {
        const auto* gd = static_cast<const Sanitizer_GraphLaunchData*>(cbdata);
        if (!gd->isGraphUpload) on_graph_launch_end(gd);
        return;
      }
      if (cbid != SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN && cbid != SANITIZER_CBID_GRAPHS_NODE_LAUNCH_END) return;
      const auto* gd = static_cast<const Sanitizer_GraphNodeLaunchData*>(cbdata);
      if (gd->nodeType != CU_GRAPH_NODE_TYPE_KERNEL || gd->isGraphUpload) return;
      if (cbid == SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN) on_launch_begin(&gd->launchData, true);
      else on_launch_end(&gd->launchData, true);
      return;
    }
    default: return;
  }
}

void at_exit() {
  if (!g_enabled) return;
  MessageWriter m(MessageType::Bye);
  m.put_u64(g_records_sent.load());
  send_bytes(m.finish());
}

}  // namespace

extern "C" int InitializeInjection() {
  static bool done = false;
  if (done) return 1;
  done = true;
  const char* fd = std::getenv("WARPSCOPE_TRACE_FD");
  const char* pid = std::getenv("WARPSCOPE_TRACE_PID");
  if (!fd || !pid) return 1;
  if (std::strtol(pid, nullptr, 10) != ::getpid()) return 1;  // a child process of the traced application
  g_opt.fd = static_cast<int>(std::strtol(fd, nullptr, 10));
  g_opt.patches = std::getenv("WARPSCOPE_PATCHES") ? std::getenv("WARPSCOPE_PATCHES") : "";
  g_opt.kernel = std::getenv("WARPSCOPE_KERNEL") ? std::getenv("WARPSCOPE_KERNEL") : "";
  g_opt.launches = env_u64("WARPSCOPE_LAUNCHES", 0);
  g_opt.max_records = env_u64("WARPSCOPE_MAX_RECORDS", 0);
  g_opt.sample_ctas = env_u64("WARPSCOPE_SAMPLE_CTAS", 0);
  g_opt.ring_records = env_u64("WARPSCOPE_RING_RECORDS", 1u << 22);
  g_opt.debug = std::getenv("WARPSCOPE_INJECT_DEBUG") != nullptr;
  ::unsetenv("CUDA_INJECTION64_PATH");  // processes the application starts are not traced
  ::fcntl(g_opt.fd, F_SETFD, FD_CLOEXEC);
  if (const char* shm = std::getenv("WARPSCOPE_TRACE_SHM_FD")) {
    const int shm_fd = static_cast<int>(std::strtol(shm, nullptr, 10));
    ::fcntl(shm_fd, F_SETFD, FD_CLOEXEC);
    g_channel.attach(shm_fd);  // not a ring: everything goes down the socket
    ::close(shm_fd);           // the mapping stays
  }

  MessageWriter hello(MessageType::Hello);
  hello.put_u32(kProtocolVersion);
  hello.put_u32(static_cast<std::uint32_t>(::getpid()));
  send_bytes(hello.finish());

  if (sanitizerSubscribe(&g_subscriber, callback, nullptr) != SANITIZER_SUCCESS) {
    note("sanitizerSubscribe failed: is another CUDA tool (compute-sanitizer, a profiler) attached?");
    return 1;
  }
  sanitizerEnableDomain(1, g_subscriber, SANITIZER_CB_DOMAIN_RESOURCE);
  sanitizerEnableDomain(1, g_subscriber, SANITIZER_CB_DOMAIN_LAUNCH);
  sanitizerEnableDomain(1, g_subscriber, SANITIZER_CB_DOMAIN_GRAPHS);
  for (auto cbid : {SANITIZER_CBID_DRIVER_API_cuLaunchKernel, SANITIZER_CBID_DRIVER_API_cuLaunchKernel_ptsz,
                    SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx, SANITIZER_CBID_DRIVER_API_cuLaunchKernelEx_ptsz})
    sanitizerEnableCallback(1, g_subscriber, SANITIZER_CB_DOMAIN_DRIVER_API, cbid);
  for (auto cbid : {SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel, SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel_ptsz})
    sanitizerEnableCallback(1, g_subscriber, SANITIZER_CB_DOMAIN_RUNTIME_API, cbid);
  g_enabled = true;
  std::atexit(at_exit);
  return 1;
}

// LD_PRELOAD: initialise when loaded (InitializeInjection guards against a second call).
namespace {
[[maybe_unused]] const int g_preload_init = [] {
  if (std::getenv("WARPSCOPE_TRACE_PRELOAD")) InitializeInjection();
  return 0;
}();
}  // namespace
