// realistic.cu -- hardware validation suite: small versions of real kernels.
//
// Matrix transpose (naive, tiled 32x32, tiled padded 32x33), shared-memory reductions (interleaved with
// divergent modulo, interleaved with strided index, sequential addressing, warp shuffle), SGEMM (naive and
// 16x16 tiled), a 5-point 2D stencil on a halo-padded grid, a 256-bin histogram with shared atomics, CSR SpMV
// (scalar: a thread per row; vector: a warp per row), particles as array-of-structures vs structure-of-arrays,
// and a scalar vs float4-vectorised copy.
//
// Every kernel is launched once, with an exact grid (no bounds checks in the kernels); one line
// "kernel NAME ms=T" per launch on stdout, nothing else. Inputs are deterministic.
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o realistic realistic.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "suite_common.cuh"

#define RUN(K, GRID, BLOCK, ...) run(#K, K, GRID, BLOCK, __VA_ARGS__)

// ---------------------------------------------------------------------------------------------------------
// transpose: n x n floats, block 32 x 8, grid (n/32, n/32); naive: one element per thread and row of 8
static constexpr int kTN = 512;
__global__ void r_transpose_naive(const float* in, float* out, int n)
{
    const int x = blockIdx.x * 32 + threadIdx.x;
    const int y0 = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) out[x * n + y0 + j] = in[(y0 + j) * n + x];
}
template <int PITCH>
__device__ __forceinline__ void transpose_tiled(const float* in, float* out, int n)
{
    __shared__ float tile[32][PITCH];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void r_transpose_tiled(const float* in, float* out, int n) { transpose_tiled<32>(in, out, n); }
__global__ void r_transpose_tiled_padded(const float* in, float* out, int n) { transpose_tiled<33>(in, out, n); }

// ---------------------------------------------------------------------------------------------------------
// reductions: 256 threads per CTA, one partial sum per CTA (and a RED for the shuffle version)
static constexpr int kRN = 1 << 18;  // 256 Ki floats = 1 MB, 1024 CTAs
// The conditional shared accesses go through __noinline__ helpers: inlined, ptxas if-converts them into
// predicated LDS/STS, which a warp with no lane passing the condition still issues (counted by the profiler,
// invisible to a tracer that records executing threads). As calls they sit behind a real branch.
__device__ __noinline__ void add_pair(float* sm, unsigned i, unsigned s) { sm[i] += sm[i + s]; }
__device__ __noinline__ void store_word(float* p, float v) { *p = v; }
__global__ void r_reduce_interleaved_divergent(const float* in, float* out)
{
    __shared__ float sm[256];
    const unsigned tid = threadIdx.x;
    sm[tid] = in[blockIdx.x * 256 + tid];
    __syncthreads();
    for (unsigned s = 1; s < 256; s *= 2) {
        if (tid % (2 * s) == 0) add_pair(sm, tid, s);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}
__global__ void r_reduce_interleaved_strided_index(const float* in, float* out)
{
    __shared__ float sm[256];
    const unsigned tid = threadIdx.x;
    sm[tid] = in[blockIdx.x * 256 + tid];
    __syncthreads();
    for (unsigned s = 1; s < 256; s *= 2) {
        const unsigned i = 2 * s * tid;
        if (i < 256) add_pair(sm, i, s);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}
__global__ void r_reduce_sequential(const float* in, float* out)
{
    __shared__ float sm[256];
    const unsigned tid = threadIdx.x;
    sm[tid] = in[blockIdx.x * 256 + tid];
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (tid < s) add_pair(sm, tid, s);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}
__global__ void r_reduce_warp_shuffle(const float* in, float* total)
{
    __shared__ float sm[8];
    const unsigned tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;
    float v = in[blockIdx.x * 256 + tid];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) store_word(&sm[wid], v);
    __syncthreads();
    if (wid != 0) return;
    v = sm[lane & 7];  // all 32 lanes of warp 0: 8 distinct words
    v = lane < 8 ? v : 0.f;
#pragma unroll
    for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) atomicAdd(total, v);
}

// ---------------------------------------------------------------------------------------------------------
// SGEMM C = A * B, n x n row-major, n = 128: naive (one C element per thread, block 32 x 8) and tiled 16x16
static constexpr int kGN = 128;
__global__ void r_sgemm_naive(const float* A, const float* B, float* C, int n)
{
    const int col = blockIdx.x * 32 + threadIdx.x;
    const int row = blockIdx.y * 8 + threadIdx.y;
    float s = 0.f;
#pragma unroll 4
    for (int k = 0; k < n; ++k) s += A[row * n + k] * B[k * n + col];
    C[row * n + col] = s;
}
__global__ void r_sgemm_tiled16(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * 16 + tx;
    const int row = blockIdx.y * 16 + ty;
    float s = 0.f;
    for (int t0 = 0; t0 < n; t0 += 16) {
        As[ty][tx] = A[row * n + t0 + tx];
        Bs[ty][tx] = B[(t0 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; ++k) s += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = s;
}

// ---------------------------------------------------------------------------------------------------------
// 5-point stencil on an n x n interior with a one-element halo: in is (n+2) x (n+2), out is n x n
static constexpr int kSN = 512;
__global__ void r_stencil2d_5pt(const float* in, float* out, int n)
{
    const int x = blockIdx.x * 32 + threadIdx.x;
    const int y = blockIdx.y * 8 + threadIdx.y;
    const int p = n + 2;
    const int c = (y + 1) * p + (x + 1);
    out[y * n + x] = 0.5f * in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - p] + in[c + p]);
}

// ---------------------------------------------------------------------------------------------------------
// histogram of bytes into 256 bins: each thread reads 4 uint32 (16 bytes, strided by the grid), shared
// atomics per byte, then one global atomic per bin per CTA
static constexpr int kHCTAs = 64;
static constexpr int kHWords = kHCTAs * 256 * 4;  // 256 KB of bytes
__global__ void r_histogram256_shared_atomics(const unsigned* in, unsigned* bins)
{
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    const int stride = gridDim.x * 256;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const unsigned v = in[blockIdx.x * 256 + threadIdx.x + k * stride];
        atomicAdd(&h[v & 255], 1u);
        atomicAdd(&h[(v >> 8) & 255], 1u);
        atomicAdd(&h[(v >> 16) & 255], 1u);
        atomicAdd(&h[v >> 24], 1u);
    }
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// ---------------------------------------------------------------------------------------------------------
// CSR SpMV y = A x: 16384 rows, 1..16 non-zeros per row (deterministic), columns in a band around the row
static constexpr int kRows = 16384;
__global__ void r_spmv_csr_scalar(const int* rowptr, const int* col, const float* val, const float* x, float* y)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    const int e = rowptr[r + 1];
    for (int j = rowptr[r]; j < e; ++j) s += val[j] * x[col[j]];
    y[r] = s;
}
__global__ void r_spmv_csr_vector(const int* rowptr, const int* col, const float* val, const float* x, float* y)
{
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    float s = 0.f;
    const int e = rowptr[r + 1];
    for (int j = rowptr[r] + lane; j < e; j += 32) s += val[j] * x[col[j]];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[r] = s;
}

