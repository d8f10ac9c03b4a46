// wgmma_probe.cu -- Hopper's warpgroup matrix multiply (wgmma.mma_async, sm_90a) for the PTX interpreter to equal,
// its results and counters predicted from the PTX before the H100 ran it (validation/wgmma_probe/predicted.txt;
// docs/VALIDATION.md "Warpgroup MMA").
// layout<TA, TB, SA>: one warpgroup (128 threads) copies 32 KB of small-integer elements from `in` to shared memory
// as they lie (A's region the first 16 KB, B's the second) and multiplies them with m64n16k16 .f16 -> .f32 through
// matrix descriptors built from the launch's arguments (start offset, LBO, SBO in bytes, swizzle code 0 none, 1
// 128 B, 2 64 B, 3 32 B), `steps` times along K with the starts advanced by a_step / b_step bytes. TA / TB: A / B
// M/N-major (imm-trans), SA: imm-scale-a. D starts at 1.0 in every element, so scale_d = 0 shows. Every thread
// writes its D registers to `out` in order: the checksum depends on where the H100 read every element from.
// forms: the other instruction forms (N = 64 and 128, A from registers, .bf16, .f16 accumulators, .tf32, .e4m3 x
// .e5m2, .s8, .u8 x .s8 .satfinite) on 128-byte-swizzled K-major operands.
// gemm: C (M x N, f32) = A (M x K, f16, row-major) B^T (B: N x K, f16, row-major), the way Hopper GEMMs are written:
// two warpgroups, a 128 x 128 tile, K in steps of 64 brought in by tensor copies with the 128-byte swizzle into two
// stages on mbarriers, four m64n128k16 a step, the accumulators stored straight from their registers.
// Build: nvcc -O3 -arch=sm_90a -lineinfo -o wgmma_probe wgmma_probe.cu   (wgmma_ops.cuh: python3 make_wgmma_ops.py)
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"
#include "../suite/tensor_map_host.cuh"
#include "wgmma_ops.cuh"

namespace {

constexpr int kStage = 32768;  // bytes staged in shared memory by the layout and form kernels
constexpr int kBRegion = 16384;

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// A descriptor (PTX ISA "Matrix Descriptor Format"): start, LBO and SBO in 16-byte units, the swizzle in bits 62-63.
__device__ __forceinline__ unsigned long long desc(unsigned start, unsigned lbo, unsigned sbo, unsigned swz) {
  return (start >> 4 & 0x3fffull) | (unsigned long long)(lbo >> 4 & 0x3fff) << 16 | (unsigned long long)(sbo >> 4 & 0x3fff) << 32 |
         (unsigned long long)(swz & 3) << 62;
}

// `in`'s 32 KB into shared memory as they lie, made visible to the tensor cores (the async proxy).
__device__ __forceinline__ void stage(const uint4* in, unsigned char* buf) {
  for (int i = threadIdx.x; i < kStage / 16; i += blockDim.x) reinterpret_cast<uint4*>(buf)[i] = in[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
}

__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit_wait() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}

template <class T, int R>
__device__ __forceinline__ void write_out(T* out, const T (&d)[R]) {
  for (int i = 0; i < R; ++i) out[(blockIdx.x * blockDim.x + threadIdx.x) * R + i] = d[i];
}

// Small integers (-4 .. 4) from an element index.
__device__ __forceinline__ int small(int i) { return static_cast<int>((static_cast<unsigned>(i) * 2654435761u) >> 13) % 9 - 4; }

}  // namespace

__global__ void fill_f16(__half* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = __int2half_rn(small(i));
}
__global__ void fill_bf16(__nv_bfloat16* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = __int2bfloat16_rn(small(i));
}
__global__ void fill_f32(float* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = static_cast<float>(small(i));
}
// Bytes: the first half of `n` .e4m3 (A's region), the second .e5m2 (B's), both of -4 .. 4 (1 is 0x38 / 0x3c; 2, 3, 4
// are 0x40, 0x44, 0x48 / 0x40, 0x42, 0x44; the sign is bit 7); or (ints) 3 x -4 .. 4 as bytes.
__global__ void fill_8bit(unsigned char* g, int n, int ints) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const int v = small(i), m = v < 0 ? -v : v;
    const int step = i < n / 2 ? 4 : 2, one = i < n / 2 ? 0x38 : 0x3c;
    const int code = m == 0 ? 0 : m == 1 ? one : 0x40 + step * (m - 2);
    g[i] = ints ? static_cast<unsigned char>(v * 3) : static_cast<unsigned char>(code | (v < 0 ? 0x80 : 0));
  }
}

