// driver_api.cu -- warpscope example: kernels launched through the CUDA driver API.
//   1. drv_saxpy: a kernel written in PTX (embedded below as a string), JIT-compiled with cuModuleLoadData,
//      found with cuModuleGetFunction and launched with cuLaunchKernel (y = a * x + y).
//   2. rt_scale: a kernel of this executable (compiled by nvcc), whose CUfunction comes from
//      cudaGetFuncBySymbol, launched with cuLaunchKernel.
//
// usage: driver_api [small|large|MiB] [R]
//   size of each array (small = 4 MiB, default; large = 64 MiB); each kernel is launched R times (default 1).
// Prints one line per launch: "kernel drv_saxpy ms=T", "kernel rt_scale ms=T".
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o driver_api driver_api.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "example_common.cuh"

#define CU(x)                                                                                          \
    do {                                                                                               \
        CUresult r_ = (x);                                                                             \
        if (r_ != CUDA_SUCCESS) {                                                                      \
            const char* s_ = nullptr;                                                                  \
            cuGetErrorString(r_, &s_);                                                                 \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?");             \
            std::exit(1);                                                                              \
        }                                                                                              \
    } while (0)

// y[i] = a * x[i] + y[i], i = ctaid.x * ntid.x + tid.x (64-bit index), no bounds check
static const char kSaxpyPtx[] = R"PTX(
.version 7.0
.target sm_52
.address_size 64

.visible .entry drv_saxpy(
    .param .u64 p_x,
    .param .u64 p_y,
    .param .f32 p_a
)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<9>;
    .reg .f32 %f<5>;

    ld.param.u64 %rd1, [p_x];
    ld.param.u64 %rd2, [p_y];
    ld.param.f32 %f1, [p_a];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd5, %r1, %r2;
    cvt.u64.u32 %rd6, %r3;
    add.s64 %rd5, %rd5, %rd6;
    shl.b64 %rd5, %rd5, 2;
    add.s64 %rd7, %rd3, %rd5;
    add.s64 %rd8, %rd4, %rd5;
    ld.global.f32 %f2, [%rd7];
    ld.global.f32 %f3, [%rd8];
    fma.rn.f32 %f4, %f1, %f2, %f3;
    st.global.f32 [%rd8], %f4;
    ret;
}
)PTX";

__global__ void rt_scale(const float* in, float* out, float a)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a * in[i];
}

int main(int argc, char** argv)
{
    const Args a = parse_args(argc, argv);
    const size_t n = a.bytes / sizeof(float);
    const unsigned grid = (unsigned)(n / 256);
    CK(cudaSetDevice(0));
    CK(cudaFree(nullptr));  // create the primary context, which the driver API calls below then use
    float* x = device_filled<float>(n, 11);
    float* y = device_filled<float>(n, 12);

    CUmodule mod;
    CUfunction saxpy;
    CU(cuModuleLoadData(&mod, kSaxpyPtx));
    CU(cuModuleGetFunction(&saxpy, mod, "drv_saxpy"));
    {
        CUdeviceptr px = (CUdeviceptr)x, py = (CUdeviceptr)y;
        float alpha = 0.5f;
        void* params[] = {&px, &py, &alpha};
        for (int r = 0; r < a.reps; ++r)
            timed("drv_saxpy", 0, [&] { CU(cuLaunchKernel(saxpy, grid, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr)); });
    }

    cudaFunction_t rf;
    CK(cudaGetFuncBySymbol(&rf, (const void*)rt_scale));
    {
        const float* cin = x;
        float* out = y;
        float s = 2.0f;
        void* params[] = {&cin, &out, &s};
        for (int r = 0; r < a.reps; ++r)
            timed("rt_scale", 0, [&] { CU(cuLaunchKernel((CUfunction)rf, grid, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr)); });
    }
    CK(cudaDeviceSynchronize());
    CU(cuModuleUnload(mod));
    CK(cudaFree(x));
    CK(cudaFree(y));
    return 0;
}
