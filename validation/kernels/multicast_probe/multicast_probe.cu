// multicast_probe.cu -- the TMA's multicast (cp.async.bulk{.tensor} .multicast::cluster, sm_90): one copy writes the
// same bytes into the shared memory of several CTAs of a cluster and completes each one's mbarrier. What does the
// H100 count for it, next to each CTA loading its own copy? Clusters of 2 CTAs of 32 threads, 64 CTAs; a 1024 x 1024
// float matrix; every cluster its own 32 x 32 box (4 KB):
//   box<0>: each CTA loads the box itself (no multicast: the reference, twice the L2 reads)
//   box<1>: rank 0 loads it once for both (ctaMask 0b11)
//   box<2>: each rank loads half the box (32 x 16) for both, as CUTLASS's multicast GEMM operands do
//   bulk:   rank 0 copies 4 KB of contiguous bytes for both (cp.async.bulk .multicast::cluster)
// Each CTA then writes the tile it holds to `out`, for a checksum.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o multicast_probe multicast_probe.cu
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"
#include "../suite/tensor_map_host.cuh"

namespace cg = cooperative_groups;

namespace {
constexpr int kN = 1024, kBox = 32, kTileBytes = kBox * kBox * 4;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity) {
  unsigned ok = 0;
  while (!ok)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
}

// Thread 0 of each CTA makes its mbarrier expect the tile; the cluster syncs so that every mbarrier exists before
// any copy signals it.
__device__ __forceinline__ void expect_tile(unsigned bar, cg::cluster_group& cluster) {
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(kTileBytes) : "memory");
  }
  cluster.sync();
}

__device__ __forceinline__ void write_tile(const float* tile, float* out) {
  for (int i = threadIdx.x; i < kBox * kBox; i += blockDim.x) out[blockIdx.x * kBox * kBox + i] = tile[i];
}
}  // namespace

template <int MODE>
__global__ void __cluster_dims__(2, 1, 1) box(const __grid_constant__ CUtensorMap map, float* out) {
  __shared__ __align__(128) float tile[kBox * kBox];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int x = (blockIdx.x / 2) % (kN / kBox) * kBox, y = (blockIdx.x / 2) / (kN / kBox) * kBox;
  expect_tile(smem(&bar), cluster);
  if (threadIdx.x == 0) {
    if (MODE == 0) {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                       smem(tile)), "l"(&map), "r"(x), "r"(y), "r"(smem(&bar))
                   : "memory");
    } else if (MODE == 1) {
      if (rank == 0)
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(
                smem(tile)), "l"(&map), "r"(x), "r"(y), "r"(smem(&bar)), "h"(static_cast<unsigned short>(3))
            : "memory");
    } else {
      // Rank r loads rows 16 r .. 16 r + 15 of the box (a map of 32 x 16 boxes) into the same rows of both tiles.
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(
              smem(tile + 16 * kBox * rank)), "l"(&map), "r"(x), "r"(y + 16 * static_cast<int>(rank)), "r"(smem(&bar)),
          "h"(static_cast<unsigned short>(3))
          : "memory");
    }
  }
  wait_parity(smem(&bar), 0);
  write_tile(tile, out);
  cluster.sync();  // no CTA leaves while the other's copy may still write to it
}

__global__ void __cluster_dims__(2, 1, 1) bulk(const float* in, float* out) {
  __shared__ __align__(128) float tile[kBox * kBox];
  __shared__ __align__(8) unsigned long long bar;
  cg::cluster_group cluster = cg::this_cluster();
  expect_tile(smem(&bar), cluster);
  if (threadIdx.x == 0 && cluster.block_rank() == 0)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;" ::"r"(
                     smem(tile)), "l"(in + (blockIdx.x / 2) * kBox * kBox), "r"(kTileBytes), "r"(smem(&bar)),
                 "h"(static_cast<unsigned short>(3))
                 : "memory");
  wait_parity(smem(&bar), 0);
  write_tile(tile, out);
  cluster.sync();
}

__global__ void fill(float* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = static_cast<float>(i % 100003);
}

namespace {
CUtensorMap map2d(void* base, cuuint32_t box_y) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {kN, kN}, pitch[1] = {kN * 4};
  const cuuint32_t boxd[2] = {kBox, box_y}, estr[2] = {1, 1};
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, pitch, boxd, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                    CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(r));
    std::exit(1);
  }
  return map;
}
}  // namespace

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  constexpr int kCtas = 64;
  float *a, *out;
  CK(cudaMalloc(&a, kN * kN * 4));
  CK(cudaMalloc(&out, kCtas * kTileBytes));
  run("fill", fill, dim3(256), dim3(256), a, kN * kN);
  const CUtensorMap whole = map2d(a, kBox), half = map2d(a, kBox / 2);
  CK(cudaMemset(out, 0, kCtas * kTileBytes));
  run("box0", box<0>, dim3(kCtas), dim3(32), whole, out);
  checksum("box0", out, kCtas * kTileBytes);
  CK(cudaMemset(out, 0, kCtas * kTileBytes));
  run("box1", box<1>, dim3(kCtas), dim3(32), whole, out);
  checksum("box1", out, kCtas * kTileBytes);
  CK(cudaMemset(out, 0, kCtas * kTileBytes));
  run("box2", box<2>, dim3(kCtas), dim3(32), half, out);
  checksum("box2", out, kCtas * kTileBytes);
  CK(cudaMemset(out, 0, kCtas * kTileBytes));
  run("bulk", bulk, dim3(kCtas), dim3(32), static_cast<const float*>(a), out);
  checksum("bulk", out, kCtas * kTileBytes);
  return 0;
}
