// cache_kernels.cu -- a few realistic kernels for checking warpscope's cache model against Nsight Compute.
//
// Each kernel is launched exactly once. On the host, the same program emulates every kernel's memory
// accesses warp by warp (it knows the index arithmetic) and writes one record per warp-level memory
// instruction, with the real device addresses of this process's buffers, to OUTDIR/<kernel>.records.csv:
//
//   kernel,site,cta,warp,space,op,size,cache,mask,base,stride,addrs
//
//   site   access site, numbered in program order of the SASS (checked with cuobjdump on the sm_90 build;
//          unrolled loops: one site per iteration). stencil2d's five loads are issued in the order
//          in[i], in[i-1], in[i-n], in[i+n], in[i+1], not in source order.
//   cta    blockIdx.x + gridDim.x * blockIdx.y
//   warp   (threadIdx.x + blockDim.x * threadIdx.y) / 32
//   space  global | shared;  op  ld | st;  size  bytes per lane;  cache  default | ldg | cg
//   mask   active lanes, hex (0x...)
//   base,stride,addrs
//          if every active lane l accesses base + stride*l: base (hex) and stride (signed decimal, bytes),
//          addrs empty. Otherwise base=0, stride=0 and addrs = 32 '|'-separated hex addresses, '-' for an
//          inactive lane. Shared addresses are byte offsets from the start of the block's shared tile.
//
// Records are ordered CTA by CTA (increasing linear id); within a CTA by site, and for each site warps
// 0,1,2,... . A warp none of whose lanes pass the kernel's guard executes no memory instruction and has no
// record (the guard is a branch / EXIT in SASS).
//
// Also writes OUTDIR/pointers.csv (kernel,buffer,ptr,bytes) and OUTDIR/launches.csv (kernel,grid,block,
// smem_static).
//
// usage:
//   cache_kernels OUTDIR                    allocate, launch every kernel once, check results, write files
//   cache_kernels --emit POINTERS OUTDIR    no GPU: re-create the record files from a pointers.csv
//
// Build: nvcc -arch=sm_90 -O3 -lineinfo -o cache_kernels cache_kernels.cu
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

#include "cache_kernels.cuh"

// ---------------------------------------------------------------------------------------------------------
// host side: buffers, pointers, index array
struct Buffers {
    std::map<std::string, uint64_t> ptr;  // "kernel.buffer" -> device address
    std::map<std::string, uint64_t> bytes;
};

// ---------------------------------------------------------------------------------------------------------
// record writer
struct Writer {
    FILE* f = nullptr;
    std::string kernel;
    long n = 0;
    std::map<std::string, long> per_kind;
    explicit Writer(const std::string& path, const std::string& k) : kernel(k)
    {
        f = std::fopen(path.c_str(), "w");
        if (!f) { std::perror(path.c_str()); std::exit(1); }
        static char buf[1 << 20];
        std::setvbuf(f, buf, _IOFBF, sizeof buf);
        std::fprintf(f, "kernel,site,cta,warp,space,op,size,cache,mask,base,stride,addrs\n");
    }
    ~Writer() { std::fclose(f); }
    // lanes with act[l] false are inactive; returns false (and writes nothing) if no lane is active
    bool rec(int site, long cta, int warp, bool shared, bool st, int size, const char* cache, const bool* act,
             const uint64_t* a)
    {
        uint32_t mask = 0;
        int first = -1, second = -1;
        for (int l = 0; l < 32; ++l)
            if (act[l]) {
                mask |= 1u << l;
                if (first < 0) first = l; else if (second < 0) second = l;
            }
        if (!mask) return false;
        int64_t stride = 0;
        if (second >= 0) {
            int64_t d = (int64_t)(a[second] - a[first]);
            if (d % (second - first) == 0) stride = d / (second - first);
        }
        uint64_t base = a[first] - (uint64_t)(stride * first);
        bool lin = true;
        for (int l = 0; l < 32 && lin; ++l)
            if (act[l] && a[l] != base + (uint64_t)(stride * l)) lin = false;
        std::fprintf(f, "%s,%d,%ld,%d,%s,%s,%d,%s,0x%x,", kernel.c_str(), site, cta, warp, shared ? "shared" : "global",
                     st ? "st" : "ld", size, cache, mask);
        if (lin) {
            std::fprintf(f, "0x%llx,%lld,\n", (unsigned long long)base, (long long)stride);
        } else {
            std::fputs("0,0,", f);
            for (int l = 0; l < 32; ++l) {
                if (l) std::fputc('|', f);
                if (act[l]) std::fprintf(f, "0x%llx", (unsigned long long)a[l]);
                else std::fputc('-', f);
            }
            std::fputc('\n', f);
        }
        ++n;
        ++per_kind[std::string(shared ? "shared_" : "global_") + (st ? "st" : "ld")];
        return true;
    }
};

