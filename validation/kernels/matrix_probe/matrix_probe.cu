// matrix_probe.cu -- the warp-wide matrix instructions on the H100: ldmatrix (LDSM), stmatrix (STSM)
// and mma.sync (HMMA/IMMA), recorded for warpscope's PTX interpreter (validation/ptx_check.sh).
//
// 1. ldsm_* / stsm_*: 4 warps per CTA, 16 CTAs; each warp repeats one ldmatrix/stmatrix 16 times
//    in its own 8 KB of shared memory, with the row address of lane l given by `pattern`
//    (row_offset below): contiguous rows, strides of 32-144 B, an XOR swizzle, one address for all,
//    pairs of lanes on one row, random rows. Nsight Compute's shared wavefronts and bank conflicts
//    per launch are what the model has to reproduce. Each thread's registers go into a checksum
//    (out[]), so the placement of the matrix elements in the threads is checked too.
// 2. mma_*: one warp multiplies small-integer matrices (every product and sum exact in any order)
//    with each mma.sync shape and type nvcc's kernels use most; D goes to out[] register by register,
//    so the output is the fragment layout itself.
// 3. hgemm_tiles<PAD>: the two at work in a tiled GEMM, with and without padded shared rows.
// main() prints a 64-bit FNV-1a checksum of each launch's output; the interpreter's must be equal.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o matrix_probe matrix_probe.cu
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../suite/suite_common.cuh"

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

// Byte offset of the row lane `l` supplies, within its warp's 8 KB (16-byte aligned).
__device__ __forceinline__ unsigned row_offset(int pattern, unsigned l, unsigned it, unsigned w) {
  const unsigned r = l & 7, m = l >> 3;
  switch (pattern) {
    case 0: return l * 16;                         // contiguous: a matrix is one 128 B line
    case 1: return l * 128;                        // every row on banks 0-3: 8-way
    case 2: return l * 144;                        // padded 128 B rows: conflict-free
    case 3: return l * 64;                         // 4-way
    case 4: return l * 32;                         // 2-way
    case 5: return r * 128 + ((m ^ r) & 7) * 16;   // XOR swizzle: conflict-free
    case 6: return 0;                              // every lane one row
    case 7: return (l >> 1) * 16;                  // lanes in pairs on one row
    case 8: return (mix(l + 32 * it + 4096 * w) & 511) * 16;  // random rows in 8 KB
    default: return (mix(l + 32 * it + 4096 * w) & 15) * 16;  // random rows in 256 B
  }
}

__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void fill(unsigned char* tile) {
  for (unsigned i = threadIdx.x; i < 4 * kWarpBytes / 4; i += blockDim.x)
    reinterpret_cast<unsigned*>(tile)[i] = mix(i + 977 * blockIdx.x);
  __syncthreads();
}

#define LDSM(NAME, BODY)                                                                            \
  __global__ void NAME(int pattern, unsigned* out) {                                                \
    __shared__ __align__(128) unsigned char tile[4 * kWarpBytes];                                   \
    fill(tile);                                                                                     \
    const unsigned l = threadIdx.x & 31, w = threadIdx.x >> 5;                                      \
    unsigned acc = 0;                                                                               \
    for (unsigned it = 0; it < kIters; ++it) {                                                      \
      const unsigned a = smem_u32(tile + w * kWarpBytes + row_offset(pattern, l, it, w));            \
      unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;                                                      \
      BODY;                                                                                         \
      acc = acc * 31u + (r0 ^ (r1 << 1) ^ (r2 << 2) ^ (r3 << 3));                                   \
    }                                                                                               \
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;                                               \
  }

