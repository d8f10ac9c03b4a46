// texture_probe2.cu -- texture fetches the first probe (texture_probe) left open, their counters predicted by
// `warpscope run` before the H100 ran them (validation/texture_probe2/predicted.txt): how many lanes a request of
// 8-byte and 2-byte texels serves, partial warps and quads, 16-byte texels sampled, quads half outside a border
// texture, integer coordinates in 2D, the channels a one-channel texture returns, normalized reads with linear
// filtering at fractions that are not halves, and mirror addressing. `a` is the 1024 x 1024 float matrix of
// texture_probe (a[i] = i % 100003); 64 CTAs of 256 threads (2D: 128 x 128 threads), one result a thread.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o texture_probe2 texture_probe2.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "../suite/suite_common.cuh"

namespace {
constexpr int kN = 1024, kTexels = kN * kN, kCtas = 64, kThreads = 256, kOut = kCtas * kThreads * 4;
}  // namespace

__global__ void fill(float* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = static_cast<float>(i % 100003);
}

__global__ void fetch_f2(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float2 v = tex1Dfetch<float2>(t, i);
  out[i] = v.x + v.y;
}

__global__ void fetch_u16(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<float>(tex1Dfetch<unsigned short>(t, i));
}

// Lanes 0-11 of each warp only: requests of lanes 0-7 and 8-11.
__global__ void fetch_partial(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 32 < 12) out[i] = tex1Dfetch<float>(t, i);
}

// All four channels of a one-channel float texture, through PTX (tex1Dfetch<float> keeps only the first).
__global__ void fetch_channels(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x, y, z, w;
  asm volatile("tex.1d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5}];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(t), "r"(i));
  out[4 * i] = x;
  out[4 * i + 1] = y;
  out[4 * i + 2] = z;
  out[4 * i + 3] = w;
}

// tex.2d with integer coordinates.
__global__ void fetch2d_int(cudaTextureObject_t t, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  float v;
  asm volatile("{\n .reg .f32 u<3>;\n tex.2d.v4.f32.s32 {%0, u0, u1, u2}, [%1, {%2, %3}];\n}" : "=f"(v) : "l"(t), "r"(x), "r"(y));
  out[y * gridDim.x * blockDim.x + x] = v;
}

__global__ void sample2d(cudaTextureObject_t t, float* out, float dx, float dy, float scale) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * gridDim.x * blockDim.x + x] = tex2D<float>(t, (x + dx) * scale, (y + dy) * scale);
}

// Lanes 0-5 of each warp only: quads 0 and 1.
__global__ void sample_partial(cudaTextureObject_t t, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (threadIdx.x < 6) out[y * gridDim.x * blockDim.x + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void sample_f4(cudaTextureObject_t t, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const float4 v = tex2D<float4>(t, x + 0.5f, y + 0.5f);
  out[y * gridDim.x * blockDim.x + x] = v.x + v.y + v.z + v.w;
}

namespace {
cudaTextureObject_t texture(const cudaResourceDesc& res, cudaTextureAddressMode address, cudaTextureFilterMode filter, int normalized,
                            cudaTextureReadMode read = cudaReadModeElementType) {
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = address;
  td.filterMode = filter;
  td.readMode = read;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t = 0;
  CK(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

cudaResourceDesc linear(void* p, cudaChannelFormatDesc f, size_t bytes) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = p;
  r.res.linear.desc = f;
  r.res.linear.sizeInBytes = bytes;
  return r;
}

cudaResourceDesc pitched(void* p, cudaChannelFormatDesc f, int width, int height, size_t pitch) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = p;
  r.res.pitch2D.desc = f;
  r.res.pitch2D.width = width;
  r.res.pitch2D.height = height;
  r.res.pitch2D.pitchInBytes = pitch;
  return r;
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
  const size_t bytes = kTexels * sizeof(float);
  const auto f32 = cudaCreateChannelDesc<float>();
  const dim3 g1(kCtas), b1(kThreads), g2(4, 16), b2(32, 8);
  probe("fetch_f2", fetch_f2, g1, b1, texture(linear(a, cudaCreateChannelDesc<float2>(), bytes), cudaAddressModeClamp, cudaFilterModePoint, 0), g_out);
  probe("fetch_u16", fetch_u16, g1, b1,
        texture(linear(a, cudaCreateChannelDesc<unsigned short>(), bytes), cudaAddressModeClamp, cudaFilterModePoint, 0), g_out);
  const cudaTextureObject_t lin = texture(linear(a, f32, bytes), cudaAddressModeClamp, cudaFilterModePoint, 0);
  probe("fetch_partial", fetch_partial, g1, b1, lin, g_out);
  probe("fetch_channels", fetch_channels, g1, b1, lin, g_out);
  const cudaTextureObject_t pit = texture(pitched(a, f32, kN, kN, kN * 4), cudaAddressModeClamp, cudaFilterModePoint, 0);
  probe("fetch2d_int", fetch2d_int, g2, b2, pit, g_out);
  probe("sample_partial", sample_partial, g2, b2, pit, g_out);
  // float4 texels: the matrix as 256 x 1024 of them.
  probe("sample_f4", sample_f4, g2, b2, texture(pitched(a, cudaCreateChannelDesc<float4>(), kN / 4, kN, kN * 4), cudaAddressModeClamp, cudaFilterModePoint, 0),
        g_out);
  // Quads half outside: x - 1.5 puts x = 0 and 1 (lanes 0-1 of the first warps) outside a border texture.
  probe("border_half", sample2d, g2, b2, texture(pitched(a, f32, kN, kN, kN * 4), cudaAddressModeBorder, cudaFilterModePoint, 0), g_out, -1.5f, 0.5f, 1.0f);
  // Linear filtering at a fraction of .3 (x + .8 - .5), of floats and of bytes read as normalized floats.
  probe("linear_f32", sample2d, g2, b2, texture(pitched(a, f32, kN, kN, kN * 4), cudaAddressModeClamp, cudaFilterModeLinear, 0), g_out, 0.8f, 0.7f, 1.0f);
  probe("linear_u8", sample2d, g2, b2,
        texture(pitched(a, cudaCreateChannelDesc<unsigned char>(), 4 * kN, kN, kN * 4), cudaAddressModeClamp, cudaFilterModeLinear, 0,
                cudaReadModeNormalizedFloat),
        g_out, 0.8f, 0.7f, 1.0f);
  // Mirror: 48 x 48 texels, normalized coordinates up to 128 / 48.
  probe("mirror", sample2d, g2, b2, texture(pitched(a, f32, 48, 48, kN * 4), cudaAddressModeMirror, cudaFilterModePoint, 1), g_out, 0.5f, 0.5f,
        1.0f / 48);
  return 0;
}
