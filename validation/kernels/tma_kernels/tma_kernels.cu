// tma_kernels.cu -- two kernels written the way Hopper code uses the TMA's tensor copies, after warpscope ran them
// and with their counters predicted from the PTX before the H100 ran them (validation/tma_kernels/predicted.txt;
// docs/VALIDATION.md "Tensor copies").
// stencil5: a 5-point stencil on an N x N grid of floats. Each CTA loads its 32 x 32 tile with a one-element halo
// as one box of 40 x 34 (the box starts 4 elements left of the tile, so that it starts on 16 bytes); boxes at the
// grid's edges reach out of bounds and the TMA fills zeros there, which are the stencil's boundary. The results go
// to a shared tile that one tensor store writes back.
// transpose<SWIZZLE>: a 32 x 32 tile of an N x N matrix of floats comes in by one tensor load, the warps read it
// by columns and write the transposed tile to shared memory, and one tensor store writes it to the mirrored place.
// Without a swizzle the column reads hit one bank (32-way conflicts); with the 128-byte swizzle the tile's 16-byte
// chunks are spread over the banks (the reads use the swizzled address) and conflict 4-way.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o tma_kernels tma_kernels.cu
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kHaloW = 40, kHaloH = 34;  // the stencil's box

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// Thread 0 makes `bar` a one-arrival mbarrier, announces `bytes` and copies the 2-D box at (x, y) to `dst`; every
// thread waits for the bytes.
__device__ __forceinline__ void load_box(const CUtensorMap* map, void* dst, unsigned bar, unsigned bytes, int x, int y) {
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            smem(dst)),
        "l"(map), "r"(x), "r"(y), "r"(bar)
        : "memory");
  }
  __syncthreads();
  unsigned ok = 0;
  while (!ok)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(bar) : "memory");
}

// Every thread's shared writes made visible to the TMA, then thread 0 stores the box at (x, y).
__device__ __forceinline__ void store_box(const CUtensorMap* map, const void* src, int x, int y) {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(map), "r"(x),
                 "r"(y), "r"(smem(src))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

}  // namespace

__global__ void fill(float* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    g[i] = static_cast<float>((i * 2654435761u) >> 20) * 0.25f;
}

// Block 32 x 8: each thread computes 4 points of the tile.
__global__ void stencil5(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out) {
  __shared__ __align__(128) float halo[kHaloH][kHaloW];
  __shared__ __align__(128) float res[kTile][kTile];
  __shared__ __align__(8) unsigned long long bar;
  const int x0 = blockIdx.x * kTile, y0 = blockIdx.y * kTile;
  load_box(&in, halo, smem(&bar), sizeof(halo), x0 - 4, y0 - 1);
  const int tx = threadIdx.x;
  for (int k = 0; k < kTile / 8; ++k) {
    const int ty = threadIdx.y + 8 * k, hy = ty + 1, hx = tx + 4;
    res[ty][tx] = 0.5f * halo[hy][hx] + 0.125f * (halo[hy][hx - 1] + halo[hy][hx + 1] + halo[hy - 1][hx] + halo[hy + 1][hx]);
  }
  store_box(&out, res, x0, y0);
}

// Block 32 x 8. SWIZZLE: the tile came in with the 128-byte swizzle, so element (r, c) lies in 16-byte chunk
// (c / 4) ^ (r % 8) of row r.
template <bool SWIZZLE>
__global__ void transpose(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out) {
  __shared__ __align__(1024) float tile[kTile][kTile];
  __shared__ __align__(128) float t[kTile][kTile];
  __shared__ __align__(8) unsigned long long bar;
  load_box(&in, tile, smem(&bar), sizeof(tile), blockIdx.x * kTile, blockIdx.y * kTile);
  const int r = threadIdx.x;  // a lane reads row r: the warp reads one column
  for (int k = 0; k < kTile / 8; ++k) {
    const int c = threadIdx.y + 8 * k;
    const int col = SWIZZLE ? (((c >> 2) ^ (r & 7)) << 2) | (c & 3) : c;
    t[c][r] = tile[r][col];
  }
  store_box(&out, t, blockIdx.y * kTile, blockIdx.x * kTile);
}

namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                                 const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeTiled g_encode = nullptr;

CUtensorMap map2d(void* base, cuuint64_t n, cuuint32_t bx, cuuint32_t by, CUtensorMapSwizzle sw) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {n, n}, pitch[1] = {n * 4};
  const cuuint32_t box[2] = {bx, by}, estr[2] = {1, 1};
  const CUresult r = g_encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, pitch, box, estr,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
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
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&g_encode), 12000,
                                      cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !g_encode) return 1;
  constexpr int kN = 1024, kStencilN = 512;
  float *a, *b;
  CK(cudaMalloc(&a, kN * kN * 4));
  CK(cudaMalloc(&b, kN * kN * 4));
  run("fill", fill, dim3(256), dim3(256), a, kN * kN);
  {
    const CUtensorMap in = map2d(a, kStencilN, kHaloW, kHaloH, CU_TENSOR_MAP_SWIZZLE_NONE);
    const CUtensorMap out = map2d(b, kStencilN, kTile, kTile, CU_TENSOR_MAP_SWIZZLE_NONE);
    CK(cudaMemset(b, 0, kN * kN * 4));
    run("stencil5", stencil5, dim3(kStencilN / kTile, kStencilN / kTile), dim3(32, 8), in, out);
    checksum("stencil5", b, kStencilN * kStencilN * 4);
  }
  {
    const CUtensorMap in = map2d(a, kN, kTile, kTile, CU_TENSOR_MAP_SWIZZLE_NONE);
    const CUtensorMap out = map2d(b, kN, kTile, kTile, CU_TENSOR_MAP_SWIZZLE_NONE);
    CK(cudaMemset(b, 0, kN * kN * 4));
    run("transpose<false>", transpose<false>, dim3(kN / kTile, kN / kTile), dim3(32, 8), in, out);
    checksum("transpose<false>", b, kN * kN * 4);
  }
  {
    const CUtensorMap in = map2d(a, kN, kTile, kTile, CU_TENSOR_MAP_SWIZZLE_128B);
    const CUtensorMap out = map2d(b, kN, kTile, kTile, CU_TENSOR_MAP_SWIZZLE_NONE);
    CK(cudaMemset(b, 0, kN * kN * 4));
    run("transpose<true>", transpose<true>, dim3(kN / kTile, kN / kTile), dim3(32, 8), in, out);
    checksum("transpose<true>", b, kN * kN * 4);
  }
  return 0;
}
