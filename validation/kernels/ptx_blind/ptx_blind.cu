// ptx_blind.cu -- kernels written after the PTX interpreter, to check it blind against the H100: none of
// them is in the validation suite, and their PTX was interpreted before the hardware ran them
// (validation/ptx_check.sh ptx_blind records Nsight Compute's counters; docs/VALIDATION.md "PTX runs, blind").
//
// Conventions as the suite's (validation/kernels/suite/README.md): each kernel launched once, in order,
// printing "kernel NAME ms=T"; 256-thread CTAs unless stated; deterministic inputs. Inputs that decide
// addresses are made exactly as warpscope's buffer fills make them (splitmix64), so a run script can
// reproduce them: `index:RANGE:SEED` words and `random:SEED` bytes.
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o ptx_blind ptx_blind.cu
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../suite/suite_common.cuh"

// Bitonic sort of 1024 keys per CTA in shared memory (512 threads): strided compare-exchanges.
__global__ void b_bitonic_sort1024(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[1024];
  const unsigned t = threadIdx.x, base = blockIdx.x * 1024;
  s[t] = in[base + t];
  s[t + 512] = in[base + t + 512];
  __syncthreads();
  for (unsigned k = 2; k <= 1024; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      const unsigned i = 2 * t - (t & (j - 1));
      const unsigned p = i + j;
      const bool up = (i & k) == 0;
      const unsigned a = s[i], b = s[p];
      if ((a > b) == up) {
        s[i] = b;
        s[p] = a;
      }
      __syncthreads();
    }
  out[base + t] = s[t];
  out[base + t + 512] = s[t + 512];
}

// Blelloch exclusive scan of 512 ints per CTA (256 threads), no padding: bank conflicts grow with depth.
__global__ void b_scan512(const int* in, int* out) {
  __shared__ int s[512];
  const int t = threadIdx.x, base = blockIdx.x * 512;
  s[2 * t] = in[base + 2 * t];
  s[2 * t + 1] = in[base + 2 * t + 1];
  int off = 1;
  for (int d = 256; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      const int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    off <<= 1;
  }
  if (t == 0) s[511] = 0;
  for (int d = 1; d < 512; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      const int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      const int x = s[ai];
      s[ai] = s[bi];
      s[bi] += x;
    }
  }
  __syncthreads();
  out[base + 2 * t] = s[2 * t];
  out[base + 2 * t + 1] = s[2 * t + 1];
}

// y = A x, one warp per row of 1024 floats, float4 loads and a shuffle reduction.
__global__ void b_gemv_warp_rows(const float4* a, const float4* x, float* y) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  float acc = 0.f;
  for (int k = lane; k < 256; k += 32) {
    const float4 av = a[warp * 256 + k], xv = x[k];
    acc += av.x * xv.x + av.y * xv.y + av.z * xv.z + av.w * xv.w;
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffff, acc, o);
  if (lane == 0) y[warp] = acc;
}

// Global histogram with atomics: 64 bins, bin = low bits of random words.
__global__ void b_histogram64_global(const unsigned* in, unsigned* bins) {
  const unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&bins[v & 63], 1u);
  atomicAdd(&bins[64 + ((v >> 8) & 63)], v >> 30);
}

// 12-byte structs (AoS) read field by field.
struct Vec3 { float x, y, z; };
__global__ void b_aos_vec3_norm(const Vec3* v, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Vec3 p = v[i];
  out[i] = p.x * p.x + p.y * p.y + p.z * p.z;
}

// 64-bit transpose through a 32x32 shared tile, unpadded and padded.
template <int PAD>
__global__ void b_transpose_double(const double* in, double* out, int n) {
  __shared__ double tile[32][32 + PAD];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(ty + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
}

// Divergent loop: lane-dependent trip counts over a gather (index table).
__global__ void b_divergent_gather(const float* in, const unsigned* idx, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int trips = 1 + (idx[i] & 7);
  float acc = 0.f;
  for (int k = 0; k < trips; ++k) acc += in[(idx[i] + 977u * k) & ((1u << 20) - 1)];
  out[i] = acc;
}

// Half-precision pairs: __half2 loads and fused multiply-add, 8-byte stores of two pairs.
__global__ void b_half2_axpy(const __half2* x, __half2* y, __half2 a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __hfma2(a, x[i], y[i]);
}

// Shared-memory reduction with a warp-synchronous tail and a block-level atomic.
__global__ void b_reduce_atomic(const float* in, float* total) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t] + in[blockIdx.x * 256 + t + gridDim.x * 256];
  __syncthreads();
  for (int d = 128; d >= 32; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t < 32) {
    float v = s[t];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (t == 0) atomicAdd(total, v);
  }
}

static std::vector<uint32_t> splitmix_words(size_t n, uint64_t range, uint64_t seed) {
  std::vector<uint32_t> v(n);
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v[i] = range ? (uint32_t)(z % range) : (uint32_t)z;  // range 0: the low 32 bits (random: 8 bytes a draw)
  }
  return v;
}

// `random:SEED` fill: each splitmix64 draw gives 8 little-endian bytes.
static std::vector<uint32_t> splitmix_bytes_as_words(size_t n_words, uint64_t seed) {
  std::vector<uint32_t> v(n_words);
  uint64_t s = seed;
  for (size_t i = 0; i < n_words; i += 2) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v[i] = (uint32_t)z;
    if (i + 1 < n_words) v[i + 1] = (uint32_t)(z >> 32);
  }
  return v;
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  const int n = 1 << 20;  // 1M elements per buffer
  unsigned* keys = upload(splitmix_bytes_as_words(n, 11));       // random:11
  unsigned* idx = upload(splitmix_words(n, 1u << 20, 5));        // index:1048576:5
  std::vector<float> zeros(4 * n, 0.f);
  float* fa = upload(zeros);  // 16 MB
  float* fb = upload(zeros);  // 16 MB
  unsigned* bins = upload(std::vector<unsigned>(128, 0u));

  run("b_bitonic_sort1024", b_bitonic_sort1024, dim3(64), dim3(512), (const unsigned*)keys, (unsigned*)fa);
  run("b_scan512", b_scan512, dim3(128), dim3(256), (const int*)keys, (int*)fb);
  run("b_gemv_warp_rows", b_gemv_warp_rows, dim3(256), dim3(256), (const float4*)fa, (const float4*)fb, fa + 3 * n);
  run("b_histogram64_global", b_histogram64_global, dim3(256), dim3(256), (const unsigned*)keys, bins);
  run("b_aos_vec3_norm", b_aos_vec3_norm, dim3(256), dim3(256), (const Vec3*)fa, fb);
  run("b_transpose_double<0>", b_transpose_double<0>, dim3(16, 16), dim3(32, 8), (const double*)fa, (double*)fb, 512);
  run("b_transpose_double<1>", b_transpose_double<1>, dim3(16, 16), dim3(32, 8), (const double*)fa, (double*)fb, 512);
  run("b_divergent_gather", b_divergent_gather, dim3(256), dim3(256), (const float*)fa, (const unsigned*)idx, fb);
  run("b_half2_axpy", b_half2_axpy, dim3(256), dim3(256), (const __half2*)fa, (__half2*)fb, __floats2half2_rn(0.5f, 2.f));
  run("b_reduce_atomic", b_reduce_atomic, dim3(128), dim3(256), (const float*)fa, fb);
  CK(cudaDeviceSynchronize());
  return 0;
}
