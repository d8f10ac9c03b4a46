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

#include "example_common.cuh"

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
