// local_probe.cu -- how much local data the H100's L1 keeps (docs/VALIDATION.md: `local_array` hits
// 90.5% of its local loads on the H100, 81.9% in the model: more capacity for local lines, another
// set mapping, or the warps' timing?). Run by validation/local_probe.sh under Nsight Compute.
//
// 132 CTAs, one per SM (each asks for 20 KB of dynamic shared memory and prefers the smallest
// carveout, so one CTA fits and the L1 keeps 224 KB, as for `local_array`), of W warps each:
//
//   lfill:W:N   every warp stores N local lines (a per-thread float array written at a warp-uniform
//               index: one STL per element, 32 lanes x 4 B = one 128 B line), then loads them back
//               in the order it stored them (LDL, 4 sectors each). With W x N lines per SM below
//               the L1's capacity every load hits; above it, how many hit is the capacity curve.
//   gfill:W:N   the same with a global region per warp (st.global / ld.global.ca, lane l at
//               line + 4 l): local lines against global lines in the same L1.
//   lfill_rev:W:N  as lfill, loaded back in reverse order (the last line stored first).
//   ltime:FILE  the suite's `local_array` (examples/cuda/local_memory.cu: 4,096 CTAs of 256 threads,
//               32 local floats each, filled, then one read back at a lane-divergent index), with
//               each warp's SM and the SM clock before its first store and when its load's index
//               is known written to FILE ("sm cta warp t_start t_load" per warp): how far apart the
//               hardware runs the warps that share an SM's L1, against the trace's order.
//
// Every launch prints "launch CONFIG" (probe_summary.py joins it with ncu's rows).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../probe_device.cuh"
#include "../suite/suite_common.cuh"

constexpr int kMaxLines = 3072;     // floats per thread: 12 KB, 384 KB of local lines per warp
constexpr int kPadShared = 20 << 10;  // dynamic shared memory per CTA: one CTA per SM

// Stores then loads `n` local lines per warp; `flip` (0 at run time) keeps the compiler from reading
// the stored values back without memory; `rev` loads the lines in reverse order.
__global__ void lfill(int n, int flip, int rev, float* out) {
    extern __shared__ float pad[];
    float a[kMaxLines];
#pragma unroll 1
    for (int j = 0; j < n; ++j) a[j] = (float)(threadIdx.x + j);
    float s = 0.f;
#pragma unroll 1
    for (int j = 0; j < n; ++j) s += a[(rev ? n - 1 - j : j) ^ flip];
    if (s == -1.f) pad[threadIdx.x] = s;  // never: the shared request stays
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// The same with global lines: warp w of CTA c owns n lines at region + ((c * W + w) * n) lines.
__global__ void gfill(int n, float* region, float* out) {
    extern __shared__ float pad[];
    const int warps = blockDim.x / 32, w = threadIdx.x / 32, lane = threadIdx.x % 32;
    float* mine = region + ((size_t)(blockIdx.x * warps + w) * n) * 32 + lane;
#pragma unroll 1
    for (int j = 0; j < n; ++j) mine[(size_t)j * 32] = (float)(threadIdx.x + j);
    float s = 0.f;
#pragma unroll 1
    for (int j = 0; j < n; ++j) {
        float v;
        asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(mine + (size_t)j * 32) : "memory");
        s += v;
    }
    if (s == -1.f) pad[threadIdx.x] = s;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// The SM clock once `dep` is known (the asm waits for its input).
__device__ __forceinline__ long long clock_after(int dep) {
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "r"(dep) : "memory");
    return t;
}

// examples/cuda/local_memory.cu's local_array, timed per warp.
__global__ void ltime(const int* sel, float* out, int k, long long* stamps) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const long long t0 = clock_after(k);
    float a[32];
