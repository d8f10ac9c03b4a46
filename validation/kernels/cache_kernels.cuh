// cache_kernels.cuh -- the six cache kernels, their sizes, launch geometry and gather index array, shared
// by the cache probe (cache_kernels.cu: emulates each kernel's accesses on the host) and the validation
// suite's application (suite/cache_kernels.cu: traced by `warpscope trace`).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------------------------------------
// sizes
static constexpr int kStencilN = 512;         // stencil2d: 512 x 512 floats (1 MB in, 1 MB out)
static constexpr int kTransposeN = 512;       // transposes: 512 x 512 floats
static constexpr int kGatherN = 1 << 17;      // gathered elements (512 KB idx, 512 KB out)
static constexpr int kGatherSrcN = 1 << 22;   // gather source: 4 Mi floats = 16 MB
static constexpr int kCopyN = 1 << 18;        // copy_ldg: 256 Ki floats = 1 MB
static constexpr uint64_t kIdxSeed = 0x9e3779b97f4a7c15ull;

// ---------------------------------------------------------------------------------------------------------
// kernels
__global__ void stencil2d(const float* in, float* out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1) {
        int i = y * n + x;
        // sites 0..4 = the loads in SASS order: in[i], in[i-1], in[i-n], in[i+n], in[i+1]; site 5 = the store
        out[i] = in[i] + in[i - n] + in[i + n] + in[i - 1] + in[i + 1];
    }
}

__global__ void transpose_naive(const float* in, float* out, int n)
{
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    if (x < n && y < n) out[x * n + y] = in[y * n + x];  // site 0 load, site 1 store
}

__global__ void transpose_tiled(const float* in, float* out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];  // sites 0-3 ld, 4-7 st
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];  // sites 8-11 ld, 12-15 st
}

__global__ void gather(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];  // site 0 idx, site 1 in, site 2 out
}

__global__ void gather_cg(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __ldcg(&in[idx[i]]);  // site 0 idx, site 1 in (ld.global.cg), site 2 out
}

__global__ void copy_ldg(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __ldg(&in[i]);  // site 0 ld (ld.global.nc), site 1 st
}


static std::vector<int> make_idx()
{
    std::vector<int> idx(kGatherN);
    uint64_t s = kIdxSeed;
    for (int i = 0; i < kGatherN; ++i) {  // splitmix64
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        idx[i] = (int)(z % (uint64_t)kGatherSrcN);
    }
    return idx;
}

struct Launch {
    std::string kernel;
    dim3 grid, block;
};

static std::vector<Launch> launches()
{
    return {
        {"stencil2d", dim3(kStencilN / 32, kStencilN / 8), dim3(32, 8)},
        {"transpose_naive", dim3(kTransposeN / 32, kTransposeN / 8), dim3(32, 8)},
        {"transpose_tiled", dim3(kTransposeN / 32, kTransposeN / 32), dim3(32, 8)},
        {"gather", dim3(kGatherN / 256), dim3(256)},
        {"gather_cg", dim3(kGatherN / 256), dim3(256)},
        {"copy_ldg", dim3(kCopyN / 256), dim3(256)},
    };
}
