// example_common.cuh -- what every warpscope CUDA example shares: error checking, the
// [small|large|MiB] [R] arguments, event timing of one launch, and deterministic device buffers.
#pragma once

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
