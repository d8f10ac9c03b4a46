// async_probe.cu -- cp.async (SASS LDGSTS, sm_80+) on the H100, recorded for warpscope's PTX
// interpreter and GPU tracer (validation/ptx_check.sh async_probe OUT; docs/VALIDATION.md "cp.async").
// A cp.async reads global memory through L1TEX and writes shared memory without a register in between;
// Nsight Compute counts it in a family of its own (..._op_ldgsts). This probe measures that family.
//
// 1. cp_{ca,cg}{4,8,16}: 16 CTAs of 4 warps; each lane copies SIZE bytes from global memory, at the
//    offset `pattern` gives (coalesced, every other element, a line per lane, one address, random in
//    4 MB, 16 B past a line, reversed), into its own SIZE bytes of shared memory; lanes >= `active` do
//    not copy; the copy is repeated `reps` times, each waited for (so a repeat finds its lines in L1
//    when the copy allocates there). .cg is 16 B only (PTX ISA, cp.async).
// 2. banks_*: one warp per CTA copies 32 coalesced elements of SIZE bytes into shared memory at
//    lane x stride x SIZE: the shared side's wavefronts and bank conflicts.
// 3. zfill_*: src-size below cp-size (the rest is zero-filled) and the ignore-src predicate.
// 4. mixes: a load and a cp.async of the same data in either order, .ca and .cg of one line, and the
//    L2 prefetch-size qualifiers (.L2::64B / 128B / 256B).
// 5. sgemm_cpasync_{ca,cg}: a 256^3 SGEMM, 32 x 32 tiles double-buffered with 16-byte cp.async;
//    pipeline_copy: __pipeline_memcpy_async (cuda_pipeline.h); cg_memcpy: cooperative_groups::memcpy_async.
// 6. shape_*: one cp.async per lane from unit src(l) to unit dst(l) (units of SIZE): how the shared side
//    and the requests of .cg and .ca follow the two mappings.
// Every lane's shared bytes go into out[], and main() prints a 64-bit FNV-1a checksum of each launch's
// output; the interpreter's must be equal.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o async_probe async_probe.cu
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../suite/suite_common.cuh"

namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// KIND: 0 .ca, 1 .cg, 2/3/4 .ca with .L2::64B/128B/256B, 5 .cg with .L2::128B.
template <int SIZE, int KIND>
__device__ __forceinline__ void cpa(unsigned dst, const void* src) {
  if constexpr (KIND == 0)
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(SIZE) : "memory");
  else if constexpr (KIND == 1)
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(SIZE) : "memory");
  else if constexpr (KIND == 2)
    asm volatile("cp.async.ca.shared.global.L2::64B [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(SIZE) : "memory");
  else if constexpr (KIND == 3)
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(SIZE) : "memory");
  else if constexpr (KIND == 4)
    asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(SIZE) : "memory");
  else
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(SIZE) : "memory");
}

__device__ __forceinline__ void wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

// The source offset of a lane, in bytes: within its warp's 4 KB for patterns 0-3, 5, 6.
template <int SIZE>
__device__ __forceinline__ size_t src_offset(int pattern, unsigned gwarp, unsigned lane, unsigned gtid) {
  const size_t base = static_cast<size_t>(gwarp) * 4096;
  switch (pattern) {
    case 0: return base + lane * SIZE;
    case 1: return base + lane * 2 * SIZE;
    case 2: return base + lane * 128;
    case 3: return base;
    case 4: return static_cast<size_t>(mix(gtid + 1) % (4u << 20) / SIZE) * SIZE;
    case 5: return base + 16 + lane * SIZE;
    default: return base + (31 - lane) * SIZE;
  }
}

// A lane's SIZE shared bytes folded into one word.
template <int SIZE>
__device__ __forceinline__ unsigned fold(const unsigned char* d) {
  unsigned sum = 0;
  for (int k = 0; k < SIZE; k += 4) sum = sum * 31u + *reinterpret_cast<const unsigned*>(d + k);
  return sum;
}

