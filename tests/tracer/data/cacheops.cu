#include <cstdint>
__global__ void cacheops(const float* __restrict__ in, float* out, const float4* in4, double* d, int* cnt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i];
  float b = __ldg(in + i + 32);
  float c = __ldcg(in + i + 64);
  float e = __ldcs(in + i + 96);
  float f = __ldlu(in + i + 128);
  float g = __ldcv(in + i + 160);
  float h = __ldca(in + i + 192);
  float4 v = in4[i];
  float4 v2 = __ldcs(in4 + i + 32);
  double dd = d[i];
  unsigned short s16; asm volatile("ld.global.nc.u16 %0, [%1];" : "=h"(s16) : "l"(in + i));
  unsigned int c8; asm volatile("{ .reg .u16 t; ld.global.u8 t, [%1]; cvt.u32.u16 %0, t; }" : "=r"(c8) : "l"(in + i) );
  __shared__ float sh[256];
  sh[threadIdx.x] = a;
  __syncthreads();
  float loc[16];
  for (int k = 0; k < 16; ++k) loc[k] = sh[(threadIdx.x + k) % 256];
  atomicAdd(cnt, 1);
  atomicAdd(&sh[0], 1.0f);
  out[i] = a + b + c + e + f + g + h + v.x + v2.y + dd + s16 + c8 + loc[i & 15];
  __stcs(out + i + 32, a);
  __stcg(out + i + 64, b);
  __stwt(out + i + 96, c);
  reinterpret_cast<float4*>(out)[i + 1000] = v;
}
__global__ void plain(const float* in, float* out) { int i = threadIdx.x; out[i] = in[i] * 2.0f; }
