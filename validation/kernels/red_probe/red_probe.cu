// red_probe.cu -- global reductions (REDG.E.ADD) whose lanes share addresses, the class the blind PTX check
// found the model over-counting (b_histogram64_global: 19,541 L2 requests on the H100, 23,783 modelled).
// Lane l of every warp adds into word (l % K) of one 128-byte line (K distinct addresses per warp), or into
// a random one of 64 words (two lines), the value either the constant 1 or lane-dependent. 256 CTAs x 256
// threads each; each kernel's REDs go to its own 4 KB, warp w to line w % 32 there.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o red_probe red_probe.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../suite/suite_common.cuh"

#define LANE_MOD(K)                                                                                   \
  __global__ void r_mod##K##_one(unsigned* acc) {                                                     \
    const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, l = threadIdx.x & 31;            \
    atomicAdd(&acc[(w & 31) * 32 + (l % K)], 1u);                                                     \
  }                                                                                                   \
  __global__ void r_mod##K##_lane(unsigned* acc) {                                                    \
    const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, l = threadIdx.x & 31;            \
    atomicAdd(&acc[(w & 31) * 32 + (l % K)], l + 1);                                                  \
  }
LANE_MOD(1)
LANE_MOD(2)
LANE_MOD(4)
LANE_MOD(8)
LANE_MOD(16)
LANE_MOD(32)

__global__ void r_bins64_one(const unsigned* keys, unsigned* acc) {
  atomicAdd(&acc[keys[blockIdx.x * blockDim.x + threadIdx.x] & 63], 1u);
}
__global__ void r_bins64_lane(const unsigned* keys, unsigned* acc) {
  const unsigned v = keys[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&acc[v & 63], (v >> 30) + 1);
}

static std::vector<uint32_t> random_words(size_t n, uint64_t seed) {  // warpscope's random:SEED fill
  std::vector<uint32_t> v(n);
  uint64_t s = seed;
  for (size_t i = 0; i < n; i += 2) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v[i] = (uint32_t)z;
    if (i + 1 < n) v[i + 1] = (uint32_t)(z >> 32);
  }
  return v;
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  unsigned* keys = upload(random_words(65536, 11));
  unsigned* acc = upload(std::vector<unsigned>(14 * 1024, 0u));
  const dim3 g(256), b(256);
  run("r_mod1_one", r_mod1_one, g, b, acc + 0 * 1024);
  run("r_mod1_lane", r_mod1_lane, g, b, acc + 1 * 1024);
  run("r_mod2_one", r_mod2_one, g, b, acc + 2 * 1024);
  run("r_mod2_lane", r_mod2_lane, g, b, acc + 3 * 1024);
  run("r_mod4_one", r_mod4_one, g, b, acc + 4 * 1024);
  run("r_mod4_lane", r_mod4_lane, g, b, acc + 5 * 1024);
  run("r_mod8_one", r_mod8_one, g, b, acc + 6 * 1024);
  run("r_mod8_lane", r_mod8_lane, g, b, acc + 7 * 1024);
  run("r_mod16_one", r_mod16_one, g, b, acc + 8 * 1024);
  run("r_mod16_lane", r_mod16_lane, g, b, acc + 9 * 1024);
  run("r_mod32_one", r_mod32_one, g, b, acc + 10 * 1024);
  run("r_mod32_lane", r_mod32_lane, g, b, acc + 11 * 1024);
  run("r_bins64_one", r_bins64_one, g, b, (const unsigned*)keys, acc + 12 * 1024);
  run("r_bins64_lane", r_bins64_lane, g, b, (const unsigned*)keys, acc + 13 * 1024);
  CK(cudaDeviceSynchronize());
  return 0;
}
