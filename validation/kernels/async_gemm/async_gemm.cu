// async_gemm.cu -- cp.async the way tiled GEMMs use it, on the H100, recorded for warpscope's PTX
// interpreter (validation/ptx_check.sh async_gemm OUT; docs/VALIDATION.md "cp.async"): 16-byte copies of
// 32 x 32 float tiles (rows of 128 B) into shared memory laid out three ways,
//   plain:    row r at r x 128 B;
//   swizzled: the 16-byte chunk c of row r goes to chunk c ^ (r % 8) (CUTLASS's Swizzle<3,4,3> shape:
//             conflict-free column reads without padding);
//   padded:   rows 144 B apart (128 + 16), the usual hand-written alternative;
// with .ca, .cg and .cg.L2::128B (CUTLASS's SM80_CP_ASYNC_CACHEGLOBAL), then:
//   tile_copy: each CTA copies its tile in and writes its columns back out (column reads: where the
//              layouts differ in bank conflicts);
//   sgemm:     C = A B, 256^3, 32 x 32 tiles of A and B double-buffered, each thread 1 x 4 outputs.
// main() prints a 64-bit FNV-1a checksum of each launch's output; the interpreter's must be equal.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o async_gemm async_gemm.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../suite/suite_common.cuh"

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// KIND: 0 .ca, 1 .cg, 2 .cg.L2::128B.
template <int KIND>
__device__ __forceinline__ void cp16(unsigned dst, const void* src) {
  if constexpr (KIND == 0)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
  else if constexpr (KIND == 1)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
  else
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wait_group() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

// Byte offset of float (r, c) of a 32 x 32 tile in shared memory, per LAYOUT (0 plain, 1 swizzled, 2 padded).
template <int LAYOUT>
__device__ __forceinline__ unsigned offset(unsigned r, unsigned c) {
  const unsigned byte = c * 4;
  if constexpr (LAYOUT == 0) return r * 128 + byte;
  else if constexpr (LAYOUT == 1) return r * 128 + ((((byte >> 4) ^ r) & 7) << 4 | (byte & 15));
  else return r * 144 + byte;
}
constexpr unsigned kTileBytes = 32 * 144;

// Loads the 32 x 32 tile at `g` (row stride `ld` floats) with 256 threads, a 16-byte chunk each.
template <int LAYOUT, int KIND>
__device__ __forceinline__ void load_tile(unsigned char* sm, const float* g, unsigned ld) {
  const unsigned r = threadIdx.x / 8, c = (threadIdx.x % 8) * 4;
  cp16<KIND>(smem(sm + offset<LAYOUT>(r, c)), g + r * ld + c);
}

template <int LAYOUT, int KIND>
__global__ void tile_copy(const float* in, float* out) {
  __shared__ __align__(128) unsigned char sm[kTileBytes];
  const unsigned ld = 32 * gridDim.x;
  const float* g = in + blockIdx.y * 32 * ld + blockIdx.x * 32;
  load_tile<LAYOUT, KIND>(sm, g, ld);
  commit();
  wait_group<0>();
  __syncthreads();
  // Column reads: warp w reads columns 4w .. 4w + 3, lane l row l: the tile transposed.
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float* o = out + blockIdx.x * 32 * ld + blockIdx.y * 32;
  for (unsigned c = warp * 4; c < warp * 4 + 4; ++c)
    o[c * ld + lane] = *reinterpret_cast<const float*>(sm + offset<LAYOUT>(lane, c)) + 1.0f;
}

// C = A B for N = 256: CTA (bx, by) computes C's 32 x 32 tile; thread (ty, tx) row ty of it, columns
// tx, tx + 8, tx + 16, tx + 24.
template <int LAYOUT, int KIND>
__global__ void sgemm(const float* A, const float* B, float* C) {
  constexpr unsigned N = 256;
  __shared__ __align__(128) unsigned char as[2][kTileBytes];
  __shared__ __align__(128) unsigned char bs[2][kTileBytes];
  const unsigned tx = threadIdx.x % 8, ty = threadIdx.x / 8;
  const float* a = A + blockIdx.y * 32 * N;
  const float* b = B + blockIdx.x * 32;
  float acc[4] = {};
  load_tile<LAYOUT, KIND>(as[0], a, N);
  load_tile<LAYOUT, KIND>(bs[0], b, N);
  commit();
  for (unsigned t = 0; t < N / 32; ++t) {
    if (t + 1 < N / 32) {
      load_tile<LAYOUT, KIND>(as[(t + 1) & 1], a + (t + 1) * 32, N);
      load_tile<LAYOUT, KIND>(bs[(t + 1) & 1], b + (t + 1) * 32 * N, N);
      commit();
      wait_group<1>();
    } else {
      wait_group<0>();
    }
    __syncthreads();
    const unsigned char* sa = as[t & 1];
    const unsigned char* sb = bs[t & 1];
    for (unsigned k = 0; k < 32; ++k) {
      const float x = *reinterpret_cast<const float*>(sa + offset<LAYOUT>(ty, k));
      for (unsigned j = 0; j < 4; ++j) acc[j] += x * *reinterpret_cast<const float*>(sb + offset<LAYOUT>(k, tx + 8 * j));
    }
    __syncthreads();
  }
  for (unsigned j = 0; j < 4; ++j) C[(blockIdx.y * 32 + ty) * N + blockIdx.x * 32 + tx + 8 * j] = acc[j];
}

// Small integers as floats: every product and sum in the GEMM exact in any order.
__global__ void fill(float* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    a[i] = static_cast<float>(static_cast<int>((i * 2654435761u + salt) >> 28) - 8);
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  float *in, *out, *A, *B, *C;
  CK(cudaMalloc(&in, 256 * 256 * 4));
  CK(cudaMalloc(&out, 256 * 256 * 4));
  CK(cudaMalloc(&A, 256 * 256 * 4));
  CK(cudaMalloc(&B, 256 * 256 * 4));
  CK(cudaMalloc(&C, 256 * 256 * 4));
  run("fill", fill, dim3(64), dim3(256), in, 256 * 256, 1u);
  run("fill", fill, dim3(64), dim3(256), A, 256 * 256, 2u);
  run("fill", fill, dim3(64), dim3(256), B, 256 * 256, 3u);
  const size_t bytes = 256 * 256 * 4;
#define COPY(L, K)                                                                       \
  run("tile_copy<" #L ", " #K ">", tile_copy<L, K>, dim3(8, 8), dim3(256), (const float*)in, out); \
  checksum("tile_copy<" #L ", " #K ">", out, bytes);
#define GEMM(L, K)                                                                       \
  run("sgemm<" #L ", " #K ">", sgemm<L, K>, dim3(8, 8), dim3(256), (const float*)A, (const float*)B, C); \
  checksum("sgemm<" #L ", " #K ">", C, bytes);
  COPY(0, 0) COPY(0, 1) COPY(0, 2) COPY(1, 0) COPY(1, 1) COPY(1, 2) COPY(2, 0) COPY(2, 1) COPY(2, 2)
  GEMM(0, 1) GEMM(1, 1) GEMM(1, 2) GEMM(2, 1) GEMM(1, 0)
  CK(cudaDeviceSynchronize());
  return 0;
}