#pragma unroll
    for (int j = 0; j < 32; ++j) a[(j + k) & 31] = (float)(i + j);
    const int idx = sel[i] & 31;
    const long long t1 = clock_after(idx);
    out[i] = a[idx];
    if (threadIdx.x % 32 == 0) {
        long long* s = stamps + 4 * (i / 32);
        s[0] = smid();
        s[1] = (long long)blockIdx.x << 8 | threadIdx.x / 32;
        s[2] = t0;
        s[3] = t1;
    }
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: local_probe lfill:W:N | lfill_rev:W:N | gfill:W:N ...\n");
        return 2;
    }
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaFuncSetAttribute(lfill, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    CK(cudaFuncSetAttribute(gfill, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    float* out = nullptr;
    float* region = nullptr;
    CK(cudaMalloc(&out, size_t(sms) * 1024 * sizeof(float)));
    const size_t region_bytes = size_t(sms) * 32 * kMaxLines * 128;  // W x N <= 32 x 3072 lines per SM
    CK(cudaMalloc(&region, region_bytes));
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "ltime:", 6) == 0) {
            const int ctas = 4096, threads = 256;
            const size_t n = size_t(ctas) * threads;
            int* sel = nullptr;
            float* lout = nullptr;
            long long* stamps = nullptr;
            CK(cudaMalloc(&sel, n * sizeof(int)));
            CK(cudaMalloc(&lout, n * sizeof(float)));
            CK(cudaMalloc(&stamps, n / 32 * 4 * sizeof(long long)));
            std::vector<int> h(n);
            unsigned x = 6;  // the example's input: examples/cuda/example_common.cuh device_filled(n, 6)
            for (auto& v : h) v = (int)(((x = x * 1664525u + 1013904223u) >> 9) & 1023);
            CK(cudaMemcpy(sel, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
            CK(cudaDeviceSynchronize());
            std::printf("launch %s\n", argv[i]);
            std::fflush(stdout);
            ltime<<<ctas, threads>>>(sel, lout, 3, stamps);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            std::vector<long long> st(n / 32 * 4);
            CK(cudaMemcpy(st.data(), stamps, st.size() * sizeof(long long), cudaMemcpyDeviceToHost));
            if (FILE* f = std::fopen(argv[i] + 6, "w")) {
                std::fprintf(f, "sm cta warp t_start t_load\n");
                for (size_t w = 0; w < n / 32; ++w)
                    std::fprintf(f, "%lld %lld %lld %lld %lld\n", st[4 * w], st[4 * w + 1] >> 8, st[4 * w + 1] & 255,
                                 st[4 * w + 2], st[4 * w + 3]);
                std::fclose(f);
            }
            CK(cudaFree(sel));
            CK(cudaFree(lout));
            CK(cudaFree(stamps));
            continue;
        }
        char spec[64];
        std::snprintf(spec, sizeof spec, "%s", argv[i]);
        const char* kind = std::strtok(spec, ":");
        const char* ws = std::strtok(nullptr, ":");
        const char* ns = std::strtok(nullptr, ":");
        const int w = ws ? std::atoi(ws) : 0, n = ns ? std::atoi(ns) : 0;
        const std::string k = kind ? kind : "";
        if ((k != "lfill" && k != "lfill_rev" && k != "gfill") || w < 1 || w > 32 || n < 1 || n > kMaxLines ||
            (size_t)w * n > size_t{32} * kMaxLines) {
            std::fprintf(stderr, "local_probe: bad %s (lfill|lfill_rev|gfill, W 1..32, N 1..%d)\n", argv[i], kMaxLines);
            return 2;
        }
        CK(cudaDeviceSynchronize());
        std::printf("launch %s\n", argv[i]);
        std::fflush(stdout);
        if (k == "gfill") gfill<<<sms, 32 * w, kPadShared>>>(n, region, out);
        else lfill<<<sms, 32 * w, kPadShared>>>(n, 0, k == "lfill_rev", out);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    CK(cudaFree(out));
    CK(cudaFree(region));
    return 0;
}
