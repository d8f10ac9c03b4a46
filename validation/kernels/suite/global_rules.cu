// global_rules.cu -- hardware validation suite: global loads, stores and atomics, one rule per kernel.
//
// Every kernel is launched exactly once, in the order of main(); the program prints one line per launch,
// "kernel NAME ms=T" (CUDA-event time of that launch) and nothing else on stdout. Errors go to stderr and
// give a non-zero exit status.
//
// Conventions (so that the recorded trace, Nsight Compute and warpscope see the same thing):
//   - grids are exact multiples of the block size (256 threads) and the measured kernels have no bounds
//     checks, so no measured memory instruction is predicated;
//   - partial warps come from an early return on lane bits (a branch/EXIT in SASS, not a predicated access);
//   - inputs are deterministic (fixed byte pattern, fixed splitmix64 index table);
//   - cudaMalloc bases are 256-byte aligned, so element offsets below are offsets from a 128-byte line.
// Index notation in the comments: t = global thread id, lane = t % 32, w = global warp id = t / 32.
// Sizes: 65536 threads (256 CTAs) unless stated; the largest span read or written is 8 MB.
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o global_rules global_rules.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "suite_common.cuh"

#define RUN(K, GRID, ...) run(#K, K, GRID, kBlock, __VA_ARGS__)

static constexpr int kBlock = 256;
static constexpr int kGrid = 256;                       // 65536 threads
static constexpr int kThreads = kGrid * kBlock;
static constexpr size_t kBufBytes = 16u << 20;          // in and out: 16 MB each
static constexpr int kGatherRange4 = (8 << 20) / 4;     // random 4 B gathers within 8 MB
static constexpr int kGatherRange16 = (8 << 20) / 16;   // random 16 B gathers within 8 MB

// ---------------------------------------------------------------------------------------------------------
// value makers for stores
template <class T> __device__ __forceinline__ T mk(int t) { return (T)t; }
template <> __device__ __forceinline__ int4 mk<int4>(int t) { return make_int4(t, t + 1, t + 2, t + 3); }

#define IDS                                                                                            \
    const int t = blockIdx.x * blockDim.x + threadIdx.x;                                              \
    const int lane = threadIdx.x & 31;                                                                 \
    const int w = t >> 5;                                                                              \
    (void)lane;                                                                                        \
    (void)w;

// load kernel: out[t] = in[IDX] (one load of sizeof(T) under test, one coalesced store)
#define LDK(NAME, T, IDX) \
    __global__ void NAME(const T* in, T* out) { IDS out[t] = in[IDX]; }
// store kernel: out[IDX] = value (one store under test, no load)
#define STK(NAME, T, IDX) \
    __global__ void NAME(T* out) { IDS out[IDX] = mk<T>(t); }
// partial-warp load / store: lanes for which COND is false return first
#define LDK_IF(NAME, T, COND) \
    __global__ void NAME(const T* in, T* out) { IDS if (!(COND)) return; out[t] = in[t]; }
#define STK_IF(NAME, T, COND) \
    __global__ void NAME(T* out) { IDS if (!(COND)) return; out[t] = mk<T>(t); }

typedef long long i64;

// --- aligned, consecutive (stride 1)
LDK(g_ld1_coalesced, char, t)
LDK(g_ld2_coalesced, short, t)
LDK(g_ld4_coalesced, int, t)
LDK(g_ld8_coalesced, i64, t)
LDK(g_ld16_coalesced, int4, t)
STK(g_st1_coalesced, char, t)
STK(g_st2_coalesced, short, t)
STK(g_st4_coalesced, int, t)
STK(g_st8_coalesced, i64, t)
STK(g_st16_coalesced, int4, t)

// --- misaligned: the warp's first lane sits K bytes past a 128-byte line
LDK(g_ld1_misalign1, char, t + 1)
LDK(g_ld1_misalign3, char, t + 3)
LDK(g_ld1_misalign97, char, t + 97)
LDK(g_ld2_misalign2, short, t + 1)
LDK(g_ld2_misalign66, short, t + 33)
LDK(g_ld4_misalign4, int, t + 1)
LDK(g_ld4_misalign8, int, t + 2)
LDK(g_ld4_misalign12, int, t + 3)
LDK(g_ld4_misalign16, int, t + 4)
LDK(g_ld4_misalign32, int, t + 8)
LDK(g_ld4_misalign64, int, t + 16)
LDK(g_ld4_misalign96, int, t + 24)
LDK(g_ld4_misalign124, int, t + 31)
// every 4-byte offset: warp w is shifted by (w % 32) words, i.e. 0,4,...,124 bytes
LDK(g_ld4_misalign_sweep0to124, int, t + (w & 31))
LDK(g_ld8_misalign8, i64, t + 1)
LDK(g_ld8_misalign24, i64, t + 3)
LDK(g_ld8_misalign_sweep0to120, i64, t + (w & 15))
// 16-byte accesses must be 16-byte aligned: offsets 16..112
LDK(g_ld16_misalign16, int4, t + 1)
LDK(g_ld16_misalign48, int4, t + 3)
LDK(g_ld16_misalign64, int4, t + 4)
LDK(g_ld16_misalign112, int4, t + 7)
LDK(g_ld16_misalign_sweep0to112, int4, t + (w & 7))
STK(g_st4_misalign4, int, t + 1)
STK(g_st4_misalign12, int, t + 3)
STK(g_st4_misalign_sweep0to124, int, t + (w & 31))
STK(g_st16_misalign16, int4, t + 1)
STK(g_st16_misalign_sweep0to112, int4, t + (w & 7))

