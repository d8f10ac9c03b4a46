// shared_rules.cu -- hardware validation suite: shared-memory bank rules, one rule per kernel.
//
// Each CTA (256 threads = 8 warps) first fills its static shared array with consecutive, conflict-free
// stores (thread i writes elements i, i+256, ..., a loop with a fixed trip count), then __syncthreads(), then the access under test:
//   s_ld*: warp j of the CTA loads element IDX of its own region (region j = elements [j*R, (j+1)*R), R a
//          multiple of 128 bytes, so the region base does not change banks) and the value goes to out[t];
//   s_st*: warp j stores to element IDX of its region, __syncthreads(), then every thread reads back element
//          threadIdx.x (one conflict-free load) into out[t] (so the stores cannot be removed).
// So every kernel also has the fill stores and one global store per thread; their wavefronts are the ideal
// ones (1 per 4-byte instruction, 2 per 8-byte, 4 per 16-byte).
// lane = threadIdx.x % 32, w = global warp id. Strides are in elements of the access size.
//
// Every kernel is launched once (64 CTAs); one line "kernel NAME ms=T" per launch on stdout, nothing else.
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o shared_rules shared_rules.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "suite_common.cuh"

#define RUN(K, ...) run(#K, K, kGrid, kBlock, __VA_ARGS__)

static constexpr int kBlock = 256;
static constexpr int kGrid = 64;
static constexpr int kThreads = kGrid * kBlock;

typedef long long i64;
template <class T> __device__ __forceinline__ T mk(int i) { return (T)(i * 3 + 1); }
template <> __device__ __forceinline__ int4 mk<int4>(int i) { return make_int4(i, i + 1, i + 2, i + 3); }
template <class T> __device__ __forceinline__ int fold(T v) { return (int)v; }
template <> __device__ __forceinline__ int fold<i64>(i64 v) { return (int)(v ^ (v >> 32)); }
template <> __device__ __forceinline__ int fold<int4>(int4 v) { return v.x + v.y + v.z + v.w; }

#define IDS                                                                                            \
    const int t = blockIdx.x * blockDim.x + threadIdx.x;                                              \
    const int lane = threadIdx.x & 31;                                                                 \
    const int wib = threadIdx.x >> 5;                                                                  \
    const int w = t >> 5;                                                                              \
    (void)lane;                                                                                        \
    (void)w;

#define FILL(T, N)                                                                                     \
    _Pragma("unroll 1") for (int k = 0; k < (N) / 256; ++k) sm[threadIdx.x + 256 * k] = mk<T>(k);      \
    __syncthreads();

// load under test: sm[wib*R + IDX]
#define SLD(NAME, T, R, IDX)                                                                           \
    __global__ void NAME(int* out)                                                                     \
    {                                                                                                  \
        __shared__ T sm[8 * (R)];                                                                      \
        IDS FILL(T, 8 * (R));                                                                          \
        out[t] = fold<T>(sm[wib * (R) + (IDX)]);                                                       \
    }
// store under test: sm[wib*R + IDX] = value; then read back sm[threadIdx.x]
#define SST(NAME, T, R, IDX)                                                                           \
    __global__ void NAME(int* out)                                                                     \
    {                                                                                                  \
        __shared__ T sm[8 * (R)];                                                                      \
        IDS FILL(T, 8 * (R));                                                                          \
        sm[wib * (R) + (IDX)] = mk<T>(t);                                                              \
        __syncthreads();                                                                               \
        out[t] = fold<T>(sm[threadIdx.x]);                                                             \
    }

// --- 4-byte words, strides 1..33 (wavefronts = gcd(stride, 32) for loads and stores)
SLD(s_ld4_stride1, int, 32, lane)
SLD(s_ld4_stride2, int, 64, lane * 2)
SLD(s_ld4_stride3, int, 96, lane * 3)
SLD(s_ld4_stride4, int, 128, lane * 4)
SLD(s_ld4_stride8, int, 256, lane * 8)
SLD(s_ld4_stride16, int, 512, lane * 16)
SLD(s_ld4_stride17, int, 544, lane * 17)
SLD(s_ld4_stride31, int, 992, lane * 31)
SLD(s_ld4_stride32, int, 1024, lane * 32)
SLD(s_ld4_stride33, int, 1056, lane * 33)
// every stride 1..33: warp w (global) uses stride 1 + w % 33
SLD(s_ld4_stride_sweep1to33, int, 1056, lane * (1 + w % 33))
SST(s_st4_stride1, int, 32, lane)
SST(s_st4_stride2, int, 64, lane * 2)
SST(s_st4_stride32, int, 1024, lane * 32)
SST(s_st4_stride33, int, 1056, lane * 33)
SST(s_st4_stride_sweep1to33, int, 1056, lane * (1 + w % 33))

// --- 8-byte and 16-byte accesses with strides
SLD(s_ld8_stride1, i64, 32, lane)
SLD(s_ld8_stride2, i64, 64, lane * 2)
SLD(s_ld8_stride4, i64, 128, lane * 4)
SLD(s_ld8_stride17, i64, 544, lane * 17)
SST(s_st8_stride1, i64, 32, lane)
SST(s_st8_stride2, i64, 64, lane * 2)
SLD(s_ld16_stride1, int4, 32, lane)
SLD(s_ld16_stride2, int4, 64, lane * 2)
SLD(s_ld16_stride3, int4, 96, lane * 3)
SLD(s_ld16_stride8, int4, 256, lane * 8)
SST(s_st16_stride1, int4, 32, lane)
SST(s_st16_stride4, int4, 128, lane * 4)

