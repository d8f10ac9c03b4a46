// cluster_probe.cu -- distributed shared memory (sm_90 thread block clusters): what the H100 counts when a CTA
// reads, writes and updates another CTA's shared memory, for the PTX interpreter's records to be modelled on.
// Every kernel runs clusters of 2 CTAs of 128 threads. Each CTA fills its 4,096-float array s (s[i] = i + 10000
// rank), the cluster syncs, and each warp accesses the other CTA's s (rank ^ 1) eight times with one pattern:
//   remote_ld<0>: coalesced 4-byte words       remote_ld<1>: every second word     remote_ld<2>: a word every 128 B
//   remote_ld<3>: one word for all lanes       remote_ld<4>: coalesced 16 bytes    remote_ld<5>: coalesced, 4 B off
//   remote_ld<6>: 8 lanes, coalesced           own_ld: the CTA's own s through a mapped (mapa) generic address
//   remote_st<0/2>: stores, coalesced / a word every 128 B                          remote_atom: atomicAdd, coalesced
// and writes what it read (or its own s after the other CTA wrote it) to `out` for a checksum.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o cluster_probe cluster_probe.cu
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../suite/suite_common.cuh"

namespace cg = cooperative_groups;

namespace {
constexpr int kWords = 4096, kThreads = 128;

__device__ __forceinline__ void fill(float* s, unsigned rank) {
  for (int i = threadIdx.x; i < kWords; i += kThreads) s[i] = static_cast<float>(i + 10000 * static_cast<int>(rank));
}

// The word lane `lane` of warp `w` reads in round k of pattern MODE.
template <int MODE>
__device__ __forceinline__ int word_of(int w, int lane, int k) {
  const int base = (w * 8 + k) * 32;
  switch (MODE) {
    case 0: return base + lane;
    case 1: return (base * 2 + 2 * lane) % kWords;
    case 2: return (w * 8 + k + 32 * lane) % kWords;
    case 3: return base;
    case 5: return base + lane + 1;
    case 6: return base + lane;
    default: return 0;
  }
}
}  // namespace

template <int MODE>
__global__ void __cluster_dims__(2, 1, 1) remote_ld(float* out) {
  __shared__ float s[kWords + 4];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  fill(s, rank);
  cluster.sync();
  const float* other = cluster.map_shared_rank(s, rank ^ 1);
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  float acc = 0;
  if (MODE == 4) {
    for (int k = 0; k < 8; ++k) {
      const float4 v = reinterpret_cast<const float4*>(other)[(w * 8 + k) * 32 + lane];
      acc += v.x + v.y + v.z + v.w;
    }
  } else if (MODE != 6 || lane < 8) {
    for (int k = 0; k < 8; ++k) acc += other[word_of<MODE>(w, lane, k)];
  }
  out[blockIdx.x * kThreads + threadIdx.x] = acc;
  cluster.sync();  // the other CTA's s stays until every read of it is done
}

__global__ void __cluster_dims__(2, 1, 1) own_ld(float* out) {
  __shared__ float s[kWords];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  fill(s, rank);
  cluster.sync();
  const float* mine = cluster.map_shared_rank(s, rank);
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  float acc = 0;
  for (int k = 0; k < 8; ++k) acc += mine[word_of<0>(w, lane, k)];
  out[blockIdx.x * kThreads + threadIdx.x] = acc;
  cluster.sync();
}

template <int MODE>
__global__ void __cluster_dims__(2, 1, 1) remote_st(float* out) {
  __shared__ float s[kWords];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  fill(s, rank);
  cluster.sync();
  float* other = cluster.map_shared_rank(s, rank ^ 1);
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int k = 0; k < 8; ++k) other[word_of<MODE>(w, lane, k)] = static_cast<float>(rank * 1000 + w * 8 + k);
  cluster.sync();
  for (int i = threadIdx.x; i < kWords; i += kThreads) out[blockIdx.x * kWords + i] = s[i];
}

__global__ void __cluster_dims__(2, 1, 1) remote_atom(float* out) {
  __shared__ float s[kWords];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  fill(s, rank);
  cluster.sync();
  float* other = cluster.map_shared_rank(s, rank ^ 1);
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int k = 0; k < 8; ++k) atomicAdd(&other[word_of<0>(w, lane, k)], 1.0f);
  cluster.sync();
  for (int i = threadIdx.x; i < kWords; i += kThreads) out[blockIdx.x * kWords + i] = s[i];
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  constexpr int kCtas = 16;
  float* out;
  const size_t bytes = size_t{kCtas} * kWords * 4;
  CK(cudaMalloc(&out, bytes));
#define LD(m)                                                   \
  CK(cudaMemset(out, 0, bytes));                               \
  run("remote_ld" #m, remote_ld<m>, dim3(kCtas), dim3(kThreads), out); \
  checksum("remote_ld" #m, out, kCtas * kThreads * 4);
  LD(0) LD(1) LD(2) LD(3) LD(4) LD(5) LD(6)
  CK(cudaMemset(out, 0, bytes));
  run("own_ld", own_ld, dim3(kCtas), dim3(kThreads), out);
  checksum("own_ld", out, kCtas * kThreads * 4);
  CK(cudaMemset(out, 0, bytes));
  run("remote_st0", remote_st<0>, dim3(kCtas), dim3(kThreads), out);
  checksum("remote_st0", out, bytes);
  CK(cudaMemset(out, 0, bytes));
  run("remote_st2", remote_st<2>, dim3(kCtas), dim3(kThreads), out);
  checksum("remote_st2", out, bytes);
  CK(cudaMemset(out, 0, bytes));
  run("remote_atom", remote_atom, dim3(kCtas), dim3(kThreads), out);
  checksum("remote_atom", out, bytes);
  return 0;
}
