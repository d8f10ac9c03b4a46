// constant_probe.cu -- how the H100 reads __constant__ data from DRAM (docs/VALIDATION.md "Constant
// data": the suite's k_const_* kernels read 256 B per aligned 256 B block of their table, inferred
// from seven kernels). Run by validation/constant_probe.sh under Nsight Compute.
//
// c_data is the module's only __constant__ variable: offset 0 of constant bank 3 (`LDC R, c[0x3][R]`
// with no immediate offset in the listing). The kernels touch no global memory, so a launch's DRAM
// reads are its own (parameters, code) plus the constant data; the empty configuration measures the
// former.
//
//   cread:C:B0,B1,...   C CTAs of one warp; every warp reads c_data at byte offsets B0, B1, ...
//                       in turn, one warp-uniform LDC each ("-": none)
//   cdiv:C:B0,B1,...    the same offsets in one LDC per warp, lane l at B[l mod n] (divergent)
//
// Every launch prints "launch CONFIG" (probe_summary.py joins it with ncu's rows).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

constexpr int kFloats = 8192;  // 32 KB
constexpr int kMaxOffsets = 32;

__constant__ float c_data[kFloats];

struct Offsets {
    int n;
    int index[kMaxOffsets];  // float indices into c_data
};

// `sentinel` is never met at run time: the sum stays live, and nothing is written.
__global__ void cread(Offsets o, float sentinel, float* out) {
    float s = 0.f;
#pragma unroll 1
    for (int i = 0; i < o.n; ++i) s += c_data[o.index[i]];
    if (s == sentinel) out[threadIdx.x] = s;
}

__global__ void cdiv(Offsets o, float sentinel, float* out) {
    const float s = o.n > 0 ? c_data[o.index[threadIdx.x % o.n]] : 0.f;
    if (s == sentinel) out[threadIdx.x] = s;
}

#define CK(x)                                                                                        \
    do {                                                                                             \
        cudaError_t e_ = (x);                                                                        \
        if (e_ != cudaSuccess) {                                                                     \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            std::exit(1);                                                                            \
        }                                                                                            \
    } while (0)

// "cread:C:B0,B1,..." -> kernel, CTAs, offsets; exits on a malformed configuration.
static void run(const std::string& config, float* out) {
    const size_t a = config.find(':'), b = config.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) {
        std::fprintf(stderr, "bad configuration %s (KERNEL:CTAS:OFFSETS)\n", config.c_str());
        std::exit(2);
    }
    const std::string kernel = config.substr(0, a), list = config.substr(b + 1);
    const int ctas = std::atoi(config.substr(a + 1, b - a - 1).c_str());
    Offsets o{};
    for (size_t at = 0; list != "-" && at <= list.size();) {
        size_t next = list.find(',', at);
        if (next == std::string::npos) next = list.size();
        const int byte = std::atoi(list.substr(at, next - at).c_str());
        if (o.n == kMaxOffsets || byte < 0 || byte % 4 != 0 || byte / 4 >= kFloats) {
            std::fprintf(stderr, "bad offset in %s (at most %d multiples of 4 below %d)\n", config.c_str(),
                         kMaxOffsets, kFloats * 4);
            std::exit(2);
        }
        o.index[o.n++] = byte / 4;
        at = next + 1;
    }
    if (ctas < 1 || (kernel != "cread" && kernel != "cdiv")) {
        std::fprintf(stderr, "bad configuration %s\n", config.c_str());
        std::exit(2);
    }
    if (kernel == "cread")
        cread<<<ctas, 32>>>(o, -1.f, out);
    else
        cdiv<<<ctas, 32>>>(o, -1.f, out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::printf("launch %s\n", config.c_str());
}

int main(int argc, char** argv) {
    CK(cudaSetDevice(0));
    std::vector<float> h(kFloats);
    for (int i = 0; i < kFloats; ++i) h[i] = 0.25f * (float)i;  // never -1
    CK(cudaMemcpyToSymbol(c_data, h.data(), h.size() * sizeof(float)));
    float* out = nullptr;
    CK(cudaMalloc(&out, 32 * sizeof(float)));
    for (int i = 1; i < argc; ++i) run(argv[i], out);
    CK(cudaFree(out));
    return 0;
}
