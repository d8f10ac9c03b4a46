// wmma_probe.cu -- the CUDA C++ WMMA API (nvcuda::wmma, PTX wmma.load / wmma.store / wmma.mma) on
// the H100, recorded for warpscope's PTX interpreter (validation/ptx_check.sh wmma_probe OUT).
// PTX leaves the fragment layouts and the memory instructions wmma.load/store become to ptxas; this
// probe measures both.
//
// 1. layout_*: one warp loads a fragment from a matrix whose element i holds the bits of i and writes
//    its registers, lane by lane, to out[] (main() prints them as words): which lane holds which
//    element, for every fragment kind, shape and type below. One warp, so its global requests and
//    sectors are the lowering of one wmma.load from global memory too.
// 2. sh_*: 4 warps per CTA, 16 CTAs; each warp repeats one wmma.load or wmma.store 16 times in its
//    own 8 KB of shared memory with the leading dimension `ld` (elements; the address moves by
//    it x `zero`, 0 at run time, so that ptxas cannot merge the repeats): Nsight Compute's shared
//    wavefronts, bank conflicts and LDSM/STS instructions per launch. Each thread's registers go
//    into a checksum (out[]); the stores' checksum is of shared memory read back afterwards.
// 3. gl_*: the same through global memory, each warp its own block of rows.
// 4. mma_*: one warp, D = A x B + C on small integers (every product and sum exact in any order),
//    D stored to global memory: each shape and type of the API.
// 5. wgemm<PAD>: a 128^3 tiled GEMM through shared memory, rows unpadded and padded by 8 halves.
// main() prints a 64-bit FNV-1a checksum of each launch's output; the interpreter's must be equal.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o wmma_probe wmma_probe.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../suite/suite_common.cuh"

using namespace nvcuda;

constexpr int kIters = 16;
constexpr int kWarpBytes = 8192;

__device__ __forceinline__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// The element type in memory of a fragment of T (tf32 fragments load and store floats).
template <class T> struct Mem { using type = T; };
template <> struct Mem<wmma::precision::tf32> { using type = float; };

// A fragment's registers folded into one word (the storage of f.x is the registers, in order).
template <class F>
__device__ __forceinline__ unsigned fold(const F& f) {
  unsigned acc = 0;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(f.x);
  for (int i = 0; i < (int)(sizeof(f.x) / 4); ++i) {
    unsigned w;
    memcpy(&w, p + 4 * i, 4);
    acc = acc * 31u + w;
  }
  return acc;
}

// Lane-dependent contents for a fragment about to be stored (element e of lane l: 8l + e + 1).
template <class F>
__device__ __forceinline__ void number(F& f) {
  for (int e = 0; e < f.num_elements; ++e) f.x[e] = static_cast<typename F::element_type>(8 * (threadIdx.x & 31) + e + 1);
}

__device__ __forceinline__ void fill(unsigned char* tile) {
  for (unsigned i = threadIdx.x; i < 4 * kWarpBytes / 4; i += blockDim.x)
    reinterpret_cast<unsigned*>(tile)[i] = mix(i + 977 * blockIdx.x);
  __syncthreads();
}

// ---- 1. fragment layouts ------------------------------------------------------------------------
__global__ void iota16(unsigned short* a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i] = (unsigned short)i;
}
__global__ void iota8(unsigned char* a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i] = (unsigned char)i;
}
__global__ void iota32(unsigned* a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i] = (unsigned)i * 0x10001u;
}
__global__ void iota64(unsigned long long* a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i] = (unsigned long long)i * 0x100000001ull;
}

// out[0..3]: the fragment's bytes per lane (n); out[16 + n l ..]: lane l's registers.
template <class F>
__device__ __forceinline__ void dump(const F& f, unsigned char* out) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(f.x);
  if (threadIdx.x == 0) *reinterpret_cast<unsigned*>(out) = (unsigned)sizeof(f.x);
  for (int i = 0; i < (int)sizeof(f.x); ++i) out[16 + threadIdx.x * sizeof(f.x) + i] = p[i];
}

#define LAYOUT(NAME, USE, M, N, K, T, LAYOUT)                                                       \
  __global__ void NAME(const void* src, unsigned ld, unsigned char* out) {                          \
    wmma::fragment<wmma::USE, M, N, K, T, wmma::LAYOUT> f;                                          \
    wmma::load_matrix_sync(f, static_cast<const typename Mem<T>::type*>(src), ld);                                     \
    dump(f, out);                                                                                   \
  }
