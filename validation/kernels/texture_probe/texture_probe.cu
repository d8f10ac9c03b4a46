// texture_probe.cu -- texture fetches (SASS TEX / TLD through the L1TEX's texture pipe) from texture objects on
// linear and pitched global memory: what does the H100 count for them, and do the texels' addresses decide it as
// they decide a global load's? A 1024 x 1024 float matrix `a` (4 MB, a[i] = i % 100003) seen as
//   lin:   a linear float texture of 2^20 texels (cudaResourceTypeLinear)
//   lin4:  the same bytes as 2^18 float4 texels
//   lin8:  the same bytes as 2^22 unsigned char texels (read as elements)
//   pit:   a 1024 x 1024 float texture with a pitch of 4096 bytes (cudaResourceTypePitch2D), point sampling,
//          unnormalized coordinates, clamp
//   pitl:  the same, linear filtering
//   wrap:  the first 64 x 64 texels (pitch 4096), normalized coordinates, wrap
//   bord:  pit with border addressing
// Launches (64 CTAs of 256 threads unless said; each writes one float a thread to `out`, for a checksum):
//   fetch1d<S>:  tex1Dfetch(lin, (i * S) mod 2^20), S = 1, 2, 8, 32
//   fetch1d_v4:  tex1Dfetch(lin4, i), 16 bytes a lane
//   fetch1d_u8:  tex1Dfetch(lin8, i), 1 byte a lane
//   bcast:       tex1Dfetch(lin, blockIdx.x * 977): every lane of a warp the same texel
//   gather:      tex1Dfetch(lin, idx[i]), idx splitmix64 words in [0, 2^20) (warpscope's `index:1048576:7` fill)
//   rows:        tex2D(pit, x + .5, y + .5) with blocks of 32 x 8: a warp reads 32 texels of one row
//   tiles:       the same with blocks of 8 x 32: a warp reads 8 x 4 texels
//   cols:        a warp reads 32 texels of one column
//   bilinear:    tex2D(pitl, x + 1, y + 1): each lane filters texels x..x+1 of rows y..y+1
//   wrapped:     tex2D(wrap, (x + .5) / 64, (y + .5) / 64) for x, y up to 127: every texel 4 times
//   border:      tex2D(bord, x - 15.5, y + .5): lanes 0-15 of the first column of CTAs outside the texture
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o texture_probe texture_probe.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../suite/suite_common.cuh"

namespace {
constexpr int kN = 1024, kTexels = kN * kN, kCtas = 64, kThreads = 256, kOut = kCtas * kThreads;
}  // namespace

__global__ void fill(float* g, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) g[i] = static_cast<float>(i % 100003);
}

template <int S>
__global__ void fetch1d(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch<float>(t, (i * S) & (kTexels - 1));
}

__global__ void fetch1d_v4(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 v = tex1Dfetch<float4>(t, i);
  out[i] = v.x + v.y + v.z + v.w;
}

__global__ void fetch1d_u8(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<float>(tex1Dfetch<unsigned char>(t, i));
}

__global__ void bcast(cudaTextureObject_t t, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch<float>(t, blockIdx.x * 977);
}

__global__ void gather(cudaTextureObject_t t, const int* idx, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch<float>(t, idx[i]);
}

// 2D launches: (x, y) of the thread in a 2D grid; out[y * width + x].
__global__ void sample2d(cudaTextureObject_t t, float* out, float dx, float dy, float scale) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * gridDim.x * blockDim.x + x] = tex2D<float>(t, (x + dx) * scale, (y + dy) * scale);
}

// A warp along a column: threadIdx.x runs down y.
__global__ void cols(cudaTextureObject_t t, float* out) {
  const int y = blockIdx.y * blockDim.x + threadIdx.x, x = blockIdx.x * blockDim.y + threadIdx.y;
  out[x * gridDim.y * blockDim.x + y] = tex2D<float>(t, x + 0.5f, y + 0.5f);
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

cudaResourceDesc pitched(void* p, int width, int height, size_t pitch) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = p;
  r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  r.res.pitch2D.width = width;
  r.res.pitch2D.height = height;
  r.res.pitch2D.pitchInBytes = pitch;
  return r;
}

std::vector<int> splitmix_indices(size_t n, uint64_t range, uint64_t seed) {  // warpscope's `index:RANGE:SEED` fill
  std::vector<int> v(n);
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v[i] = static_cast<int>(z % range);
  }
  return v;
}

