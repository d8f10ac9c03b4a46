// ldg_readonly.cu -- warpscope example: loads through the read-only data path with __ldg
// (ld.global.nc, LDG.E.CONSTANT on sm_90): a copy, and a 3-point stencil whose neighbouring loads hit in L1.
//
// usage: ldg_readonly [small|large|MiB] [R]
//   size of the array (small = 4 MiB, default; large = 64 MiB); each kernel is launched R times (default 1).
// Prints one line per launch: "kernel ldg_copy ms=T", "kernel ldg_stencil3 ms=T".
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o ldg_readonly ldg_readonly.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

__global__ void ldg_copy(const float* in, float* out)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __ldg(&in[i]);
}
// in has n + 2 elements (a halo of one on each side): no bounds check
__global__ void ldg_stencil3(const float* in, float* out)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 0.25f * __ldg(&in[i]) + 0.5f * __ldg(&in[i + 1]) + 0.25f * __ldg(&in[i + 2]);
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(float);
    float* in = device_filled<float>(n + 2, 5);
    float* out = device_zeros<float>(n);
    const unsigned grid = (unsigned)(n / 256);
    for (int r = 0; r < a.reps; ++r) timed("ldg_copy", 0, [&] { ldg_copy<<<grid, 256>>>(in, out); });
    for (int r = 0; r < a.reps; ++r) timed("ldg_stencil3", 0, [&] { ldg_stencil3<<<grid, 256>>>(in, out); });
    CK(cudaDeviceSynchronize());
    CK(cudaFree(in));
    CK(cudaFree(out));
    return 0;
}