struct Site {
    bool shared, st;
    int size;
    const char* cache;
};

// Emulate a kernel with 2D grid/block: fn(site, bx, by, tx, ty, &addr) -> active
template <class F>
static void emulate(const std::string& dir, const std::string& kernel, dim3 grid, dim3 block,
                    const std::vector<Site>& sites, F fn)
{
    Writer w(dir + "/" + kernel + ".records.csv", kernel);
    const int threads = block.x * block.y;
    const int warps = (threads + 31) / 32;
    bool act[32];
    uint64_t a[32];
    for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx) {
            long cta = bx + (long)grid.x * by;
            for (int s = 0; s < (int)sites.size(); ++s)
                for (int wp = 0; wp < warps; ++wp) {
                    for (int l = 0; l < 32; ++l) {
                        int t = wp * 32 + l;
                        act[l] = false;
                        a[l] = 0;
                        if (t >= threads) continue;
                        int tx = t % block.x, ty = t / block.x;
                        act[l] = fn(s, (int)bx, (int)by, tx, ty, a[l]);
                    }
                    w.rec(s, cta, wp, sites[s].shared, sites[s].st, sites[s].size, sites[s].cache, act, a);
                }
        }
    std::printf("[emit] %-16s records=%ld", kernel.c_str(), w.n);
    for (auto& kv : w.per_kind) std::printf(" %s=%ld", kv.first.c_str(), kv.second);
    std::printf("\n");
}

static void emit_all(const Buffers& B, const std::string& dir)
{
    auto P = [&](const char* k) {
        auto it = B.ptr.find(k);
        if (it == B.ptr.end()) { std::fprintf(stderr, "missing pointer %s\n", k); std::exit(1); }
        return it->second;
    };
    std::vector<Launch> L = launches();
    const Site GLD{false, false, 4, "default"}, GST{false, true, 4, "default"};
    const Site SLD{true, false, 4, "default"}, SST{true, true, 4, "default"};
    const Site GLDG{false, false, 4, "ldg"}, GLCG{false, false, 4, "cg"};

    {  // stencil2d
        const int n = kStencilN;
        uint64_t in = P("stencil2d.in"), out = P("stencil2d.out");
        // sites in SASS order (cuobjdump on the H100 build): LDG in[i], in[i-1], in[i-n], in[i+n], in[i+1]; STG
        const long off[5] = {0, -1, -n, n, 1};
        emulate(dir, "stencil2d", L[0].grid, L[0].block, {GLD, GLD, GLD, GLD, GLD, GST},
                [&](int s, int bx, int by, int tx, int ty, uint64_t& a) {
                    int x = bx * 32 + tx, y = by * 8 + ty;
                    if (!(x >= 1 && x < n - 1 && y >= 1 && y < n - 1)) return false;
                    long i = (long)y * n + x;
                    a = s < 5 ? in + 4 * (uint64_t)(i + off[s]) : out + 4 * (uint64_t)i;
                    return true;
                });
    }
    {  // transpose_naive
        const int n = kTransposeN;
        uint64_t in = P("transpose_naive.in"), out = P("transpose_naive.out");
        emulate(dir, "transpose_naive", L[1].grid, L[1].block, {GLD, GST},
                [&](int s, int bx, int by, int tx, int ty, uint64_t& a) {
                    int x = bx * 32 + tx, y = by * 8 + ty;
                    if (!(x < n && y < n)) return false;
                    a = s == 0 ? in + 4 * (uint64_t)((long)y * n + x) : out + 4 * (uint64_t)((long)x * n + y);
                    return true;
                });
    }
    {  // transpose_tiled
        const int n = kTransposeN;
        uint64_t in = P("transpose_tiled.in"), out = P("transpose_tiled.out");
        std::vector<Site> sites;
        for (int j = 0; j < 4; ++j) sites.push_back(GLD);
        for (int j = 0; j < 4; ++j) sites.push_back(SST);
        for (int j = 0; j < 4; ++j) sites.push_back(SLD);
        for (int j = 0; j < 4; ++j) sites.push_back(GST);
        emulate(dir, "transpose_tiled", L[2].grid, L[2].block, sites,
                [&](int s, int bx, int by, int tx, int ty, uint64_t& a) {
                    int j = (s % 4) * 8;
                    switch (s / 4) {
                    case 0: a = in + 4 * (uint64_t)((long)(by * 32 + ty + j) * n + bx * 32 + tx); break;
                    case 1: a = 4 * (uint64_t)((ty + j) * 33 + tx); break;
                    case 2: a = 4 * (uint64_t)(tx * 33 + ty + j); break;
                    default: a = out + 4 * (uint64_t)((long)(bx * 32 + ty + j) * n + by * 32 + tx); break;
                    }
                    return true;
                });
    }
    {  // gather, gather_cg
        std::vector<int> idx = make_idx();
        for (int g = 0; g < 2; ++g) {
            std::string k = g == 0 ? "gather" : "gather_cg";
            uint64_t in = P((k + ".in").c_str()), ix = P((k + ".idx").c_str()), out = P((k + ".out").c_str());
            emulate(dir, k, L[3 + g].grid, L[3 + g].block, {GLD, g == 0 ? GLD : GLCG, GST},
                    [&](int s, int bx, int, int tx, int, uint64_t& a) {
                        long i = (long)bx * 256 + tx;
                        if (i >= kGatherN) return false;
                        a = s == 0 ? ix + 4 * (uint64_t)i : s == 1 ? in + 4 * (uint64_t)idx[i] : out + 4 * (uint64_t)i;
                        return true;
                    });
        }
    }
    {  // copy_ldg
        uint64_t in = P("copy_ldg.in"), out = P("copy_ldg.out");
        emulate(dir, "copy_ldg", L[5].grid, L[5].block, {GLDG, GST},
                [&](int s, int bx, int, int tx, int, uint64_t& a) {
                    long i = (long)bx * 256 + tx;
                    if (i >= kCopyN) return false;
                    a = (s == 0 ? in : out) + 4 * (uint64_t)i;
                    return true;
                });
    }
}

