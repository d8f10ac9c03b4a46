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
//   exch4   atomicExch(int*)                           (ATOMG.E.EXCH)
//   cas8    atomicCAS(unsigned long long*)             (ATOMG.E.CAS.64)
//   scas4   atomicCAS on shared int                    (ATOMS.CAS)
//   smax4   atomicMax on shared int, result used       (ATOMS.MAX)
//   sexch4  atomicExch on shared int                   (ATOMS.EXCH)
//   spopc4  atomicAdd(&shared, 1), result unused       (ATOMS.POPC.INC)
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
//   confP      lane 0 -> 0, lane 1 -> P + 4, lane 2 -> 4 (lanes 0 and 2 in one line, lane 1 in
//              another, P bytes from lane 2's word), lanes 3-31 -> 1 MB + l * 132 (a line each);
//              P = 512, 1k, 2k, 4k, 64k: which distances make lane 2 wait for another pass
//   revP       the same with lanes 1 and 2 swapped (the line's second lane comes first)
// Also CONFIG = gather:SHAPE: the suite's g_atom_max4_ret_gather (global_rules.cu: atomicMax on
// acc[idx[i] & 0xffff] with its index table, splitmix64 seed 0x1234567 over [0, 2^21)), 65,536
// atomics whose warp-level address sets are the same in every shape, run by
//   grid    256 CTAs of 256 threads, one atomic each (the suite's launch)
//   cta     one CTA of 256 threads, 256 atomics each (8 warps on one SM)
//   serial  one warp, 2,048 atomics per lane (no other warp at all)
//   warpJ   one warp executing only the grid's warp instruction J (0-2047): which instructions
//           take the set accesses beyond the model's passes
// and CONFIG = gpair:J:MODE, one atomicMax per lane of a warp at word offsets given by the host
// (explicit_max): the gather's instruction J with
//   full    every lane at its address in the gather
//   pair    only the lanes that share a line with another lane at their gather address, every
//           other lane on a line of its own far away (1 MB + lane x 384 B)
//   lo, hi  the pair lanes and lanes 0-15 (lo) or 16-31 (hi) at their gather address, the rest far
//   kK      the pair lanes and lane K at their gather address, the rest far
// which says whether a line's second lane is served apart because of the pair or of the others.
// Prints "launch CONFIG" per launch (probe_summary.py joins them with ncu's rows).
//
// Build: nvcc -O3 -arch=sm_90 -o atomics_probe atomics_probe.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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
    if (pattern >= 12 && pattern < 22) {
        const int dist[] = {512, 1024, 2048, 4096, 65536};
        const int d = dist[(pattern - 12) % 5];
        const bool rev = pattern >= 17;
        if (l == 0) return 0;
        if (l == (rev ? 2 : 1)) return d + 4;
        if (l == (rev ? 1 : 2)) return 4;
        return (1 << 20) + l * 132;
    }
    return 0;
}

const char* kPatterns[] = {"lines",   "dup01",   "word01",  "sector01", "line01",  "same",    "mod4",
                           "coalesced", "pairs", "pairs16", "words2",  "dup_far", "conf512", "conf1k",
                           "conf2k",  "conf4k",  "conf64k", "rev512",   "rev1k",   "rev2k",   "rev4k",
                           "rev64k"};
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
// Thread t's k-th atomic is number i = t + k * threads: warp-level address sets as in the grid.
__global__ void gather_max(int* acc, const int* idx, int* out, int per_thread) {
    const int threads = gridDim.x * blockDim.x;
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < per_thread; ++k) {
        const int i = t + k * threads;
        out[i] = atomicMax(&acc[idx[i] & 0xffff], i);
    }
}

__global__ void satom4(int* out, int p) {
    __shared__ int sh[32 * 32 + 64];  // 4,352 B: every pattern's offsets
    const int l = threadIdx.x;
    for (int i = l; i < 32 * 32 + 64; i += 32) sh[i] = 0;
    __syncwarp();
    out[l] = atomicAdd(reinterpret_cast<int*>(reinterpret_cast<char*>(sh) + offset(p, l, 4)), 1);
}

__global__ void exch4(int* buf, int* out, int p) {
    const int l = threadIdx.x;
    out[l] = atomicExch(reinterpret_cast<int*>(reinterpret_cast<char*>(buf) + offset(p, l, 4)), l);
}
__global__ void cas8(unsigned long long* buf, unsigned long long* out, int p) {
    const int l = threadIdx.x;
    out[l] = atomicCAS(reinterpret_cast<unsigned long long*>(reinterpret_cast<char*>(buf) + offset(p, l, 8)), 0ull,
                       static_cast<unsigned long long>(l));
}

__global__ void explicit_max(int* base, const int* offs, int* out) {
    const int l = threadIdx.x;
    out[l] = atomicMax(base + offs[l], l);
}

// Shared operations other than ATOMS.ADD: `which` 0 CAS, 1 max, 2 exch, 3 add of 1 with the result
// unused (ATOMS.POPC.INC; the array is read back so that it is not optimised away).
template <int which>
__global__ void sop4(int* out, int p) {
    __shared__ int sh[32 * 32 + 64];
    const int l = threadIdx.x;
    for (int i = l; i < 32 * 32 + 64; i += 32) sh[i] = 0;
    __syncwarp();
    int* a = reinterpret_cast<int*>(reinterpret_cast<char*>(sh) + offset(p, l, 4));
    int r = 0;
    if (which == 0) r = atomicCAS(a, 0, l);
    if (which == 1) r = atomicMax(a, l);
    if (which == 2) r = atomicExch(a, l);
    if (which == 3) atomicAdd(a, 1);
    __syncwarp();
    out[l] = which == 3 ? sh[l] : r;
}

}  // namespace

