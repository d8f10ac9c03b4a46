// barrier_probe.cu -- mbarrier and the bulk copies (cp.async.bulk, SASS UBLKCP; sm_90) on the H100,
// recorded for warpscope's PTX interpreter (validation/ptx_check.sh barrier_probe OUT;
// docs/VALIDATION.md "mbarrier").
//
// 1. mbar_wait: 16 CTAs of 128 threads; every thread writes a shared word, arrives on an mbarrier
//    initialised for the whole CTA and waits for the phase (mode 0: test_wait, 1: try_wait, 2:
//    try_wait.parity, 3: two phases, 4: arrive of count 2 by even lanes only, 5: arrive.release.cta,
//    6: arrive_drop in phase 0 by the odd warps, who leave; phase 1 waits for the rest), then reads
//    another thread's word: what Nsight Compute counts for the barrier instructions themselves.
// 2. cxx_barrier: cuda::barrier's arrive_and_wait (what libcu++ makes of it).
// 3. cpasync_noinc: cp.async then cp.async.mbarrier.arrive(.noinc), waited on the mbarrier.
// 4. bulk_g2s: thread 0 copies SIZE bytes at byte OFFSET of global memory into shared memory with
//    cp.async.bulk ... mbarrier::complete_tx::bytes, REPS times (the repeats find the data in L2);
//    every thread waits on the barrier's parity, then folds a word of the copy into out[].
// 5. bulk_s2g: the CTA writes shared memory, then thread 0 copies SIZE bytes of it to global memory
//    at OFFSET with cp.async.bulk.global.shared::cta.bulk_group (commit_group, wait_group 0).
// 6. bulk_prefetch: cp.async.bulk.prefetch.L2 of SIZE bytes, then every thread loads the same bytes.
// 7. memcpy_barrier: cuda::memcpy_async(block, ..., cuda::aligned_size_t<16>(N), barrier): a bulk
//    copy on sm_90; memcpy_barrier4: the same with only 4-byte alignment known (per-thread copies).
// Every launch's out[] gets a checksum in run.txt; the interpreter's must be equal.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o barrier_probe barrier_probe.cu
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"

namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ unsigned long long mbar_arrive(unsigned bar) {
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
  return state;
}
__device__ __forceinline__ unsigned long long mbar_arrive_count(unsigned bar, unsigned count) {
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(state) : "r"(bar), "r"(count) : "memory");
  return state;
}
__device__ __forceinline__ unsigned long long mbar_arrive_release(unsigned bar) {
  unsigned long long state;
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
  return state;
}
__device__ __forceinline__ void mbar_arrive_drop(unsigned bar) {
  asm volatile("mbarrier.arrive_drop.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ bool mbar_test_wait(unsigned bar, unsigned long long state) {
  unsigned ok;
  asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
               : "=r"(ok) : "r"(bar), "l"(state) : "memory");
  return ok != 0;
}
__device__ __forceinline__ bool mbar_try_wait(unsigned bar, unsigned long long state) {
  unsigned ok;
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
               : "=r"(ok) : "r"(bar), "l"(state) : "memory");
  return ok != 0;
}
__device__ __forceinline__ bool mbar_try_wait_parity(unsigned bar, unsigned parity) {
  unsigned ok;
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
               : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
  return ok != 0;
}
__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity) {
  while (!mbar_try_wait_parity(bar, parity)) {
  }
}
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

__global__ void fill(unsigned* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = mix(i + 1);
}