#define LAYOUT_C(NAME, M, N, K, T)                                                                  \
  __global__ void NAME(const void* src, unsigned ld, int col, unsigned char* out) {                 \
    wmma::fragment<wmma::accumulator, M, N, K, T> f;                                                \
    wmma::load_matrix_sync(f, static_cast<const T*>(src), ld, col ? wmma::mem_col_major : wmma::mem_row_major); \
    dump(f, out);                                                                                   \
  }

LAYOUT(layout_a_row_f16_16x16x16, matrix_a, 16, 16, 16, __half, row_major)
LAYOUT(layout_a_col_f16_16x16x16, matrix_a, 16, 16, 16, __half, col_major)
LAYOUT(layout_b_row_f16_16x16x16, matrix_b, 16, 16, 16, __half, row_major)
LAYOUT(layout_b_col_f16_16x16x16, matrix_b, 16, 16, 16, __half, col_major)
LAYOUT_C(layout_c_f32_16x16x16, 16, 16, 16, float)
LAYOUT_C(layout_c_f16_16x16x16, 16, 16, 16, __half)
LAYOUT(layout_a_row_f16_32x8x16, matrix_a, 32, 8, 16, __half, row_major)
LAYOUT(layout_a_col_f16_32x8x16, matrix_a, 32, 8, 16, __half, col_major)
LAYOUT(layout_b_row_f16_32x8x16, matrix_b, 32, 8, 16, __half, row_major)
LAYOUT(layout_b_col_f16_32x8x16, matrix_b, 32, 8, 16, __half, col_major)
LAYOUT_C(layout_c_f32_32x8x16, 32, 8, 16, float)
LAYOUT(layout_a_row_f16_8x32x16, matrix_a, 8, 32, 16, __half, row_major)
LAYOUT(layout_a_col_f16_8x32x16, matrix_a, 8, 32, 16, __half, col_major)
LAYOUT(layout_b_row_f16_8x32x16, matrix_b, 8, 32, 16, __half, row_major)
LAYOUT(layout_b_col_f16_8x32x16, matrix_b, 8, 32, 16, __half, col_major)
LAYOUT_C(layout_c_f32_8x32x16, 8, 32, 16, float)
LAYOUT(layout_a_row_bf16_16x16x16, matrix_a, 16, 16, 16, __nv_bfloat16, row_major)
LAYOUT(layout_b_col_bf16_16x16x16, matrix_b, 16, 16, 16, __nv_bfloat16, col_major)
LAYOUT(layout_a_row_tf32_16x16x8, matrix_a, 16, 16, 8, wmma::precision::tf32, row_major)
LAYOUT(layout_a_col_tf32_16x16x8, matrix_a, 16, 16, 8, wmma::precision::tf32, col_major)
LAYOUT(layout_b_row_tf32_16x16x8, matrix_b, 16, 16, 8, wmma::precision::tf32, row_major)
LAYOUT(layout_b_col_tf32_16x16x8, matrix_b, 16, 16, 8, wmma::precision::tf32, col_major)
LAYOUT(layout_a_row_s8_16x16x16, matrix_a, 16, 16, 16, signed char, row_major)
LAYOUT(layout_a_col_s8_16x16x16, matrix_a, 16, 16, 16, signed char, col_major)
LAYOUT(layout_b_row_s8_16x16x16, matrix_b, 16, 16, 16, signed char, row_major)
LAYOUT(layout_b_col_s8_16x16x16, matrix_b, 16, 16, 16, signed char, col_major)
LAYOUT_C(layout_c_s32_16x16x16, 16, 16, 16, int)
LAYOUT(layout_a_row_u8_16x16x16, matrix_a, 16, 16, 16, unsigned char, row_major)
LAYOUT(layout_a_row_s8_32x8x16, matrix_a, 32, 8, 16, signed char, row_major)
LAYOUT(layout_b_col_s8_32x8x16, matrix_b, 32, 8, 16, signed char, col_major)
LAYOUT(layout_a_row_s8_8x32x16, matrix_a, 8, 32, 16, signed char, row_major)
LAYOUT(layout_b_col_s8_8x32x16, matrix_b, 8, 32, 16, signed char, col_major)
LAYOUT_C(layout_c_s32_32x8x16, 32, 8, 16, int)
LAYOUT_C(layout_c_s32_8x32x16, 8, 32, 16, int)
LAYOUT_C(layout_c_f16_32x8x16, 32, 8, 16, __half)
LAYOUT_C(layout_c_f16_8x32x16, 8, 32, 16, __half)
LAYOUT(layout_a_row_bf16_32x8x16, matrix_a, 32, 8, 16, __nv_bfloat16, row_major)
LAYOUT(layout_b_row_bf16_8x32x16, matrix_b, 8, 32, 16, __nv_bfloat16, row_major)
LAYOUT(layout_a_row_f64_8x8x4, matrix_a, 8, 8, 4, double, row_major)
LAYOUT(layout_a_col_f64_8x8x4, matrix_a, 8, 8, 4, double, col_major)
LAYOUT(layout_b_row_f64_8x8x4, matrix_b, 8, 8, 4, double, row_major)
LAYOUT(layout_b_col_f64_8x8x4, matrix_b, 8, 8, 4, double, col_major)
LAYOUT_C(layout_c_f64_8x8x4, 8, 8, 4, double)

