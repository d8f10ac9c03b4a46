// carveout_probe.cu -- which shared-memory carveout the driver picks for a launch that asks for
// none (run by validation/carveout_probe.sh under Nsight Compute, which reports it as
// launch__shared_mem_config_size). Every launch prints "launch THREADS SMEM KIND".
//
// The kernel touches its shared memory once so that the allocation is real; it does nothing else.
// KIND dynamic: `extern __shared__` of SMEM bytes given at launch; static: one of a few fixed
// sizes compiled in (to check that the driver treats both alike).
//
// Build: nvcc -O3 -arch=sm_90 -o carveout_probe carveout_probe.cu
// Usage: carveout_probe THREADS:SMEM[:static] ...
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../suite/suite_common.cuh"

__global__ void dyn(int* out) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[blockDim.x - 1];
}

template <int BYTES>
__global__ void fixed(int* out) {
    __shared__ int s[BYTES / 4];
    s[threadIdx.x % (BYTES / 4)] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[(blockDim.x - 1) % (BYTES / 4)];
}

int main(int argc, char** argv) {
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    int* out = nullptr;
    CK(cudaMalloc(&out, 4096 * sizeof(int)));
    CK(cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    for (int i = 1; i < argc; ++i) {
        int threads = 0, smem = 0;
        char kind[16] = "dynamic";
        if (std::sscanf(argv[i], "%d:%d:%15s", &threads, &smem, kind) < 2 || threads < 32 || threads > 1024 ||
            smem < 4 * threads || smem > 227 * 1024) {
            std::fprintf(stderr, "carveout_probe: bad %s (THREADS:SMEM[:static], SMEM >= 4 x THREADS)\n", argv[i]);
            return 2;
        }
        std::printf("launch %d %d %s\n", threads, smem, kind);
        const dim3 grid(1024), block(threads);
        if (std::strcmp(kind, "static") == 0) {
            switch (smem) {
                case 2048: run("fixed2k", fixed<2048>, grid, block, out); break;
                case 3072: run("fixed3k", fixed<3072>, grid, block, out); break;
                case 4096: run("fixed4k", fixed<4096>, grid, block, out); break;
                case 8192: run("fixed8k", fixed<8192>, grid, block, out); break;
                case 12288: run("fixed12k", fixed<12288>, grid, block, out); break;
                default: std::fprintf(stderr, "carveout_probe: no static kernel of %d bytes\n", smem); return 2;
            }
        } else {
            CK(cudaEventRecord(g_e0));
            dyn<<<grid, block, smem>>>(out);
            CK(cudaGetLastError());
            CK(cudaEventRecord(g_e1));
            CK(cudaEventSynchronize(g_e1));
            std::printf("kernel dyn\n");
        }
    }
    CK(cudaFree(out));
    return 0;
}