// --- strides (in elements of the access size): lane l of warp w reads element t*S
LDK(g_ld4_stride2, int, t * 2)
LDK(g_ld4_stride3, int, t * 3)
LDK(g_ld4_stride4, int, t * 4)
LDK(g_ld4_stride7, int, t * 7)
LDK(g_ld4_stride8, int, t * 8)
LDK(g_ld4_stride16, int, t * 16)
LDK(g_ld4_stride17, int, t * 17)
LDK(g_ld4_stride31, int, t * 31)
LDK(g_ld4_stride32, int, t * 32)
// strides 1..32: warp w uses stride s = 1 + (w % 32) inside its own 1024-element window
LDK(g_ld4_stride_sweep1to32, int, w * 1024 + lane * (1 + (w & 31)))
LDK(g_ld1_stride4, char, t * 4)
LDK(g_ld1_stride32, char, t * 32)
LDK(g_ld1_stride_sweep1to32, char, w * 1024 + lane * (1 + (w & 31)))
LDK(g_ld2_stride2, short, t * 2)
LDK(g_ld2_stride_sweep1to32, short, w * 1024 + lane * (1 + (w & 31)))
LDK(g_ld8_stride2, i64, t * 2)
LDK(g_ld8_stride4, i64, t * 4)
LDK(g_ld8_stride_sweep1to32, i64, w * 1024 + lane * (1 + (w & 31)))  // 128 CTAs
LDK(g_ld16_stride2, int4, t * 2)
LDK(g_ld16_stride8, int4, t * 8)
LDK(g_ld16_stride_sweep1to32, int4, w * 1024 + lane * (1 + (w & 31)))  // 32 CTAs
STK(g_st4_stride2, int, t * 2)
STK(g_st4_stride32, int, t * 32)
STK(g_st4_stride_sweep1to32, int, w * 1024 + lane * (1 + (w & 31)))
STK(g_st16_stride4, int4, t * 4)
STK(g_st1_stride_sweep1to32, char, w * 1024 + lane * (1 + (w & 31)))

// --- broadcast: all lanes of a warp one address (w * 128 bytes for 4 B)
LDK(g_ld1_broadcast, char, w * 128)
LDK(g_ld4_broadcast, int, w * 32)
LDK(g_ld16_broadcast, int4, w * 8)
STK(g_st4_broadcast, int, w * 32)

// --- permutations inside the warp's 128 bytes (4 B) / 512 bytes (16 B)
LDK(g_ld4_perm_xor1, int, t ^ 1)
LDK(g_ld4_perm_reverse, int, (t & ~31) | (31 - lane))
LDK(g_ld4_perm_mul7, int, (t & ~31) | ((lane * 7) & 31))
LDK(g_ld16_perm_rotate5, int4, (t & ~31) | ((lane + 5) & 31))
STK(g_st4_perm_reverse, int, (t & ~31) | (31 - lane))

// --- random gathers / scatter through a fixed index table
__global__ void g_ld4_gather_random(const int* in, const int* idx, int* out) { IDS out[t] = in[idx[t]]; }
__global__ void g_ld16_gather_random(const int4* in, const int* idx, int4* out) { IDS out[t] = in[idx[t]]; }
__global__ void g_st4_scatter_random(const int* idx, int* out) { IDS out[idx[t]] = t; }

// --- partial warps (early return on lane bits) and partial stores
LDK_IF(g_ld4_even_lanes, int, (lane & 1) == 0)
LDK_IF(g_ld4_first_half, int, lane < 16)
LDK_IF(g_ld4_one_lane, int, lane == 0)
LDK_IF(g_ld16_odd_lanes, int4, (lane & 1) == 1)
LDK_IF(g_ld4_mask_9c3a5e71, int, (0x9c3a5e71u >> lane) & 1u)
STK_IF(g_st4_even_lanes, int, (lane & 1) == 0)
STK_IF(g_st1_every4th_lane, char, (lane & 3) == 0)
STK_IF(g_st8_mask_9c3a5e71, i64, (0x9c3a5e71u >> lane) & 1u)