// ---- 2. shared memory ---------------------------------------------------------------------------
#define SH_LOAD(NAME, USE, M, N, K, T, LAYOUT)                                                      \
  __global__ void NAME(unsigned ld, unsigned zero, unsigned* out) {                                                \
    __shared__ __align__(128) unsigned char tile[4 * kWarpBytes];                                   \
    fill(tile);                                                                                     \
    const typename Mem<T>::type* base = reinterpret_cast<const typename Mem<T>::type*>(tile + (threadIdx.x >> 5) * kWarpBytes); \
    wmma::fragment<wmma::USE, M, N, K, T, wmma::LAYOUT> f;                                          \
    unsigned acc = 0;                                                                               \
    for (int it = 0; it < kIters; ++it) {                                                           \
      wmma::load_matrix_sync(f, base + it * zero, ld);                                              \
      acc = acc * 131u + fold(f);                                                                   \
      asm volatile("" ::: "memory");                                                                \
    }                                                                                               \
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;                                               \
  }

SH_LOAD(sh_a_row_f16, matrix_a, 16, 16, 16, __half, row_major)
SH_LOAD(sh_a_col_f16, matrix_a, 16, 16, 16, __half, col_major)
SH_LOAD(sh_b_row_f16, matrix_b, 16, 16, 16, __half, row_major)
SH_LOAD(sh_b_col_f16, matrix_b, 16, 16, 16, __half, col_major)
SH_LOAD(sh_a_row_f16_32x8x16, matrix_a, 32, 8, 16, __half, row_major)
SH_LOAD(sh_b_row_f16_8x32x16, matrix_b, 8, 32, 16, __half, row_major)
SH_LOAD(sh_a_row_bf16, matrix_a, 16, 16, 16, __nv_bfloat16, row_major)
SH_LOAD(sh_a_row_tf32, matrix_a, 16, 16, 8, wmma::precision::tf32, row_major)
SH_LOAD(sh_b_col_tf32, matrix_b, 16, 16, 8, wmma::precision::tf32, col_major)
SH_LOAD(sh_a_row_s8, matrix_a, 16, 16, 16, signed char, row_major)
SH_LOAD(sh_a_col_s8, matrix_a, 16, 16, 16, signed char, col_major)
SH_LOAD(sh_b_row_s8, matrix_b, 16, 16, 16, signed char, row_major)
SH_LOAD(sh_a_row_f64, matrix_a, 8, 8, 4, double, row_major)

#define SH_ACC(NAME, M, N, K, T)                                                                    \
  __global__ void NAME##_load(unsigned ld, int col, unsigned zero, unsigned* out) {                                \
    __shared__ __align__(128) unsigned char tile[4 * kWarpBytes];                                   \
    fill(tile);                                                                                     \
    const T* base = reinterpret_cast<const T*>(tile + (threadIdx.x >> 5) * kWarpBytes);            \
    wmma::fragment<wmma::accumulator, M, N, K, T> f;                                                \
    unsigned acc = 0;                                                                               \
    for (int it = 0; it < kIters; ++it) {                                                           \
      wmma::load_matrix_sync(f, base + it * zero, ld, col ? wmma::mem_col_major : wmma::mem_row_major); \
      acc = acc * 131u + fold(f);                                                                   \
      asm volatile("" ::: "memory");                                                                \
    }                                                                                               \
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;                                               \
  }                                                                                                 \
  __global__ void NAME##_store(unsigned ld, int col, unsigned zero, unsigned* out) {                               \
    __shared__ __align__(128) unsigned char tile[4 * kWarpBytes];                                   \
    fill(tile);                                                                                     \
    unsigned char* mine = tile + (threadIdx.x >> 5) * kWarpBytes;                                   \
    wmma::fragment<wmma::accumulator, M, N, K, T> f;                                                \
    number(f);                                                                                      \
    for (int it = 0; it < kIters; ++it) {                                                           \
      wmma::store_matrix_sync(reinterpret_cast<T*>(mine) + it * zero, f, ld, col ? wmma::mem_col_major : wmma::mem_row_major); \
      asm volatile("" ::: "memory");                                                                \
    }                                                                                               \
    __syncwarp();                                                                                   \
    unsigned acc = 0;                                                                               \
    for (unsigned i = threadIdx.x & 31; i < kWarpBytes / 4; i += 32)                                \
      acc = acc * 31u + reinterpret_cast<const unsigned*>(mine)[i];                                \
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;                                               \
  }

