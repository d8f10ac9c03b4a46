// transpose.cu -- warpscope example: matrix transpose, naive (uncoalesced stores) and tiled through a
// padded 32x33 shared-memory tile (coalesced loads and stores, no bank conflicts).
//
// usage: transpose [small|large|MiB] [R]
//   matrix size in MiB (n x n floats, n = the largest multiple of 32 that fits; small = 4 MiB -> n = 1024,
//   large = 64 MiB -> n = 4096); each kernel is launched R times (default 1).
// Prints one line per launch: "kernel transpose_naive ms=T", "kernel transpose_tiled ms=T".
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o transpose transpose.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

// block 32 x 8, grid (n/32, n/32): each thread moves 4 elements of a 32x32 tile
__global__ void transpose_naive(const float* in, float* out, int n)
{
    const int x = blockIdx.x * 32 + threadIdx.x;
    const int y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) out[(size_t)x * n + y + j] = in[(size_t)(y + j) * n + x];
}
__global__ void transpose_tiled(const float* in, float* out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    int n = 32;
    while ((size_t)(n + 32) * (n + 32) * sizeof(float) <= a.bytes) n += 32;
    float* in = device_filled<float>((size_t)n * n, 3);
    float* out = device_zeros<float>((size_t)n * n);
    const dim3 grid(n / 32, n / 32), block(32, 8);
    for (int r = 0; r < a.reps; ++r) timed("transpose_naive", 0, [&] { transpose_naive<<<grid, block>>>(in, out, n); });
    for (int r = 0; r < a.reps; ++r) timed("transpose_tiled", 0, [&] { transpose_tiled<<<grid, block>>>(in, out, n); });
    CK(cudaDeviceSynchronize());
    CK(cudaFree(in));
    CK(cudaFree(out));
    return 0;
}