// ---------------------------------------------------------------------------------------------------------
// particles: position += velocity * dt, 65536 particles; AoS (24-byte structs) vs SoA (six arrays)
static constexpr int kP = 65536;
struct Particle {
    float x, y, z, vx, vy, vz;
};
__global__ void r_particles_aos(Particle* p, float dt)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    Particle q = p[i];
    q.x += q.vx * dt;
    q.y += q.vy * dt;
    q.z += q.vz * dt;
    p[i] = q;
}
__global__ void r_particles_soa(float* x, float* y, float* z, const float* vx, const float* vy, const float* vz,
                                float dt)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += vx[i] * dt;
    y[i] += vy[i] * dt;
    z[i] += vz[i] * dt;
}

// ---------------------------------------------------------------------------------------------------------
// copies of 4 MB: one float per thread vs one float4 per thread
static constexpr int kCN = 1 << 20;
__global__ void r_copy_float(const float* in, float* out) { const int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i]; }
__global__ void r_copy_float4(const float4* in, float4* out) { const int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i]; }

// ---------------------------------------------------------------------------------------------------------
static std::vector<float> pattern(size_t n, unsigned seed)
{
    std::vector<float> v(n);
    uint32_t s = seed;
    for (size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        v[i] = (float)((s >> 9) & 1023) / 512.0f - 1.0f;
    }
    return v;
}

