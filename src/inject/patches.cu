// Device half of the GPU tracer: Compute Sanitizer patch functions, called in
// every active thread before each global, shared and local memory instruction, ldmatrix / stmatrix and
// cp.async
// (compiled with nvcc --fatbin --compile-as-tools-patch). The lanes of a warp
// that execute the same instruction build one record together: the leader
// claims a ring slot, the others add their addresses, and a warp whose
// addresses are base + rank * stride sends only those two numbers.
#include <sanitizer_patching.h>

#include "ring.h"

namespace {

__device__ __forceinline__ unsigned lane_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

// XOR of `v` over the lanes in mask, in every lane of mask (redux.sync is not
// allowed in tools patches, so one shuffle per active lane).
__device__ __forceinline__ uint64_t xor_of_lanes(unsigned mask, uint64_t v) {
  uint64_t x = 0;
  for (unsigned m = mask; m; m &= m - 1) x ^= __shfl_sync(mask, v, __ffs(m) - 1);
  return x;
}

// The leader of a record: claims `slots` ring slots at *slot, waiting for room, unless --max-records is reached
// (false: counted as executed, not written).
__device__ __forceinline__ bool claim(WsLaunchParams* p, unsigned long long slots, unsigned long long& slot) {
  if (p->max_records != 0 && atomicAdd(p->counters + WS_COUNTER_RECORDS, 1ull) >= p->max_records) return false;
  slot = atomicAdd(p->counters + WS_COUNTER_RESERVE, slots);
  // Wait for room: the device copy of the host's progress first, the host's
  // own counter (across PCIe) only when that says full.
  const unsigned long long last = slot + slots - 1;
  unsigned long long seen = *reinterpret_cast<volatile unsigned long long*>(p->counters + WS_COUNTER_CONSUMED_SEEN);
  if (last - seen > p->ring_mask) {
    do {
      seen = *p->consumed;
      if (last - seen > p->ring_mask) __nanosleep(2000);
    } while (last - seen > p->ring_mask);
    atomicMax(p->counters + WS_COUNTER_CONSUMED_SEEN, seen);
  }
  return true;
}

__device__ __forceinline__ uint32_t linear_cta() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

__device__ __forceinline__ void record(void* userdata, uint64_t pc, uint64_t addr, uint32_t size, uint32_t flags,
                                       uint8_t space) {
  WsLaunchParams* p = static_cast<WsLaunchParams*>(userdata);
  if (p == nullptr || !p->enabled) return;
  const uint32_t cta = linear_cta();
  if (p->cta_stride > 1 && cta % p->cta_stride != 0) return;

  // Lanes at this instruction now (one record per converged group, keyed by PC).
  const unsigned mask = __match_any_sync(__activemask(), pc);
  const unsigned lane = lane_id();
  const unsigned leader = __ffs(mask) - 1;
  const unsigned rest = mask & ~(1u << leader);
  const unsigned second = rest ? __ffs(rest) - 1 : leader;
  const uint64_t base = __shfl_sync(mask, addr, leader);
  const int64_t stride = static_cast<int64_t>(__shfl_sync(mask, addr, second) - base);
  const unsigned rank = __popc(mask & ((1u << lane) - 1u));
  const bool strided = __all_sync(mask, addr == base + static_cast<uint64_t>(stride * static_cast<int64_t>(rank)));

  const unsigned sm = sm_id();
  if (lane == leader) atomicAdd(&p->executed[sm % WS_EXECUTED_COUNTERS][0], 1ull);
  unsigned long long slot = 0;
  bool write = true;
  const unsigned long long slots = strided ? 1 : 1 + WS_ADDRESS_SLOTS;
  if (lane == leader) write = claim(p, slots, slot);
  if (!__shfl_sync(mask, write, leader)) return;  // counted in executed, not written (--max-records)
  slot = __shfl_sync(mask, slot, leader);

  WsSlot* s = p->ring + (slot & p->ring_mask);
  if (!strided) reinterpret_cast<uint64_t*>(p->ring + ((slot + 1 + lane / 8) & p->ring_mask))[lane % 8] = addr;
  // The header as 7 words, each written by one lane.
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const uint64_t ids = p->launch | static_cast<uint64_t>(cta) << 32;
  const uint64_t lanes = mask | static_cast<uint64_t>(tid / WS_WARP) << 32 | static_cast<uint64_t>(sm) << 48;
  const uint64_t kind = space | (flags & 0xffu) << 8 | (size & 0xffu) << 16 | static_cast<uint64_t>(strided ? 0 : 1) << 24;
  uint64_t check = (slot + 1) ^ pc ^ base ^ static_cast<uint64_t>(stride) ^ ids ^ lanes ^ kind;
  if (!strided) check ^= xor_of_lanes(mask, addr);
  const unsigned active = __popc(mask);
  uint64_t* header = const_cast<uint64_t*>(&s->seq) + 1;
  for (unsigned w = rank; w < 7; w += active)  // selects, not an indexed array: no local memory in the patch
    header[w] = w == 0 ? pc : w == 1 ? base : w == 2 ? static_cast<uint64_t>(stride) : w == 3 ? ids : w == 4 ? lanes
              : w == 5 ? kind : check;
  // Every lane's writes happen before the barrier; the leader's fence then
  // orders them all before the sequence number (PTX memory model: bar.warp.sync
  // orders memory among its threads; fences are cumulative). GPU scope is
  // enough for the copy engine, which reads the ring through L2 like the SMs;
  // the check word catches a record copied before it was whole.
  __syncwarp(mask);
  if (lane == leader) {
    __threadfence();
    s->seq = slot + 1;
  }
}

// A bulk copy (UBLKCP): one record of the warp's instruction, its descriptor in lanes 0-2 (global address,
// shared address, bytes; types.hpp Op::BulkLoad), written by the leader alone: the callback gives every active
// lane the same values.
__device__ __forceinline__ void record_bulk(void* userdata, uint64_t pc, uint64_t global, uint64_t shared,
                                            uint64_t bytes, uint8_t space) {
  WsLaunchParams* p = static_cast<WsLaunchParams*>(userdata);
  if (p == nullptr || !p->enabled) return;
  const uint32_t cta = linear_cta();
  if (p->cta_stride > 1 && cta % p->cta_stride != 0) return;
  const unsigned mask = __match_any_sync(__activemask(), pc);
  if (lane_id() != static_cast<unsigned>(__ffs(mask) - 1)) return;
  const unsigned sm = sm_id();
  atomicAdd(&p->executed[sm % WS_EXECUTED_COUNTERS][0], 1ull);
  unsigned long long slot = 0;
  if (!claim(p, 1 + WS_ADDRESS_SLOTS, slot)) return;
  uint64_t* lanes_words = reinterpret_cast<uint64_t*>(p->ring + ((slot + 1) & p->ring_mask));
  lanes_words[0] = global;
  lanes_words[1] = shared;
  lanes_words[2] = bytes;
  WsSlot* s = p->ring + (slot & p->ring_mask);
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const uint64_t ids = p->launch | static_cast<uint64_t>(cta) << 32;
  const uint64_t lanes = 0x7u | static_cast<uint64_t>(tid / WS_WARP) << 32 | static_cast<uint64_t>(sm) << 48;
  const uint64_t kind = space | uint64_t{16} << 16 | uint64_t{1} << 24;
  uint64_t* header = const_cast<uint64_t*>(&s->seq) + 1;
  header[0] = pc;
  header[1] = global;
  header[2] = 0;
  header[3] = ids;
  header[4] = lanes;
  header[5] = kind;
  header[6] = (slot + 1) ^ pc ^ global ^ ids ^ lanes ^ kind ^ global ^ shared ^ bytes;
  __threadfence();
  s->seq = slot + 1;
}

}  // namespace

