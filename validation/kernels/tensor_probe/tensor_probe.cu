// tensor_probe.cu -- the TMA's tensor copies (cp.async.bulk.tensor, SASS UTMALDG / UTMASTG, sm_90): which
// global sectors and L2 requests a tiled box costs, and where its bytes land in shared memory, for boxes of
// 8-64 elements of 1-4 bytes, rows on and 16-48 B off line boundaries, rows that do not start on a line (a 4000-byte
// pitch), the three swizzle modes (and one box 128 B past a 1024-byte block), boxes partly out of bounds,
// element strides, a 3-D box and one map with L2 promotion. Written before warpscope ran tensor copies; its
// counters predicted from the PTX before the H100 ran it (validation/tensor_probe/predicted.txt,
// docs/VALIDATION.md "Tensor copies").
// tload2d / tload3d: one warp a CTA; thread 0 copies CTA b's box (coordinates x0 + b dx, y0 + b dy, z0 + b dz)
// into shared memory at `so` past a 1024-byte block, and the warp writes the tile's bytes to out[] as they lie
// in shared memory (so the checksum sees the swizzle and the out-of-bounds fill).
// tstore2d: the warp fills the tile, thread 0 stores it as CTA b's box; the checksum is the whole tensor's.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o tensor_probe tensor_probe.cu
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "../suite/suite_common.cuh"

namespace {

constexpr int kCtas = 16;
constexpr int kTileBytes = 4096;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity) {
  unsigned ok = 0;
  while (!ok)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
}

// Thread 0 makes `bar` a one-arrival mbarrier and announces `bytes` on it; the warp then waits for them.
__device__ __forceinline__ void expect(unsigned bar, unsigned bytes) {
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncwarp();
  if (threadIdx.x == 0) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void tile_out(const unsigned char* tile, unsigned* out, unsigned bytes) {
  const unsigned* w = reinterpret_cast<const unsigned*>(tile);
  for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) out[blockIdx.x * (kTileBytes / 4) + i] = w[i];
}

}  // namespace

__global__ void fill(unsigned* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = i * 2654435761u;
}

__global__ void tload2d(const __grid_constant__ CUtensorMap map, unsigned* out, int x0, int y0, int dx, int dy,
                        unsigned bytes, unsigned so) {
  __shared__ __align__(1024) unsigned char tile[kTileBytes + 1024];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  expect(b, bytes);
  if (threadIdx.x == 0)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            smem(tile + so)),
        "l"(&map), "r"(x0 + static_cast<int>(blockIdx.x) * dx), "r"(y0 + static_cast<int>(blockIdx.x) * dy), "r"(b)
        : "memory");
  wait_parity(b, 0);
  tile_out(tile + so, out, bytes);
}

__global__ void tload3d(const __grid_constant__ CUtensorMap map, unsigned* out, int x0, int y0, int z0, int dz,
                        unsigned bytes) {
  __shared__ __align__(1024) unsigned char tile[kTileBytes];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  expect(b, bytes);
  if (threadIdx.x == 0)
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
            smem(tile)),
        "l"(&map), "r"(x0), "r"(y0), "r"(z0 + static_cast<int>(blockIdx.x) * dz), "r"(b)
        : "memory");
  wait_parity(b, 0);
  tile_out(tile, out, bytes);
}

__global__ void tstore2d(const __grid_constant__ CUtensorMap map, int x0, int y0, int dx, int dy, unsigned bytes) {
  __shared__ __align__(1024) unsigned char tile[kTileBytes];
  unsigned* w = reinterpret_cast<unsigned*>(tile);
  for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) w[i] = i * 40503u + blockIdx.x * 7u + 1u;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncwarp();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&map),
                 "r"(x0 + static_cast<int>(blockIdx.x) * dx), "r"(y0 + static_cast<int>(blockIdx.x) * dy), "r"(smem(tile))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                                 const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
EncodeTiled g_encode = nullptr;

struct Map {
  CUtensorMapDataType type;
  int elem;  // bytes
  int rank;
  cuuint64_t dims[3], pitch[2];  // pitch: bytes between rows (dim 1) and planes (dim 2)
};

