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