int main()
{
    CK(cudaSetDevice(0));
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    std::vector<void*> bufs;
    auto keep = [&](void* p) { bufs.push_back(p); return p; };

    // transpose
    float* tin = (float*)keep(upload(pattern((size_t)kTN * kTN, 1)));
    float* tout = (float*)keep(upload(std::vector<float>((size_t)kTN * kTN, 0.f)));
    const dim3 tb(32, 8), tg(kTN / 32, kTN / 32);
    RUN(r_transpose_naive, tg, tb, (const float*)tin, tout, kTN);
    RUN(r_transpose_tiled, tg, tb, (const float*)tin, tout, kTN);
    RUN(r_transpose_tiled_padded, tg, tb, (const float*)tin, tout, kTN);

    // reductions
    float* rin = (float*)keep(upload(pattern(kRN, 2)));
    float* rout = (float*)keep(upload(std::vector<float>(kRN / 256 + 1, 0.f)));
    RUN(r_reduce_interleaved_divergent, kRN / 256, 256, (const float*)rin, rout);
    RUN(r_reduce_interleaved_strided_index, kRN / 256, 256, (const float*)rin, rout);
    RUN(r_reduce_sequential, kRN / 256, 256, (const float*)rin, rout);
    RUN(r_reduce_warp_shuffle, kRN / 256, 256, (const float*)rin, rout + kRN / 256);

    // sgemm
    float* A = (float*)keep(upload(pattern((size_t)kGN * kGN, 3)));
    float* B = (float*)keep(upload(pattern((size_t)kGN * kGN, 4)));
    float* C = (float*)keep(upload(std::vector<float>((size_t)kGN * kGN, 0.f)));
    RUN(r_sgemm_naive, dim3(kGN / 32, kGN / 8), dim3(32, 8), (const float*)A, (const float*)B, C, kGN);
    RUN(r_sgemm_tiled16, dim3(kGN / 16, kGN / 16), dim3(16, 16), (const float*)A, (const float*)B, C, kGN);

    // stencil
    float* sin_ = (float*)keep(upload(pattern((size_t)(kSN + 2) * (kSN + 2), 5)));
    float* sout = (float*)keep(upload(std::vector<float>((size_t)kSN * kSN, 0.f)));
    RUN(r_stencil2d_5pt, dim3(kSN / 32, kSN / 8), dim3(32, 8), (const float*)sin_, sout, kSN);

    // histogram
    {
        std::vector<unsigned> h(kHWords);
        uint32_t s = 99u;
        for (auto& v : h) {
            s = s * 1664525u + 1013904223u;
            v = s ^ (s >> 13);
        }
        unsigned* hin = (unsigned*)keep(upload(h));
        unsigned* bins = (unsigned*)keep(upload(std::vector<unsigned>(256, 0u)));
        RUN(r_histogram256_shared_atomics, kHCTAs, 256, (const unsigned*)hin, bins);
    }

    // spmv
    {
        const CsrMatrix a = spmv_matrix(kRows);
        int* drp = (int*)keep(upload(a.rowptr));
        int* dcol = (int*)keep(upload(a.col));
        float* dval = (float*)keep(upload(a.val));
        float* dx = (float*)keep(upload(pattern(kRows, 6)));
        float* dy = (float*)keep(upload(std::vector<float>(kRows, 0.f)));
        RUN(r_spmv_csr_scalar, kRows / 256, 256, (const int*)drp, (const int*)dcol, (const float*)dval,
            (const float*)dx, dy);
        RUN(r_spmv_csr_vector, kRows * 32 / 256, 256, (const int*)drp, (const int*)dcol, (const float*)dval,
            (const float*)dx, dy);
    }

    // particles
    {
        Particle* p = (Particle*)keep(upload(pattern((size_t)kP * 6, 8)));
        float* soa = (float*)keep(upload(pattern((size_t)kP * 6, 8)));
        RUN(r_particles_aos, kP / 256, 256, p, 0.01f);
        RUN(r_particles_soa, kP / 256, 256, soa, soa + kP, soa + 2 * kP, (const float*)soa + 3 * kP,
            (const float*)soa + 4 * kP, (const float*)soa + 5 * kP, 0.01f);
    }

    // copies
    {
        float* cin = (float*)keep(upload(pattern(kCN, 9)));
        float* cout = (float*)keep(upload(std::vector<float>(kCN, 0.f)));
        RUN(r_copy_float, kCN / 256, 256, (const float*)cin, cout);
        RUN(r_copy_float4, kCN / 4 / 256, 256, (const float4*)cin, (float4*)cout);
    }

    CK(cudaDeviceSynchronize());
    for (void* b : bufs) CK(cudaFree(b));
    return 0;
}