__global__ void fill(unsigned* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = mix(i + 1);
}

// ---- 1. patterns --------------------------------------------------------------------------------
#define COPY(NAME, SIZE, KIND)                                                                        \
  __global__ void NAME(const unsigned char* g, unsigned* out, int pattern, int active, int reps) {     \
    __shared__ __align__(16) unsigned char sm[4 * 32 * 16];                                           \
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;                                  \
    const unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    for (unsigned i = threadIdx.x; i < sizeof(sm) / 4; i += blockDim.x) reinterpret_cast<unsigned*>(sm)[i] = 0; \
    __syncthreads();                                                                                  \
    unsigned char* d = sm + warp * 512 + lane * SIZE;                                                 \
    const unsigned char* s = g + src_offset<SIZE>(pattern, gtid >> 5, lane, gtid);                    \
    for (int r = 0; r < reps; ++r) {                                                                  \
      if (static_cast<int>(lane) < active) cpa<SIZE, KIND>(smem(d), s);                               \
      wait_all();                                                                                     \
      __syncwarp();                                                                                   \
    }                                                                                                 \
    out[gtid] = fold<SIZE>(d);                                                                        \
  }
COPY(cp_ca4, 4, 0)
COPY(cp_ca8, 8, 0)
COPY(cp_ca16, 16, 0)
COPY(cp_cg16, 16, 1)
COPY(cp_ca4_l2_64, 4, 2)
COPY(cp_ca4_l2_128, 4, 3)
COPY(cp_ca4_l2_256, 4, 4)
COPY(cp_cg16_l2_128, 16, 5)

// ---- 2. the shared side -------------------------------------------------------------------------
#define BANKS(NAME, SIZE, KIND)                                                                       \
  __global__ void NAME(const unsigned char* g, unsigned* out, int stride) {                           \
    __shared__ __align__(16) unsigned char sm[33 * 32 * 4];                                           \
    const unsigned lane = threadIdx.x & 31;                                                           \
    const unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    for (unsigned i = threadIdx.x; i < sizeof(sm) / 4; i += blockDim.x) reinterpret_cast<unsigned*>(sm)[i] = 0; \
    __syncwarp();                                                                                     \
    unsigned char* d = sm + lane * stride * SIZE;                                                     \
    cpa<SIZE, KIND>(smem(d), g + static_cast<size_t>(gtid >> 5) * 4096 + lane * SIZE);               \
    wait_all();                                                                                       \
    __syncwarp();                                                                                     \
    out[gtid] = fold<SIZE>(d);                                                                        \
  }
BANKS(banks_ca4, 4, 0)
BANKS(banks_ca8, 8, 0)
BANKS(banks_ca16, 16, 0)
BANKS(banks_cg16, 16, 1)

// ---- 3. zero fill -------------------------------------------------------------------------------
// mode 0: src-size 0; 1: 8 of 16; 2: odd lanes 16, even lanes 0; 3: 4 of 16.
__global__ void zfill_srcsize(const unsigned char* g, unsigned* out, int mode) {
  __shared__ __align__(16) unsigned char sm[4 * 32 * 16];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char* d = sm + warp * 512 + lane * 16;
  *reinterpret_cast<uint4*>(d) = make_uint4(~0u, ~0u, ~0u, ~0u);
  __syncwarp();
  const unsigned n = mode == 0 ? 0 : mode == 1 ? 8 : mode == 2 ? (lane & 1) * 16 : 4;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" ::"r"(smem(d)),
               "l"(g + static_cast<size_t>(gtid >> 5) * 4096 + lane * 16), "r"(n) : "memory");
  wait_all();
  __syncwarp();
  out[gtid] = fold<16>(d);
}

