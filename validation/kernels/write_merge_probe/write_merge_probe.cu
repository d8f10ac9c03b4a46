// write_merge_probe.cu -- when do stores reach the L2 as fewer write requests than the model counts (one per
// store instruction and line)? tolerances.toml knows the class (r_particles_aos: "L1 merges partial-sector
// stores of several instructions"); the blind PTX check met two more cases (docs/VALIDATION.md "PTX runs, blind"):
// a warp's two stores into the same lines (b_scan512: out[2t], out[2t+1]) and single-lane stores of
// consecutive words by different warps (b_gemv_warp_rows: y[warp]). Each kernel isolates one variant.
// 256 CTAs x 256 threads; warp w owns the 2 lines at out + 256 w (u32 words: 64 per warp) unless stated.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o write_merge_probe write_merge_probe.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "../suite/suite_common.cuh"

#define IDS                                                            \
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;           \
  const unsigned w = t >> 5, l = threadIdx.x & 31;                    \
  unsigned* o = out + w * 64;                                         \
  (void)o;

// Even words, then odd words of the same two lines (b_scan512's pattern).
__global__ void m_even_then_odd(unsigned* out) { IDS o[2 * l] = t; o[2 * l + 1] = t + 1; }
// The same two stores with four stores to another warp's far region between them.
__global__ void m_even_gap4_odd(unsigned* out, unsigned* far) {
  IDS o[2 * l] = t;
  for (int k = 0; k < 4; ++k) far[(w * 4 + k) * 32 + l] = t + k;
  o[2 * l + 1] = t + 1;
}
// The same two stores with __syncwarp() between them.
__global__ void m_even_sync_odd(unsigned* out) { IDS o[2 * l] = t; __syncwarp(); o[2 * l + 1] = t + 1; }
// The same words twice.
__global__ void m_same_words_twice(unsigned* out) { IDS o[l] = t; o[l] = t + 1; }
// Two stores into different lines (control: nothing to merge).
__global__ void m_two_lines(unsigned* out) { IDS o[l] = t; o[32 + l] = t + 1; }
// First half-warp's words, then the second half-warp's, of one line, as two predicated stores of all lanes.
__global__ void m_low_then_high_sector(unsigned* out) { IDS o[l & 15] = t; o[16 + (l & 15)] = t + 1; }
// One lane per warp stores its warp's word: consecutive warps, consecutive words (b_gemv_warp_rows).
__global__ void m_lane0_consecutive(unsigned* out) { IDS if (l == 0) out[w] = t; }
// One lane per warp, each warp its own line (control).
__global__ void m_lane0_own_line(unsigned* out) { IDS if (l == 0) out[w * 32] = t; }
// One lane per warp, each warp its own sector of a shared line.
__global__ void m_lane0_own_sector(unsigned* out) { IDS if (l == 0) out[w * 8] = t; }

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  const size_t words = (size_t)2048 * 64;  // 65,536 threads = 2,048 warps x 64 words
  unsigned* out = upload(std::vector<unsigned>(words, 0u));
  unsigned* far = upload(std::vector<unsigned>(words * 2, 0u));
  const dim3 g(256), b(256);
  run("m_even_then_odd", m_even_then_odd, g, b, out);
  run("m_even_gap4_odd", m_even_gap4_odd, g, b, out, far);
  run("m_even_sync_odd", m_even_sync_odd, g, b, out);
  run("m_same_words_twice", m_same_words_twice, g, b, out);
  run("m_two_lines", m_two_lines, g, b, out);
  run("m_low_then_high_sector", m_low_then_high_sector, g, b, out);
  run("m_lane0_consecutive", m_lane0_consecutive, g, b, out);
  run("m_lane0_own_line", m_lane0_own_line, g, b, out);
  run("m_lane0_own_sector", m_lane0_own_sector, g, b, out);
  CK(cudaDeviceSynchronize());
  return 0;
}