SH_ACC(sh_c_f32, 16, 16, 16, float)
SH_ACC(sh_c_f16, 16, 16, 16, __half)

// ---- 3. global memory: warp g (of 64) uses rows (or columns) 16g .. 16g + 15 ---------------------
__global__ void gl_a_row_f16(const __half* g, unsigned ld, unsigned zero, unsigned* out) {
  const unsigned gw = blockIdx.x * 4 + (threadIdx.x >> 5);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> f;
  unsigned acc = 0;
  for (int it = 0; it < 4; ++it) {
    wmma::load_matrix_sync(f, g + (size_t)gw * 16 * ld + it * zero, ld);
    acc = acc * 131u + fold(f);
    asm volatile("" ::: "memory");
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void gl_b_col_f16(const __half* g, unsigned ld, unsigned zero, unsigned* out) {
  const unsigned gw = blockIdx.x * 4 + (threadIdx.x >> 5);
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> f;
  unsigned acc = 0;
  for (int it = 0; it < 4; ++it) {
    wmma::load_matrix_sync(f, g + (size_t)gw * 16 * ld + it * zero, ld);
    acc = acc * 131u + fold(f);
    asm volatile("" ::: "memory");
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void gl_c_f32_store(float* g, unsigned ld, int col) {
  const unsigned gw = blockIdx.x * 4 + (threadIdx.x >> 5);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
  number(f);
  wmma::store_matrix_sync(g + (size_t)gw * 16 * ld, f, ld, col ? wmma::mem_col_major : wmma::mem_row_major);
}

// ---- 4. D = A x B + C, one warp, every operand in global memory ---------------------------------
__device__ __forceinline__ int small(unsigned i, unsigned salt) { return (int)(mix(i * 7919u + salt) % 7u) - 3; }
__global__ void init_f16(__half* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = __float2half((float)small(i, salt));
}
__global__ void init_bf16(__nv_bfloat16* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = __float2bfloat16((float)small(i, salt));
}
__global__ void init_f32(float* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = (float)small(i, salt);
}
__global__ void init_f64(double* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = (double)small(i, salt);
}
__global__ void init_s8(signed char* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = (signed char)(small(i, salt) * 37);
}

#define MMA(NAME, M, N, K, TA, TB, LA, LB, TC, TM)                                                   \
  __global__ void NAME(const void* A, const void* B, const void* C, void* D, unsigned lda, unsigned ldb, \
                       unsigned ldc, int col) {                                                     \
    wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::LA> a;                                        \
    wmma::fragment<wmma::matrix_b, M, N, K, TB, wmma::LB> b;                                        \
    wmma::fragment<wmma::accumulator, M, N, K, TC> c;                                               \
    const wmma::layout_t lc = col ? wmma::mem_col_major : wmma::mem_row_major;                      \
    wmma::load_matrix_sync(a, static_cast<const TM*>(A), lda);                                      \
    wmma::load_matrix_sync(b, static_cast<const TM*>(B), ldb);                                      \
    wmma::load_matrix_sync(c, static_cast<const TC*>(C), ldc, lc);                                  \
    wmma::mma_sync(c, a, b, c);                                                                     \
    wmma::store_matrix_sync(static_cast<TC*>(D), c, ldc, lc);                                       \
  }

MMA(mma_f16_f32_row_col, 16, 16, 16, __half, __half, row_major, col_major, float, __half)
MMA(mma_f16_f32_col_row, 16, 16, 16, __half, __half, col_major, row_major, float, __half)
MMA(mma_f16_f16_row_row, 16, 16, 16, __half, __half, row_major, row_major, __half, __half)
MMA(mma_f16_f32_32x8x16, 32, 8, 16, __half, __half, row_major, col_major, float, __half)
MMA(mma_f16_f32_8x32x16, 8, 32, 16, __half, __half, row_major, row_major, float, __half)
MMA(mma_bf16_f32, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, row_major, col_major, float, __nv_bfloat16)
MMA(mma_tf32_f32, 16, 16, 8, wmma::precision::tf32, wmma::precision::tf32, row_major, col_major, float, float)
MMA(mma_s8_s32, 16, 16, 16, signed char, signed char, row_major, col_major, int, signed char)
MMA(mma_u8_s32, 16, 16, 16, unsigned char, unsigned char, row_major, col_major, int, unsigned char)
MMA(mma_f64_f64, 8, 8, 4, double, double, row_major, col_major, double, double)

// ---- 5. a tiled GEMM: C (128 x 128, f32) = A (128 x 128, f16, row-major) x B (same) ---------------
// CTA tile 64 x 64, K step 32; 4 warps, each 32 x 32 of C as 2 x 2 fragments.
template <int PAD>
__global__ void wgemm(const __half* A, const __half* B, float* C) {
  __shared__ __align__(128) __half sa[64][32 + PAD];
  __shared__ __align__(128) __half sb[32][64 + PAD];
  const int w = threadIdx.x >> 5, wm = w >> 1, wn = w & 1;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < 128; k0 += 32) {
    for (int i = threadIdx.x; i < 256; i += 128) {
      const int r = i / 4, c = (i % 4) * 8;
      *reinterpret_cast<uint4*>(&sa[r][c]) = *reinterpret_cast<const uint4*>(&A[(row0 + r) * 128 + k0 + c]);
    }
    for (int i = threadIdx.x; i < 256; i += 128) {
      const int r = i / 8, c = (i % 8) * 8;
      *reinterpret_cast<uint4*>(&sb[r][c]) = *reinterpret_cast<const uint4*>(&B[(k0 + r) * 128 + col0 + c]);
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &sa[wm * 32 + i * 16][kk], 32 + PAD);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &sb[kk][wn * 32 + j * 16], 64 + PAD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&C[(row0 + wm * 32 + i * 16) * 128 + col0 + wn * 32 + j * 16], acc[i][j], 128,
                              wmma::mem_row_major);
}

// ---- host ---------------------------------------------------------------------------------------
static void dump_words(const char* name, const void* dev, size_t bytes);
// A layout kernel's output: the bytes per lane it wrote in its header, then 32 lanes of them.
static void dump_layout(const char* name, const unsigned char* dev) {
  unsigned n = 0;
  CK(cudaMemcpy(&n, dev, 4, cudaMemcpyDeviceToHost));
  dump_words(name, dev + 16, 32 * (size_t)n);
}

static void dump_words(const char* name, const void* dev, size_t bytes) {
  std::vector<unsigned> h(bytes / 4);
  CK(cudaMemcpy(h.data(), dev, bytes, cudaMemcpyDeviceToHost));
  std::printf("words %s", name);
  for (unsigned v : h) std::printf(" %08x", v);
  std::printf("\n");
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  char label[96];
  // 1. layouts. Sources: 16-bit, 8-bit, 32-bit and 64-bit iota matrices of 2048 elements.
  void *s16, *s8, *s32, *s64;
  unsigned char* lay;
  CK(cudaMalloc(&s16, 4096));
  CK(cudaMalloc(&s8, 2048));
  CK(cudaMalloc(&s32, 8192));
  CK(cudaMalloc(&s64, 16384));
  CK(cudaMalloc(&lay, 4096));
  run("iota16", iota16, dim3(1), dim3(128), (unsigned short*)s16, 2048);
  run("iota8", iota8, dim3(1), dim3(128), (unsigned char*)s8, 2048);
  run("iota32", iota32, dim3(1), dim3(128), (unsigned*)s32, 2048);
  run("iota64", iota64, dim3(1), dim3(128), (unsigned long long*)s64, 2048);
  struct Layout { const char* name; void (*k)(const void*, unsigned, unsigned char*); void* src; unsigned ld; };
  const Layout layouts[] = {
      {"layout_a_row_f16_16x16x16", layout_a_row_f16_16x16x16, s16, 16},
      {"layout_a_col_f16_16x16x16", layout_a_col_f16_16x16x16, s16, 16},
      {"layout_b_row_f16_16x16x16", layout_b_row_f16_16x16x16, s16, 16},
      {"layout_b_col_f16_16x16x16", layout_b_col_f16_16x16x16, s16, 16},
      {"layout_a_row_f16_32x8x16", layout_a_row_f16_32x8x16, s16, 16},
      {"layout_a_col_f16_32x8x16", layout_a_col_f16_32x8x16, s16, 32},
      {"layout_b_row_f16_32x8x16", layout_b_row_f16_32x8x16, s16, 8},
      {"layout_b_col_f16_32x8x16", layout_b_col_f16_32x8x16, s16, 16},
      {"layout_a_row_f16_8x32x16", layout_a_row_f16_8x32x16, s16, 16},
      {"layout_a_col_f16_8x32x16", layout_a_col_f16_8x32x16, s16, 8},
      {"layout_b_row_f16_8x32x16", layout_b_row_f16_8x32x16, s16, 32},
      {"layout_b_col_f16_8x32x16", layout_b_col_f16_8x32x16, s16, 16},
      {"layout_a_row_bf16_16x16x16", layout_a_row_bf16_16x16x16, s16, 16},
      {"layout_b_col_bf16_16x16x16", layout_b_col_bf16_16x16x16, s16, 16},
      {"layout_a_row_tf32_16x16x8", layout_a_row_tf32_16x16x8, s32, 8},
      {"layout_a_col_tf32_16x16x8", layout_a_col_tf32_16x16x8, s32, 16},
      {"layout_b_row_tf32_16x16x8", layout_b_row_tf32_16x16x8, s32, 16},
      {"layout_b_col_tf32_16x16x8", layout_b_col_tf32_16x16x8, s32, 8},
      {"layout_a_row_s8_16x16x16", layout_a_row_s8_16x16x16, s8, 16},
      {"layout_a_col_s8_16x16x16", layout_a_col_s8_16x16x16, s8, 16},
      {"layout_b_row_s8_16x16x16", layout_b_row_s8_16x16x16, s8, 16},
      {"layout_b_col_s8_16x16x16", layout_b_col_s8_16x16x16, s8, 16},
      {"layout_a_row_u8_16x16x16", layout_a_row_u8_16x16x16, s8, 16},
      {"layout_a_row_s8_32x8x16", layout_a_row_s8_32x8x16, s8, 16},
      {"layout_b_col_s8_32x8x16", layout_b_col_s8_32x8x16, s8, 16},
      {"layout_a_row_s8_8x32x16", layout_a_row_s8_8x32x16, s8, 16},
      {"layout_b_col_s8_8x32x16", layout_b_col_s8_8x32x16, s8, 16},
      {"layout_a_row_bf16_32x8x16", layout_a_row_bf16_32x8x16, s16, 16},
      {"layout_b_row_bf16_8x32x16", layout_b_row_bf16_8x32x16, s16, 32},
      {"layout_a_row_f64_8x8x4", layout_a_row_f64_8x8x4, s64, 4},
      {"layout_a_col_f64_8x8x4", layout_a_col_f64_8x8x4, s64, 8},
      {"layout_b_row_f64_8x8x4", layout_b_row_f64_8x8x4, s64, 8},
      {"layout_b_col_f64_8x8x4", layout_b_col_f64_8x8x4, s64, 4},
  };
  for (const Layout& l : layouts) {
    run(l.name, l.k, dim3(1), dim3(32), (const void*)l.src, l.ld, lay);
    dump_layout(l.name, lay);
  }
  struct LayoutC { const char* name; void (*k)(const void*, unsigned, int, unsigned char*); void* src; unsigned ld; };
  const LayoutC layouts_c[] = {
      {"layout_c_f32_16x16x16", layout_c_f32_16x16x16, s32, 16},
      {"layout_c_f16_16x16x16", layout_c_f16_16x16x16, s16, 16},
      {"layout_c_f32_32x8x16", layout_c_f32_32x8x16, s32, 32},
      {"layout_c_f32_8x32x16", layout_c_f32_8x32x16, s32, 32},
      {"layout_c_s32_16x16x16", layout_c_s32_16x16x16, s32, 16},
      {"layout_c_f64_8x8x4", layout_c_f64_8x8x4, s64, 8},
      {"layout_c_s32_32x8x16", layout_c_s32_32x8x16, s32, 32},
      {"layout_c_s32_8x32x16", layout_c_s32_8x32x16, s32, 32},
      {"layout_c_f16_32x8x16", layout_c_f16_32x8x16, s16, 32},
      {"layout_c_f16_8x32x16", layout_c_f16_8x32x16, s16, 32},
  };
  for (const LayoutC& l : layouts_c)
    for (int col = 0; col < 2; ++col) {
      run(l.name, l.k, dim3(1), dim3(32), (const void*)l.src, l.ld, col, lay);
      std::snprintf(label, sizeof label, "%s/%s", l.name, col ? "col" : "row");
      dump_layout(label, lay);
    }

  // 2. shared memory: 16 CTAs x 4 warps.
  const int ctas = 16, threads = 128;
  unsigned* out = upload(std::vector<unsigned>((size_t)ctas * threads, 0u));
  struct Sh { const char* name; void (*k)(unsigned, unsigned, unsigned*); std::vector<unsigned> lds; };
  const Sh sh[] = {
      {"sh_a_row_f16", sh_a_row_f16, {16, 24, 32, 40, 64, 72}},
      {"sh_a_col_f16", sh_a_col_f16, {16, 24, 32, 40, 64, 72}},
      {"sh_b_row_f16", sh_b_row_f16, {16, 24, 32, 40, 64, 72}},
      {"sh_b_col_f16", sh_b_col_f16, {16, 24, 32, 40, 64, 72}},
      {"sh_a_row_f16_32x8x16", sh_a_row_f16_32x8x16, {16, 24}},
      {"sh_b_row_f16_8x32x16", sh_b_row_f16_8x32x16, {32, 40}},
      {"sh_a_row_bf16", sh_a_row_bf16, {16, 24}},
      {"sh_a_row_tf32", sh_a_row_tf32, {8, 12, 32}},
      {"sh_b_col_tf32", sh_b_col_tf32, {8, 12}},
      {"sh_a_row_s8", sh_a_row_s8, {16, 32, 48}},
      {"sh_a_col_s8", sh_a_col_s8, {16, 32}},
      {"sh_b_row_s8", sh_b_row_s8, {16, 32}},
      {"sh_a_row_f64", sh_a_row_f64, {4, 6, 32}},
  };
  for (const Sh& s : sh)
    for (unsigned ld : s.lds) {
      run(s.name, s.k, dim3(ctas), dim3(threads), ld, 0u, out);
      std::snprintf(label, sizeof label, "%s/%u", s.name, ld);
      checksum(label, out, (size_t)ctas * threads * 4);
    }
  struct ShAcc { const char* name; void (*k)(unsigned, int, unsigned, unsigned*); unsigned ld; int col; };
  const ShAcc sh_acc[] = {
      {"sh_c_f32_load", sh_c_f32_load, 16, 0}, {"sh_c_f32_load", sh_c_f32_load, 20, 0},
      {"sh_c_f32_load", sh_c_f32_load, 32, 0}, {"sh_c_f32_load", sh_c_f32_load, 16, 1},
      {"sh_c_f32_store", sh_c_f32_store, 16, 0}, {"sh_c_f32_store", sh_c_f32_store, 20, 0},
      {"sh_c_f32_store", sh_c_f32_store, 32, 0}, {"sh_c_f32_store", sh_c_f32_store, 16, 1},
      {"sh_c_f32_store", sh_c_f32_store, 20, 1}, {"sh_c_f16_load", sh_c_f16_load, 16, 0},
      {"sh_c_f16_store", sh_c_f16_store, 16, 0}, {"sh_c_f16_store", sh_c_f16_store, 24, 0},
      {"sh_c_f16_store", sh_c_f16_store, 16, 1},
  };
  for (const ShAcc& s : sh_acc) {
    run(s.name, s.k, dim3(ctas), dim3(threads), s.ld, s.col, 0u, out);
    std::snprintf(label, sizeof label, "%s/%u/%s", s.name, s.ld, s.col ? "col" : "row");
    checksum(label, out, (size_t)ctas * threads * 4);
  }

  // 3. global memory: 64 warps, up to 16 x 1024 halves or 16 x 256 floats each.
  __half* gh;
  float* gf;
  CK(cudaMalloc(&gh, 64 * 16 * 1024 * 2));
  CK(cudaMalloc(&gf, 64 * 16 * 256 * 4));
  run("init_f16", init_f16, dim3(64), dim3(256), gh, 64 * 16 * 1024, 11u);
  for (unsigned ld : {16u, 64u, 1024u}) {
    run("gl_a_row_f16", gl_a_row_f16, dim3(ctas), dim3(threads), (const __half*)gh, ld, 0u, out);
    std::snprintf(label, sizeof label, "gl_a_row_f16/%u", ld);
    checksum(label, out, (size_t)ctas * threads * 4);
    run("gl_b_col_f16", gl_b_col_f16, dim3(ctas), dim3(threads), (const __half*)gh, ld, 0u, out);
    std::snprintf(label, sizeof label, "gl_b_col_f16/%u", ld);
    checksum(label, out, (size_t)ctas * threads * 4);
  }
  for (unsigned ld : {16u, 256u})
    for (int col = 0; col < 2; ++col) {
      run("gl_c_f32_store", gl_c_f32_store, dim3(ctas), dim3(threads), gf, ld, col);
      std::snprintf(label, sizeof label, "gl_c_f32_store/%u/%s", ld, col ? "col" : "row");
      checksum(label, gf, (size_t)64 * 16 * ld * 4);
    }

  // 4. D = A x B + C. Operands of up to 32 x 16 elements of up to 8 bytes; D 1 KB.
  void *ma, *mb, *mc, *md;
  CK(cudaMalloc(&ma, 4096));
  CK(cudaMalloc(&mb, 4096));
  CK(cudaMalloc(&mc, 4096));
  CK(cudaMalloc(&md, 4096));
  using MmaK = void (*)(const void*, const void*, const void*, void*, unsigned, unsigned, unsigned, int);
  auto mma = [&](const char* name, MmaK k, unsigned lda, unsigned ldb, unsigned ldc, int col, size_t dbytes) {
    run(name, k, dim3(1), dim3(32), (const void*)ma, (const void*)mb, (const void*)mc, md, lda, ldb, ldc, col);
    std::snprintf(label, sizeof label, "%s/%s", name, col ? "col" : "row");
    checksum(label, md, dbytes);
  };
  run("init_f16", init_f16, dim3(1), dim3(128), (__half*)ma, 512, 1u);
  run("init_f16", init_f16, dim3(1), dim3(128), (__half*)mb, 512, 2u);
  run("init_f32", init_f32, dim3(1), dim3(128), (float*)mc, 256, 3u);
  mma("mma_f16_f32_row_col", mma_f16_f32_row_col, 16, 16, 16, 0, 1024);
  mma("mma_f16_f32_row_col", mma_f16_f32_row_col, 16, 16, 16, 1, 1024);
  mma("mma_f16_f32_col_row", mma_f16_f32_col_row, 16, 16, 16, 0, 1024);
  mma("mma_f16_f32_32x8x16", mma_f16_f32_32x8x16, 16, 16, 8, 0, 1024);
  mma("mma_f16_f32_8x32x16", mma_f16_f32_8x32x16, 16, 32, 32, 0, 1024);
  run("init_f16", init_f16, dim3(1), dim3(128), (__half*)mc, 256, 4u);
  mma("mma_f16_f16_row_row", mma_f16_f16_row_row, 16, 16, 16, 0, 512);
  run("init_bf16", init_bf16, dim3(1), dim3(128), (__nv_bfloat16*)ma, 256, 5u);
  run("init_bf16", init_bf16, dim3(1), dim3(128), (__nv_bfloat16*)mb, 256, 6u);
  run("init_f32", init_f32, dim3(1), dim3(128), (float*)mc, 256, 7u);
  mma("mma_bf16_f32", mma_bf16_f32, 16, 16, 16, 0, 1024);
  run("init_f32", init_f32, dim3(1), dim3(128), (float*)ma, 128, 8u);
  run("init_f32", init_f32, dim3(1), dim3(128), (float*)mb, 128, 9u);
  mma("mma_tf32_f32", mma_tf32_f32, 8, 8, 16, 0, 1024);
  run("init_s8", init_s8, dim3(1), dim3(128), (signed char*)ma, 256, 10u);
  run("init_s8", init_s8, dim3(1), dim3(128), (signed char*)mb, 256, 11u);
  run("init_s8", init_s8, dim3(1), dim3(128), (signed char*)mc, 1024, 12u);
  mma("mma_s8_s32", mma_s8_s32, 16, 16, 16, 0, 1024);
  mma("mma_u8_s32", mma_u8_s32, 16, 16, 16, 1, 1024);
  run("init_f64", init_f64, dim3(1), dim3(128), (double*)ma, 32, 13u);
  run("init_f64", init_f64, dim3(1), dim3(128), (double*)mb, 32, 14u);
  run("init_f64", init_f64, dim3(1), dim3(128), (double*)mc, 64, 15u);
  mma("mma_f64_f64", mma_f64_f64, 4, 4, 8, 0, 512);

  // 5. the GEMM.
  __half *ga, *gb;
  float* gc;
  CK(cudaMalloc(&ga, 128 * 128 * 2));
  CK(cudaMalloc(&gb, 128 * 128 * 2));
  CK(cudaMalloc(&gc, 128 * 128 * 4));
  run("init_f16", init_f16, dim3(16), dim3(256), ga, 128 * 128, 16u);
  run("init_f16", init_f16, dim3(16), dim3(256), gb, 128 * 128, 17u);
  run("wgemm<0>", wgemm<0>, dim3(2, 2), dim3(128), (const __half*)ga, (const __half*)gb, gc);
  checksum("wgemm<0>", gc, 128 * 128 * 4);
  run("wgemm<8>", wgemm<8>, dim3(2, 2), dim3(128), (const __half*)ga, (const __half*)gb, gc);
  checksum("wgemm<8>", gc, 128 * 128 * 4);
  CK(cudaDeviceSynchronize());
  return 0;
}
