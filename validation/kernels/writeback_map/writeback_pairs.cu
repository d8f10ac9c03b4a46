// writeback_pairs.cu -- which partially written lines share the H100 L2's limit on partial lines:
// set A, 32,768 lines at line stride 2 (address bit 7 always 0; 8 MB), is about at the limit (0-16
// sectors written back, validation/h100/write_probe d); one more partial line B then pushes a line of
// A out, and the line it pushes out shares B's group. Run without Nsight Compute.
//
// Per B (a byte offset into the 64 MB target buffer): read a 256 MB buffer (the L2 then holds only
// clean lines), store 4 B into every line of A (one thread per line), store 4 B into B (one thread),
// then one thread reads word 0 of every line of A whose home is the reading SM's L2 partition (the
// XOR of address bits 12, 13, 16, 17, 19 is 0, validation/h100/partition_probe) with ld.global.cg,
// timing each load. A partial sector there must be fetched from DRAM (~600 cycles); one written back
// early and still resident is a hit (~300): "fast". Writes one row per B: the B offset and the A
// offsets that were fast. B = -1 runs A alone (the baseline).
//
// Build: nvcc -O3 -arch=sm_90 -o writeback_pairs writeback_pairs.cu
// Usage: writeback_pairs OUT.txt B_OFFSET...
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../probe_device.cuh"
#include "../suite/suite_common.cuh"
#include "writeback_common.cuh"

namespace {

constexpr long long kLinesA = 32768;
constexpr long long kThresholdCycles = 450;

__host__ __device__ long long offset_a(long long i) { return i << 8; }  // line stride 2

__host__ __device__ bool near_home(long long offset) {
    const long long x = (offset >> 12) ^ (offset >> 13) ^ (offset >> 16) ^ (offset >> 17) ^ (offset >> 19);
    return (x & 1) == 0;
}

__global__ void store_a(char* out) {
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (t < kLinesA) *reinterpret_cast<int*>(out + offset_a(t)) = (int)t + 1;
}

__global__ void store_b(char* out, long long b) {
    if (b >= 0) *reinterpret_cast<int*>(out + b) = 7;
}

__global__ void time_a(const char* out, long long* cycles, unsigned* sink) {
    __shared__ volatile unsigned seen;
    unsigned sum = 0;
    for (long long i = 0; i < kLinesA; ++i) {
        if (!near_home(offset_a(i))) {
            cycles[i] = -1;
            continue;
        }
        unsigned v;
        cycles[i] = timed_ld_cg(reinterpret_cast<const unsigned*>(out + offset_a(i)), seen, v);
        sum += v;
    }
    sink[1] = sum;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: writeback_pairs OUT.txt B_OFFSET...  (-1: A alone)\n");
        return 2;
    }
    char *flush = nullptr, *out = nullptr;
    unsigned* sink = nullptr;
    long long* cycles = nullptr;
    const size_t target = size_t{64} << 20;
    CK(cudaMalloc(&flush, kFlushBytes));
    CK(cudaMalloc(&out, target));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&cycles, sizeof(long long) * kLinesA));
    CK(cudaMemset(flush, 1, kFlushBytes));
    FILE* f = std::fopen(argv[1], "w");
    if (!f) {
        std::fprintf(stderr, "writeback_pairs: cannot write %s\n", argv[1]);
        return 1;
    }
    std::fprintf(f, "# b_offset: a_offsets read fast (written back early), then the near A lines read and the median cycles\n");
    std::vector<long long> host(kLinesA);
    for (int a = 2; a < argc; ++a) {
        const long long b = std::strtoll(argv[a], nullptr, 0);
        if (b >= (long long)target || (b >= 0 && b % 4 != 0)) {
            std::fprintf(stderr, "writeback_pairs: bad offset %s\n", argv[a]);
            return 2;
        }
        CK(cudaMemset(out, 0, target));
        read_all<<<1056, 256>>>(reinterpret_cast<const uint4*>(flush), kFlushBytes / 16, sink);
        store_a<<<kLinesA / 256, 256>>>(out);
        store_b<<<1, 1>>>(out, b);
        time_a<<<1, 1>>>(out, cycles, sink);
        CK(cudaGetLastError());
        CK(cudaMemcpy(host.data(), cycles, sizeof(long long) * kLinesA, cudaMemcpyDeviceToHost));
        std::fprintf(f, "%lld:", b);
        long long near = 0;
        std::vector<long long> all;
        for (long long i = 0; i < kLinesA; ++i) {
            if (host[i] < 0) continue;
            ++near;
            all.push_back(host[i]);
            if (host[i] < kThresholdCycles) std::fprintf(f, " %lld", offset_a(i));
        }
        std::nth_element(all.begin(), all.begin() + all.size() / 2, all.end());
        std::fprintf(f, " | %lld %lld\n", near, all[all.size() / 2]);
    }
    std::fclose(f);
    return 0;
}
