// local_memory.cu -- warpscope example: a per-thread array indexed with run-time values, so it lives in
// local memory (STL/LDL on sm_90): each thread fills 32 floats, then reads back the one its input selects.
//
// usage: local_memory [small|large|MiB] [R]
//   size of the index input (int per thread; small = 4 MiB, default; large = 64 MiB), R launches (default 1).
// Prints one line per launch: "kernel local_array ms=T".
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o local_memory local_memory.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

__global__ void local_array(const int* sel, float* out, int k)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float a[32];
#pragma unroll
    for (int j = 0; j < 32; ++j) a[(j + k) & 31] = (float)(i + j);  // run-time rotation: stays in local memory
    out[i] = a[sel[i] & 31];                                          // lane-divergent local load
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(int);
    int* sel = device_filled<int>(n, 6);
    float* out = device_zeros<float>(n);
    for (int r = 0; r < a.reps; ++r)
        timed("local_array", 0, [&] { local_array<<<(unsigned)(n / 256), 256>>>(sel, out, 3); });
    CK(cudaDeviceSynchronize());
    CK(cudaFree(sel));
    CK(cudaFree(out));
    return 0;
}
