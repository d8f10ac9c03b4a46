// occ_module.cu -- kernels for the occupancy sweep (validation/kernels/occupancy_sweep.cu).
// Compiled into one cubin per register limit:
//   nvcc -arch=sm_90 -O3 -cubin -maxrregcount=R -o occ_rR.cubin occ_module.cu
// Every cubin holds the same kernels:
//   hungry_s0, hungry_s1024, hungry_s4096, hungry_s12288, hungry_s40960:
//       a register-hungry body (NV values live at once) plus S bytes of static shared memory
//   tiny: a trivial kernel with few registers and no shared memory
// The sweep records the ACTUAL register count and static shared size that the driver reports.
#ifndef NV
#define NV 256
#endif

__device__ __forceinline__ void hungry_body(const float* in, float* out, float* sb, int ns)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float r[NV];
#pragma unroll
    for (int i = 0; i < NV; ++i) r[i] = in[t + i * 4096];
    // Every output depends on the sum of all inputs, so all NV values are live at once.
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < NV; ++i) s = fmaf(r[i], (float)(i + 1), s);
    if (sb) {
        sb[threadIdx.x % ns] = s;
        __syncthreads();
        s += sb[(threadIdx.x + 1) % ns];
    }
#pragma unroll
    for (int i = 0; i < NV; ++i) out[t + i * 4096] = fmaf(r[i], s, r[(i * 7 + 3) % NV]);
}

extern "C" __global__ void hungry_s0(const float* in, float* out) { hungry_body(in, out, nullptr, 1); }

#define OCC_DEF(S)                                                         \
    extern "C" __global__ void hungry_s##S(const float* in, float* out)    \
    {                                                                      \
        __shared__ float sb[(S) / 4];                                      \
        hungry_body(in, out, sb, (S) / 4);                                 \
    }
OCC_DEF(1024)
OCC_DEF(4096)
OCC_DEF(12288)
OCC_DEF(40960)

extern "C" __global__ void tiny(float* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