// ---- 1. the barrier instructions --------------------------------------------------------------------
__global__ void mbar_wait(unsigned* out, int mode) {
  __shared__ __align__(8) unsigned long long bar;
  __shared__ unsigned words[128];
  const unsigned t = threadIdx.x, b = smem(&bar);
  if (t == 0) mbar_init(b, mode == 4 ? 128 : blockDim.x);
  __syncthreads();
  words[t] = mix(t + 1000 * blockIdx.x);
  unsigned r = 0;
  if (mode == 0) {
    const unsigned long long s = mbar_arrive(b);
    while (!mbar_test_wait(b, s)) {
    }
  } else if (mode == 1) {
    const unsigned long long s = mbar_arrive(b);
    while (!mbar_try_wait(b, s)) {
    }
  } else if (mode == 2) {
    mbar_arrive(b);
    wait_parity(b, 0);
  } else if (mode == 3) {
    mbar_arrive(b);
    wait_parity(b, 0);
    r = words[(t + 1) % 128];
    __syncthreads();  // everyone has read before the words change
    words[t] = r * 3u;
    mbar_arrive(b);
    wait_parity(b, 1);
  } else if (mode == 4) {
    if ((t & 1) == 0) mbar_arrive_count(b, 2);
    wait_parity(b, 0);
  } else if (mode == 5) {
    mbar_arrive_release(b);
    wait_parity(b, 0);
  } else {
    // Phase 0: every thread; the odd warps drop out of the barrier and leave.
    if ((t >> 5) & 1) {
      mbar_arrive_drop(b);
      out[blockIdx.x * blockDim.x + t] = 0;
      return;
    }
    mbar_arrive(b);
    wait_parity(b, 0);
    r = words[(t + 32) % 128];
    words[t] = r + 7u;
    mbar_arrive(b);  // phase 1 expects only the 64 threads left
    wait_parity(b, 1);
    out[blockIdx.x * blockDim.x + t] = words[(t + 64) % 128] ^ r;
    return;
  }
  out[blockIdx.x * blockDim.x + t] = words[(t + 37) % 128] + r;
}

// ---- 2. cuda::barrier --------------------------------------------------------------------------------
__global__ void cxx_barrier(unsigned* out) {
  __shared__ unsigned words[128];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  words[threadIdx.x] = mix(threadIdx.x + 77 * blockIdx.x);
  bar.arrive_and_wait();
  const unsigned r = words[(threadIdx.x + 5) % 128];
  bar.arrive_and_wait();
  words[threadIdx.x] = r ^ 0x55u;
  bar.arrive_and_wait();
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[127 - threadIdx.x];
}

// ---- 3. cp.async completing on an mbarrier ------------------------------------------------------------
__global__ void cpasync_noinc(const unsigned* g, unsigned* out, int noinc) {
  __shared__ __align__(8) unsigned long long bar;
  __shared__ __align__(16) unsigned words[128 * 4];
  const unsigned t = threadIdx.x, b = smem(&bar);
  if (t == 0) mbar_init(b, noinc ? 2 * blockDim.x : blockDim.x);
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem(&words[4 * t])),
               "l"(g + 4 * (blockIdx.x * blockDim.x + t)) : "memory");
  if (noinc)
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(b) : "memory");
  else
    asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" ::"r"(b) : "memory");
  mbar_arrive(b);
  wait_parity(b, 0);
  const unsigned o = 4 * ((t + 9) % 128);
  out[blockIdx.x * blockDim.x + t] = words[o] * 3u + words[o + 1] + words[o + 2] * 5u + words[o + 3];
}

// ---- 4. bulk copies, global to shared ---------------------------------------------------------------
__global__ void bulk_g2s(const unsigned char* g, unsigned* out, int size, int offset, int reps) {
  __shared__ __align__(8) unsigned long long bar;
  __shared__ __align__(128) unsigned words[4096];
  const unsigned t = threadIdx.x, b = smem(&bar);
  if (t == 0) {
    mbar_init(b, 1);
    fence_init();
  }
  __syncthreads();
  const unsigned char* src = g + static_cast<size_t>(blockIdx.x) * 65536 + offset;
  unsigned acc = 0;
  for (int r = 0; r < reps; ++r) {
    if (t == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(size) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                       smem(words)),
                   "l"(src), "r"(size), "r"(b)
                   : "memory");
    }
    wait_parity(b, r & 1);
    const int n = size / 4;
    for (int i = t; i < n; i += blockDim.x) acc = acc * 31u + words[i];
    __syncthreads();  // all have read before the next copy overwrites
  }
  out[blockIdx.x * blockDim.x + t] = acc;
}

// ---- 5. bulk copies, shared to global ---------------------------------------------------------------
__global__ void bulk_s2g(unsigned char* g, int size, int offset) {
  __shared__ __align__(128) unsigned words[4096];
  for (int i = threadIdx.x; i < size / 4; i += blockDim.x) words[i] = mix(i + 131 * blockIdx.x);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                     g + static_cast<size_t>(blockIdx.x) * 65536 + offset),
                 "r"(smem(words)), "r"(size)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

