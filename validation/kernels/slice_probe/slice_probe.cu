// slice_probe: which L2 slice serves an address, read off Nsight Compute's per-slice rollups
// (validation/slice_probe.sh). Exploratory.
//
// Configuration `lines:R:OFF[+OFF...]` (one CTA per offset, so on different SMs) or
// `one:R:OFF[+OFF...]` (one CTA, thread i on offset i: every read from one SM, so from one
// partition's slices): block b's thread 0 (thread i) reads the 4 bytes at byte offset OFF_b of a
// zeroed 1 GiB buffer R times with ld.global.cg, each load's address depending on the previous
// load's value (always 0), so that no two are in flight together: none merges in the L2 request
// coalescer, every one is an L2 read of one sector. lts__t_sectors_srcunit_tex_op_read.max is then
// R x (the most offsets sharing one slice): R when every offset has its own slice, 2R when a pair
// shares one.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../probe_device.cuh"
#include "../suite/suite_common.cuh"

// reps reads of *p, each at an address that depends on the value read before (always 0).
__device__ unsigned chase_line(const unsigned* p, int reps) {
    unsigned v = 0;
    for (int r = 0; r < reps; ++r) v = ld_cg(p + v);
    return v;
}

__global__ void chase(const unsigned* base, const long long* offs, int reps, unsigned* sink) {
    if (threadIdx.x == 0) sink[blockIdx.x] = chase_line(base + offs[blockIdx.x] / 4, reps);
}

__global__ void chase_one(const unsigned* base, const long long* offs, int n, int reps, unsigned* sink) {
    if ((int)threadIdx.x < n) sink[threadIdx.x] = chase_line(base + offs[threadIdx.x] / 4, reps);
}

int main(int argc, char** argv) {
    const size_t bytes = size_t{1} << 30;
    unsigned* buf = nullptr;
    unsigned* sink = nullptr;
    long long* offs = nullptr;
    CK(cudaMalloc(&buf, bytes));
    CK(cudaMemset(buf, 0, bytes));
    CK(cudaMalloc(&sink, 4096 * sizeof(unsigned)));
    CK(cudaMalloc(&offs, 4096 * sizeof(long long)));
    std::printf("buffer %p\n", (void*)buf);
    for (int a = 1; a < argc; ++a) {
        // lines:R:OFF+OFF+... (',' accepted too)
        std::string c = argv[a];
        const bool one = c.rfind("one:", 0) == 0;
        if (one) c = "lines:" + c.substr(4);
        if (c.rfind("lines:", 0) != 0) {
            std::fprintf(stderr, "unknown configuration %s\n", argv[a]);
            return 2;
        }
        const size_t colon = c.find(':', 6);
        const int reps = std::atoi(c.substr(6, colon - 6).c_str());
        std::vector<long long> host;
        for (size_t at = colon + 1; at < c.size();) {
            size_t comma = c.find_first_of("+,", at);
            if (comma == std::string::npos) comma = c.size();
            const long long off = std::strtoll(c.substr(at, comma - at).c_str(), nullptr, 0);
            if (off < 0 || off + 4 > (long long)bytes || off % 4 != 0) {
                std::fprintf(stderr, "%s: offset %lld outside the buffer or unaligned\n", argv[a], off);
                return 2;
            }
            host.push_back(off);
            at = comma + 1;
        }
        CK(cudaMemcpy(offs, host.data(), host.size() * sizeof(long long), cudaMemcpyHostToDevice));
        if (host.empty() || host.size() > 1024) {
            std::fprintf(stderr, "%s: 1 to 1024 offsets\n", argv[a]);
            return 2;
        }
        if (one) chase_one<<<1, (unsigned)((host.size() + 31) / 32 * 32)>>>(buf, offs, (int)host.size(), reps, sink);
        else chase<<<(unsigned)host.size(), 32>>>(buf, offs, reps, sink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::printf("launch %s\n", argv[a]);
    }
    return 0;
}
