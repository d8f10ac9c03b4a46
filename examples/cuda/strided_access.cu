// strided_access.cu -- warpscope example: reading every S-th float, S = 1, 2, 4, 8, 16, 32.
// Each warp touches 32 * S * 4 bytes; from S = 8 on, every lane needs its own 32-byte sector.
//
// usage: strided_access [small|large|MiB] [R]
//   size of the input array (small = 4 MiB, default; large = 64 MiB); kernel strided_read<S> runs
//   size/4/S threads and is launched R times (default 1) for each S.
// Prints one line per launch: "kernel strided_read<S> ms=T".
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o strided_access strided_access.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

template <int S>
__global__ void strided_read(const float* in, float* out)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * S];
}

template <int S>
static void run(const float* in, float* out, size_t n, int reps)
{
    char name[64];
    std::snprintf(name, sizeof name, "strided_read<%d>", S);
    const size_t threads = n / S;  // n is a multiple of 256 * 32
    for (int r = 0; r < reps; ++r)
        timed(name, 0, [&] { strided_read<S><<<(unsigned)(threads / 256), 256>>>(in, out); });
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(float);
    float* in = device_filled<float>(n, 2);
    float* out = device_zeros<float>(n);
    run<1>(in, out, n, a.reps);
    run<2>(in, out, n, a.reps);
    run<4>(in, out, n, a.reps);
    run<8>(in, out, n, a.reps);
    run<16>(in, out, n, a.reps);
    run<32>(in, out, n, a.reps);
    CK(cudaDeviceSynchronize());
    CK(cudaFree(in));
    CK(cudaFree(out));
    return 0;
}