template <int TA, int TB, int SA>
__global__ void layout(const uint4* in, float* out, unsigned a_off, unsigned a_lbo, unsigned a_sbo, unsigned a_swz, unsigned b_off,
                       unsigned b_lbo, unsigned b_sbo, unsigned b_swz, int steps, unsigned a_step, unsigned b_step, int scale_d) {
  __shared__ __align__(1024) unsigned char buf[kStage];
  stage(in, buf);
  float d[8];
  for (float& x : d) x = 1.0f;
  const unsigned base = smem(buf);
  wg_fence();
  for (int s = 0; s < steps; ++s)
    wgmma_f16_f32_n16<SA, 1, TA, TB>(d, desc(base + a_off + s * a_step, a_lbo, a_sbo, a_swz),
                                     desc(base + kBRegion + b_off + s * b_step, b_lbo, b_sbo, b_swz), s > 0 || scale_d);
  wg_commit_wait();
  write_out(out, d);
}

// The other forms, K-major with the 128-byte swizzle: A rows of 128 B (SBO 1024), B likewise, `steps` steps of 32 B
// along K. D starts at `init`; op(d, a, b) issues the form with the step's descriptors.
template <class T, int R, class Op>
__device__ __forceinline__ void form(const uint4* in, T* out, T init, int steps, Op op) {
  __shared__ __align__(1024) unsigned char buf[kStage];
  stage(in, buf);
  T d[R];
  for (T& x : d) x = init;
  const unsigned base = smem(buf);
  wg_fence();
  for (int s = 0; s < steps; ++s) op(d, desc(base + s * 32, 16, 1024, 1), desc(base + kBRegion + s * 32, 16, 1024, 1));
  wg_commit_wait();
  write_out(out, d);
}

using u64 = unsigned long long;

__global__ void form_f16_n64(const uint4* in, float* out) {
  form<float, 32>(in, out, 0.0f, 4, [](float (&d)[32], u64 a, u64 b) { wgmma_f16_f32_n64<1, 1, 0, 0>(d, a, b, 1); });
}
__global__ void form_f16_n128(const uint4* in, float* out) {
  form<float, 64>(in, out, 0.0f, 4, [](float (&d)[64], u64 a, u64 b) { wgmma_f16_f32_n128<1, -1, 0, 0>(d, a, b, 1); });
}
// A from registers: thread t's four words are words 4 t .. 4 t + 3 of `in`.
__global__ void form_f16_rega(const uint4* in, float* out) {
  const uint4 w = in[threadIdx.x];
  const unsigned ra[4] = {w.x, w.y, w.z, w.w};
  form<float, 8>(in, out, 0.0f, 1, [&](float (&d)[8], u64, u64 b) { wgmma_f16_f32_rega_n16<1, 1, 0>(d, ra, b, 1); });
}
__global__ void form_bf16(const uint4* in, float* out) {
  form<float, 8>(in, out, 0.0f, 4, [](float (&d)[8], u64 a, u64 b) { wgmma_bf16_f32_n16<1, 1, 0, 0>(d, a, b, 1); });
}
// .f16 accumulators, starting at 1.0 in both halves of every register.
__global__ void form_f16_f16(const uint4* in, unsigned* out) {
  form<unsigned, 4>(in, out, 0x3c003c00u, 4, [](unsigned (&d)[4], u64 a, u64 b) { wgmma_f16_f16_n16<1, 1, 0, 0>(d, a, b, 1); });
}
__global__ void form_tf32(const uint4* in, float* out) {
  form<float, 8>(in, out, 0.0f, 4, [](float (&d)[8], u64 a, u64 b) { wgmma_tf32_f32_n16<1, 1>(d, a, b, 1); });
}
__global__ void form_fp8(const uint4* in, float* out) {
  form<float, 8>(in, out, 0.0f, 4, [](float (&d)[8], u64 a, u64 b) { wgmma_e4m3_e5m2_f32_n16<1, -1>(d, a, b, 1); });
}
__global__ void form_s8(const uint4* in, int* out) {
  form<int, 8>(in, out, 0, 4, [](int (&d)[8], u64 a, u64 b) { wgmma_s8_s8_s32_n16(d, a, b, 1); });
}
__global__ void form_u8_s8(const uint4* in, int* out) {
  form<int, 8>(in, out, 0, 4, [](int (&d)[8], u64 a, u64 b) { wgmma_u8_s8_s32_sat_n16(d, a, b, 1); });
}

namespace {

constexpr int kTileMN = 128, kTileK = 64;
constexpr int kTileBytes = kTileMN * kTileK * 2;  // 16 KB: one operand's tile of one stage

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity) {
  unsigned ok = 0;
  while (!ok)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
}

// Thread 0: k-tile kt of A's rows m0.. and B's rows n0.. into `stage`, completing on `bar`.
__device__ __forceinline__ void load_tiles(const CUtensorMap* ma, const CUtensorMap* mb, unsigned stage, unsigned bar, int kt, int m0, int n0) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(2 * kTileBytes) : "memory");
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(stage),
               "l"(ma), "r"(kt * kTileK), "r"(m0), "r"(bar)
               : "memory");
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                   stage + kTileBytes),
               "l"(mb), "r"(kt * kTileK), "r"(n0), "r"(bar)
               : "memory");
}

}  // namespace