LDSM(ldsm_x1, asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory"))
LDSM(ldsm_x2, asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                           : "=r"(r0), "=r"(r1) : "r"(a) : "memory"))
LDSM(ldsm_x4, asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                           : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory"))
LDSM(ldsm_x1_trans, asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                                 : "=r"(r0) : "r"(a) : "memory"))
LDSM(ldsm_x4_trans, asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory"))

// stmatrix: each iteration stores registers made from the lane and the iteration; at the end every
// thread checksums its part of its warp's 8 KB (rows written last win; lanes that share a row write
// the same row in an order the checksum then depends on: patterns 6, 7 and 9 are not compared).
#define STSM(NAME, BODY)                                                                            \
  __global__ void NAME(int pattern, unsigned* out) {                                                \
    __shared__ __align__(128) unsigned char tile[4 * kWarpBytes];                                   \
    fill(tile);                                                                                     \
    const unsigned l = threadIdx.x & 31, w = threadIdx.x >> 5;                                      \
    for (unsigned it = 0; it < kIters; ++it) {                                                      \
      const unsigned a = smem_u32(tile + w * kWarpBytes + row_offset(pattern, l, it, w));            \
      const unsigned r0 = mix(l * 4 + it * 128), r1 = r0 * 3u, r2 = r0 * 5u, r3 = r0 * 7u;          \
      (void)r1, (void)r2, (void)r3;                                                                \
      BODY;                                                                                         \
    }                                                                                               \
    __syncwarp();                                                                                   \
    unsigned acc = 0;                                                                               \
    const unsigned* words = reinterpret_cast<const unsigned*>(tile + w * kWarpBytes);               \
    for (unsigned i = l; i < kWarpBytes / 4; i += 32) acc = acc * 31u + words[i];                   \
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;                                               \
  }

STSM(stsm_x1, asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" : : "r"(a), "r"(r0) : "memory"))
STSM(stsm_x2, asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};"
                           : : "r"(a), "r"(r0), "r"(r1) : "memory"))
STSM(stsm_x4, asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                           : : "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory"))
STSM(stsm_x4_trans, asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                                 : : "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory"))

// Small integers (-3..3) as f16 / bf16 / tf32 / s8 elements: every product and every sum is exact.
__device__ __forceinline__ int small(unsigned i, unsigned salt) { return (int)(mix(i * 7919u + salt) % 7u) - 3; }

__global__ void init_f16(unsigned short* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const __half_raw h = __half_raw(__float2half((float)small(i, salt)));
    a[i] = h.x;
  }
}
__global__ void init_bf16(unsigned short* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    a[i] = (unsigned short)(__float_as_uint((float)small(i, salt)) >> 16);  // exact: small integers
}
__global__ void init_f32(float* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    a[i] = (float)small(i, salt);
}
__global__ void init_s8(signed char* a, int n, unsigned salt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    a[i] = (signed char)(small(i, salt) * 37);
}

// m16n8k16, f16 x f16 + f32 -> f32. A (16x16, row-major) through ldmatrix.x4, B stored as B^T
// (8 rows of 16, i.e. "col") through ldmatrix.x2, C from global memory in the D layout.
__global__ void mma_f16_f32_m16n8k16(const unsigned short* A, const unsigned short* Bt, const float* C, float* out) {
  __shared__ __align__(128) unsigned short sa[16 * 16], sb[8 * 16];
  const unsigned l = threadIdx.x;
  for (unsigned i = l; i < 256; i += 32) sa[i] = A[i];
  for (unsigned i = l; i < 128; i += 32) sb[i] = Bt[i];
  __syncwarp();
  const unsigned m = l >> 3, r = l & 7;
  unsigned a0, a1, a2, a3, b0, b1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(smem_u32(sa + (r + 8 * (m & 1)) * 16 + (m >> 1) * 8)));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(b0), "=r"(b1) : "r"(smem_u32(sb + r * 16 + (m & 1) * 8)));
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                 "f"(C[l * 4]), "f"(C[l * 4 + 1]), "f"(C[l * 4 + 2]), "f"(C[l * 4 + 3]));
  out[l * 4] = d0; out[l * 4 + 1] = d1; out[l * 4 + 2] = d2; out[l * 4 + 3] = d3;
}