// --- atomics: with the return value used -> ATOM; without -> RED
__global__ void g_atom_add4_ret_coalesced(int* acc, int* out) { IDS out[t] = atomicAdd(&acc[t], 1); }
__global__ void g_red_add4_coalesced(int* acc) { IDS atomicAdd(&acc[t], 1); }
__global__ void g_red_add4_stride32(int* acc) { IDS atomicAdd(&acc[t * 32], t); }
__global__ void g_red_add4_per_warp_addr(int* acc) { IDS atomicAdd(&acc[w * 32], t); }
__global__ void g_red_addf32_coalesced(float* acc) { IDS atomicAdd(&acc[t], 1.0f); }
__global__ void g_red_add8_coalesced(unsigned long long* acc) { IDS atomicAdd(&acc[t], 1ull); }
__global__ void g_atom_cas4_ret_coalesced(int* acc, int* out) { IDS out[t] = atomicCAS(&acc[t], 0, t); }
__global__ void g_atom_max4_ret_gather(int* acc, const int* idx, int* out) { IDS out[t] = atomicMax(&acc[idx[t] & 0xffff], t); }

// ---------------------------------------------------------------------------------------------------------
static std::vector<int> index_table(int n, int range, uint64_t seed)
{
    std::vector<int> v(n);
    uint64_t s = seed;
    for (int i = 0; i < n; ++i) {  // splitmix64
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        v[i] = (int)(z % (uint64_t)range);
    }
    return v;
}

