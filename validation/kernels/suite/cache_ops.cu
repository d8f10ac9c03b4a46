// cache_ops.cu -- hardware validation suite: cache operators of global loads and stores.
//
// __ldg and `const __restrict__` (ld.global.nc -> LDG.E.CONSTANT), and the PTX cache operators through
// inline PTX: ld.global.cg (-> LDG.E.STRONG.GPU), .cs (-> .EF), .lu (-> .LU), .cv (-> .STRONG.SYS);
// st.global.cg / .cs / .wt. The *_reuse4 kernels read every element of a CTA's 1 KB window four times
// (four rotated passes), so L1 hits appear for operators that allocate in L1 and not for .cg.
//
// Every kernel is launched once; one line "kernel NAME ms=T" per launch on stdout, nothing else.
// Grids are exact (256 threads per CTA, no bounds checks); inputs are deterministic.
// Index notation: t = global thread id, lane = t % 32, w = t / 32.
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o cache_ops cache_ops.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "suite_common.cuh"

#define RUN(K, GRID, ...) run(#K, K, GRID, kBlock, __VA_ARGS__)

static constexpr int kBlock = 256;
static constexpr int kGrid = 256;  // 65536 threads
static constexpr int kThreads = kGrid * kBlock;
static constexpr size_t kBufBytes = 8u << 20;
static constexpr int kGatherRange = (4 << 20) / 4;  // random 4 B gathers within 4 MB

#define IDS                                                                                            \
    const int t = blockIdx.x * blockDim.x + threadIdx.x;                                              \
    const int lane = threadIdx.x & 31;                                                                 \
    const int w = t >> 5;                                                                              \
    (void)lane;                                                                                        \
    (void)w;

// ---------------------------------------------------------------------------------------------------------
// inline-PTX accessors
#define PTX_LD4(NAME, OP)                                                                              \
    __device__ __forceinline__ int NAME(const int* p)                                                  \
    {                                                                                                  \
        int v;                                                                                         \
        asm volatile("ld.global." OP ".s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");                 \
        return v;                                                                                      \
    }
#define PTX_LD16(NAME, OP)                                                                             \
    __device__ __forceinline__ int4 NAME(const int4* p)                                                \
    {                                                                                                  \
        int4 v;                                                                                        \
        asm volatile("ld.global." OP ".v4.s32 {%0, %1, %2, %3}, [%4];"                                 \
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)                                      \
                     : "l"(p)                                                                          \
                     : "memory");                                                                      \
        return v;                                                                                      \
    }
#define PTX_ST4(NAME, OP)                                                                              \
    __device__ __forceinline__ void NAME(int* p, int v)                                                \
    {                                                                                                  \
        asm volatile("st.global." OP ".s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");                    \
    }
PTX_LD4(ld_cg, "cg")
PTX_LD4(ld_cs, "cs")
PTX_LD4(ld_lu, "lu")
PTX_LD4(ld_cv, "cv")
PTX_LD16(ld_cg16, "cg")
PTX_LD16(ld_cs16, "cs")
PTX_ST4(st_cg, "cg")
PTX_ST4(st_cs, "cs")
PTX_ST4(st_wt, "wt")

// ---------------------------------------------------------------------------------------------------------
// kernels
__global__ void c_ld4_plain_coalesced(const int* in, int* out) { IDS out[t] = in[t]; }
__global__ void c_ldg4_coalesced(const int* in, int* out) { IDS out[t] = __ldg(&in[t]); }
__global__ void c_ldg16_coalesced(const int4* in, int4* out) { IDS out[t] = __ldg(&in[t]); }
__global__ void c_restrict4_coalesced(const int* __restrict__ in, int* __restrict__ out) { IDS out[t] = in[t]; }
__global__ void c_restrict16_stride2(const int4* __restrict__ in, int4* __restrict__ out) { IDS out[t] = in[t * 2]; }
__global__ void c_ldg4_stride8(const int* in, int* out) { IDS out[t] = __ldg(&in[t * 8]); }
__global__ void c_ldg4_gather_random(const int* in, const int* idx, int* out) { IDS out[t] = __ldg(&in[idx[t]]); }

