// writeback_map.cu -- which partially written lines the H100's L2 writes back during a kernel, line
// by line (validation/h100/write_probe: from about 25-32K partial lines on, some are written back
// early; which ones says which lines share the limited resource). Run without Nsight Compute.
//
// Per configuration `B:SKIP:N`: (1) read a 256 MB buffer (the L2 then holds only clean lines of it);
// (2) N threads each store B bytes (4: a partial sector; 32: a whole one) at the start of line i of
// the target buffer, line i at byte offset i * 128, or with address bit SKIP (>= 7) always 0 when
// SKIP > 0 (write_probe's `skip`); (3) one thread reads word 0 of every stored line with ld.global.cg,
// in line order, timing each load (clock64 before the load and after its value is used). A sector
// still partial in L2 must be read from DRAM and merged (slow); one written back early and still
// resident is a hit (fast). Writes OUTDIR/map_B_SKIP_N.csv: line,offset,cycles.
//
// Build: nvcc -O3 -arch=sm_90 -o writeback_map writeback_map.cu
// Usage: writeback_map OUTDIR B:SKIP:N ...
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../probe_device.cuh"
#include "../suite/suite_common.cuh"
#include "writeback_common.cuh"

namespace {


__host__ __device__ long long offset_of(long long i, int skip) {
    if (skip <= 0) return i << 7;
    const long long low = i & ((1ll << (skip - 7)) - 1), high = i >> (skip - 7);
    return (high << (skip + 1)) | (low << 7);
}

template <int B>
__global__ void store_lines(char* out, int skip, long long n) {
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t >= n) return;
    char* p = out + offset_of(t, skip);
    if constexpr (B == 4) {
        *reinterpret_cast<int*>(p) = (int)t + 1;
    } else {
        reinterpret_cast<int4*>(p)[0] = make_int4((int)t, 1, 2, 3);
        reinterpret_cast<int4*>(p)[1] = make_int4(4, 5, 6, 7);
    }
}

__global__ void time_lines(const char* out, int skip, long long n, long long* cycles, unsigned* sink) {
    __shared__ volatile unsigned seen;
    unsigned sum = 0;
    for (long long i = 0; i < n; ++i) {
        unsigned v;
        cycles[i] = timed_ld_cg(reinterpret_cast<const unsigned*>(out + offset_of(i, skip)), seen, v);
        sum += v;
    }
    sink[1] = sum;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: writeback_map OUTDIR B:SKIP:N ...\n");
        return 2;
    }
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    char *flush = nullptr, *out = nullptr;
    unsigned* sink = nullptr;
    long long* cycles = nullptr;
    const size_t target = size_t{64} << 20;  // 2 x 256K lines at most
    CK(cudaMalloc(&flush, kFlushBytes));
    CK(cudaMalloc(&out, target));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&cycles, sizeof(long long) << 18));
    CK(cudaMemset(flush, 1, kFlushBytes));
    for (int a = 2; a < argc; ++a) {
        int b = 0, skip = 0;
        long long n = 0;
        if (std::sscanf(argv[a], "%d:%d:%lld", &b, &skip, &n) != 3 || (b != 4 && b != 32) || (skip != 0 && (skip < 7 || skip > 24)) ||
            n <= 0 || n > (1 << 18) || n % 256 != 0 || (size_t)offset_of(n - 1, skip) + 128 > target) {
            std::fprintf(stderr, "writeback_map: bad %s (B 4 or 32, SKIP 0 or 7..24, N a multiple of 256 up to 262144)\n", argv[a]);
            return 2;
        }
        CK(cudaMemset(out, 0, target));
        CK(cudaDeviceSynchronize());
        std::printf("launch %s\n", argv[a]);
        run("read_all", read_all, dim3(1056), dim3(256), reinterpret_cast<const uint4*>(flush), kFlushBytes / 16, sink);
        if (b == 4) run("store_lines4", store_lines<4>, dim3((unsigned)(n / 256)), dim3(256), out, skip, n);
        else run("store_lines32", store_lines<32>, dim3((unsigned)(n / 256)), dim3(256), out, skip, n);
        run("time_lines", time_lines, dim3(1), dim3(1), (const char*)out, skip, n, cycles, sink);
        std::vector<long long> host((size_t)n);
        CK(cudaMemcpy(host.data(), cycles, sizeof(long long) * (size_t)n, cudaMemcpyDeviceToHost));
        const std::string path = std::string(argv[1]) + "/map_" + std::to_string(b) + "_" + std::to_string(skip) + "_" +
                                 std::to_string(n) + ".csv";
        FILE* f = std::fopen(path.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "writeback_map: cannot write %s\n", path.c_str());
            return 1;
        }
        std::fprintf(f, "line,offset,cycles\n");
        for (long long i = 0; i < n; ++i) std::fprintf(f, "%lld,%lld,%lld\n", i, offset_of(i, skip), host[(size_t)i]);
        std::fclose(f);
    }
    return 0;
}