// mode 0: no lane ignores its source; 1: every lane; 2: the even lanes.
template <int KIND>
__global__ void zfill_ignore(const unsigned char* g, unsigned* out, int mode) {
  __shared__ __align__(16) unsigned char sm[4 * 32 * 16];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char* d = sm + warp * 512 + lane * 16;
  *reinterpret_cast<uint4*>(d) = make_uint4(~0u, ~0u, ~0u, ~0u);
  __syncwarp();
  const unsigned ignore = mode == 0 ? 0 : mode == 1 ? 1 : (lane & 1) ^ 1;
  const unsigned char* s = g + static_cast<size_t>(gtid >> 5) * 4096 + lane * 16;
  if constexpr (KIND == 0)
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 16, p; }" ::"r"(smem(d)),
                 "l"(s), "r"(ignore) : "memory");
  else
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, p; }" ::"r"(smem(d)),
                 "l"(s), "r"(ignore) : "memory");
  wait_all();
  __syncwarp();
  out[gtid] = fold<16>(d);
}

// ---- 4. loads and copies of the same data ---------------------------------------------------------
// order 0: a 4-byte load, then cp.async.ca of it; 1: cp.async.ca, then the load; 2: cp.async.cg (16 B),
// then a 16-byte load; 3: a 16-byte load, then cp.async.cg; 4: .ca then .cg (16 B); 5: .cg then .ca.
__global__ void mix_order(const unsigned char* g, unsigned* out, int order) {
  __shared__ __align__(16) unsigned char sm[4 * 32 * 16];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char* d = sm + warp * 512 + lane * 16;
  const unsigned char* s4 = g + static_cast<size_t>(gtid >> 5) * 4096 + lane * 4;
  const unsigned char* s16 = g + static_cast<size_t>(gtid >> 5) * 4096 + lane * 16;
  unsigned v = 0;
  if (order == 0) {
    v = *reinterpret_cast<const unsigned*>(s4);
    cpa<4, 0>(smem(d), s4);
  } else if (order == 1) {
    cpa<4, 0>(smem(d), s4);
    wait_all();
    v = *reinterpret_cast<const unsigned*>(s4);
  } else if (order == 2) {
    cpa<16, 1>(smem(d), s16);
    wait_all();
    const uint4 q = *reinterpret_cast<const uint4*>(s16);
    v = q.x ^ q.y ^ q.z ^ q.w;
  } else if (order == 3) {
    const uint4 q = *reinterpret_cast<const uint4*>(s16);
    v = q.x ^ q.y ^ q.z ^ q.w;
    cpa<16, 1>(smem(d), s16);
  } else if (order == 4) {
    cpa<16, 0>(smem(d), s16);
    wait_all();
    cpa<16, 1>(smem(d), s16);
  } else {
    cpa<16, 1>(smem(d), s16);
    wait_all();
    cpa<16, 0>(smem(d), s16);
  }
  wait_all();
  __syncwarp();
  out[gtid] = v + fold<4>(d);
}

