// tensor_promo.cu -- a tensor map's L2 promotion (cuTensorMapEncodeTiled's l2Promotion: none, 64, 128 or 256 bytes)
// on the TMA's loads, with tensor_probe's kernels and load() (validation/kernels/tensor_probe/tensor_probe.cu).
// tensor_probe measured one case, 128 B on 128-byte rows 16 B into a line: its L2 misses fill whole lines. Here
// every size on those rows, on rows on a line, and on 64- and 256-byte rows; the counters predicted from the PTX
// before the H100 ran it (validation/tensor_promo/predicted.txt; docs/VALIDATION.md "Tensor copies"). The model's
// rule when it was written: 128 and 256 B fill whole lines, 64 B is the H100's own 64-byte sector group.
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o tensor_promo tensor_promo.cu
#define TENSOR_PROBE_NO_MAIN
#include "../tensor_probe/tensor_probe.cu"

int main() {
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&g_e0));
  CK(cudaEventCreate(&g_e1));
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&g_encode), 12000,
                                      cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !g_encode) return 1;
  unsigned* a;
  CK(cudaMalloc(&a, 2 << 20));
  CK(cudaMalloc(&g_out, kCtas * kTileBytes));
  run("fill", fill, dim3(64), dim3(256), a, (2 << 20) / 4);
  constexpr auto kNone = CU_TENSOR_MAP_SWIZZLE_NONE;
  const CUtensorMapL2promotion promos[] = {CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
                                           CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
  const char* names[] = {"none", "64B", "128B", "256B"};
  // Each case reads a band of 32 rows no other case reads (every first touch misses in L2), its 16 CTAs 64
  // elements (256 bytes) apart along the rows, so that no two CTAs share a sector.
  int y = 0;
  for (int p = 0; p < 4; ++p) {
    char label[64];
    std::snprintf(label, sizeof label, "A 32x32 x4 %s", names[p]);  // 128-byte rows 16 B into a line
    load(label, a, kA, 32, 32, kNone, 4, y, 64, 0, 0, 1, promos[p]);
    std::snprintf(label, sizeof label, "A 32x32 x0 %s", names[p]);  // 128-byte rows on a line
    load(label, a, kA, 32, 32, kNone, 0, y + 32, 64, 0, 0, 1, promos[p]);
    std::snprintf(label, sizeof label, "A 16x32 x0 %s", names[p]);  // 64-byte rows, the first half of a line
    load(label, a, kA, 16, 32, kNone, 0, y + 64, 64, 0, 0, 1, promos[p]);
    std::snprintf(label, sizeof label, "A 64x16 x0 %s", names[p]);  // 256-byte rows on a line
    load(label, a, kA, 64, 16, kNone, 0, y + 96, 64, 0, 0, 1, promos[p]);
    y += 128;
  }
  return 0;
}
