// suite_common.cuh -- what the validation suite's applications share: error checking and
// run(), which launches one kernel once and prints "kernel NAME ms=T" (its CUDA-event time).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
            std::exit(1);                                                                              \
        }                                                                                              \
    } while (0)

static cudaEvent_t g_e0, g_e1;

template <class K, class... A>
static void run(const char* name, K kernel, dim3 grid, dim3 block, A... args)
{
    CK(cudaEventRecord(g_e0));
    kernel<<<grid, block>>>(args...);
    CK(cudaGetLastError());
    CK(cudaEventRecord(g_e1));
    CK(cudaEventSynchronize(g_e1));
    float ms = 0.f;
    CK(cudaEventElapsedTime(&ms, g_e0, g_e1));
    std::printf("kernel %s ms=%.4f\n", name, ms);
}
