// atomics_probe.cu -- how the H100's L1TEX and L2 count one warp's atomic or reduction whose lanes
// share addresses, words, sectors or lines (validation/atomics_probe.sh runs it under Nsight
// Compute). Every launch is one CTA of one warp executing one atomic instruction; lane l's address
// is `buf + offset(pattern, l)`, where buf is 4 KB aligned (global) or the start of a shared array.
//
// Arguments: CONFIG... with CONFIG = OP:PATTERN, OP one of
//   atom4   atomicAdd(int*) whose result is used       (ATOMG.E.ADD)
//   red4    atomicAdd(int*) whose result is unused     (REDG.E.ADD)
//   cas4    atomicCAS(int*)                            (ATOMG.E.CAS)
//   max4    atomicMax(int*) whose result is used       (ATOMG.E.MAX)
//   atom8   atomicAdd(unsigned long long*), result used
//   red8    atomicAdd(unsigned long long*), unused
//   satom4  atomicAdd on shared int, result used       (ATOMS.ADD)
// and PATTERN one of (byte offsets; 8-byte ops use the same slots at twice the spacing where said):
//   lines      lane l -> l * 128                 every lane its own line
//   dup01      lines, but lane 1 -> lane 0's address
//   word01     lines, but lane 1 -> lane 0's address + size (same 8 B word for size 4)
//   sector01   lines, but lane 1 -> lane 0's address + 16
//   line01     lines, but lane 1 -> lane 0's address + 64 (same line, other sector)
//   same       every lane the same address
//   mod4       lane l -> (l % 4) * size          4 addresses in one sector, 8 lanes each
//   coalesced  lane l -> l * size
//   pairs      lane l -> (l / 2) * 128            16 lines, two lanes on one address each
//   pairs16    lane l -> (l % 16) * 128           16 lines, two lanes 16 apart on one address each
//   words2     lane l -> (l / 2) * 128 + (l % 2) * size   16 lines, two lanes on neighbouring words
//   dup_far    lines, but lane 31 -> lane 0's address
// Prints "launch CONFIG" per launch (probe_summary.py joins them with ncu's rows).
//
// Build: nvcc -O3 -arch=sm_90 -o atomics_probe atomics_probe.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../suite/suite_common.cuh"

namespace {

// Byte offset of lane l for a pattern; size is the access size (4 or 8).
__host__ __device__ int offset(int pattern, int l, int size) {
    switch (pattern) {
        case 0: return l * 128;
        case 1: return (l == 1 ? 0 : l) * 128;
        case 2: return l == 1 ? size : l * 128;
        case 3: return l == 1 ? 16 : l * 128;
        case 4: return l == 1 ? 64 : l * 128;
        case 5: return 0;
        case 6: return (l % 4) * size;
        case 7: return l * size;
        case 8: return (l / 2) * 128;
        case 9: return (l % 16) * 128;
        case 10: return (l / 2) * 128 + (l % 2) * size;
        case 11: return (l == 31 ? 0 : l) * 128;
    }
    return 0;
}

const char* kPatterns[] = {"lines", "dup01", "word01", "sector01", "line01", "same",
                           "mod4",  "coalesced", "pairs", "pairs16", "words2", "dup_far"};
constexpr int kNumPatterns = sizeof(kPatterns) / sizeof(kPatterns[0]);

__global__ void atom4(int* buf, int* out, int p) {
    const int l = threadIdx.x;
    out[l] = atomicAdd(reinterpret_cast<int*>(reinterpret_cast<char*>(buf) + offset(p, l, 4)), 1);
}
__global__ void red4(int* buf, int p) {
    const int l = threadIdx.x;
    atomicAdd(reinterpret_cast<int*>(reinterpret_cast<char*>(buf) + offset(p, l, 4)), 1);
}
__global__ void cas4(int* buf, int* out, int p) {
    const int l = threadIdx.x;
    out[l] = atomicCAS(reinterpret_cast<int*>(reinterpret_cast<char*>(buf) + offset(p, l, 4)), 0, l);
}
__global__ void max4(int* buf, int* out, int p) {
    const int l = threadIdx.x;
    out[l] = atomicMax(reinterpret_cast<int*>(reinterpret_cast<char*>(buf) + offset(p, l, 4)), l);
}
__global__ void atom8(unsigned long long* buf, unsigned long long* out, int p) {
    const int l = threadIdx.x;
    out[l] = atomicAdd(reinterpret_cast<unsigned long long*>(reinterpret_cast<char*>(buf) + offset(p, l, 8)), 1ull);
}
__global__ void red8(unsigned long long* buf, int p) {
    const int l = threadIdx.x;
    atomicAdd(reinterpret_cast<unsigned long long*>(reinterpret_cast<char*>(buf) + offset(p, l, 8)), 1ull);
}
__global__ void satom4(int* out, int p) {
    __shared__ int sh[32 * 32 + 64];  // 4,352 B: every pattern's offsets
    const int l = threadIdx.x;
    for (int i = l; i < 32 * 32 + 64; i += 32) sh[i] = 0;
    __syncwarp();
    out[l] = atomicAdd(reinterpret_cast<int*>(reinterpret_cast<char*>(sh) + offset(p, l, 4)), 1);
}

}  // namespace

int main(int argc, char** argv) {
    char* buf = nullptr;
    CK(cudaMalloc(&buf, 1 << 16));  // 64 KB: 32 lines x 128 B for 8-byte ops as well
    CK(cudaMemset(buf, 0, 1 << 16));
    unsigned long long* out = nullptr;
    CK(cudaMalloc(&out, 32 * sizeof(unsigned long long)));
    for (int a = 1; a < argc; ++a) {
        const std::string cfg = argv[a];
        const auto colon = cfg.find(':');
        if (colon == std::string::npos) { std::fprintf(stderr, "bad config %s\n", argv[a]); return 2; }
        const std::string op = cfg.substr(0, colon), pat = cfg.substr(colon + 1);
        int p = -1;
        for (int i = 0; i < kNumPatterns; ++i)
            if (pat == kPatterns[i]) p = i;
        if (p < 0) { std::fprintf(stderr, "unknown pattern %s\n", pat.c_str()); return 2; }
        int* b4 = reinterpret_cast<int*>(buf);
        int* o4 = reinterpret_cast<int*>(out);
        auto* b8 = reinterpret_cast<unsigned long long*>(buf);
        if (op == "atom4") atom4<<<1, 32>>>(b4, o4, p);
        else if (op == "red4") red4<<<1, 32>>>(b4, p);
        else if (op == "cas4") cas4<<<1, 32>>>(b4, o4, p);
        else if (op == "max4") max4<<<1, 32>>>(b4, o4, p);
        else if (op == "atom8") atom8<<<1, 32>>>(b8, out, p);
        else if (op == "red8") red8<<<1, 32>>>(b8, p);
        else if (op == "satom4") satom4<<<1, 32>>>(o4, p);
        else { std::fprintf(stderr, "unknown op %s\n", op.c_str()); return 2; }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::printf("launch %s\n", cfg.c_str());
    }
    return 0;
}