// ---- 5. kernels that use it -----------------------------------------------------------------------
// C = A B, 256 x 256 floats, 32 x 32 tiles in two shared buffers: the next tile's 16-byte copies are
// in flight while the current one is multiplied (one per thread for each of A and B).
template <int KIND>
__global__ void sgemm_cpasync(const float* A, const float* B, float* C) {
  constexpr int N = 256, T = 32;
  __shared__ __align__(16) float as[2][T][T];
  __shared__ __align__(16) float bs[2][T][T];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
  const int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
  const int r = tid / 8, c4 = (tid % 8) * 4;
  auto load = [&](int buf, int k0) {
    cpa<16, KIND>(smem(&as[buf][r][c4]), &A[(row0 + r) * N + k0 + c4]);
    cpa<16, KIND>(smem(&bs[buf][r][c4]), &B[(k0 + r) * N + col0 + c4]);
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
  float acc[4] = {0, 0, 0, 0};
  load(0, 0);
  for (int t = 0; t < N / T; ++t) {
    if (t + 1 < N / T) {
      load((t + 1) & 1, (t + 1) * T);
      asm volatile("cp.async.wait_group 1;" ::: "memory");
    } else {
      asm volatile("cp.async.wait_group 0;" ::: "memory");
    }
    __syncthreads();
    const int b = t & 1;
    for (int k = 0; k < T; ++k)
      for (int j = 0; j < 4; ++j) acc[j] += as[b][ty + 8 * j][k] * bs[b][k][tx];
    __syncthreads();
  }
  for (int j = 0; j < 4; ++j) C[(row0 + ty + 8 * j) * N + col0 + tx] = acc[j];
}

// dst = 2 x src through shared memory, 16 bytes a thread at a time with __pipeline_memcpy_async.
__global__ void pipeline_copy(const float4* src, float4* dst, int n) {
  __shared__ __align__(16) float4 sm[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    __pipeline_memcpy_async(&sm[threadIdx.x], &src[i], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    const float4 v = sm[threadIdx.x];
    dst[i] = make_float4(2 * v.x, 2 * v.y, 2 * v.z, 2 * v.w);
  }
}

// Each CTA copies its 4 KB of src into shared memory with cooperative_groups::memcpy_async and writes
// it back reversed.
__global__ void cg_memcpy(const unsigned* src, unsigned* dst) {
  __shared__ __align__(16) unsigned sm[1024];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, sm, src + blockIdx.x * 1024, cuda::aligned_size_t<16>(4096));
  cg::wait(block);
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) dst[blockIdx.x * 1024 + i] = sm[1023 - i];
}


// ---- 6. shapes: where lane l reads and writes, in units of SIZE --------------------------------------
// src: 0 l, 1 l+1, 2 l+2, 3 l+4, 4 l^1, 5 l^2, 6 l^4, 7 2l, 8 l/2, 9 3l, 10 l+8 (in the warp's 4 KB);
// dst: 0 l, 1 l+1, 2 l^1, 3 2l (in the warp's 1,056 bytes of shared memory).
__device__ __forceinline__ unsigned src_unit(int mode, unsigned l) {
  switch (mode) {
    case 0: return l;
    case 1: return l + 1;
    case 2: return l + 2;
    case 3: return l + 4;
    case 4: return l ^ 1;
    case 5: return l ^ 2;
    case 6: return l ^ 4;
    case 7: return 2 * l;
    case 8: return l / 2;
    case 9: return 3 * l;
    default: return l + 8;
  }
}
__device__ __forceinline__ unsigned dst_unit(int mode, unsigned l) {
  return mode == 0 ? l : mode == 1 ? l + 1 : mode == 2 ? (l ^ 1) : 2 * l;
}
#define SHAPE(NAME, SIZE, KIND)                                                                       \
  __global__ void NAME(const unsigned char* g, unsigned* out, int src, int dst) {                     \
    __shared__ __align__(16) unsigned char sm[4 * 1056];                                              \
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;                                  \
    const unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;                                      \
    for (unsigned i = threadIdx.x; i < sizeof(sm) / 4; i += blockDim.x) reinterpret_cast<unsigned*>(sm)[i] = 0; \
    __syncthreads();                                                                                  \
    unsigned char* d = sm + warp * 1056 + dst_unit(dst, lane) * SIZE;                                 \
    cpa<SIZE, KIND>(smem(d), g + static_cast<size_t>(gtid >> 5) * 4096 + src_unit(src, lane) * SIZE); \
    wait_all();                                                                                       \
    __syncwarp();                                                                                     \
    out[gtid] = fold<SIZE>(d);                                                                        \
  }
SHAPE(shape_ca4, 4, 0)
SHAPE(shape_ca16, 16, 0)
SHAPE(shape_cg16, 16, 1)

