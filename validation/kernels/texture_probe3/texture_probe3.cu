// texture_probe3.cu -- textures of CUDA arrays (cudaMallocArray + cudaMemcpy2DToArray), whose texels the driver lays
// out block-linear, not row by row. Predicted by `warpscope run` before the H100 ran it, with the layout open-source
// drivers document for Maxwell and later: GOBs of 64 bytes x 8 rows, each 32-byte sector two 16-byte pieces of rows
// y and y + 1 (validation/texture_probe3/predicted.txt). `a` is texture_probe's 1024 x 1024 float matrix
// (a[i] = i % 100003), copied into a 1024 x 1024 float array, a 256 x 1024 float4 array and a 4096-float 1D array.
// Launches of 128 x 128 threads in blocks of 256 (1D: 64 x 256), one result a thread:
//   rows, tiles, cols, bilinear: as texture_probe's (warps along a row, 8 x 4 tiles, down a column, 2 x 2 filtered)
//   rows_f4: float4 texels along a row;   tex1d: a 1D array, tex1D at x + .5, warps along it
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o texture_probe3 texture_probe3.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"

namespace {
constexpr int kN = 1024, kTexels = kN * kN, kOut = 128 * 128;
}  // namespace

__global__ void fill(float* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = static_cast<float>(i % 100003);
}

__global__ void sample2d(cudaTextureObject_t t, float* out, float dx, float dy) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * gridDim.x * blockDim.x + x] = tex2D<float>(t, x + dx, y + dy);
}

__global__ void cols(cudaTextureObject_t t, float* out) {
  const int y = blockIdx.y * blockDim.x + threadIdx.x, x = blockIdx.x * blockDim.y + threadIdx.y;
  out[x * gridDim.y * blockDim.x + y] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void rows_f4(cudaTextureObject_t t, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const float4 v = tex2D<float4>(t, x + 0.5f, y + 0.5f);
  out[y * gridDim.x * blockDim.x + x] = v.x + v.y + v.z + v.w;
}

__global__ void tex1d(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1D<float>(t, (i % 4096) + 0.5f);
}

namespace {
cudaTextureObject_t array_texture(cudaArray_t arr, cudaTextureFilterMode filter) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = arr;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = filter;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  CK(cudaCreateTextureObject(&t, &r, &td, nullptr));
  return t;
}

float* g_out = nullptr;
template <class K, class... A>
void probe(const char* name, K kernel, dim3 grid, dim3 block, A... args) {
  CK(cudaMemset(g_out, 0, kOut * sizeof(float)));
  run(name, kernel, grid, block, args...);
  checksum(name, g_out, kOut * sizeof(float));
}
}  // namespace

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  float* a = nullptr;
  CK(cudaMalloc(&a, kTexels * sizeof(float)));
  CK(cudaMalloc(&g_out, kOut * sizeof(float)));
  run("fill", fill, dim3(256), dim3(256), a, kTexels);
  CK(cudaDeviceSynchronize());
  const auto f32 = cudaCreateChannelDesc<float>();
  cudaArray_t arr = nullptr, arr4 = nullptr, arr1 = nullptr;
  CK(cudaMallocArray(&arr, &f32, kN, kN));
  CK(cudaMemcpy2DToArray(arr, 0, 0, a, kN * 4, kN * 4, kN, cudaMemcpyDeviceToDevice));
  const auto f4 = cudaCreateChannelDesc<float4>();
  CK(cudaMallocArray(&arr4, &f4, kN / 4, kN));
  CK(cudaMemcpy2DToArray(arr4, 0, 0, a, kN * 4, kN * 4, kN, cudaMemcpyDeviceToDevice));
  CK(cudaMallocArray(&arr1, &f32, 4096));
  CK(cudaMemcpy2DToArray(arr1, 0, 0, a, 4096 * 4, 4096 * 4, 1, cudaMemcpyDeviceToDevice));
  const cudaTextureObject_t t = array_texture(arr, cudaFilterModePoint), tl = array_texture(arr, cudaFilterModeLinear);
  const dim3 g2(4, 16), b2(32, 8);
  probe("rows", sample2d, g2, b2, t, g_out, 0.5f, 0.5f);
  probe("tiles", sample2d, dim3(16, 4), dim3(8, 32), t, g_out, 0.5f, 0.5f);
  probe("cols", cols, dim3(16, 4), dim3(32, 8), t, g_out);
  probe("bilinear", sample2d, g2, b2, tl, g_out, 1.0f, 1.0f);
  probe("rows_f4", rows_f4, g2, b2, array_texture(arr4, cudaFilterModePoint), g_out);
  probe("tex1d", tex1d, dim3(64), dim3(256), array_texture(arr1, cudaFilterModePoint), g_out);
  return 0;
}
