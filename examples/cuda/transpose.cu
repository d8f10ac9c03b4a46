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

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
            std::exit(1);                                                                              \
        }                                                                                              \
    } while (0)

// usage: PROG [small|large|MiB] [R]   small = 4 MiB (default, for tracing), large = 64 MiB (overhead timing)
struct Args {
    size_t bytes = 4u << 20;
    int reps = 1;
};
static Args parse_args(int argc, char** argv)
{
    Args a;
    if (argc > 1) {
        if (!std::strcmp(argv[1], "small")) a.bytes = 4u << 20;
        else if (!std::strcmp(argv[1], "large")) a.bytes = 64u << 20;
        else {
            char* end = nullptr;
            const long mib = std::strtol(argv[1], &end, 10);
            if (!end || *end || mib < 1 || mib > 16384) {
                std::fprintf(stderr, "usage: %s [small|large|MiB] [repetitions]\n", argv[0]);
                std::exit(2);
            }
            a.bytes = (size_t)mib << 20;
        }
    }
    if (argc > 2) {
        a.reps = std::atoi(argv[2]);
        if (a.reps < 1) {
            std::fprintf(stderr, "usage: %s [small|large|MiB] [repetitions]\n", argv[0]);
            std::exit(2);
        }
    }
    return a;
}

// Times one launch (whatever `launch` enqueues on `stream`) with CUDA events and prints "kernel NAME ms=T".
template <class F>
static void timed(const char* name, cudaStream_t stream, F launch)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0, stream));
    launch();
    CK(cudaGetLastError());
    CK(cudaEventRecord(e1, stream));
    CK(cudaEventSynchronize(e1));
    float ms = 0.f;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    std::printf("kernel %s ms=%.4f\n", name, ms);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

template <class T>
static T* device_filled(size_t n, unsigned seed)
{
    std::vector<T> h(n);
    unsigned s = seed;
    for (size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        h[i] = (T)((s >> 9) & 1023);
    }
    T* d = nullptr;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <class T>
static T* device_zeros(size_t n)
{
    T* d = nullptr;
    CK(cudaMalloc(&d, n * sizeof(T)));
    std::vector<T> h(n, T(0));  // a copy, not cudaMemset, so the only device work is the kernels
    CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

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