// m16n8k16, bf16, B row-major (16 rows of 8) through ldmatrix.x2.trans; C = 0.
__global__ void mma_bf16_f32_m16n8k16(const unsigned short* A, const unsigned short* B, float* out) {
  __shared__ __align__(128) unsigned short sa[16 * 16], sb[16 * 8];
  const unsigned l = threadIdx.x;
  for (unsigned i = l; i < 256; i += 32) sa[i] = A[i];
  for (unsigned i = l; i < 128; i += 32) sb[i] = B[i];
  __syncwarp();
  const unsigned m = l >> 3, r = l & 7;
  unsigned a0, a1, a2, a3, b0, b1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(smem_u32(sa + (r + 8 * (m & 1)) * 16 + (m >> 1) * 8)));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(b0), "=r"(b1) : "r"(smem_u32(sb + (l & 15) * 8)));
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %10, %10, %10};"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(0.f));
  out[l * 4] = d0; out[l * 4 + 1] = d1; out[l * 4 + 2] = d2; out[l * 4 + 3] = d3;
}

// m16n8k16 with f16 accumulators; fragments read from global memory by the layout of the PTX ISA.
__global__ void mma_f16_f16_m16n8k16(const unsigned* A, const unsigned* Bt, const unsigned* C, unsigned* out) {
  const unsigned l = threadIdx.x, g = l >> 2, t = l & 3;
  // A: 16 x 16 halves = 16 x 8 words; Bt: 8 x 16 halves = 8 x 8 words; C: 16 x 8 halves = 16 x 4 words
  const unsigned a0 = A[g * 8 + t], a1 = A[(g + 8) * 8 + t], a2 = A[g * 8 + t + 4], a3 = A[(g + 8) * 8 + t + 4];
  const unsigned b0 = Bt[g * 8 + t], b1 = Bt[g * 8 + t + 4];
  unsigned d0, d1;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
               : "=r"(d0), "=r"(d1)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(C[g * 4 + t]), "r"(C[(g + 8) * 4 + t]));
  out[l * 2] = d0; out[l * 2 + 1] = d1;
}

// m16n8k8, f16 -> f32.
__global__ void mma_f16_f32_m16n8k8(const unsigned* A, const unsigned* Bt, float* out) {
  const unsigned l = threadIdx.x, g = l >> 2, t = l & 3;
  // A: 16 x 8 halves = 16 x 4 words; Bt: 8 x 8 halves = 8 x 4 words
  const unsigned a0 = A[g * 4 + t], a1 = A[(g + 8) * 4 + t], b0 = Bt[g * 4 + t];
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
               "{%7, %7, %7, %7};"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3) : "r"(a0), "r"(a1), "r"(b0), "f"(1.f));
  out[l * 4] = d0; out[l * 4 + 1] = d1; out[l * 4 + 2] = d2; out[l * 4 + 3] = d3;
}

// m16n8k8, tf32 -> f32 (small integers are exact tf32 values).
__global__ void mma_tf32_f32_m16n8k8(const float* A, const float* Bt, float* out) {
  const unsigned l = threadIdx.x, g = l >> 2, t = l & 3;
  const float a0 = A[g * 8 + t], a1 = A[(g + 8) * 8 + t], a2 = A[g * 8 + t + 4], a3 = A[(g + 8) * 8 + t + 4];
  const float b0 = Bt[g * 8 + t], b1 = Bt[g * 8 + t + 4];
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %10, %10, %10};"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(__float_as_uint(a0)), "r"(__float_as_uint(a1)), "r"(__float_as_uint(a2)),
                 "r"(__float_as_uint(a3)), "r"(__float_as_uint(b0)), "r"(__float_as_uint(b1)), "f"(0.f));
  out[l * 4] = d0; out[l * 4 + 1] = d1; out[l * 4 + 2] = d2; out[l * 4 + 3] = d3;
}

// m16n8k32, s8 x s8 + s32 -> s32.
__global__ void mma_s8_s32_m16n8k32(const unsigned* A, const unsigned* Bt, int* out) {
  const unsigned l = threadIdx.x, g = l >> 2, t = l & 3;
  // A: 16 x 32 bytes = 16 x 8 words; Bt: 8 x 32 bytes = 8 x 8 words
  const unsigned a0 = A[g * 8 + t], a1 = A[(g + 8) * 8 + t], a2 = A[g * 8 + t + 4], a3 = A[(g + 8) * 8 + t + 4];
  const unsigned b0 = Bt[g * 8 + t], b1 = Bt[g * 8 + t + 4];
  int d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %10, %10, %10};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(5));
  out[l * 4] = d0; out[l * 4 + 1] = d1; out[l * 4 + 2] = d2; out[l * 4 + 3] = d3;
}