// ---------------------------------------------------------------------------------------------------------
static Buffers read_pointers(const char* path)
{
    Buffers B;
    FILE* f = std::fopen(path, "r");
    if (!f) { std::perror(path); std::exit(1); }
    char line[512];
    while (std::fgets(line, sizeof line, f)) {
        char k[128], b[128];
        unsigned long long p, n;
        if (std::sscanf(line, "%127[^,],%127[^,],0x%llx,%llu", k, b, &p, &n) == 4) {
            B.ptr[std::string(k) + "." + b] = p;
            B.bytes[std::string(k) + "." + b] = n;
        }
    }
    std::fclose(f);
    return B;
}

template <class T> static T* dalloc(Buffers& B, const std::string& name, size_t count)
{
    T* p = nullptr;
    CK(cudaMalloc(&p, count * sizeof(T)));
    B.ptr[name] = (uint64_t)(uintptr_t)p;
    B.bytes[name] = count * sizeof(T);
    return p;
}

int main(int argc, char** argv)
{
    if (argc == 4 && !std::strcmp(argv[1], "--emit")) {
        emit_all(read_pointers(argv[2]), argv[3]);
        return 0;
    }
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR | --emit POINTERS_CSV OUTDIR\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    Buffers B;
    std::vector<Launch> L = launches();

    // host data
    std::vector<float> sten(kStencilN * kStencilN), tr(kTransposeN * kTransposeN), src(kGatherSrcN), cp(kCopyN);
    for (size_t i = 0; i < sten.size(); ++i) sten[i] = (float)((i * 7) % 13);
    for (size_t i = 0; i < tr.size(); ++i) tr[i] = (float)i;
    for (size_t i = 0; i < src.size(); ++i) src[i] = (float)(i & 0xffff);
    for (size_t i = 0; i < cp.size(); ++i) cp[i] = (float)i;
    std::vector<int> idx = make_idx();

    // device buffers: every kernel has its own (pointers are reported per kernel)
    float* s_in = dalloc<float>(B, "stencil2d.in", sten.size());
    float* s_out = dalloc<float>(B, "stencil2d.out", sten.size());
    float* tn_in = dalloc<float>(B, "transpose_naive.in", tr.size());
    float* tn_out = dalloc<float>(B, "transpose_naive.out", tr.size());
    float* tt_in = dalloc<float>(B, "transpose_tiled.in", tr.size());
    float* tt_out = dalloc<float>(B, "transpose_tiled.out", tr.size());
    float* g_in = dalloc<float>(B, "gather.in", src.size());
    int* g_idx = dalloc<int>(B, "gather.idx", idx.size());
    float* g_out = dalloc<float>(B, "gather.out", idx.size());
    float* gc_out = dalloc<float>(B, "gather_cg.out", idx.size());
    B.ptr["gather_cg.in"] = B.ptr["gather.in"];  // gather_cg reads the same source and index arrays
    B.bytes["gather_cg.in"] = B.bytes["gather.in"];
    B.ptr["gather_cg.idx"] = B.ptr["gather.idx"];
    B.bytes["gather_cg.idx"] = B.bytes["gather.idx"];
    float* c_in = dalloc<float>(B, "copy_ldg.in", cp.size());
    float* c_out = dalloc<float>(B, "copy_ldg.out", cp.size());

    CK(cudaMemcpy(s_in, sten.data(), sten.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s_out, sten.data(), sten.size() * 4, cudaMemcpyHostToDevice));  // border keeps input values
    CK(cudaMemcpy(tn_in, tr.data(), tr.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(tt_in, tr.data(), tr.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(g_in, src.data(), src.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(g_idx, idx.data(), idx.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(c_in, cp.data(), cp.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());

    {
        FILE* f = std::fopen((dir + "/pointers.csv").c_str(), "w");
        if (!f) { std::perror("pointers.csv"); return 1; }
        std::fprintf(f, "kernel,buffer,ptr,bytes\n");
        for (auto& kv : B.ptr) {
            size_t dot = kv.first.find('.');
            std::fprintf(f, "%s,%s,0x%llx,%llu\n", kv.first.substr(0, dot).c_str(), kv.first.substr(dot + 1).c_str(),
                         (unsigned long long)kv.second, (unsigned long long)B.bytes[kv.first]);
        }
        std::fclose(f);
    }

    // launches (in this order)
    stencil2d<<<L[0].grid, L[0].block>>>(s_in, s_out, kStencilN);
    CK(cudaGetLastError());
    transpose_naive<<<L[1].grid, L[1].block>>>(tn_in, tn_out, kTransposeN);
    CK(cudaGetLastError());
    transpose_tiled<<<L[2].grid, L[2].block>>>(tt_in, tt_out, kTransposeN);
    CK(cudaGetLastError());
    gather<<<L[3].grid, L[3].block>>>(g_in, g_idx, g_out, kGatherN);
    CK(cudaGetLastError());
    gather_cg<<<L[4].grid, L[4].block>>>(g_in, g_idx, gc_out, kGatherN);
    CK(cudaGetLastError());
    copy_ldg<<<L[5].grid, L[5].block>>>(c_in, c_out, kCopyN);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    // launch table (static shared from the function attributes)
    {
        const void* fns[] = {(const void*)stencil2d, (const void*)transpose_naive, (const void*)transpose_tiled,
                             (const void*)gather, (const void*)gather_cg, (const void*)copy_ldg};
        FILE* f = std::fopen((dir + "/launches.csv").c_str(), "w");
        std::fprintf(f, "kernel,grid,block,smem_static,regs\n");
        for (int k = 0; k < 6; ++k) {
            cudaFuncAttributes at;
            CK(cudaFuncGetAttributes(&at, fns[k]));
            std::fprintf(f, "%s,%u x %u x %u,%u x %u x %u,%zu,%d\n", L[k].kernel.c_str(), L[k].grid.x, L[k].grid.y,
                         L[k].grid.z, L[k].block.x, L[k].block.y, L[k].block.z, at.sharedSizeBytes, at.numRegs);
        }
        std::fclose(f);
    }

    // check results
    int bad = 0;
    {
        const int n = kStencilN;
        std::vector<float> o(sten.size());
        CK(cudaMemcpy(o.data(), s_out, o.size() * 4, cudaMemcpyDeviceToHost));
        for (int y = 1; y < n - 1; ++y)
            for (int x = 1; x < n - 1; ++x) {
                int i = y * n + x;
                float r = sten[i] + sten[i - n] + sten[i + n] + sten[i - 1] + sten[i + 1];
                if (o[i] != r) ++bad;
            }
        std::printf("[check] stencil2d bad=%d\n", bad);
    }
    for (int t = 0; t < 2; ++t) {
        const int n = kTransposeN;
        std::vector<float> o(tr.size());
        CK(cudaMemcpy(o.data(), t ? tt_out : tn_out, o.size() * 4, cudaMemcpyDeviceToHost));
        int b = 0;
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                if (o[(size_t)x * n + y] != tr[(size_t)y * n + x]) ++b;
        std::printf("[check] %s bad=%d\n", t ? "transpose_tiled" : "transpose_naive", b);
        bad += b;
    }
    for (int g = 0; g < 2; ++g) {
        std::vector<float> o(idx.size());
        CK(cudaMemcpy(o.data(), g ? gc_out : g_out, o.size() * 4, cudaMemcpyDeviceToHost));
        int b = 0;
        for (size_t i = 0; i < o.size(); ++i)
            if (o[i] != src[idx[i]]) ++b;
        std::printf("[check] %s bad=%d\n", g ? "gather_cg" : "gather", b);
        bad += b;
    }
    {
        std::vector<float> o(cp.size());
        CK(cudaMemcpy(o.data(), c_out, o.size() * 4, cudaMemcpyDeviceToHost));
        int b = 0;
        for (size_t i = 0; i < o.size(); ++i)
            if (o[i] != cp[i]) ++b;
        std::printf("[check] copy_ldg bad=%d\n", b);
        bad += b;
    }

    emit_all(B, dir);
    return bad ? 1 : 0;
}
