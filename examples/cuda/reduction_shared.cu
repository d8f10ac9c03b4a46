// reduction_shared.cu -- warpscope example: sum of an array, one 256-thread CTA per 256 elements,
// tree reduction in shared memory with sequential addressing (conflict-free; from s = 16 on only part of
// the first warp works), then one atomicAdd per CTA.
//
// usage: reduction_shared [small|large|MiB] [R]
//   size of the array (small = 4 MiB, default; large = 64 MiB), R launches (default 1).
// Prints one line per launch: "kernel reduce_shared ms=T".
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o reduction_shared reduction_shared.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

// Kept out of line so that the conditional shared accesses are behind a branch, not predicated (a tracer
// records only threads that execute a memory instruction; the profiler also counts predicated-off ones).
__device__ __noinline__ void add_pair(float* sm, unsigned i, unsigned s) { sm[i] += sm[i + s]; }

__global__ void reduce_shared(const float* in, float* total)
{
    __shared__ float sm[256];
    const unsigned tid = threadIdx.x;
    sm[tid] = in[(size_t)blockIdx.x * 256 + tid];
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (tid < s) add_pair(sm, tid, s);
        __syncthreads();
    }
    if (tid == 0) atomicAdd(total, sm[0]);
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(float);
    float* in = device_filled<float>(n, 4);
    float* total = device_zeros<float>(1);
    for (int r = 0; r < a.reps; ++r)
        timed("reduce_shared", 0, [&] { reduce_shared<<<(unsigned)(n / 256), 256>>>(in, total); });
    float h = 0.f;
    CK(cudaMemcpy(&h, total, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaFree(in));
    CK(cudaFree(total));
    return 0;
}