// Block 256 (two warpgroups), 64 KB of dynamic shared memory (two stages of A's and B's 128 x 64 tiles).
__global__ void gemm(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb, float* c, int n, int k) {
  extern __shared__ __align__(1024) unsigned char tiles[];
  __shared__ __align__(8) unsigned long long bars[2];
  const int m0 = blockIdx.y * kTileMN, n0 = blockIdx.x * kTileMN, kts = k / kTileK;
  const unsigned base = (smem(tiles) + 1023) & ~1023u, bar0 = smem(&bars[0]);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar0) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar0 + 8) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    load_tiles(&ma, &mb, base, bar0, 0, m0, n0);
  }
  __syncthreads();
  const int wg = threadIdx.x / 128;
  float d[64] = {};
  for (int kt = 0; kt < kts; ++kt) {
    const int s = kt & 1;
    if (threadIdx.x == 0 && kt + 1 < kts) load_tiles(&ma, &mb, base + (s ^ 1) * 2 * kTileBytes, bar0 + 8 * (s ^ 1), kt + 1, m0, n0);
    wait_parity(bar0 + 8 * s, (kt >> 1) & 1);
    const unsigned a = base + s * 2 * kTileBytes + wg * 64 * 128, b = base + s * 2 * kTileBytes + kTileBytes;
    wg_fence();
    for (int j = 0; j < kTileK / 16; ++j)
      wgmma_f16_f32_n128<1, 1, 0, 0>(d, desc(a + 32 * j, 16, 1024, 1), desc(b + 32 * j, 16, 1024, 1), 1);
    wg_commit_wait();
    __syncthreads();  // both warpgroups are done with stage s before it is loaded again
  }
  const int lane = threadIdx.x % 32, row = m0 + wg * 64 + (threadIdx.x % 128) / 32 * 16 + lane / 4;
  for (int j = 0; j < 16; ++j) {
    const int col = n0 + 8 * j + 2 * (lane % 4);
    *reinterpret_cast<float2*>(&c[static_cast<size_t>(row) * n + col]) = make_float2(d[4 * j], d[4 * j + 1]);
    *reinterpret_cast<float2*>(&c[static_cast<size_t>(row + 8) * n + col]) = make_float2(d[4 * j + 2], d[4 * j + 3]);
  }
}

namespace {

// A rows x cols f16 matrix, row-major, in boxes of 64 x 128 with the 128-byte swizzle.
CUtensorMap operand_map(void* base, cuuint64_t rows, cuuint64_t cols) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cols, rows}, pitch[1] = {cols * 2};
  const cuuint32_t box[2] = {kTileK, kTileMN}, estr[2] = {1, 1};
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, base, dims, pitch, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                              CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", static_cast<int>(r));
    std::exit(1);
  }
  return map;
}

struct Layout {
  const char* name;
  int ta, tb, sa;
  unsigned a_off, a_lbo, a_sbo, a_swz, b_off, b_lbo, b_sbo, b_swz;
  int steps;
  unsigned a_step, b_step;
  int scale_d;
};

// Keep in step with validation/wgmma_probe/wgmma_probe.run.
constexpr Layout kLayouts[] = {
    {"kk_none", 0, 0, 1, 0, 128, 512, 0, 0, 128, 512, 0, 2, 256, 256, 1},
    {"kk_none_far", 0, 0, 1, 0, 1024, 128, 0, 0, 2048, 128, 0, 1, 0, 0, 1},
    {"kk_32B", 0, 0, 1, 0, 16, 256, 3, 0, 16, 256, 3, 1, 0, 0, 1},
    {"kk_64B", 0, 0, 1, 0, 16, 512, 2, 0, 16, 512, 2, 2, 32, 32, 1},
    {"kk_128B", 0, 0, 1, 0, 16, 1024, 1, 0, 16, 1024, 1, 4, 32, 32, 1},
    {"kk_128B_off", 0, 0, 1, 256, 16, 1024, 1, 128, 16, 1024, 1, 4, 32, 32, 1},
    {"mn_none", 1, 1, 1, 0, 1024, 128, 0, 0, 256, 128, 0, 2, 2048, 512, 1},
    {"mn_128B", 1, 1, 1, 0, 8192, 1024, 1, 0, 8192, 1024, 1, 2, 2048, 2048, 1},
    {"mn_64B", 1, 1, 1, 0, 512, 1024, 2, 0, 512, 512, 2, 2, 2048, 1024, 1},
    {"mn_32B", 1, 1, 1, 0, 256, 1024, 3, 0, 256, 256, 3, 2, 2048, 512, 1},
    {"k_mn_128B", 0, 1, 1, 0, 16, 1024, 1, 0, 8192, 1024, 1, 2, 32, 2048, 1},
    {"neg_a_no_c", 0, 0, -1, 0, 16, 1024, 1, 0, 16, 1024, 1, 4, 32, 32, 0},
};

