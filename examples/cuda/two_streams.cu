// two_streams.cu -- warpscope example: two kernels on two non-blocking streams, running at the same time
// on separate buffers (a tracer must keep their records apart).
//
// usage: two_streams [small|large|MiB] [R]
//   size of each stream's array (small = 4 MiB, default; large = 64 MiB), R rounds (default 1); in each
//   round both kernels are enqueued before either is waited for.
// Prints per round: "kernel stream_a_scale ms=T" and "kernel stream_b_axpy ms=T" (each timed on its stream).
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o two_streams two_streams.cu
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

__global__ void stream_a_scale(const float* in, float* out)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 3.0f * in[i];
}
__global__ void stream_b_axpy(const float* x, float* y)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 0.5f * x[i] + y[i];
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(float);
    const unsigned grid = (unsigned)(n / 256);
    float* ain = device_filled<float>(n, 8);
    float* aout = device_zeros<float>(n);
    float* bx = device_filled<float>(n, 9);
    float* by = device_filled<float>(n, 10);
    cudaStream_t sa, sb;
    CK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
    cudaEvent_t ev[4];
    for (auto& e : ev) CK(cudaEventCreate(&e));
    for (int r = 0; r < a.reps; ++r) {
        CK(cudaEventRecord(ev[0], sa));
        stream_a_scale<<<grid, 256, 0, sa>>>(ain, aout);
        CK(cudaGetLastError());
        CK(cudaEventRecord(ev[1], sa));
        CK(cudaEventRecord(ev[2], sb));
        stream_b_axpy<<<grid, 256, 0, sb>>>(bx, by);
        CK(cudaGetLastError());
        CK(cudaEventRecord(ev[3], sb));
        CK(cudaEventSynchronize(ev[1]));
        CK(cudaEventSynchronize(ev[3]));
        float ma = 0.f, mb = 0.f;
        CK(cudaEventElapsedTime(&ma, ev[0], ev[1]));
        CK(cudaEventElapsedTime(&mb, ev[2], ev[3]));
        std::printf("kernel stream_a_scale ms=%.4f\nkernel stream_b_axpy ms=%.4f\n", ma, mb);
    }
    for (auto& e : ev) CK(cudaEventDestroy(e));
    CK(cudaStreamDestroy(sa));
    CK(cudaStreamDestroy(sb));
    CK(cudaFree(ain));
    CK(cudaFree(aout));
    CK(cudaFree(bx));
    CK(cudaFree(by));
    return 0;
}