CUtensorMap make(void* base, const Map& m, cuuint32_t bx, cuuint32_t by, cuuint32_t bz, CUtensorMapSwizzle sw,
                 cuuint32_t ey = 1, CUtensorMapL2promotion promo = CU_TENSOR_MAP_L2_PROMOTION_NONE) {
  CUtensorMap map;
  const cuuint32_t box[3] = {bx, by, bz}, estr[3] = {1, ey, 1};
  const CUresult r = g_encode(&map, m.type, m.rank, base, m.dims, m.pitch, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                              promo, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(r));
    std::exit(1);
  }
  return map;
}

const Map kA{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 2, {1024, 512, 1}, {4096, 0}};         // 2 MB of f32
const Map kB{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 2, {1000, 512, 1}, {4000, 0}};         // rows 4000 B apart
const Map kC{CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 2, {1024, 512, 1}, {2048, 0}};        // 1 MB of bf16
const Map kD{CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 3, {64, 64, 64}, {256, 16384}};        // 1 MB, 3-D
const Map kE{CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, 2, {1024, 1024, 1}, {1024, 0}};          // 1 MB of bytes

unsigned* g_out;

void load(const char* label, void* base, const Map& m, cuuint32_t bx, cuuint32_t by, CUtensorMapSwizzle sw, int x0, int y0,
          int dx, int dy, unsigned so = 0, cuuint32_t ey = 1,
          CUtensorMapL2promotion promo = CU_TENSOR_MAP_L2_PROMOTION_NONE) {
  const CUtensorMap map = make(base, m, bx, by, 1, sw, ey, promo);
  const unsigned bytes = bx * ((by + ey - 1) / ey) * m.elem;
  CK(cudaMemset(g_out, 0, kCtas * kTileBytes));
  char name[96];
  std::snprintf(name, sizeof name, "tload2d %s", label);
  run(name, tload2d, dim3(kCtas), dim3(32), map, g_out, x0, y0, dx, dy, bytes, so);
  checksum(name, g_out, kCtas * kTileBytes);
}

void store(const char* label, void* base, const Map& m, cuuint32_t bx, cuuint32_t by, CUtensorMapSwizzle sw, int x0, int y0,
           int dx, int dy) {
  const CUtensorMap map = make(base, m, bx, by, 1, sw);
  const unsigned bytes = bx * by * m.elem;
  CK(cudaMemset(base, 0, 2 << 20));
  char name[96];
  std::snprintf(name, sizeof name, "tstore2d %s", label);
  run(name, tstore2d, dim3(kCtas), dim3(32), map, x0, y0, dx, dy, bytes);
  checksum(name, base, 2 << 20);
}

}  // namespace