int main(int argc, char** argv) {
    constexpr int kGather = 1 << 16;
    std::vector<int> idx(kGather);
    uint64_t s = 0x1234567ull;
    for (int i = 0; i < kGather; ++i) {  // splitmix64, as global_rules.cu's index_table
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        idx[i] = (int)(z % (uint64_t)(1 << 21));
    }
    int *g_idx = nullptr, *g_acc = nullptr, *g_out = nullptr;
    CK(cudaMalloc(&g_idx, kGather * sizeof(int)));
    CK(cudaMalloc(&g_acc, kGather * sizeof(int)));
    CK(cudaMalloc(&g_out, kGather * sizeof(int)));
    CK(cudaMemcpy(g_idx, idx.data(), kGather * sizeof(int), cudaMemcpyHostToDevice));
    char* buf = nullptr;
    CK(cudaMalloc(&buf, 2 << 20));  // 2 MB: the conf/rev patterns reach 1 MB + 4 KB
    CK(cudaMemset(buf, 0, 2 << 20));
    unsigned long long* out = nullptr;
    CK(cudaMalloc(&out, 32 * sizeof(unsigned long long)));
    int* g_offs = nullptr;
    CK(cudaMalloc(&g_offs, 32 * sizeof(int)));
    for (int a = 1; a < argc; ++a) {
        const std::string cfg = argv[a];
        const auto colon = cfg.find(':');
        if (colon == std::string::npos) { std::fprintf(stderr, "bad config %s\n", argv[a]); return 2; }
        const std::string op = cfg.substr(0, colon), pat = cfg.substr(colon + 1);
        if (op == "gpair") {
            const auto c2 = pat.find(':');
            const int j = std::atoi(pat.c_str());
            const std::string mode = c2 == std::string::npos ? "" : pat.substr(c2 + 1);
            const int only = mode.size() > 1 && mode[0] == 'k' ? std::atoi(mode.c_str() + 1) : -1;  // kK: lane K too
            if (j < 0 || j >= 2048 ||
                (mode != "full" && mode != "pair" && mode != "lo" && mode != "hi" && (only < 0 || only > 31))) {
                std::fprintf(stderr, "bad gpair config %s\n", cfg.c_str());
                return 2;
            }
            int offs[32];
            for (int l = 0; l < 32; ++l) {
                const int orig = idx[32 * j + l] & 0xffff;
                bool pair = false;  // shares its 128-byte line (32 ints) with another lane
                for (int k = 0; k < 32; ++k)
                    if (k != l && (idx[32 * j + k] & 0xffff) / 32 == orig / 32) pair = true;
                const bool keep = mode == "full" || pair || (mode == "lo" && l < 16) || (mode == "hi" && l >= 16) ||
                                  l == only;
                offs[l] = keep ? orig : (1 << 18) + l * 96;
            }
            CK(cudaMemcpy(g_offs, offs, sizeof offs, cudaMemcpyHostToDevice));
            CK(cudaMemset(buf, 0, 2 << 20));
            explicit_max<<<1, 32>>>(reinterpret_cast<int*>(buf), g_offs, g_out);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            std::printf("launch %s\n", cfg.c_str());
            continue;
        }
        if (op == "gather") {
            CK(cudaMemset(g_acc, 0, kGather * sizeof(int)));
            if (pat == "grid") gather_max<<<256, 256>>>(g_acc, g_idx, g_out, 1);
            else if (pat == "cta") gather_max<<<1, 256>>>(g_acc, g_idx, g_out, 256);
            else if (pat == "serial") gather_max<<<1, 32>>>(g_acc, g_idx, g_out, 2048);
            else if (pat.rfind("warp", 0) == 0 && std::atoi(pat.c_str() + 4) >= 0 && std::atoi(pat.c_str() + 4) < 2048)
                gather_max<<<1, 32>>>(g_acc, g_idx + 32 * std::atoi(pat.c_str() + 4),
                                      g_out + 32 * std::atoi(pat.c_str() + 4), 1);
            else { std::fprintf(stderr, "unknown gather shape %s\n", pat.c_str()); return 2; }
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            std::printf("launch %s\n", cfg.c_str());
            continue;
        }
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
        else if (op == "exch4") exch4<<<1, 32>>>(b4, o4, p);
        else if (op == "cas8") cas8<<<1, 32>>>(b8, out, p);
        else if (op == "scas4") sop4<0><<<1, 32>>>(o4, p);
        else if (op == "smax4") sop4<1><<<1, 32>>>(o4, p);
        else if (op == "sexch4") sop4<2><<<1, 32>>>(o4, p);
        else if (op == "spopc4") sop4<3><<<1, 32>>>(o4, p);
        else { std::fprintf(stderr, "unknown op %s\n", op.c_str()); return 2; }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::printf("launch %s\n", cfg.c_str());
    }
    return 0;
}
