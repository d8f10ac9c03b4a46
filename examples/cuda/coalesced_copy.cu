// coalesced_copy.cu -- warpscope example: a fully coalesced float copy (32 lanes read/write 128
// consecutive bytes: 1 request, 4 sectors per instruction on sm_70+).
//
// usage: coalesced_copy [small|large|MiB] [R]
//   size of the copied array (small = 4 MiB, default; large = 64 MiB), R launches (default 1).
// Prints one line per launch: "kernel coalesced_copy ms=T".
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o coalesced_copy coalesced_copy.cu
// Trace: warpscope trace -o copy.wst -- ./coalesced_copy
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

__global__ void coalesced_copy(const float* in, float* out)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(float);  // a multiple of 256: no bounds check needed
    float* in = device_filled<float>(n, 1);
    float* out = device_zeros<float>(n);
    for (int r = 0; r < a.reps; ++r)
        timed("coalesced_copy", 0, [&] { coalesced_copy<<<(unsigned)(n / 256), 256>>>(in, out); });
    CK(cudaDeviceSynchronize());
    CK(cudaFree(in));
    CK(cudaFree(out));
    return 0;
}