#ifndef TENSOR_PROBE_NO_MAIN  // validation/kernels/tensor_promo reuses the kernels and load() with a main of its own
int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&g_encode), 12000,
                                      cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !g_encode) {
    std::fprintf(stderr, "no cuTensorMapEncodeTiled\n");
    return 1;
  }
  unsigned *a, *w;
  CK(cudaMalloc(&a, 2 << 20));
  CK(cudaMalloc(&w, 2 << 20));
  CK(cudaMalloc(&g_out, kCtas * kTileBytes));
  run("fill", fill, dim3(64), dim3(256), a, (2 << 20) / 4);
  constexpr auto kNone = CU_TENSOR_MAP_SWIZZLE_NONE;
  // Rows of 128 B at element offsets 0, 4, 8, 12 (0, 16, 32, 48 B into a line). A box whose first element in
  // dimension 0 is not 16-byte aligned stops the kernel (illegal instruction; x0 = 1, 2, 3, -1 and 1023 tried).
  load("A 32x32 x0", a, kA, 32, 32, kNone, 0, 0, 0, 32);
  load("A 32x32 x4", a, kA, 32, 32, kNone, 4, 0, 0, 32);
  load("A 32x32 x8", a, kA, 32, 32, kNone, 8, 0, 0, 32);
  load("A 32x32 x12", a, kA, 32, 32, kNone, 12, 0, 0, 32);
  // Rows of 64 B (two a shared 128-byte block), on a line, a sector in, across a line.
  load("A 16x32 x0", a, kA, 16, 32, kNone, 0, 0, 0, 32);
  load("A 16x32 x8", a, kA, 16, 32, kNone, 8, 0, 0, 32);
  load("A 16x32 x20", a, kA, 16, 32, kNone, 20, 0, 0, 32);
  // Rows of 256 B.
  load("A 64x16 x0", a, kA, 64, 16, kNone, 0, 0, 0, 16);
  load("A 64x16 x4", a, kA, 64, 16, kNone, 4, 0, 0, 16);
  // Swizzles; one tile 128 B past a 1024-byte block (the destination must be 128-byte aligned: 16, 32, 64 fault).
  load("A 32x32 x0 sw128", a, kA, 32, 32, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, 0, 32);
  load("A 32x32 x0 sw128 so128", a, kA, 32, 32, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, 0, 32, 128);
  load("A 32x32 x4 sw128", a, kA, 32, 32, CU_TENSOR_MAP_SWIZZLE_128B, 4, 0, 0, 32);
  load("A 16x32 x0 sw64", a, kA, 16, 32, CU_TENSOR_MAP_SWIZZLE_64B, 0, 0, 0, 32);
  load("A 8x32 x0 sw32", a, kA, 8, 32, CU_TENSOR_MAP_SWIZZLE_32B, 0, 0, 0, 32);
  // Out of bounds: the right half, the left half, the top half of each box.
  load("A 32x32 right", a, kA, 32, 32, kNone, 1008, 0, 0, 32);
  load("A 32x32 left", a, kA, 32, 32, kNone, -16, 0, 0, 32);
  load("A 32x32 top", a, kA, 32, 32, kNone, 0, -16, 32, 0);
  // Rows 4000 B apart (a row starts on a line only every 32 rows).
  load("B 32x32 x0", a, kB, 32, 32, kNone, 0, 0, 0, 32);
  // bf16: 64 elements a row, swizzled and 16 B into a line.
  load("C 64x32 x0 sw128", a, kC, 64, 32, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, 0, 32);
  load("C 64x32 x8", a, kC, 64, 32, kNone, 8, 0, 0, 32);
  // Bytes: rows of 16 B, rows of 48 B from 48 B into a line.
  load("E 16x64 x0", a, kE, 16, 64, kNone, 0, 0, 0, 64);
  load("E 48x32 x48", a, kE, 48, 32, kNone, 48, 0, 0, 32);
  // Small boxes; every other row (element stride 2 in y).
  load("A 8x8 x0", a, kA, 8, 8, kNone, 0, 0, 0, 8);
  load("A 32x32 ey2", a, kA, 32, 32, kNone, 0, 0, 0, 32, 0, 2);
  // L2 promotion of 128 B on a box 16 B into a line.
  load("A 32x32 x4 promo128", a, kA, 32, 32, kNone, 4, 0, 0, 32, 0, 1, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  {  // 3-D: boxes of 32 x 8 x 4.
    const CUtensorMap map = make(a, kD, 32, 8, 4, kNone);
    CK(cudaMemset(g_out, 0, kCtas * kTileBytes));
    run("tload3d D 32x8x4", tload3d, dim3(kCtas), dim3(32), map, g_out, 8, 4, 0, 4, 32u * 8 * 4 * 4);
    checksum("tload3d D 32x8x4", g_out, kCtas * kTileBytes);
  }
  store("A 32x32 x0", w, kA, 32, 32, kNone, 0, 0, 0, 32);
  store("A 32x32 x4", w, kA, 32, 32, kNone, 4, 0, 0, 32);
  store("A 16x32 x8", w, kA, 16, 32, kNone, 8, 0, 0, 32);
  store("A 32x32 x0 sw128", w, kA, 32, 32, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, 0, 32);
  store("A 32x32 right", w, kA, 32, 32, kNone, 1008, 0, 0, 32);
  store("B 32x32 x0", w, kB, 32, 32, kNone, 0, 0, 0, 32);
  store("C 64x32 x0 sw128", w, kC, 64, 32, CU_TENSOR_MAP_SWIZZLE_128B, 0, 0, 0, 32);
  return 0;
}
#endif
