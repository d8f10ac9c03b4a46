// bulk_offsets.cu -- where the TMA cuts a bulk copy: every pair of global and shared offsets (0, 16, 48 and
// 112 B into a 128-byte block) for a 256-byte cp.async.bulk each way, its counters predicted from the PTX
// before the H100 ran it (validation/bulk_offsets/predicted.txt; docs/VALIDATION.md "mbarrier and bulk copies").
// rules/bulk_copy.hpp says the pieces end where the shared side crosses 128 bytes, whatever the global side
// does: validation/h100/barrier_probe copied at global offsets into aligned shared memory, bulk_pipeline at
// equal offsets or from aligned rows; this launch crosses them, in both directions.
// g2s<GO, SO>: thread 0 of each of 16 CTAs copies 256 B at GO past a line into shared memory at SO past a
// 128-byte block, twice (the second copy hits in L2), and every thread folds a word of it into out[].
// s2g<GO, SO>: the CTA fills shared memory, thread 0 copies 256 B at SO to global memory at GO.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o bulk_offsets bulk_offsets.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"

namespace {

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

}  // namespace

__global__ void fill(unsigned* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = i * 2654435761u;
}

template <int GO, int SO>
__global__ void g2s(const unsigned char* g, unsigned* out) {
  __shared__ __align__(128) unsigned char buf[512];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  unsigned acc = 0;
  for (int r = 0; r < 2; ++r) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::"r"(b) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" ::"r"(
                       smem(buf + SO)),
                   "l"(g + blockIdx.x * 4096 + GO), "r"(b)
                   : "memory");
    }
    unsigned ok = 0;
    while (!ok)
      asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                   : "=r"(ok) : "r"(b), "r"(r & 1) : "memory");
    acc = acc * 31u + reinterpret_cast<const unsigned*>(buf + SO)[threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int GO, int SO>
__global__ void s2g(unsigned char* g) {
  __shared__ __align__(128) unsigned buf[128];
  buf[threadIdx.x] = threadIdx.x * 7u + blockIdx.x;
  buf[threadIdx.x + 64] = threadIdx.x * 13u + blockIdx.x;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(g + blockIdx.x * 4096 + GO),
                 "r"(smem(reinterpret_cast<unsigned char*>(buf) + SO))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

template <int GO, int SO>
void both(const unsigned char* g, unsigned* out, unsigned char* w) {
  char label[64];
  std::snprintf(label, sizeof label, "g2s<%d, %d>", GO, SO);
  run(label, g2s<GO, SO>, dim3(16), dim3(64), g, out);
  checksum(label, out, 16 * 64 * 4);
  CK(cudaMemset(w, 0, 16 * 4096));
  std::snprintf(label, sizeof label, "s2g<%d, %d>", GO, SO);
  run(label, s2g<GO, SO>, dim3(16), dim3(64), w);
  checksum(label, w, 16 * 4096);
}

template <int GO>
void each_shared(const unsigned char* g, unsigned* out, unsigned char* w) {
  both<GO, 0>(g, out, w);
  both<GO, 16>(g, out, w);
  both<GO, 48>(g, out, w);
  both<GO, 112>(g, out, w);
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  unsigned *g, *out;
  unsigned char* w;
  CK(cudaMalloc(&g, 16 * 4096));
  CK(cudaMalloc(&out, 16 * 64 * 4));
  CK(cudaMalloc(&w, 16 * 4096));
  run("fill", fill, dim3(16), dim3(256), g, 16 * 1024);
  const unsigned char* g8 = reinterpret_cast<const unsigned char*>(g);
  each_shared<0>(g8, out, w);
  each_shared<16>(g8, out, w);
  each_shared<48>(g8, out, w);
  each_shared<112>(g8, out, w);
  return 0;
}
