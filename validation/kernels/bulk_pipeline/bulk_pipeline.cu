// bulk_pipeline.cu -- the Hopper producer/consumer pattern with bulk copies, written after warpscope modelled
// cp.async.bulk and mbarrier, its counters predicted from the PTX before the H100 ran it
// (validation/ptx_check.sh bulk_pipeline OUT; docs/VALIDATION.md "mbarrier and bulk copies").
//
// row_sums<STAGES, LANE_ISSUE>: each CTA sums TILES tiles of 32 rows of ROW floats (rows `stride` floats apart in
// global memory). Warp 4 produces: for each tile it waits until the stage's buffer is empty, announces the
// tile's bytes on the stage's `full` barrier (arrive.expect_tx) and copies the 32 rows into it with
// cp.async.bulk, one copy a row: issued by lane 0 in a loop, or by the 32 lanes at once (LANE_ISSUE: one
// instruction of 32 different copies). Warps 0-3 consume: they wait for `full`, sum 8 rows each, arrive on
// `empty`, and warp 0 writes the tile's 32 sums back with one cp.async.bulk shared -> global.
// Rows of 32 floats (128 B) start on line boundaries; rows of 36 (144 B) start 16 B further each row, so their
// copies straddle lines and the TMA's 128-byte pieces split sectors.
// Every launch's sums go to out[]; main() prints their checksum, which the interpreter's must equal.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o bulk_pipeline bulk_pipeline.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"

namespace {

constexpr int kRows = 32;          // rows a tile
constexpr int kTiles = 4;          // tiles a CTA
constexpr int kMaxRowFloats = 36;  // the widest row

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void wait_parity(unsigned bar, unsigned parity) {
  unsigned ok = 0;
  while (!ok)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
}

__device__ __forceinline__ void copy_row(unsigned dst, const float* src, unsigned bytes, unsigned bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

}  // namespace

__global__ void fill(float* a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    a[i] = static_cast<float>((i * 37) % 101) * 0.25f;
}

template <int STAGES, bool LANE_ISSUE>
__global__ void row_sums(const float* a, float* out, int row_floats, int stride) {
  __shared__ __align__(128) float buf[STAGES][kRows][kMaxRowFloats];
  __shared__ __align__(128) float sums[kRows];
  __shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&full[s])) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 4;" ::"r"(smem(&empty[s])) : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const unsigned row_bytes = row_floats * 4;
  if (warp == 4) {  // the producer
    for (int t = 0; t < kTiles; ++t) {
      const int s = t % STAGES;
      if (t >= STAGES) wait_parity(smem(&empty[s]), ((t / STAGES) - 1) & 1);
      const float* tile = a + (static_cast<size_t>(blockIdx.x) * kTiles + t) * kRows * stride;
      if (lane == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&full[s])), "r"(kRows * row_bytes)
                     : "memory");
      __syncwarp();
      if (LANE_ISSUE) {
        copy_row(smem(&buf[s][lane][0]), tile + lane * stride, row_bytes, smem(&full[s]));
      } else if (lane == 0) {
        for (int r = 0; r < kRows; ++r) copy_row(smem(&buf[s][r][0]), tile + r * stride, row_bytes, smem(&full[s]));
      }
    }
    return;
  }
  for (int t = 0; t < kTiles; ++t) {  // the consumers
    const int s = t % STAGES;
    wait_parity(smem(&full[s]), (t / STAGES) & 1);
    for (int r = warp * 8; r < warp * 8 + 8; ++r) {
      float v = lane < row_floats ? buf[s][r][lane] : 0.f;
      if (lane + 32 < row_floats) v += buf[s][r][lane + 32];
      for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
      if (lane == 0) sums[r] = v;
    }
    __syncwarp();
    if (lane == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(&empty[s])) : "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");  // the four consumer warps' sums are in
    if (warp == 0 && lane == 0) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      float* dst = out + (static_cast<size_t>(blockIdx.x) * kTiles + t) * kRows;
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(smem(sums)),
                   "r"(kRows * 4)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    asm volatile("bar.sync 1, 128;" ::: "memory");  // sums is free again
  }
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  const int ctas = 16, rows = ctas * kTiles * kRows;
  float *a, *out;
  CK(cudaMalloc(&a, static_cast<size_t>(rows) * kMaxRowFloats * 4));
  CK(cudaMalloc(&out, rows * 4));
  run("fill", fill, dim3(64), dim3(256), a, rows * kMaxRowFloats);
  char label[64];
  for (int row_floats : {32, 36}) {
    std::snprintf(label, sizeof label, "row_sums<2, false>/r%d", row_floats);
    run("row_sums<2, false>", row_sums<2, false>, dim3(ctas), dim3(160), (const float*)a, out, row_floats, row_floats);
    checksum(label, out, rows * 4);
    std::snprintf(label, sizeof label, "row_sums<2, true>/r%d", row_floats);
    run("row_sums<2, true>", row_sums<2, true>, dim3(ctas), dim3(160), (const float*)a, out, row_floats, row_floats);
    checksum(label, out, rows * 4);
    std::snprintf(label, sizeof label, "row_sums<3, true>/r%d", row_floats);
    run("row_sums<3, true>", row_sums<3, true>, dim3(ctas), dim3(160), (const float*)a, out, row_floats, row_floats);
    checksum(label, out, rows * 4);
  }
  return 0;
}