__global__ void c_ldcg4_coalesced(const int* in, int* out) { IDS out[t] = ld_cg(&in[t]); }
__global__ void c_ldcg16_coalesced(const int4* in, int4* out) { IDS out[t] = ld_cg16(&in[t]); }
__global__ void c_ldcg4_stride8(const int* in, int* out) { IDS out[t] = ld_cg(&in[t * 8]); }
__global__ void c_ldcg4_gather_random(const int* in, const int* idx, int* out) { IDS out[t] = ld_cg(&in[idx[t]]); }
__global__ void c_ldcs4_coalesced(const int* in, int* out) { IDS out[t] = ld_cs(&in[t]); }
__global__ void c_ldcs16_stride2(const int4* in, int4* out) { IDS out[t] = ld_cs16(&in[t * 2]); }
__global__ void c_ldlu4_coalesced(const int* in, int* out) { IDS out[t] = ld_lu(&in[t]); }
__global__ void c_ldcv4_coalesced(const int* in, int* out) { IDS out[t] = ld_cv(&in[t]); }

// four rotated passes over the CTA's 256-word (1 KB) window: pass k, thread i reads word (i + 64k) % 256
#define REUSE4(NAME, LOAD)                                                                             \
    __global__ void NAME(const int* in, int* out)                                                      \
    {                                                                                                  \
        IDS const int* win = in + blockIdx.x * 256;                                                    \
        int s = 0;                                                                                     \
        _Pragma("unroll") for (int k = 0; k < 4; ++k) s += LOAD(&win[(threadIdx.x + 64 * k) & 255]);   \
        out[t] = s;                                                                                    \
    }
__device__ __forceinline__ int ld_plain(const int* p) { return *p; }
__device__ __forceinline__ int ld_nc(const int* p) { return __ldg(p); }
REUSE4(c_ld4_reuse4_plain, ld_plain)
REUSE4(c_ldg4_reuse4, ld_nc)
REUSE4(c_ldcg4_reuse4, ld_cg)
REUSE4(c_ldcs4_reuse4, ld_cs)

__global__ void c_stcg4_coalesced(int* out) { IDS st_cg(&out[t], t); }
__global__ void c_stcs4_coalesced(int* out) { IDS st_cs(&out[t], t); }
__global__ void c_stwt4_coalesced(int* out) { IDS st_wt(&out[t], t); }
__global__ void c_stcs4_stride8(int* out) { IDS st_cs(&out[t * 8], t); }

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
    int *in = nullptr, *out = nullptr, *idx = nullptr;
    CK(cudaMalloc(&in, kBufBytes));
    CK(cudaMalloc(&out, kBufBytes));
    CK(cudaMalloc(&idx, kThreads * sizeof(int)));
    {
        std::vector<int> h(kBufBytes / 4);
        for (size_t i = 0; i < h.size(); ++i) h[i] = (int)(i * 2654435761u);
        CK(cudaMemcpy(in, h.data(), kBufBytes, cudaMemcpyHostToDevice));
        std::vector<int> z(kBufBytes / 4, 0);
        CK(cudaMemcpy(out, z.data(), kBufBytes, cudaMemcpyHostToDevice));
        std::vector<int> a = index_table(kThreads, kGatherRange, 0xc0ffeeull);
        CK(cudaMemcpy(idx, a.data(), a.size() * sizeof(int), cudaMemcpyHostToDevice));
    }
    const int* ci = in;
    const int4* c16 = (const int4*)in;
    int4* o16 = (int4*)out;
    const int* cidx = idx;
    const int G = kGrid;

    RUN(c_ld4_plain_coalesced, G, ci, out);
    RUN(c_ldg4_coalesced, G, ci, out);
    RUN(c_ldg16_coalesced, G, c16, o16);
    RUN(c_restrict4_coalesced, G, ci, out);
    RUN(c_restrict16_stride2, G, c16, o16);
    RUN(c_ldg4_stride8, G, ci, out);
    RUN(c_ldg4_gather_random, G, ci, cidx, out);
    RUN(c_ldcg4_coalesced, G, ci, out);
    RUN(c_ldcg16_coalesced, G, c16, o16);
    RUN(c_ldcg4_stride8, G, ci, out);
    RUN(c_ldcg4_gather_random, G, ci, cidx, out);
    RUN(c_ldcs4_coalesced, G, ci, out);
    RUN(c_ldcs16_stride2, G, c16, o16);
    RUN(c_ldlu4_coalesced, G, ci, out);
    RUN(c_ldcv4_coalesced, G, ci, out);
    RUN(c_ld4_reuse4_plain, G, ci, out);
    RUN(c_ldg4_reuse4, G, ci, out);
    RUN(c_ldcg4_reuse4, G, ci, out);
    RUN(c_ldcs4_reuse4, G, ci, out);
    RUN(c_stcg4_coalesced, G, out);
    RUN(c_stcs4_coalesced, G, out);
    RUN(c_stwt4_coalesced, G, out);
    RUN(c_stcs4_stride8, G, out);

    CK(cudaDeviceSynchronize());
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(idx));
    return 0;
}
