// l1_geometry.cu -- how many sets and ways has the L1 data cache, and how does it replace lines?
//
// One thread chases a pointer chain of k lines spaced `stride` bytes apart, twice. The first pass
// misses everywhere (Nsight Compute flushes the caches before each profiled launch); the second
// pass hits in L1 exactly on the lines the first pass left there. Run under ncu with
// l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum: each load is one 4-byte sector, so the
// hit count is the number of lines of the second pass found in L1.
//
//   - stride 128 B spreads the lines over every set: hits drop at the capacity (in lines);
//   - a stride that is a multiple of (sets x 128 B) puts every line into one set (modulo
//     indexing): hits drop at the associativity. The smallest such stride gives the set count;
//   - how the hits fall past the drop tells the replacement policy (LRU: all at once, to 0).
//   (On the H100 the set index is an XOR hash, not modulo: validation/h100/l1_geometry/README.md.)
//
// Sequence mode (kernel chase_seq) replays an arbitrary order of lines, so that lines can be
// re-touched and the order of the second visit can differ from the first (replacement-order and
// capacity tests). The line numbers come from __constant__ memory (LDC: the constant caches, not
// L1TEX, so they neither occupy L1 nor appear in its counters; at most kMaxSeq accesses), the data
// loads are plain loads of a zeroed buffer whose value is added to the next address
// (j = buf[line * stride + j], j stays 0), so every data load depends on the last.
// ncu then counts the L1 hits of the whole sequence (setup phases included); a simulator replays
// the same sequence (validation/tools/l1_geometry_fit.py).
//
// usage: l1_geometry CARVEOUT CONFIG [CONFIG...]
//   CARVEOUT: cudaFuncAttributePreferredSharedMemoryCarveout in percent (0: largest L1).
//   CONFIG:   STRIDE:K[,K...]      chain mode (above), one launch per K
//             seq:STRIDE:SEG[+SEG...]   sequence mode, one launch; line i lies at i * STRIDE bytes.
//               SEG: A..B      lines A, A+1, ..., B (descending when A > B), both ends included
//                    A..B/S    every S-th line from A towards B
//                    pA..B@R   the lines A..B in a random order (seed R: equal seeds, equal orders)
// Prints one line per launch: "launch carveout=C stride=S k=K cycles_per_load=X mode=M spec=..."
// (chain: X is the second pass's mean latency, a cross-check of the ncu counts; seq: k is the
// sequence length and X the mean latency over the whole sequence).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../suite/suite_common.cuh"  // CK: the suite's error check

__global__ void make_chain(unsigned* buf, unsigned k, unsigned stride_words)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < k) buf[(size_t)i * stride_words] = ((i + 1) % k) * stride_words;
}

// Plain loads (LDG.E: cached in L1 on 7.0+). The chain makes every load depend on the last.
__global__ void chase(const unsigned* buf, unsigned k, unsigned* out, long long* cycles)
{
    unsigned j = 0;
    for (unsigned i = 0; i < k; ++i) j = buf[j];
    const long long t0 = clock64();
    for (unsigned i = 0; i < k; ++i) j = buf[j];
    const long long t1 = clock64();
    out[0] = j;
    cycles[0] = t1 - t0;
}

// Sequence mode: the data buffer holds zeros, so j stays 0 but each address depends on the last load.
constexpr unsigned kMaxSeq = 15 * 1024;  // 60 KB of the 64 KB __constant__ space
__constant__ unsigned c_seq[kMaxSeq];

__global__ void chase_seq(const unsigned* buf, unsigned n, unsigned stride_words, unsigned* out,
                          long long* cycles)
{
    unsigned j = 0;
    const long long t0 = clock64();
    for (unsigned i = 0; i < n; ++i) j = buf[(size_t)c_seq[i] * stride_words + j];
    const long long t1 = clock64();
    out[0] = j;
    cycles[0] = t1 - t0;
}