int main()
{
    CK(cudaSetDevice(0));
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    char *in = nullptr, *out = nullptr, *acc = nullptr;
    int *idx4 = nullptr, *idx16 = nullptr;
    CK(cudaMalloc(&in, kBufBytes));
    CK(cudaMalloc(&out, kBufBytes));
    CK(cudaMalloc(&acc, kBufBytes));
    CK(cudaMalloc(&idx4, kThreads * sizeof(int)));
    CK(cudaMalloc(&idx16, kThreads * sizeof(int)));
    {
        std::vector<unsigned char> h(kBufBytes);
        for (size_t i = 0; i < h.size(); ++i) h[i] = (unsigned char)(i * 7 + 3);
        CK(cudaMemcpy(in, h.data(), kBufBytes, cudaMemcpyHostToDevice));
        std::vector<unsigned char> z(kBufBytes, 0);
        CK(cudaMemcpy(out, z.data(), kBufBytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(acc, z.data(), kBufBytes, cudaMemcpyHostToDevice));
        std::vector<int> a = index_table(kThreads, kGatherRange4, 0x1234567ull);
        std::vector<int> b = index_table(kThreads, kGatherRange16, 0x7654321ull);
        CK(cudaMemcpy(idx4, a.data(), a.size() * sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(idx16, b.data(), b.size() * sizeof(int), cudaMemcpyHostToDevice));
    }
    const char* c1 = in;
    const short* c2 = (const short*)in;
    const int* c4 = (const int*)in;
    const i64* c8 = (const i64*)in;
    const int4* c16 = (const int4*)in;
    char* o1 = out;
    short* o2 = (short*)out;
    int* o4 = (int*)out;
    i64* o8 = (i64*)out;
    int4* o16 = (int4*)out;
    const int G = kGrid;

    RUN(g_ld1_coalesced, G, c1, o1);
    RUN(g_ld2_coalesced, G, c2, o2);
    RUN(g_ld4_coalesced, G, c4, o4);
    RUN(g_ld8_coalesced, G, c8, o8);
    RUN(g_ld16_coalesced, G, c16, o16);
    RUN(g_st1_coalesced, G, o1);
    RUN(g_st2_coalesced, G, o2);
    RUN(g_st4_coalesced, G, o4);
    RUN(g_st8_coalesced, G, o8);
    RUN(g_st16_coalesced, G, o16);

    RUN(g_ld1_misalign1, G, c1, o1);
    RUN(g_ld1_misalign3, G, c1, o1);
    RUN(g_ld1_misalign97, G, c1, o1);
    RUN(g_ld2_misalign2, G, c2, o2);
    RUN(g_ld2_misalign66, G, c2, o2);
    RUN(g_ld4_misalign4, G, c4, o4);
    RUN(g_ld4_misalign8, G, c4, o4);
    RUN(g_ld4_misalign12, G, c4, o4);
    RUN(g_ld4_misalign16, G, c4, o4);
    RUN(g_ld4_misalign32, G, c4, o4);
    RUN(g_ld4_misalign64, G, c4, o4);
    RUN(g_ld4_misalign96, G, c4, o4);
    RUN(g_ld4_misalign124, G, c4, o4);
    RUN(g_ld4_misalign_sweep0to124, G, c4, o4);
    RUN(g_ld8_misalign8, G, c8, o8);
    RUN(g_ld8_misalign24, G, c8, o8);
    RUN(g_ld8_misalign_sweep0to120, G, c8, o8);
    RUN(g_ld16_misalign16, G, c16, o16);
    RUN(g_ld16_misalign48, G, c16, o16);
    RUN(g_ld16_misalign64, G, c16, o16);
    RUN(g_ld16_misalign112, G, c16, o16);
    RUN(g_ld16_misalign_sweep0to112, G, c16, o16);
    RUN(g_st4_misalign4, G, o4);
    RUN(g_st4_misalign12, G, o4);
    RUN(g_st4_misalign_sweep0to124, G, o4);
    RUN(g_st16_misalign16, G, o16);
    RUN(g_st16_misalign_sweep0to112, G, o16);

    RUN(g_ld4_stride2, G, c4, o4);
    RUN(g_ld4_stride3, G, c4, o4);
    RUN(g_ld4_stride4, G, c4, o4);
    RUN(g_ld4_stride7, G, c4, o4);
    RUN(g_ld4_stride8, G, c4, o4);
    RUN(g_ld4_stride16, G, c4, o4);
    RUN(g_ld4_stride17, G, c4, o4);
    RUN(g_ld4_stride31, G, c4, o4);
    RUN(g_ld4_stride32, G, c4, o4);          // span 8 MB
    RUN(g_ld4_stride_sweep1to32, G, c4, o4);  // 2048 warps x 4 KB = 8 MB
    RUN(g_ld1_stride4, G, c1, o1);
    RUN(g_ld1_stride32, G, c1, o1);
    RUN(g_ld1_stride_sweep1to32, G, c1, o1);
    RUN(g_ld2_stride2, G, c2, o2);
    RUN(g_ld2_stride_sweep1to32, G, c2, o2);
    RUN(g_ld8_stride2, G, c8, o8);
    RUN(g_ld8_stride4, G, c8, o8);
    RUN(g_ld8_stride_sweep1to32, 128, c8, o8);     // 1024 warps x 8 KB = 8 MB
    RUN(g_ld16_stride2, G, c16, o16);
    RUN(g_ld16_stride8, G, c16, o16);              // span 8 MB
    RUN(g_ld16_stride_sweep1to32, 32, c16, o16);   // 256 warps x 16 KB = 4 MB
    RUN(g_st4_stride2, G, o4);
    RUN(g_st4_stride32, G, o4);
    RUN(g_st4_stride_sweep1to32, G, o4);
    RUN(g_st16_stride4, G, o16);
    RUN(g_st1_stride_sweep1to32, G, o1);

    RUN(g_ld1_broadcast, G, c1, o1);
    RUN(g_ld4_broadcast, G, c4, o4);
    RUN(g_ld16_broadcast, G, c16, o16);
    RUN(g_st4_broadcast, G, o4);

    RUN(g_ld4_perm_xor1, G, c4, o4);
    RUN(g_ld4_perm_reverse, G, c4, o4);
    RUN(g_ld4_perm_mul7, G, c4, o4);
    RUN(g_ld16_perm_rotate5, G, c16, o16);
    RUN(g_st4_perm_reverse, G, o4);

    RUN(g_ld4_gather_random, G, c4, (const int*)idx4, o4);
    RUN(g_ld16_gather_random, G, c16, (const int*)idx16, o16);
    RUN(g_st4_scatter_random, G, (const int*)idx4, o4);

    RUN(g_ld4_even_lanes, G, c4, o4);
    RUN(g_ld4_first_half, G, c4, o4);
    RUN(g_ld4_one_lane, G, c4, o4);
    RUN(g_ld16_odd_lanes, G, c16, o16);
    RUN(g_ld4_mask_9c3a5e71, G, c4, o4);
    RUN(g_st4_even_lanes, G, o4);
    RUN(g_st1_every4th_lane, G, o1);
    RUN(g_st8_mask_9c3a5e71, G, o8);

    int* a4 = (int*)acc;
    RUN(g_atom_add4_ret_coalesced, G, a4, o4);
    RUN(g_red_add4_coalesced, G, a4);
    RUN(g_red_add4_stride32, G, a4);  // span 8 MB
    RUN(g_red_add4_per_warp_addr, G, a4);
    RUN(g_red_addf32_coalesced, G, (float*)acc);
    RUN(g_red_add8_coalesced, G, (unsigned long long*)acc);
    RUN(g_atom_cas4_ret_coalesced, G, a4, o4);
    RUN(g_atom_max4_ret_gather, G, a4, (const int*)idx4, o4);

    CK(cudaDeviceSynchronize());
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(acc));
    CK(cudaFree(idx4));
    CK(cudaFree(idx16));
    return 0;
}