// ---- host (checksum(): suite_common.cuh) ---------------------------------------------------------
int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  char label[96];
  unsigned *g, *out, *gx, *gy;
  float *ga, *gb, *gc;
  CK(cudaMalloc(&g, 8 << 20));
  CK(cudaMalloc(&out, 16 * 128 * 4));
  CK(cudaMalloc(&gx, 4 << 20));
  CK(cudaMalloc(&gy, 4 << 20));
  CK(cudaMalloc(&ga, 256 * 256 * 4));
  CK(cudaMalloc(&gb, 256 * 256 * 4));
  CK(cudaMalloc(&gc, 256 * 256 * 4));
  run("fill", fill, dim3(64), dim3(256), g, 2 << 20);
  run("fill", fill, dim3(64), dim3(256), gx, 1 << 20);
  run("fill", fill, dim3(64), dim3(256), (unsigned*)ga, 256 * 256);
  run("fill", fill, dim3(64), dim3(256), (unsigned*)gb, 256 * 256);
  const unsigned char* gb8 = reinterpret_cast<const unsigned char*>(g);
  const size_t out_bytes = 16 * 128 * 4;

  // 1. patterns: 7 patterns, all lanes, two waited repeats; then lanes 0-19 only, coalesced.
  struct Copy { const char* name; void (*k)(const unsigned char*, unsigned*, int, int, int); };
  const Copy copies[] = {{"cp_ca4", cp_ca4}, {"cp_ca8", cp_ca8}, {"cp_ca16", cp_ca16}, {"cp_cg16", cp_cg16}};
  for (const Copy& c : copies) {
    for (int pattern = 0; pattern < 7; ++pattern) {
      std::snprintf(label, sizeof label, "%s/p%d", c.name, pattern);
      run(c.name, c.k, dim3(16), dim3(128), gb8, out, pattern, 32, 2);
      checksum(label, out, out_bytes);
    }
    std::snprintf(label, sizeof label, "%s/partial", c.name);
    run(c.name, c.k, dim3(16), dim3(128), gb8, out, 0, 20, 2);
    checksum(label, out, out_bytes);
  }
  // 4b. the L2 prefetch sizes, coalesced and a line per lane, one pass.
  const Copy prefetch[] = {{"cp_ca4_l2_64", cp_ca4_l2_64}, {"cp_ca4_l2_128", cp_ca4_l2_128},
                           {"cp_ca4_l2_256", cp_ca4_l2_256}, {"cp_cg16_l2_128", cp_cg16_l2_128}};
  for (const Copy& c : prefetch)
    for (int pattern : {0, 2}) {
      std::snprintf(label, sizeof label, "%s/p%d", c.name, pattern);
      run(c.name, c.k, dim3(16), dim3(128), gb8, out, pattern, 32, 1);
      checksum(label, out, out_bytes);
    }

  // 2. the shared side: one warp per CTA.
  struct Banks { const char* name; void (*k)(const unsigned char*, unsigned*, int); std::vector<int> strides; };
  const Banks banks[] = {{"banks_ca4", banks_ca4, {1, 2, 3, 4, 8, 16, 32, 33}},
                         {"banks_ca8", banks_ca8, {1, 2, 3, 4}},
                         {"banks_ca16", banks_ca16, {1, 2, 3}},
                         {"banks_cg16", banks_cg16, {1, 2}}};
  for (const Banks& b : banks)
    for (int stride : b.strides) {
      std::snprintf(label, sizeof label, "%s/s%d", b.name, stride);
      run(b.name, b.k, dim3(16), dim3(32), gb8, out, stride);
      checksum(label, out, 16 * 32 * 4);
    }

  // 3. zero fill.
  for (int mode = 0; mode < 4; ++mode) {
    std::snprintf(label, sizeof label, "zfill_srcsize/m%d", mode);
    run("zfill_srcsize", zfill_srcsize, dim3(16), dim3(128), gb8, out, mode);
    checksum(label, out, out_bytes);
  }
  for (int mode = 0; mode < 3; ++mode) {
    std::snprintf(label, sizeof label, "zfill_ignore<0>/m%d", mode);
    run("zfill_ignore<0>", zfill_ignore<0>, dim3(16), dim3(128), gb8, out, mode);
    checksum(label, out, out_bytes);
  }
  run("zfill_ignore<1>", zfill_ignore<1>, dim3(16), dim3(128), gb8, out, 2);
  checksum("zfill_ignore<1>/m2", out, out_bytes);

  // 4. orders.
  for (int order = 0; order < 6; ++order) {
    std::snprintf(label, sizeof label, "mix_order/o%d", order);
    run("mix_order", mix_order, dim3(16), dim3(128), gb8, out, order);
    checksum(label, out, out_bytes);
  }

  // 5. kernels.
  run("sgemm_cpasync<0>", sgemm_cpasync<0>, dim3(8, 8), dim3(32, 8), (const float*)ga, (const float*)gb, gc);
  checksum("sgemm_cpasync<0>", gc, 256 * 256 * 4);
  run("sgemm_cpasync<1>", sgemm_cpasync<1>, dim3(8, 8), dim3(32, 8), (const float*)ga, (const float*)gb, gc);
  checksum("sgemm_cpasync<1>", gc, 256 * 256 * 4);
  run("pipeline_copy", pipeline_copy, dim3(64), dim3(256), (const float4*)gx, (float4*)gy, (4 << 20) / 16);
  checksum("pipeline_copy", gy, 4 << 20);
  run("cg_memcpy", cg_memcpy, dim3(256), dim3(128), (const unsigned*)gx, gy);
  checksum("cg_memcpy", gy, 256 * 4096);
  // 6. shapes.
  struct Shape { const char* name; void (*k)(const unsigned char*, unsigned*, int, int); int src, dst; };
  const Shape shapes[] = {
      {"shape_cg16", shape_cg16, 0, 0}, {"shape_cg16", shape_cg16, 1, 0}, {"shape_cg16", shape_cg16, 2, 0},
      {"shape_cg16", shape_cg16, 3, 0}, {"shape_cg16", shape_cg16, 4, 0}, {"shape_cg16", shape_cg16, 5, 0},
      {"shape_cg16", shape_cg16, 6, 0}, {"shape_cg16", shape_cg16, 7, 0}, {"shape_cg16", shape_cg16, 8, 0},
      {"shape_cg16", shape_cg16, 9, 0}, {"shape_cg16", shape_cg16, 10, 0}, {"shape_cg16", shape_cg16, 0, 1},
      {"shape_cg16", shape_cg16, 0, 2}, {"shape_cg16", shape_cg16, 0, 3}, {"shape_cg16", shape_cg16, 1, 1},
      {"shape_cg16", shape_cg16, 4, 2}, {"shape_cg16", shape_cg16, 7, 3}, {"shape_cg16", shape_cg16, 1, 2},
      {"shape_cg16", shape_cg16, 2, 1}, {"shape_cg16", shape_cg16, 3, 1},
      {"shape_ca4", shape_ca4, 7, 3}, {"shape_ca4", shape_ca4, 7, 1}, {"shape_ca4", shape_ca4, 8, 3},
      {"shape_ca4", shape_ca4, 9, 3}, {"shape_ca16", shape_ca16, 7, 3}, {"shape_ca16", shape_ca16, 4, 2},
      {"shape_ca16", shape_ca16, 1, 0}, {"shape_ca16", shape_ca16, 8, 0}};
  for (const Shape& x : shapes) {
    std::snprintf(label, sizeof label, "%s/s%d/d%d", x.name, x.src, x.dst);
    run(x.name, x.k, dim3(16), dim3(128), gb8, out, x.src, x.dst);
    checksum(label, out, out_bytes);
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