// cp.async.bulk global -> shared (SANITIZER_INSTRUCTION_BULK_COPY_GLOBAL_TO_SHARED): `data` holds the number of
// 16-byte blocks in bits 0-15.
extern "C" __device__ __noinline__ SanitizerPatchResult ws_bulk_to_shared(void* userdata, uint64_t pc, uint64_t src,
                                                                          uint32_t dst, uint32_t, uint32_t data,
                                                                          uint32_t) {
  record_bulk(userdata, pc, src, dst, uint64_t{data & 0xffffu} * 16, 30);
  return SANITIZER_PATCH_SUCCESS;
}

// cp.async.bulk shared -> global (SANITIZER_INSTRUCTION_BULK_COPY_SHARED_TO_GLOBAL).
extern "C" __device__ __noinline__ SanitizerPatchResult ws_bulk_to_global(void* userdata, uint64_t pc, uint64_t dst,
                                                                          uint32_t src, uint32_t blocks) {
  record_bulk(userdata, pc, dst, src, uint64_t{blocks} * 16, 35);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult ws_global(void* userdata, uint64_t pc, void* ptr,
                                                                   uint32_t size, uint32_t flags, const void*) {
  record(userdata, pc, reinterpret_cast<uint64_t>(ptr), size, flags, 3);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult ws_shared(void* userdata, uint64_t pc, void* ptr,
                                                                   uint32_t size, uint32_t flags, const void*) {
  record(userdata, pc, reinterpret_cast<uint64_t>(ptr), size, flags, 4);
  return SANITIZER_PATCH_SUCCESS;
}

// ldmatrix / stmatrix: every lane reports its row's shared offset, but only lanes 8m..8m+7 of the
// `count` matrices give rows; the others stay out of the record.
extern "C" __device__ __noinline__ SanitizerPatchResult ws_matrix(void* userdata, uint64_t pc, uint32_t address,
                                                                   uint32_t size, uint32_t flags, uint32_t count,
                                                                   const void*) {
  if (lane_id() < 8 * count) record(userdata, pc, address, size, flags, 19);
  return SANITIZER_PATCH_SUCCESS;
}

// cp.async (LDGSTS): each lane's global source and shared destination offset, as two records (the
// source first; the host keeps them together, tracer/trace_session.cpp).
extern "C" __device__ __noinline__ SanitizerPatchResult ws_memcpy_async(void* userdata, uint64_t pc, void* src,
                                                                         uint32_t dst, uint32_t size) {
  record(userdata, pc, reinterpret_cast<uint64_t>(src), size, 0x1, 14);
  record(userdata, pc, dst, size, 0x2, 114);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult ws_local(void* userdata, uint64_t pc, void* ptr,
                                                                  uint32_t size, uint32_t flags, const void*) {
  record(userdata, pc, reinterpret_cast<uint64_t>(ptr), size, flags, 5);
  return SANITIZER_PATCH_SUCCESS;
}