// A tensor-core GEMM as CUTLASS-style kernels write it: C (128 x 128, f32) = A (128 x 128, f16, row-major)
// x B (given as B^T, 128 x 128 f16 row-major), 64 x 64 tiles per CTA of 4 warps (32 x 32 each), K in
// steps of 32 through shared memory, fragments by ldmatrix, m16n8k16 mma. PAD = 0: rows of 64 B, so
// ldmatrix's 8 rows fall on two bank groups (4-way conflicts); PAD = 8: rows of 80 B, conflict-free.
template <int PAD>
__global__ void hgemm_tiles(const unsigned short* A, const unsigned short* Bt, float* C) {
  constexpr int N = 128, KT = 32, LD = KT + PAD;
  __shared__ __align__(128) unsigned short sa[64 * LD], sb[64 * LD];
  const unsigned l = threadIdx.x & 31, w = threadIdx.x >> 5, wm = w >> 1, wn = w & 1;
  const unsigned row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[2][4][4] = {};
  for (int k0 = 0; k0 < N; k0 += KT) {
    for (unsigned i = threadIdx.x; i < 64 * KT / 8; i += blockDim.x) {  // 16 B a thread
      const unsigned r = i / (KT / 8), c = (i % (KT / 8)) * 8;
      *reinterpret_cast<uint4*>(&sa[r * LD + c]) = *reinterpret_cast<const uint4*>(&A[(row0 + r) * N + k0 + c]);
      *reinterpret_cast<uint4*>(&sb[r * LD + c]) = *reinterpret_cast<const uint4*>(&Bt[(col0 + r) * N + k0 + c]);
    }
    __syncthreads();
    for (int kk = 0; kk < KT; kk += 16) {
      unsigned a[2][4], b[4][2];
      for (int mi = 0; mi < 2; ++mi)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
                     : "r"(smem_u32(&sa[(wm * 32 + mi * 16 + (l & 15)) * LD + kk + (l >> 4) * 8])));
      for (int ni = 0; ni < 4; ++ni)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                     : "=r"(b[ni][0]), "=r"(b[ni][1])
                     : "r"(smem_u32(&sb[(wn * 32 + ni * 8 + (l & 7)) * LD + kk + ((l >> 3) & 1) * 8])));
      for (int mi = 0; mi < 2; ++mi)
        for (int ni = 0; ni < 4; ++ni)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                       "{%8, %9}, {%0, %1, %2, %3};"
                       : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]), "+f"(acc[mi][ni][3])
                       : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]), "r"(b[ni][0]), "r"(b[ni][1]));
    }
    __syncthreads();
  }
  const unsigned g = l >> 2, q = l & 3;
  for (int mi = 0; mi < 2; ++mi)
    for (int ni = 0; ni < 4; ++ni)
      for (int e = 0; e < 4; ++e)
        C[(row0 + wm * 32 + mi * 16 + g + 8 * (e >> 1)) * N + col0 + wn * 32 + ni * 8 + 2 * q + (e & 1)] = acc[mi][ni][e];
}

