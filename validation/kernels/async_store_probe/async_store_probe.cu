// async_store_probe.cu -- st.async and red.async (sm_90): a store or reduction into another CTA of the cluster's
// shared memory whose bytes complete an mbarrier there (the producer side of CUTLASS-style cluster pipelines). What
// does the H100 count for them, next to the plain distributed-shared-memory stores of cluster_probe? Clusters of 2
// CTAs of 128 threads, 64 CTAs. Each CTA clears its 4,096 words s, arms its mbarrier for the bytes its peer will
// send, the cluster syncs, each warp writes 8 rounds into the peer's s (rank ^ 1) with one pattern, each CTA waits on
// its mbarrier and writes s to `out` for a checksum:
//   st_async<0>: b32, coalesced       st_async<1>: v4.b32, coalesced     st_async<2>: b32, a word every 128 bytes
//   st_async<3>: b64, coalesced       red_async<0>: add.u32, coalesced   red_async<1>: add.u32, one word a warp round
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o async_store_probe async_store_probe.cu
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"

namespace cg = cooperative_groups;

namespace {
constexpr int kWords = 4096, kThreads = 128, kCtas = 64;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ unsigned peer(unsigned addr, unsigned rank) {
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity) {
  unsigned ok = 0;
  while (!ok)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
}

// Clears s, arms the mbarrier for `bytes`, and syncs the cluster so that the peer writes only into an armed CTA.
__device__ __forceinline__ void arm(unsigned* s, unsigned bar, unsigned bytes, cg::cluster_group& cluster) {
  for (int i = threadIdx.x; i < kWords; i += kThreads) s[i] = 0;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
  }
  cluster.sync();
}

__device__ __forceinline__ void finish(const unsigned* s, unsigned bar, unsigned* out) {
  wait_parity(bar, 0);
  for (int i = threadIdx.x; i < kWords; i += kThreads) out[blockIdx.x * kWords + i] = s[i];
}
}  // namespace

template <int MODE>
__global__ void __cluster_dims__(2, 1, 1) st_async(unsigned* out) {
  __shared__ __align__(16) unsigned s[kWords];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), other = rank ^ 1;
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned bytes = MODE == 1 ? 4 * 4 * 32 * 8 * 4 : MODE == 3 ? 8 * 32 * 8 * 4 : 4 * 32 * 8 * 4;
  arm(s, smem(&bar), bytes, cluster);
  const unsigned rbar = peer(smem(&bar), other);
  for (int k = 0; k < 8; ++k) {
    const unsigned v = 1000u * rank + 32u * static_cast<unsigned>(w * 8 + k) + static_cast<unsigned>(lane);
    if (MODE == 0) {
      const unsigned a = peer(smem(&s[(w * 8 + k) * 32 + lane]), other);
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(a), "r"(v), "r"(rbar) : "memory");
    } else if (MODE == 1) {
      const unsigned a = peer(smem(&s[((w * 8 + k) * 32 + lane) * 4]), other);
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(a), "r"(v), "r"(v + 1),
                   "r"(v + 2), "r"(v + 3), "r"(rbar)
                   : "memory");
    } else if (MODE == 2) {
      const unsigned a = peer(smem(&s[(w * 8 + k + 32 * lane) % kWords]), other);
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(a), "r"(v), "r"(rbar) : "memory");
    } else {
      const unsigned a = peer(smem(&s[((w * 8 + k) * 32 + lane) * 2]), other);
      const unsigned long long v64 = (static_cast<unsigned long long>(v) << 32) | v;
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];" ::"r"(a), "l"(v64), "r"(rbar) : "memory");
    }
  }
  finish(s, smem(&bar), out);
  cluster.sync();
}

template <int MODE>
__global__ void __cluster_dims__(2, 1, 1) red_async(unsigned* out) {
  __shared__ __align__(16) unsigned s[kWords];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), other = rank ^ 1;
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  arm(s, smem(&bar), 4 * 32 * 8 * 4, cluster);
  const unsigned rbar = peer(smem(&bar), other);
  for (int k = 0; k < 8; ++k) {
    const int word = MODE == 0 ? (w * 8 + k) * 32 + lane : w * 8 + k;
    const unsigned a = peer(smem(&s[word]), other);
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" ::"r"(a),
                 "r"(static_cast<unsigned>(lane + 1 + rank)), "r"(rbar)
                 : "memory");
  }
  finish(s, smem(&bar), out);
  cluster.sync();
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  unsigned* out = nullptr;
  const size_t bytes = static_cast<size_t>(kCtas) * kWords * 4;
  CK(cudaMalloc(&out, bytes));
  struct Named {
    const char* name;
    void (*k)(unsigned*);
  };
  const Named launches[] = {{"st_async0", st_async<0>}, {"st_async1", st_async<1>}, {"st_async2", st_async<2>},
                            {"st_async3", st_async<3>}, {"red_async0", red_async<0>}, {"red_async1", red_async<1>}};
  for (const Named& n : launches) {
    CK(cudaMemset(out, 0, bytes));
    run(n.name, n.k, dim3(kCtas), dim3(kThreads), out);
    checksum(n.name, out, bytes);
  }
  return 0;
}