// ---- 6. L2 prefetch ----------------------------------------------------------------------------------
__global__ void bulk_prefetch(const unsigned* g, unsigned* out, int size) {
  const unsigned* src = g + static_cast<size_t>(blockIdx.x) * 16384;
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(size) : "memory");
  __syncthreads();
  unsigned acc = 0;
  for (int i = threadIdx.x; i < size / 4; i += blockDim.x) acc = acc * 31u + src[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// ---- 7. cuda::memcpy_async with a barrier -------------------------------------------------------------
template <bool ALIGNED16>
__global__ void memcpy_barrier(const unsigned* g, unsigned* out, int n) {
  __shared__ __align__(16) unsigned words[4096];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const unsigned* src = g + static_cast<size_t>(blockIdx.x) * 16384;
  if constexpr (ALIGNED16)
    cuda::memcpy_async(block, words, src, cuda::aligned_size_t<16>(n * sizeof(unsigned)), bar);
  else
    cuda::memcpy_async(block, words, src, n * sizeof(unsigned), bar);
  bar.arrive_and_wait();
  unsigned acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc = acc * 31u + words[n - 1 - i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  char label[96];
  unsigned *g, *out, *gw;
  CK(cudaMalloc(&g, 4 << 20));
  CK(cudaMalloc(&out, 16 * 128 * 4));
  CK(cudaMalloc(&gw, 4 << 20));
  run("fill", fill, dim3(64), dim3(256), g, 1 << 20);
  const unsigned char* g8 = reinterpret_cast<const unsigned char*>(g);
  const size_t out_bytes = 16 * 128 * 4;

  for (int mode = 0; mode < 7; ++mode) {
    std::snprintf(label, sizeof label, "mbar_wait/m%d", mode);
    run("mbar_wait", mbar_wait, dim3(16), dim3(128), out, mode);
    checksum(label, out, out_bytes);
  }
  run("cxx_barrier", cxx_barrier, dim3(16), dim3(128), out);
  checksum("cxx_barrier", out, out_bytes);
  for (int noinc = 0; noinc < 2; ++noinc) {
    std::snprintf(label, sizeof label, "cpasync_noinc/n%d", noinc);
    run("cpasync_noinc", cpasync_noinc, dim3(16), dim3(128), (const unsigned*)g, out, noinc);
    checksum(label, out, out_bytes);
  }
  for (int size : {16, 32, 48, 64, 96, 128, 144, 256, 512, 1024, 4096, 16384})
    for (int offset : {0, 16, 48, 112}) {
      if (size >= 1024 && offset != 0 && offset != 16) continue;
      std::snprintf(label, sizeof label, "bulk_g2s/s%d/o%d", size, offset);
      run("bulk_g2s", bulk_g2s, dim3(16), dim3(128), g8, out, size, offset, 2);
      checksum(label, out, out_bytes);
    }
  for (int size : {16, 64, 128, 256, 4096})
    for (int offset : {0, 16, 48}) {
      CK(cudaMemset(gw, 0, 16 * 65536 + 4096));
      std::snprintf(label, sizeof label, "bulk_s2g/s%d/o%d", size, offset);
      run("bulk_s2g", bulk_s2g, dim3(16), dim3(128), (unsigned char*)gw, size, offset);
      checksum(label, gw, 16 * 65536);
    }
  for (int size : {128, 4096}) {
    std::snprintf(label, sizeof label, "bulk_prefetch/s%d", size);
    run("bulk_prefetch", bulk_prefetch, dim3(16), dim3(128), (const unsigned*)g, out, size);
    checksum(label, out, out_bytes);
  }
  for (int n : {256, 4096}) {
    std::snprintf(label, sizeof label, "memcpy_barrier16/n%d", n);
    run("memcpy_barrier16", memcpy_barrier<true>, dim3(16), dim3(128), (const unsigned*)g, out, n);
    checksum(label, out, out_bytes);
    std::snprintf(label, sizeof label, "memcpy_barrier4/n%d", n);
    run("memcpy_barrier4", memcpy_barrier<false>, dim3(16), dim3(128), (const unsigned*)g, out, n);
    checksum(label, out, out_bytes);
  }
  return 0;
}
