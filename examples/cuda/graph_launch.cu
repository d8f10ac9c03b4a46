// graph_launch.cu -- warpscope example: two kernels captured from a stream into a CUDA graph
// (cudaStreamBeginCapture / cudaGraphInstantiate), then the graph launched R times.
//
// usage: graph_launch [small|large|MiB] [R]
//   size of the array (small = 4 MiB, default; large = 64 MiB), R graph launches (default 1).
// Prints one line per graph launch: "kernel graph:graph_scale+graph_offset ms=T" (both kernels).
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o graph_launch graph_launch.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

__global__ void graph_scale(const float* in, float* out, float a)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a * in[i];
}
__global__ void graph_offset(float* out, float b)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] += b;
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(float);
    float* in = device_filled<float>(n, 7);
    float* out = device_zeros<float>(n);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    graph_scale<<<(unsigned)(n / 256), 256, 0, s>>>(in, out, 2.0f);
    CK(cudaGetLastError());
    graph_offset<<<(unsigned)(n / 256), 256, 0, s>>>(out, 1.0f);
    CK(cudaGetLastError());
    CK(cudaStreamEndCapture(s, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < a.reps; ++r) timed("graph:graph_scale+graph_offset", s, [&] { CK(cudaGraphLaunch(exec, s)); });
    CK(cudaStreamSynchronize(s));
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(in));
    CK(cudaFree(out));
    return 0;
}
