// const_local.cu -- hardware validation suite: constant memory and local memory.
//
// Constant: __constant__ float c_table[1024]; warp-uniform indices (one address per warp), CTA-uniform
// indices, and divergent indices with 2, 8 and 32 distinct addresses per warp (the constant cache
// serializes distinct addresses). Local: per-thread arrays indexed with run-time indices so that they stay
// in local memory (STL/LDL), with lane-divergent, warp-uniform and 16-byte element accesses.
//
// Every kernel is launched once (64 CTAs x 256 threads); one line "kernel NAME ms=T" per launch on stdout,
// nothing else. lane = threadIdx.x % 32, w = global warp id, t = global thread id.
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o const_local const_local.cu
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

#define IDS                                                                                            \
    const int t = blockIdx.x * blockDim.x + threadIdx.x;                                              \
    const int lane = threadIdx.x & 31;                                                                 \
    const int w = t >> 5;                                                                              \
    (void)lane;                                                                                        \
    (void)w;

__constant__ float c_table[1024];

// --- constant memory
__global__ void k_const_warp_uniform(int base, float* out) { IDS out[t] = c_table[(base + w) & 1023] * t; }
__global__ void k_const_cta_uniform(int base, float* out) { IDS out[t] = c_table[(base + blockIdx.x) & 1023] * t; }
__global__ void k_const_uniform_loop16(int base, float* out)
{
    IDS float s = 0.f;
#pragma unroll
    for (int i = 0; i < 16; ++i) s += c_table[(base + 17 * i + w) & 1023];
    out[t] = s * t;
}
__global__ void k_const_divergent2(int base, float* out) { IDS out[t] = c_table[(base + (lane >> 4) * 64) & 1023] * t; }
__global__ void k_const_divergent8(int base, float* out) { IDS out[t] = c_table[(base + (lane & 7)) & 1023] * t; }
__global__ void k_const_divergent32(int base, float* out) { IDS out[t] = c_table[(base + lane) & 1023] * t; }
__global__ void k_const_divergent32_stride32(int base, float* out) { IDS out[t] = c_table[(base + lane * 32) & 1023] * t; }

// --- local memory. The arrays are filled with a run-time (kernel-argument) rotation k, so the compiler can
// neither keep them in registers nor fold the indexed read: the fill is one warp-uniform STL per element,
// the read an LDL with the index given (lane-divergent from idx[], or warp-uniform).
__global__ void l_local_array_lane_index(int k, const int* idx, float* out)
{
    IDS float a[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) a[(i + k) & 63] = (float)(t + i);
    out[t] = a[idx[t] & 63];  // divergent index
}
__global__ void l_local_array_uniform_index(int k, float* out)
{
    IDS float a[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) a[(i + k) & 63] = (float)(t * i);
    out[t] = a[(3 * k + w) & 63];  // warp-uniform index
}
__global__ void l_local_array_rmw_loop(int k, const int* idx, float* out)
{
    IDS float a[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) a[(i + k) & 31] = (float)i;
    const int j = idx[t];
#pragma unroll 1
    for (int r = 0; r < 8; ++r) a[(j + 5 * r) & 31] += (float)r;  // LDL + STL per iteration, divergent
    out[t] = a[(k + 3) & 31] + a[(k + 17) & 31];
}
__global__ void l_local_float4_array(int k, const int* idx, float4* out)
{
    IDS float4 a[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) a[(i + k) & 15] = make_float4((float)t, (float)i, 1.f, 2.f);
    out[t] = a[idx[t] & 15];  // 16-byte LDL, divergent index
}

// ---------------------------------------------------------------------------------------------------------
int main()
{
    CK(cudaSetDevice(0));
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    {
        std::vector<float> c(1024);
        for (int i = 0; i < 1024; ++i) c[i] = 0.5f * i - 3.0f;
        CK(cudaMemcpyToSymbol(c_table, c.data(), c.size() * sizeof(float)));
    }
    float* out = nullptr;
    int* idx = nullptr;
    CK(cudaMalloc(&out, kThreads * sizeof(float4)));
    CK(cudaMalloc(&idx, kThreads * sizeof(int)));
    {
        std::vector<int> h(kThreads);
        uint32_t s = 12345u;
        for (int i = 0; i < kThreads; ++i) {
            s = s * 1664525u + 1013904223u;  // LCG
            h[i] = (int)(s >> 8);
        }
        CK(cudaMemcpy(idx, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
        std::vector<float> z(kThreads * 4, 0.f);
        CK(cudaMemcpy(out, z.data(), z.size() * sizeof(float), cudaMemcpyHostToDevice));
    }
    const int* cidx = idx;

    RUN(k_const_warp_uniform, 7, out);
    RUN(k_const_cta_uniform, 7, out);
    RUN(k_const_uniform_loop16, 7, out);
    RUN(k_const_divergent2, 7, out);
    RUN(k_const_divergent8, 7, out);
    RUN(k_const_divergent32, 7, out);
    RUN(k_const_divergent32_stride32, 7, out);
    RUN(l_local_array_lane_index, 5, cidx, out);
    RUN(l_local_array_uniform_index, 5, out);
    RUN(l_local_array_rmw_loop, 5, cidx, out);
    RUN(l_local_float4_array, 5, cidx, (float4*)out);

    CK(cudaDeviceSynchronize());
    CK(cudaFree(out));
    CK(cudaFree(idx));
    return 0;
}