// Parses "SEG+SEG..." (see the header) into line numbers; false on a syntax error.
static bool parse_seq(const std::string& spec, std::vector<unsigned>& lines)
{
    size_t pos = 0;
    while (pos <= spec.size()) {
        size_t plus = spec.find('+', pos);
        if (plus == std::string::npos) plus = spec.size();
        std::string seg = spec.substr(pos, plus - pos);
        pos = plus + 1;
        if (seg.empty()) return false;
        bool perm = false;
        unsigned seed = 1, step = 1;
        if (seg[0] == 'p') { perm = true; seg = seg.substr(1); }
        const size_t at = seg.find('@');
        if (at != std::string::npos) { seed = (unsigned)std::strtoul(seg.c_str() + at + 1, nullptr, 10); seg = seg.substr(0, at); }
        const size_t slash = seg.find('/');
        if (slash != std::string::npos) { step = (unsigned)std::strtoul(seg.c_str() + slash + 1, nullptr, 10); seg = seg.substr(0, slash); }
        const size_t dots = seg.find("..");
        if (dots == std::string::npos || step == 0) return false;
        const long a = std::strtol(seg.substr(0, dots).c_str(), nullptr, 10);
        const long b = std::strtol(seg.substr(dots + 2).c_str(), nullptr, 10);
        if (a < 0 || b < 0) return false;
        std::vector<unsigned> part;
        if (a <= b) for (long x = a; x <= b; x += step) part.push_back((unsigned)x);
        else for (long x = a; x >= b; x -= step) part.push_back((unsigned)x);
        if (perm) {  // Fisher-Yates with xorshift64* (l1_geometry_fit.py replays it bit for bit)
            unsigned long long x = 0x9e3779b97f4a7c15ull ^ seed;
            for (size_t i = part.size(); i > 1; --i) {
                x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
                const size_t r = (size_t)((x * 0x2545f4914f6cdd1dull) >> 33) % i;
                std::swap(part[i - 1], part[r]);
            }
        }
        lines.insert(lines.end(), part.begin(), part.end());
    }
    return !lines.empty();
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s CARVEOUT STRIDE:K[,K...]|seq:STRIDE:SEG[+SEG...] ...\n", argv[0]);
        return 2;
    }
    const int carveout = std::atoi(argv[1]);
    struct Config { unsigned stride, k; std::string spec; std::vector<unsigned> seq; };
    std::vector<Config> configs;
    size_t max_bytes = 0;
    for (int a = 2; a < argc; ++a) {
        const std::string s = argv[a];
        if (s.rfind("seq:", 0) == 0) {
            const size_t colon = s.find(':', 4);
            if (colon == std::string::npos) { std::fprintf(stderr, "bad config %s\n", argv[a]); return 2; }
            Config c;
            c.stride = (unsigned)std::strtoul(s.substr(4, colon - 4).c_str(), nullptr, 10);
            if (c.stride < 4 || c.stride % 4) { std::fprintf(stderr, "bad stride in %s\n", argv[a]); return 2; }
            c.spec = s.substr(colon + 1);
            if (!parse_seq(c.spec, c.seq)) { std::fprintf(stderr, "bad sequence in %s\n", argv[a]); return 2; }
            if (c.seq.size() > kMaxSeq) { std::fprintf(stderr, "sequence longer than %u in %s\n", kMaxSeq, argv[a]); return 2; }
            c.k = (unsigned)c.seq.size();
            const unsigned top = *std::max_element(c.seq.begin(), c.seq.end());
            max_bytes = std::max(max_bytes, ((size_t)top + 1) * c.stride);
            configs.push_back(c);
            continue;
        }
        const size_t colon = s.find(':');
        if (colon == std::string::npos) { std::fprintf(stderr, "bad config %s\n", argv[a]); return 2; }
        const unsigned stride = (unsigned)std::strtoul(s.substr(0, colon).c_str(), nullptr, 10);
        if (stride < 4 || stride % 4) { std::fprintf(stderr, "bad stride %u\n", stride); return 2; }
        size_t pos = colon + 1;
        while (pos < s.size()) {
            size_t comma = s.find(',', pos);
            if (comma == std::string::npos) comma = s.size();
            const unsigned k = (unsigned)std::strtoul(s.substr(pos, comma - pos).c_str(), nullptr, 10);
            if (k == 0) { std::fprintf(stderr, "bad k in %s\n", argv[a]); return 2; }
            configs.push_back({stride, k, "", {}});
            max_bytes = std::max(max_bytes, (size_t)stride * k);
            pos = comma + 1;
        }
    }
    unsigned* buf = nullptr;
    unsigned* out = nullptr;
    long long* cycles = nullptr;
    CK(cudaMalloc(&buf, max_bytes));
    CK(cudaMalloc(&out, 128));
    CK(cudaMalloc(&cycles, sizeof(long long)));
    CK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
    CK(cudaFuncSetAttribute(chase_seq, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
    for (const Config& c : configs) {
        if (!c.seq.empty()) {
            CK(cudaMemset(buf, 0, max_bytes));
            CK(cudaMemcpyToSymbol(c_seq, c.seq.data(), c.seq.size() * sizeof(unsigned)));
            chase_seq<<<1, 1>>>(buf, c.k, c.stride / 4, out, cycles);
            CK(cudaGetLastError());
            long long cy = 0;
            CK(cudaMemcpy(&cy, cycles, sizeof cy, cudaMemcpyDeviceToHost));
            std::printf("launch carveout=%d stride=%u k=%u cycles_per_load=%.1f mode=seq spec=%s\n", carveout,
                        c.stride, c.k, (double)cy / c.k, c.spec.c_str());
            continue;
        }
        make_chain<<<(c.k + 255) / 256, 256>>>(buf, c.k, c.stride / 4);
        CK(cudaGetLastError());
        chase<<<1, 1>>>(buf, c.k, out, cycles);
        CK(cudaGetLastError());
        long long cy = 0;
        CK(cudaMemcpy(&cy, cycles, sizeof cy, cudaMemcpyDeviceToHost));
        std::printf("launch carveout=%d stride=%u k=%u cycles_per_load=%.1f mode=chain spec=-\n", carveout,
                    c.stride, c.k, (double)cy / c.k);
    }
    CK(cudaFree(buf));
    CK(cudaFree(out));
    CK(cudaFree(cycles));
    return 0;
}