float* g_out = nullptr;
void clear() { CK(cudaMemset(g_out, 0, kOut * sizeof(float))); }
}  // namespace

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  float* a = nullptr;
  CK(cudaMalloc(&a, kTexels * sizeof(float)));
  CK(cudaMalloc(&g_out, kOut * sizeof(float)));
  const int* idx = upload(splitmix_indices(kOut, kTexels, 7));
  run("fill", fill, dim3(256), dim3(256), a, kTexels);

  const size_t bytes = kTexels * sizeof(float);
  const cudaTextureObject_t lin = texture(linear(a, cudaCreateChannelDesc<float>(), bytes), cudaAddressModeClamp, cudaFilterModePoint, 0);
  const cudaTextureObject_t lin4 = texture(linear(a, cudaCreateChannelDesc<float4>(), bytes), cudaAddressModeClamp, cudaFilterModePoint, 0);
  const cudaTextureObject_t lin8 =
      texture(linear(a, cudaCreateChannelDesc<unsigned char>(), bytes), cudaAddressModeClamp, cudaFilterModePoint, 0);
  const cudaTextureObject_t pit = texture(pitched(a, kN, kN, kN * 4), cudaAddressModeClamp, cudaFilterModePoint, 0);
  const cudaTextureObject_t pitl = texture(pitched(a, kN, kN, kN * 4), cudaAddressModeClamp, cudaFilterModeLinear, 0);
  const cudaTextureObject_t wrap = texture(pitched(a, 64, 64, kN * 4), cudaAddressModeWrap, cudaFilterModePoint, 1);
  const cudaTextureObject_t bord = texture(pitched(a, kN, kN, kN * 4), cudaAddressModeBorder, cudaFilterModePoint, 0);

  struct Named {
    const char* name;
    void (*k)(cudaTextureObject_t, float*);
  };
  const Named one_d[] = {{"fetch1d_1", fetch1d<1>}, {"fetch1d_2", fetch1d<2>}, {"fetch1d_8", fetch1d<8>}, {"fetch1d_32", fetch1d<32>}};
  for (const Named& n : one_d) {
    clear();
    run(n.name, n.k, dim3(kCtas), dim3(kThreads), lin, g_out);
    checksum(n.name, g_out, kOut * sizeof(float));
  }
  clear();
  run("fetch1d_v4", fetch1d_v4, dim3(kCtas), dim3(kThreads), lin4, g_out);
  checksum("fetch1d_v4", g_out, kOut * sizeof(float));
  clear();
  run("fetch1d_u8", fetch1d_u8, dim3(kCtas), dim3(kThreads), lin8, g_out);
  checksum("fetch1d_u8", g_out, kOut * sizeof(float));
  clear();
  run("bcast", bcast, dim3(kCtas), dim3(kThreads), lin, g_out);
  checksum("bcast", g_out, kOut * sizeof(float));
  clear();
  run("gather", gather, dim3(kCtas), dim3(kThreads), lin, idx, g_out);
  checksum("gather", g_out, kOut * sizeof(float));
  // 2D: 128 x 128 threads (16,384, as the 1D launches), blocks of 256.
  clear();
  run("rows", sample2d, dim3(4, 16), dim3(32, 8), pit, g_out, 0.5f, 0.5f, 1.0f);
  checksum("rows", g_out, kOut * sizeof(float));
  clear();
  run("tiles", sample2d, dim3(16, 4), dim3(8, 32), pit, g_out, 0.5f, 0.5f, 1.0f);
  checksum("tiles", g_out, kOut * sizeof(float));
  clear();
  run("cols", cols, dim3(16, 4), dim3(32, 8), pit, g_out);
  checksum("cols", g_out, kOut * sizeof(float));
  clear();
  run("bilinear", sample2d, dim3(4, 16), dim3(32, 8), pitl, g_out, 1.0f, 1.0f, 1.0f);
  checksum("bilinear", g_out, kOut * sizeof(float));
  clear();
  run("wrapped", sample2d, dim3(4, 16), dim3(32, 8), wrap, g_out, 0.5f, 0.5f, 1.0f / 64);
  checksum("wrapped", g_out, kOut * sizeof(float));
  clear();
  run("border", sample2d, dim3(4, 16), dim3(32, 8), bord, g_out, -15.5f, 0.5f, 1.0f);
  checksum("border", g_out, kOut * sizeof(float));
  return 0;
}
