// partition_probe.cu -- which SMs share an H100 L2 partition, and how many bytes an L2 miss reads from
// DRAM for a load and for a reduction; run by validation/partition_probe.sh under Nsight Compute.
//
// The model (src/memory/promoted_sectors.hpp) fills a missing sector's aligned 64 B pair from DRAM
// and counts the partner ("promoted") sector a hit only in the L2 partition of the SM that missed;
// which SMs form a partition was assumed (even / odd SM ids). Reductions fill 32 B in the model,
// while the suite's g_red_add4_* kernels read 1.5x that. One launch per configuration; in each, one
// warp on a chosen SM (%smid) does the work and every other CTA leaves at once:
//
//   pair:A:B:N:S  the warp on SM A loads (ld.global.cg) sector 0 of N consecutive lines; when it is
//                 done, the warp on SM B loads sector S of the same lines. S = 1: a hit where B
//                 finds A's promoted sector, i.e. where A and B share the partition that filled it;
//                 S = 0: the sector A asked for itself.
//   ld:A:N:K      the warp on SM A loads sector 0 of N lines K lines apart (DRAM bytes per miss).
//   red:A:N:K     the warp on SM A adds (red.global.add.u32) to sector 0 of N lines K lines apart.
//   homes:A:B:N   as pair:A:B:N:0, but one thread on SM B loads the lines one after the other and times
//                 each load (clock64 before the load and after its value is used); prints
//                 "home LINE CYCLES" per line. Run without Nsight Compute: where A and B are in
//                 different partitions, a line homed in B's partition is a near hit (fast) and the
//                 others cross the fabric to A's (slow), which maps the address hash line by line.
//   whomes:A:B:N:W  as homes, but the warp on SM A stores W bytes (4 or 32) at the start of each line
//                 instead of loading it: with A and B in one partition, a line homed in the other is a
//                 near hit only where A's partition kept a copy of what A wrote.
//
// Each launch prints "launch CONFIG", then "result CONFIG ok" or "result CONFIG timeout" (no CTA of
// the grid landed on the SM asked for within about a second).
//
// Build: nvcc -O3 -arch=sm_90 -o partition_probe partition_probe.cu
// Usage: partition_probe CONFIG...   e.g.  partition_probe pair:0:5:4096:1 red:3:4096:1
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../suite/suite_common.cuh"
#include "../probe_device.cuh"