template <int TA, int TB, int SA>
void run_layout(const Layout& l, const uint4* in, float* out) {
  CK(cudaMemset(out, 0, 128 * 8 * 4));
  run(l.name, layout<TA, TB, SA>, dim3(1), dim3(128), in, out, l.a_off, l.a_lbo, l.a_sbo, l.a_swz, l.b_off, l.b_lbo, l.b_sbo, l.b_swz,
      l.steps, l.a_step, l.b_step, l.scale_d);
  checksum(l.name, out, 128 * 8 * 4);
}

template <class T>
void run_form(const char* name, void (*kernel)(const uint4*, T*), const void* in, void* out, int regs) {
  CK(cudaMemset(out, 0, 128 * regs * 4));
  run(name, kernel, dim3(1), dim3(128), static_cast<const uint4*>(in), static_cast<T*>(out));
  checksum(name, out, 128 * regs * 4);
}

}  // namespace

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  void *h16, *b16, *f32, *f8, *i8, *out;
  CK(cudaMalloc(&h16, kStage));
  CK(cudaMalloc(&b16, kStage));
  CK(cudaMalloc(&f32, kStage));
  CK(cudaMalloc(&f8, kStage));
  CK(cudaMalloc(&i8, kStage));
  CK(cudaMalloc(&out, 128 * 64 * 4));
  run("fill_f16", fill_f16, dim3(16), dim3(256), static_cast<__half*>(h16), kStage / 2);
  run("fill_bf16", fill_bf16, dim3(16), dim3(256), static_cast<__nv_bfloat16*>(b16), kStage / 2);
  run("fill_f32", fill_f32, dim3(16), dim3(256), static_cast<float*>(f32), kStage / 4);
  run("fill_8bit", fill_8bit, dim3(16), dim3(256), static_cast<unsigned char*>(f8), kStage, 0);
  run("fill_8bit", fill_8bit, dim3(16), dim3(256), static_cast<unsigned char*>(i8), kStage, 1);
  const auto* in = static_cast<const uint4*>(h16);
  float* o = static_cast<float*>(out);
  for (const Layout& l : kLayouts) {
    if (l.ta == 0 && l.tb == 0 && l.sa == 1) run_layout<0, 0, 1>(l, in, o);
    else if (l.ta == 1 && l.tb == 1) run_layout<1, 1, 1>(l, in, o);
    else if (l.ta == 0 && l.tb == 1) run_layout<0, 1, 1>(l, in, o);
    else run_layout<0, 0, -1>(l, in, o);
  }
  run_form("form_f16_n64", form_f16_n64, h16, out, 32);
  run_form("form_f16_n128", form_f16_n128, h16, out, 64);
  run_form("form_f16_rega", form_f16_rega, h16, out, 8);
  run_form("form_bf16", form_bf16, b16, out, 8);
  run_form("form_f16_f16", form_f16_f16, h16, out, 4);
  run_form("form_tf32", form_tf32, f32, out, 8);
  run_form("form_fp8", form_fp8, f8, out, 8);
  run_form("form_s8", form_s8, i8, out, 8);
  run_form("form_u8_s8", form_u8_s8, i8, out, 8);

  constexpr int kM = 512, kN = 512, kK = 512;
  void *a, *b, *c;
  CK(cudaMalloc(&a, kM * kK * 2));
  CK(cudaMalloc(&b, kN * kK * 2));
  CK(cudaMalloc(&c, kM * kN * 4));
  run("fill_f16", fill_f16, dim3(256), dim3(256), static_cast<__half*>(a), kM * kK);
  run("fill_f16", fill_f16, dim3(256), dim3(256), static_cast<__half*>(b), kN * kK);
  CK(cudaMemset(c, 0, kM * kN * 4));
  const CUtensorMap ma = operand_map(a, kM, kK), mb = operand_map(b, kN, kK);
  constexpr int kShared = 4 * kTileBytes + 1024;  // two stages of A and B, and room to align them on 1024 bytes
  CK(cudaFuncSetAttribute(gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  CK(cudaEventRecord(g_e0));
  gemm<<<dim3(kN / kTileMN, kM / kTileMN), 256, kShared>>>(ma, mb, static_cast<float*>(c), kN, kK);
  CK(cudaGetLastError());
  CK(cudaEventRecord(g_e1));
  CK(cudaEventSynchronize(g_e1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, g_e0, g_e1));
  std::printf("kernel gemm ms=%.4f\n", ms);
  checksum("gemm", c, kM * kN * 4);
  return 0;
}