// --- sub-word accesses
SLD(s_ld1_char_consecutive, char, 128, lane)
SLD(s_ld1_char_stride4, char, 128, lane * 4)
SLD(s_ld2_short_consecutive, short, 64, lane)
SST(s_st1_char_consecutive, char, 128, lane)
SST(s_st2_short_stride2, short, 64, lane * 2)

// --- broadcast and pairs
SLD(s_ld4_broadcast, int, 32, 0)
SLD(s_ld4_pairs, int, 32, lane / 2)
SLD(s_ld8_broadcast, i64, 32, 0)

// --- struct of three floats (12-byte stride: three 4-byte accesses with word stride 3)
struct F3 {
    float x, y, z;
};
__global__ void s_struct3f_ld(float* out)
{
    __shared__ F3 sm[256];
    IDS sm[threadIdx.x] = F3{(float)t, 1.0f, 2.0f};
    __syncthreads();
    const F3 v = sm[wib * 32 + ((lane * 5) & 31)];  // a permutation inside the warp's 32 structs
    out[t] = v.x + v.y * v.z;
}
__global__ void s_struct3f_st(float* out)
{
    __shared__ F3 sm[256];
    IDS sm[wib * 32 + ((lane * 5) & 31)] = F3{(float)t, (float)lane, 2.0f};
    __syncthreads();
    const F3 v = sm[threadIdx.x];
    out[t] = v.x + v.y * v.z;
}

// --- 32x32 float tile, block 32x8: write rows, read columns (unpadded: 32-way conflicts; padded 33: none)
template <int PITCH>
__device__ __forceinline__ void tile_col(float* out)
{
    __shared__ float tile[32][PITCH];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < 32; j += 8) tile[ty + j][tx] = (float)(t + j);
    __syncthreads();
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 32; j += 8) s += tile[tx][ty + j];
    out[t] = s;
}
__global__ void s_tile32_unpadded_col(float* out) { tile_col<32>(out); }
__global__ void s_tile32_padded_col(float* out) { tile_col<33>(out); }

// --- shared atomics
__global__ void s_atom_add4_ret(int* out)
{
    __shared__ int sm[256];
    IDS sm[threadIdx.x] = 0;
    __syncthreads();
    const int old = atomicAdd(&sm[wib * 32 + lane], t);
    __syncthreads();
    out[t] = old + sm[threadIdx.x];
}
__global__ void s_atom_add4_lane_mod4(int* out)
{
    __shared__ int sm[256];
    IDS sm[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&sm[wib * 32 + (lane & 3)], t);
    __syncthreads();
    out[t] = sm[threadIdx.x];
}
__global__ void s_atom_max4_stride32(int* out)
{
    __shared__ int sm[1024];
    IDS
#pragma unroll
    for (int k = 0; k < 4; ++k) sm[threadIdx.x + 256 * k] = 0;
    __syncthreads();
    atomicMax(&sm[(lane * 32 + wib) & 1023], t);
    __syncthreads();
    out[t] = sm[threadIdx.x];
}

// ---------------------------------------------------------------------------------------------------------
int main()
{
    CK(cudaSetDevice(0));
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    int* out = nullptr;
    CK(cudaMalloc(&out, kThreads * sizeof(int)));
    {
        std::vector<int> z(kThreads, 0);
        CK(cudaMemcpy(out, z.data(), z.size() * sizeof(int), cudaMemcpyHostToDevice));
    }
    float* fout = (float*)out;

    RUN(s_ld4_stride1, out);
    RUN(s_ld4_stride2, out);
    RUN(s_ld4_stride3, out);
    RUN(s_ld4_stride4, out);
    RUN(s_ld4_stride8, out);
    RUN(s_ld4_stride16, out);
    RUN(s_ld4_stride17, out);
    RUN(s_ld4_stride31, out);
    RUN(s_ld4_stride32, out);
    RUN(s_ld4_stride33, out);
    RUN(s_ld4_stride_sweep1to33, out);
    RUN(s_st4_stride1, out);
    RUN(s_st4_stride2, out);
    RUN(s_st4_stride32, out);
    RUN(s_st4_stride33, out);
    RUN(s_st4_stride_sweep1to33, out);
    RUN(s_ld8_stride1, out);
    RUN(s_ld8_stride2, out);
    RUN(s_ld8_stride4, out);
    RUN(s_ld8_stride17, out);
    RUN(s_st8_stride1, out);
    RUN(s_st8_stride2, out);
    RUN(s_ld16_stride1, out);
    RUN(s_ld16_stride2, out);
    RUN(s_ld16_stride3, out);
    RUN(s_ld16_stride8, out);
    RUN(s_st16_stride1, out);
    RUN(s_st16_stride4, out);
    RUN(s_ld1_char_consecutive, out);
    RUN(s_ld1_char_stride4, out);
    RUN(s_ld2_short_consecutive, out);
    RUN(s_st1_char_consecutive, out);
    RUN(s_st2_short_stride2, out);
    RUN(s_ld4_broadcast, out);
    RUN(s_ld4_pairs, out);
    RUN(s_ld8_broadcast, out);
    RUN(s_struct3f_ld, fout);
    RUN(s_struct3f_st, fout);
    RUN(s_tile32_unpadded_col, fout);
    RUN(s_tile32_padded_col, fout);
    RUN(s_atom_add4_ret, out);
    RUN(s_atom_add4_lane_mod4, out);
    RUN(s_atom_max4_stride32, out);

    CK(cudaDeviceSynchronize());
    CK(cudaFree(out));
    return 0;
}
