// Library code through the PTX interpreter (tests/ptx/library_kernels_test.cpp): CUB block primitives and
// cooperative groups. PTX: nvcc -arch=sm_90 -ptx -o cub_kernels.ptx cub_kernels.cu (CUDA 13.0).
#include <cub/cub.cuh>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void block_reduce(const int* in, int* out) {
  using BR = cub::BlockReduce<int, 256>;
  __shared__ typename BR::TempStorage tmp;
  int v = in[blockIdx.x * 256 + threadIdx.x];
  int s = BR(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
__global__ void block_scan(const int* in, int* out) {
  using BS = cub::BlockScan<int, 256>;
  __shared__ typename BS::TempStorage tmp;
  int v = in[blockIdx.x * 256 + threadIdx.x];
  BS(tmp).ExclusiveSum(v, v);
  out[blockIdx.x * 256 + threadIdx.x] = v;
}
__global__ void radix(const unsigned* in, unsigned* out) {
  using BRS = cub::BlockRadixSort<unsigned, 128, 4>;
  __shared__ typename BRS::TempStorage tmp;
  unsigned k[4];
  for (int i = 0; i < 4; ++i) k[i] = in[blockIdx.x * 512 + threadIdx.x * 4 + i];
  BRS(tmp).Sort(k);
  for (int i = 0; i < 4; ++i) out[blockIdx.x * 512 + threadIdx.x * 4 + i] = k[i];
}
__global__ void cgred(const float* in, float* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) atomicAdd(out, s);
}