namespace {

constexpr int kLineWords = 32;            // 128 B lines of 4 B words
constexpr int kCtasPerSm = 8;             // enough CTAs that every SM gets some
constexpr long long kSpinCycles = 2000000000ll;

__device__ __forceinline__ void red_add(unsigned* p, unsigned v) {
    asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Claims role `role` (flags[role]) for the first CTA that finds itself on SM `sm`.
__device__ bool claim(unsigned* flags, int role, int sm) {
    __shared__ int mine;
    __syncthreads();  // a second claim must not overwrite `mine` before the first is read
    if (threadIdx.x == 0) mine = (int)smid() == sm && atomicCAS(&flags[role], 0u, 1u) == 0u;
    __syncthreads();
    return mine != 0;
}

// The A side of pair and homes: sector 0 of n lines, then flags[2] = 1 once every load has returned
// (their sum is stored first).
__device__ void read_then_signal(unsigned* data, unsigned* flags, unsigned* sink, int n) {
    unsigned sum = 0;
    for (int i = threadIdx.x; i < n; i += 32) sum += ld_cg(data + (long long)i * kLineWords);
    sink[threadIdx.x] = sum;
    __threadfence();
    __syncwarp();
    if (threadIdx.x == 0) atomicExch(&flags[2], 1u);
}

// flags: [0] A claimed, [1] B claimed, [2] A done; status[0] = 1 when every role ran.
__global__ void pair(unsigned* data, unsigned* flags, unsigned* status, unsigned* sink, int a, int b, int n, int s) {
    if (claim(flags, 0, a)) {
        read_then_signal(data, flags, sink, n);
        return;
    }
    if (!claim(flags, 1, b)) return;
    __shared__ int ok;
    if (threadIdx.x == 0) {
        const long long t0 = clock64();
        while (atomicAdd(&flags[2], 0u) == 0u && clock64() - t0 < kSpinCycles) {}
        ok = atomicAdd(&flags[2], 0u) != 0u;
    }
    __syncwarp();
    if (!ok) return;
    __threadfence();
    unsigned sum = 0;
    for (int i = threadIdx.x; i < n; i += 32) sum += ld_cg(data + (long long)i * kLineWords + s * 8);
    sink[32 + threadIdx.x] = sum;
    if (threadIdx.x == 0) status[0] = 1;
}

// The B side of homes and whomes: once A is done, one thread times a load of every line in order.
__device__ void time_after_signal(unsigned* data, unsigned* flags, unsigned* status, unsigned* sink, long long* cycles,
                                  int n) {
    if (threadIdx.x != 0) return;
    const long long t0 = clock64();
    while (atomicAdd(&flags[2], 0u) == 0u && clock64() - t0 < kSpinCycles) {}
    if (atomicAdd(&flags[2], 0u) == 0u) return;
    __threadfence();
    // The shared store waits for the loaded value, and the clock read after it may not move above it
    // (volatile, memory clobber): the difference is the load's latency (the usual p-chase method).
    __shared__ volatile unsigned seen;
    unsigned sum = 0;
    for (int i = 0; i < n; ++i) {
        unsigned v;
        cycles[i] = timed_ld_cg(data + (long long)i * kLineWords, seen, v);
        sum += v;
    }
    sink[64] = sum;
    status[0] = 1;
}

__global__ void homes(unsigned* data, unsigned* flags, unsigned* status, unsigned* sink, long long* cycles, int a,
                      int b, int n) {
    if (claim(flags, 0, a)) {
        read_then_signal(data, flags, sink, n);
        return;
    }
    if (!claim(flags, 1, b)) return;
    time_after_signal(data, flags, status, sink, cycles, n);
}

// whomes: the warp on SM A stores w bytes (4: a partial sector, 32: the whole sector) at the start of
// each of n lines, then SM B times its loads: which partitions keep a copy of written lines.
__global__ void write_homes(unsigned* data, unsigned* flags, unsigned* status, unsigned* sink, long long* cycles,
                            int a, int b, int n, int w) {
    if (claim(flags, 0, a)) {
        for (int i = threadIdx.x; i < n; i += 32) {
            unsigned* p = data + (long long)i * kLineWords;
            if (w == 4) {
                p[0] = (unsigned)i + 1;
            } else {
                reinterpret_cast<uint4*>(p)[0] = make_uint4((unsigned)i, 1, 2, 3);
                reinterpret_cast<uint4*>(p)[1] = make_uint4(4, 5, 6, 7);
            }
        }
        __threadfence();
        __syncwarp();
        if (threadIdx.x == 0) atomicExch(&flags[2], 1u);
        return;
    }
    if (!claim(flags, 1, b)) return;
    time_after_signal(data, flags, status, sink, cycles, n);
}

__global__ void one_sm(unsigned* data, unsigned* flags, unsigned* status, unsigned* sink, int a, int n, long long k,
                       int reduce) {
    if (!claim(flags, 0, a)) return;
    unsigned sum = 0;
    for (int i = threadIdx.x; i < n; i += 32) {
        unsigned* p = data + (long long)i * k * kLineWords;
        if (reduce) red_add(p, 1u);
        else sum += ld_cg(p);
    }
    sink[threadIdx.x] = sum;
    if (threadIdx.x == 0) status[0] = 1;
}

int number(const char* s, const char* what, int lo, int hi) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) {
        std::fprintf(stderr, "partition_probe: %s '%s' is not in %d..%d\n", what, s, lo, hi);
        std::exit(2);
    }
    return (int)v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: partition_probe pair:A:B:N:S | ld:A:N:K | red:A:N:K | homes:A:B:N | whomes:A:B:N:W ...\n");
        return 2;
    }
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    constexpr long long kBytes = 64ll << 20;  // N * K lines of 128 B must fit
    unsigned *data, *flags, *status, *sink;
    CK(cudaMalloc(&data, kBytes));
    CK(cudaMemset(data, 0, kBytes));
    CK(cudaMalloc(&flags, 64));
    CK(cudaMalloc(&status, 64));
    CK(cudaMalloc(&sink, 1024));
    const dim3 grid(sms * kCtasPerSm), block(32);
    for (int i = 1; i < argc; ++i) {
        char spec[128];
        std::snprintf(spec, sizeof spec, "%s", argv[i]);
        char* f[6] = {};
        int nf = 0;
        for (char* p = std::strtok(spec, ":"); p != nullptr && nf < 6; p = std::strtok(nullptr, ":")) f[nf++] = p;
        CK(cudaMemset(flags, 0, 64));
        CK(cudaMemset(status, 0, 64));
        CK(cudaDeviceSynchronize());
        std::printf("launch %s\n", argv[i]);
        std::fflush(stdout);
        if (nf == 5 && std::strcmp(f[0], "pair") == 0) {
            const int a = number(f[1], "SM A", 0, 1023), b = number(f[2], "SM B", 0, 1023);
            const int n = number(f[3], "N", 32, 1 << 19), s = number(f[4], "S", 0, 3);
            run("pair", pair, grid, block, data, flags, status, sink, a, b, n, s);
        } else if ((nf == 4 && std::strcmp(f[0], "homes") == 0) || (nf == 5 && std::strcmp(f[0], "whomes") == 0)) {
            const int a = number(f[1], "SM A", 0, 1023), b = number(f[2], "SM B", 0, 1023);
            const int n = number(f[3], "N", 32, 1 << 19);
            const int w = nf == 5 ? number(f[4], "W", 4, 32) : 0;
            if (nf == 5 && w != 4 && w != 32) {
                std::fprintf(stderr, "partition_probe: W in %s is 4 or 32\n", argv[i]);
                return 2;
            }
            long long* cycles;
            CK(cudaMalloc(&cycles, sizeof(long long) * n));
            // Not under Nsight Compute: evict the lines from L2 by writing 256 MB elsewhere first.
            void* scratch;
            CK(cudaMalloc(&scratch, 256ll << 20));
            CK(cudaMemset(scratch, 1, 256ll << 20));
            CK(cudaDeviceSynchronize());
            CK(cudaFree(scratch));
            if (nf == 4) run("homes", homes, grid, block, data, flags, status, sink, cycles, a, b, n);
            else run("whomes", write_homes, grid, block, data, flags, status, sink, cycles, a, b, n, w);
            long long* host = (long long*)std::malloc(sizeof(long long) * n);
            CK(cudaMemcpy(host, cycles, sizeof(long long) * n, cudaMemcpyDeviceToHost));
            for (int l = 0; l < n; ++l) std::printf("home %d %lld\n", l, host[l]);
            std::free(host);
            CK(cudaFree(cycles));
        } else if (nf == 4 && (std::strcmp(f[0], "ld") == 0 || std::strcmp(f[0], "red") == 0)) {
            const int a = number(f[1], "SM A", 0, 1023), n = number(f[2], "N", 32, 1 << 19);
            const int k = number(f[3], "K", 1, 1 << 16);
            if ((long long)n * k * 128 > kBytes) {
                std::fprintf(stderr, "partition_probe: %s spans more than 64 MB\n", argv[i]);
                return 2;
            }
            run(f[0], one_sm, grid, block, data, flags, status, sink, a, n, (long long)k, f[0][0] == 'r' ? 1 : 0);
        } else {
            std::fprintf(stderr, "partition_probe: unknown configuration %s\n", argv[i]);
            return 2;
        }
        unsigned st = 0;
        CK(cudaMemcpy(&st, status, sizeof st, cudaMemcpyDeviceToHost));
        std::printf("result %s %s\n", argv[i], st != 0 ? "ok" : "timeout");
    }
    return 0;
}