static void dump_words(const char* name, const void* dev, size_t words) {
  std::vector<unsigned> h(words);
  CK(cudaMemcpy(h.data(), dev, words * 4, cudaMemcpyDeviceToHost));
  std::printf("words %s", name);
  for (unsigned v : h) std::printf(" %08x", v);
  std::printf("\n");
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  const int ctas = 16, threads = 128, patterns = 10;
  unsigned* out = upload(std::vector<unsigned>((size_t)ctas * threads, 0u));
  struct Shared { const char* name; void (*k)(int, unsigned*); };
  const Shared shared[] = {{"ldsm_x1", ldsm_x1}, {"ldsm_x2", ldsm_x2}, {"ldsm_x4", ldsm_x4},
                           {"ldsm_x1_trans", ldsm_x1_trans}, {"ldsm_x4_trans", ldsm_x4_trans},
                           {"stsm_x1", stsm_x1}, {"stsm_x2", stsm_x2}, {"stsm_x4", stsm_x4},
                           {"stsm_x4_trans", stsm_x4_trans}};
  char label[64];
  for (const Shared& s : shared)
    for (int p = 0; p < patterns; ++p) {
      run(s.name, s.k, dim3(ctas), dim3(threads), p, out);
      std::snprintf(label, sizeof label, "%s/%d", s.name, p);
      checksum(label, out, (size_t)ctas * threads * 4);
    }

  unsigned short *a16, *b16;
  float *af, *bf, *cf, *outf;
  signed char *a8, *b8;
  CK(cudaMalloc(&a16, 512));
  CK(cudaMalloc(&b16, 256));
  CK(cudaMalloc(&af, 512));
  CK(cudaMalloc(&bf, 256));
  CK(cudaMalloc(&cf, 512));
  CK(cudaMalloc(&a8, 512));
  CK(cudaMalloc(&b8, 256));
  CK(cudaMalloc(&outf, 512));
  const struct { const char* name; void (*k)(unsigned short*, int, unsigned); } halves[] = {
      {"init_f16", init_f16}, {"init_bf16", init_bf16}};
  for (const auto& h : halves) {
    run(h.name, h.k, dim3(1), dim3(64), a16, 256, 1u);
    run(h.name, h.k, dim3(1), dim3(64), b16, 128, 2u);
    if (h.k == init_f16) {
      run("init_f32", init_f32, dim3(1), dim3(64), cf, 128, 3u);
      run("mma_f16_f32_m16n8k16", mma_f16_f32_m16n8k16, dim3(1), dim3(32), a16, b16, cf, outf);
      dump_words("mma_f16_f32_m16n8k16", outf, 128);
      run("mma_f16_f16_m16n8k16", mma_f16_f16_m16n8k16, dim3(1), dim3(32), (const unsigned*)a16,
          (const unsigned*)b16, (const unsigned*)cf /* as halves: 0 or small */, (unsigned*)outf);
      dump_words("mma_f16_f16_m16n8k16", outf, 64);
      run("mma_f16_f32_m16n8k8", mma_f16_f32_m16n8k8, dim3(1), dim3(32), (const unsigned*)a16,
          (const unsigned*)b16, outf);
      dump_words("mma_f16_f32_m16n8k8", outf, 128);
    } else {
      run("mma_bf16_f32_m16n8k16", mma_bf16_f32_m16n8k16, dim3(1), dim3(32), a16, b16, outf);
      dump_words("mma_bf16_f32_m16n8k16", outf, 128);
    }
  }
  run("init_f32", init_f32, dim3(1), dim3(64), af, 128, 4u);
  run("init_f32", init_f32, dim3(1), dim3(64), bf, 64, 5u);
  run("mma_tf32_f32_m16n8k8", mma_tf32_f32_m16n8k8, dim3(1), dim3(32), af, bf, outf);
  dump_words("mma_tf32_f32_m16n8k8", outf, 128);
  run("init_s8", init_s8, dim3(1), dim3(64), a8, 512, 6u);
  run("init_s8", init_s8, dim3(1), dim3(64), b8, 256, 7u);
  run("mma_s8_s32_m16n8k32", mma_s8_s32_m16n8k32, dim3(1), dim3(32), (const unsigned*)a8, (const unsigned*)b8,
      (int*)outf);
  dump_words("mma_s8_s32_m16n8k32", outf, 128);
  unsigned short *ga, *gb;
  float* gc;
  CK(cudaMalloc(&ga, 128 * 128 * 2));
  CK(cudaMalloc(&gb, 128 * 128 * 2));
  CK(cudaMalloc(&gc, 128 * 128 * 4));
  run("init_f16", init_f16, dim3(16), dim3(256), ga, 128 * 128, 8u);
  run("init_f16", init_f16, dim3(16), dim3(256), gb, 128 * 128, 9u);
  run("hgemm_tiles<0>", hgemm_tiles<0>, dim3(2, 2), dim3(128), ga, gb, gc);
  checksum("hgemm_tiles<0>", gc, 128 * 128 * 4);
  run("hgemm_tiles<8>", hgemm_tiles<8>, dim3(2, 2), dim3(128), ga, gb, gc);
  checksum("hgemm_tiles<8>", gc, 128 * 128 * 4);
  CK(cudaDeviceSynchronize());
  return 0;
}
