// tensor_map_host.cuh -- host side of the probes that use the TMA's tensor copies: the driver's cuTensorMapEncodeTiled,
// looked up through the runtime once (no -lcuda needed). Host code only: including it moves no device line.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                                 const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

inline EncodeTiled encode_tiled() {
  static EncodeTiled f = [] {
    EncodeTiled e = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&e), 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !e) {
      std::fprintf(stderr, "cuTensorMapEncodeTiled is not available\n");
      std::exit(1);
    }
    return e;
  }();
  return f;
}
