// rules_probe.cu -- one warp, one memory instruction per launch, for checking warpscope's sm_70+ rules
// engine against Nsight Compute counters.
//
// Every launch is 1 block of 32 threads. Lane l, if bit l of the active mask is set, executes exactly one
// global/shared load or store of 1, 2, 4, 8 or 16 bytes at byte address base + off[l]. The 32 offsets live
// in __constant__ memory (cudaMemcpyToSymbol before every launch), so reading them makes no global or
// shared traffic. Loaded values are kept alive by `if (fold(v) == magic) sink[0] = ...` (magic is a kernel
// argument that never matches, so that store never executes; it may still appear as a predicated/branched
// STG in load kernels).
//
// Every launch gets dynamic shared memory = 16384 + id bytes, so that the ncu row can be matched to the
// pattern id through launch__shared_mem_per_block_dynamic.
//
// Usage:
//   rules_probe --csv PATH            write the pattern table (one row per launch, in launch order) and exit
//   rules_probe --run FIRST COUNT     launch patterns [FIRST, FIRST+COUNT) (COUNT<0: to the end)
//   rules_probe --count               print the number of patterns
//   rules_probe --props               print cudaDeviceProp values
//   rules_probe PATH                  --csv PATH, then run all
//
// Build: nvcc -arch=sm_90 -O3 -lineinfo -o rules_probe rules_probe.cu
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

static constexpr int kSmemBytes = 16384;            // shared buffer the patterns address (wrap modulo this)
static constexpr size_t kGlobalBytes = 8u << 20;     // global buffer (scattered patterns use the first 4 MB)
static constexpr int kMagic = 0x5eed1234;            // never produced by any load here

enum Space { GLOBAL = 0, SHARED = 1 };
enum Op { LD = 0, ST = 1 };
enum Cache { C_DEF = 0, C_LDG, C_CG, C_CS, C_LU, C_CV, C_WB, C_WT };
static const char* kCacheName[] = {"default", "ldg", "cg", "cs", "lu", "cv", "wb", "wt"};

__constant__ int c_off[32];
extern __shared__ __align__(16) char smem_dyn[];

// ---------------------------------------------------------------------------------------------------------
// device helpers
template <class T> __device__ __forceinline__ int fold(T v) { return (int)v; }
template <> __device__ __forceinline__ int fold<long long>(long long v) { return (int)(v ^ (v >> 32)); }
template <> __device__ __forceinline__ int fold<int4>(int4 v) { return v.x ^ v.y ^ v.z ^ v.w; }

template <class T> __device__ __forceinline__ T mkval(int lane) { return (T)(lane + 1); }
template <> __device__ __forceinline__ int4 mkval<int4>(int lane) { return make_int4(lane + 1, lane + 2, lane + 3, lane + 4); }

template <class T, int C> __device__ __forceinline__ T gload(const T* p)
{
    if constexpr (C == C_DEF) return *p;
    else if constexpr (C == C_LDG) return __ldg(p);
    else if constexpr (C == C_CG) return __ldcg(p);
    else if constexpr (C == C_CS) return __ldcs(p);
    else if constexpr (C == C_LU) return __ldlu(p);
    else return __ldcv(p);
}

template <class T, int C> __device__ __forceinline__ void gstore(T* p, T v)
{
    if constexpr (C == C_DEF) *p = v;
    else if constexpr (C == C_CG) __stcg(p, v);
    else if constexpr (C == C_CS) __stcs(p, v);
    else if constexpr (C == C_WB) __stwb(p, v);
    else __stwt(p, v);
}

// ---------------------------------------------------------------------------------------------------------
// kernels (names start with probe_ so that ncu can filter them)
template <class T, int C> __global__ void probe_gld(const char* base, unsigned mask, int magic, int* sink)
{
    const int lane = threadIdx.x;
    if ((mask >> lane) & 1u) {
        T v = gload<T, C>(reinterpret_cast<const T*>(base + c_off[lane]));
        const int f = fold(v);
        if (f == magic) sink[0] = f;
    }
}

template <class T, int C> __global__ void probe_gst(char* base, unsigned mask)
{
    const int lane = threadIdx.x;
    if ((mask >> lane) & 1u) gstore<T, C>(reinterpret_cast<T*>(base + c_off[lane]), mkval<T>(lane));
}

template <class T> __global__ void probe_sld(unsigned mask, int magic, int* sink)
{
    const int lane = threadIdx.x;
    if ((mask >> lane) & 1u) {
        T v = *reinterpret_cast<const T*>(smem_dyn + c_off[lane]);
        const int f = fold(v);
        if (f == magic) sink[0] = f;
    }
}

template <class T> __global__ void probe_sst(unsigned mask)
{
    const int lane = threadIdx.x;
    if ((mask >> lane) & 1u) *reinterpret_cast<T*>(smem_dyn + c_off[lane]) = mkval<T>(lane);
}

// Not profiled (name lacks "probe_"): where does the dynamic shared buffer sit in the shared window?
__global__ void info_smem_base(unsigned* out)
{
    __shared__ int stat[4];
    stat[threadIdx.x & 3] = 1;
    out[0] = (unsigned)__cvta_generic_to_shared(smem_dyn);
    out[1] = (unsigned)__cvta_generic_to_shared(stat);
    out[2] = (unsigned)(reinterpret_cast<uintptr_t>(smem_dyn) & 0xFFFFFFFFu);
    out[3] = (unsigned)(reinterpret_cast<uintptr_t>(smem_dyn) >> 32);
}
__global__ void info_smem_base_dynonly(unsigned* out) { out[0] = (unsigned)__cvta_generic_to_shared(smem_dyn); }

// ---------------------------------------------------------------------------------------------------------
// patterns
struct Pattern {
    std::string name;
    int space, op, size, cache;
    uint32_t mask;
    int shift;
    int off[32];  // byte offset from the 128-byte-aligned base, shift included; -1 = inactive lane
};

struct Lcg {
    uint64_t s;
    explicit Lcg(uint64_t seed) : s(seed) {}
    uint32_t next()
    {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return (uint32_t)(s >> 33);
    }
};

static std::vector<Pattern> make_patterns()
{
    std::vector<Pattern> P;
    auto add = [&](int space, int op, int size, int cache, const std::string& name, uint32_t mask, int shift,
                   auto&& offfn) {
        Pattern p;
        p.name = name;
        p.space = space;
        p.op = op;
        p.size = size;
        p.cache = cache;
        p.mask = mask;
        p.shift = shift;
        for (int l = 0; l < 32; ++l) {
            long o = offfn(l);
            if (space == SHARED) o %= kSmemBytes;
            if (o % size != 0 || o < 0 || (space == GLOBAL && o + size > (long)kGlobalBytes)) {
                std::fprintf(stderr, "bad offset in %s lane %d: %ld\n", name.c_str(), l, o);
                std::exit(1);
            }
            p.off[l] = ((mask >> l) & 1u) ? (int)o : -1;
        }
        P.push_back(p);
    };
    const int sizes[] = {1, 2, 4, 8, 16};
    const uint32_t masks[] = {0x0000FFFFu, 0xFFFF0000u, 0x55555555u, 0x00000001u, 0x80000001u, 0x000000FFu};
    const uint32_t FULL = 0xFFFFFFFFu;

    // one fixed random permutation of 0..31
    int perm[32];
    {
        Lcg r(12345);
        for (int i = 0; i < 32; ++i) perm[i] = i;
        for (int i = 31; i > 0; --i) {
            int j = (int)(r.next() % (uint32_t)(i + 1));
            std::swap(perm[i], perm[j]);
        }
    }
    auto scattered = [](int s, uint64_t seed, int span) {
        std::vector<int> v(32);
        Lcg r(seed);
        for (int l = 0; l < 32; ++l) v[l] = (int)(r.next() % (uint32_t)(span / s)) * s;
        return v;
    };

    // ---- global, default cache operator: loads then stores ----
    for (int op : {LD, ST}) {
        for (int s : sizes) {
            add(GLOBAL, op, s, C_DEF, "consecutive", FULL, 0, [&](int l) { return s * l; });
            for (int k : {4, 8, 12, 16, 32, 64, 96, 124})
                if (k % s == 0)
                    add(GLOBAL, op, s, C_DEF, "shift" + std::to_string(k), FULL, k, [&](int l) { return k + s * l; });
            for (int st : {2, 3, 4, 8, 16, 32, 33})
                add(GLOBAL, op, s, C_DEF, "stride" + std::to_string(st), FULL, 0, [&](int l) { return s * st * l; });
            add(GLOBAL, op, s, C_DEF, "broadcast", FULL, 0, [&](int) { return 0; });
            add(GLOBAL, op, s, C_DEF, "pairs", FULL, 0, [&](int l) { return s * (l / 2); });
            add(GLOBAL, op, s, C_DEF, "quarters", FULL, 0, [&](int l) { return s * (l / 8); });
            add(GLOBAL, op, s, C_DEF, "reverse", FULL, 0, [&](int l) { return s * (31 - l); });
            add(GLOBAL, op, s, C_DEF, "randperm", FULL, 0, [&](int l) { return s * perm[l]; });
            {
                auto v = scattered(s, 777 + s, 4 << 20);
                add(GLOBAL, op, s, C_DEF, "scattered", FULL, 0, [&](int l) { return v[l]; });
            }
            for (uint32_t m : masks) {
                char nm[32];
                std::snprintf(nm, sizeof nm, "mask_%08X", m);
                add(GLOBAL, op, s, C_DEF, nm, m, 0, [&](int l) { return s * l; });
            }
        }
    }
    // ---- global, cache-operator variants (4 and 16 bytes) ----
    for (int op : {LD, ST}) {
        const std::vector<int> caches = op == LD ? std::vector<int>{C_LDG, C_CG, C_CS, C_LU, C_CV}
                                                 : std::vector<int>{C_CG, C_CS, C_WB, C_WT};
        for (int c : caches) {
            for (int s : {4, 16}) {
                add(GLOBAL, op, s, c, "consecutive", FULL, 0, [&](int l) { return s * l; });
                add(GLOBAL, op, s, c, "shift16", FULL, 16, [&](int l) { return 16 + s * l; });
                add(GLOBAL, op, s, c, "stride32", FULL, 0, [&](int l) { return s * 32 * l; });
                add(GLOBAL, op, s, c, "broadcast", FULL, 0, [&](int) { return 0; });
                auto v = scattered(s, 777 + s, 4 << 20);
                add(GLOBAL, op, s, c, "scattered", FULL, 0, [&](int l) { return v[l]; });
            }
        }
    }
    // ---- shared: loads then stores ----
    for (int op : {LD, ST}) {
        for (int s : sizes) {
            std::vector<int> strides;
            if (s == 4)
                for (int i = 1; i <= 33; ++i) strides.push_back(i);
            else if (s == 8) strides = {1, 2, 3, 4, 8, 16, 17, 32};
            else if (s == 16) strides = {1, 2, 3, 4, 8, 16, 17};
            else strides = {1, 2, 3, 4, 8};
            for (int st : strides)
                add(SHARED, op, s, C_DEF, "stride" + std::to_string(st), FULL, 0, [&](int l) { return s * st * l; });
            add(SHARED, op, s, C_DEF, "broadcast", FULL, 0, [&](int) { return 0; });
            add(SHARED, op, s, C_DEF, "pairs", FULL, 0, [&](int l) { return s * (l / 2); });
            add(SHARED, op, s, C_DEF, "lane_xor1", FULL, 0, [&](int l) { return s * (l ^ 1); });
            add(SHARED, op, s, C_DEF, "quarters", FULL, 0, [&](int l) { return s * (l / 8); });
            add(SHARED, op, s, C_DEF, "lane_div4", FULL, 0, [&](int l) { return s * (l / 4); });
            add(SHARED, op, s, C_DEF, "randperm", FULL, 0, [&](int l) { return s * perm[l]; });
            {
                auto v = scattered(s, 999 + s, 4096);
                add(SHARED, op, s, C_DEF, "rand4k", FULL, 0, [&](int l) { return v[l]; });
            }
            if (s == 4) {
                add(SHARED, op, s, C_DEF, "struct3f_x", FULL, 0, [&](int l) { return 12 * l; });
                add(SHARED, op, s, C_DEF, "struct3f_y", FULL, 0, [&](int l) { return 12 * l + 4; });
                add(SHARED, op, s, C_DEF, "struct3f_z", FULL, 0, [&](int l) { return 12 * l + 8; });
                add(SHARED, op, s, C_DEF, "tile_unpadded", FULL, 0, [&](int l) { return 4 * (32 * l); });
                add(SHARED, op, s, C_DEF, "tile_padded", FULL, 0, [&](int l) { return 4 * (33 * l); });
                add(SHARED, op, s, C_DEF, "split64", FULL, 0, [&](int l) { return 4 * ((l % 2) * 32 + l / 2); });
            }
            for (uint32_t m : masks) {
                char nm[32];
                std::snprintf(nm, sizeof nm, "mask_%08X", m);
                add(SHARED, op, s, C_DEF, nm, m, 0, [&](int l) { return s * l; });
            }
        }
    }
    return P;
}

// ---------------------------------------------------------------------------------------------------------
// launching
struct Bufs {
    char* g;
    int* sink;
};

template <class T> static void launch_t(const Pattern& p, int id, const Bufs& b)
{
    const size_t dyn = (size_t)kSmemBytes + (size_t)id;
    if (p.space == GLOBAL && p.op == LD) {
        switch (p.cache) {
        case C_DEF: probe_gld<T, C_DEF><<<1, 32, dyn>>>(b.g, p.mask, kMagic, b.sink); break;
        case C_LDG: probe_gld<T, C_LDG><<<1, 32, dyn>>>(b.g, p.mask, kMagic, b.sink); break;
        case C_CG: probe_gld<T, C_CG><<<1, 32, dyn>>>(b.g, p.mask, kMagic, b.sink); break;
        case C_CS: probe_gld<T, C_CS><<<1, 32, dyn>>>(b.g, p.mask, kMagic, b.sink); break;
        case C_LU: probe_gld<T, C_LU><<<1, 32, dyn>>>(b.g, p.mask, kMagic, b.sink); break;
        case C_CV: probe_gld<T, C_CV><<<1, 32, dyn>>>(b.g, p.mask, kMagic, b.sink); break;
        default: std::fprintf(stderr, "bad cache\n"); std::exit(1);
        }
    } else if (p.space == GLOBAL) {
        switch (p.cache) {
        case C_DEF: probe_gst<T, C_DEF><<<1, 32, dyn>>>(b.g, p.mask); break;
        case C_CG: probe_gst<T, C_CG><<<1, 32, dyn>>>(b.g, p.mask); break;
        case C_CS: probe_gst<T, C_CS><<<1, 32, dyn>>>(b.g, p.mask); break;
        case C_WB: probe_gst<T, C_WB><<<1, 32, dyn>>>(b.g, p.mask); break;
        case C_WT: probe_gst<T, C_WT><<<1, 32, dyn>>>(b.g, p.mask); break;
        default: std::fprintf(stderr, "bad cache\n"); std::exit(1);
        }
    } else if (p.op == LD) {
        probe_sld<T><<<1, 32, dyn>>>(p.mask, kMagic, b.sink);
    } else {
        probe_sst<T><<<1, 32, dyn>>>(p.mask);
    }
}

static void launch(const Pattern& p, int id, const Bufs& b)
{
    CK(cudaMemcpyToSymbol(c_off, p.off, sizeof p.off));  // inactive lanes hold -1 but never read it
    switch (p.size) {
    case 1: launch_t<char>(p, id, b); break;
    case 2: launch_t<short>(p, id, b); break;
    case 4: launch_t<int>(p, id, b); break;
    case 8: launch_t<long long>(p, id, b); break;
    case 16: launch_t<int4>(p, id, b); break;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
}

static void write_csv(const std::vector<Pattern>& P, const char* path)
{
    FILE* f = std::fopen(path, "w");
    if (!f) {
        std::perror(path);
        std::exit(1);
    }
    std::fprintf(f, "id,name,space,op,size,cache,mask_hex,base_shift");
    for (int l = 0; l < 32; ++l) std::fprintf(f, ",off%d", l);
    std::fprintf(f, "\n");
    for (size_t i = 0; i < P.size(); ++i) {
        const Pattern& p = P[i];
        std::fprintf(f, "%zu,%s,%s,%s,%d,%s,0x%08X,%d", i, p.name.c_str(), p.space == GLOBAL ? "global" : "shared",
                     p.op == LD ? "ld" : "st", p.size, kCacheName[p.cache], p.mask, p.shift);
        for (int l = 0; l < 32; ++l) std::fprintf(f, ",%d", p.off[l]);
        std::fprintf(f, "\n");
    }
    std::fclose(f);
}

static void print_props()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int drv = 0, rt = 0, clk = 0, memclk = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&memclk, cudaDevAttrMemoryClockRate, 0);
    std::printf("cudaDeviceProp.name=%s\n", p.name);
    std::printf("cudaDeviceProp.major=%d\ncudaDeviceProp.minor=%d\n", p.major, p.minor);
    std::printf("cudaDeviceProp.multiProcessorCount=%d\n", p.multiProcessorCount);
    std::printf("cudaDeviceProp.totalGlobalMem=%zu\n", p.totalGlobalMem);
    std::printf("cudaDeviceProp.l2CacheSize=%d\n", p.l2CacheSize);
    std::printf("cudaDeviceProp.persistingL2CacheMaxSize=%d\n", p.persistingL2CacheMaxSize);
    std::printf("cudaDeviceProp.sharedMemPerMultiprocessor=%zu\n", p.sharedMemPerMultiprocessor);
    std::printf("cudaDeviceProp.sharedMemPerBlock=%zu\n", p.sharedMemPerBlock);
    std::printf("cudaDeviceProp.sharedMemPerBlockOptin=%zu\n", p.sharedMemPerBlockOptin);
    std::printf("cudaDeviceProp.reservedSharedMemPerBlock=%zu\n", p.reservedSharedMemPerBlock);
    std::printf("cudaDeviceProp.regsPerMultiprocessor=%d\n", p.regsPerMultiprocessor);
    std::printf("cudaDeviceProp.regsPerBlock=%d\n", p.regsPerBlock);
    std::printf("cudaDeviceProp.maxThreadsPerMultiProcessor=%d\n", p.maxThreadsPerMultiProcessor);
    std::printf("cudaDeviceProp.maxBlocksPerMultiProcessor=%d\n", p.maxBlocksPerMultiProcessor);
    std::printf("cudaDeviceProp.warpSize=%d\n", p.warpSize);
    std::printf("cudaDeviceProp.memoryBusWidth=%d\n", p.memoryBusWidth);
    std::printf("cudaDeviceProp.globalL1CacheSupported=%d\n", p.globalL1CacheSupported);
    std::printf("cudaDeviceProp.localL1CacheSupported=%d\n", p.localL1CacheSupported);
    std::printf("cudaDeviceProp.eccEnabled=%d\n", p.ECCEnabled);
    std::printf("cudaDevAttrClockRate_kHz=%d\ncudaDevAttrMemoryClockRate_kHz=%d\n", clk, memclk);
    std::printf("cudaDriverGetVersion=%d\ncudaRuntimeGetVersion=%d\n", drv, rt);
    unsigned* d = nullptr;
    unsigned h[4] = {0, 0, 0, 0};
    CK(cudaMalloc(&d, 16));
    info_smem_base_dynonly<<<1, 32, kSmemBytes>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost));
    std::printf("shared_window_addr(dynamic smem, no static smem)=0x%x\n", h[0]);
    info_smem_base<<<1, 32, kSmemBytes>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost));
    std::printf("shared_window_addr(dynamic smem, with 16 B static smem)=0x%x static=0x%x generic=0x%08x%08x\n", h[0],
                h[1], h[3], h[2]);
    CK(cudaFree(d));
}

int main(int argc, char** argv)
{
    const std::vector<Pattern> P = make_patterns();
    if (argc >= 2 && !std::strcmp(argv[1], "--count")) {
        std::printf("%zu\n", P.size());
        return 0;
    }
    if (argc >= 2 && !std::strcmp(argv[1], "--props")) {
        print_props();
        return 0;
    }
    if (argc >= 3 && !std::strcmp(argv[1], "--csv")) {
        write_csv(P, argv[2]);
        std::fprintf(stderr, "rules_probe: wrote %zu patterns to %s\n", P.size(), argv[2]);
        return 0;
    }
    long first = 0, count = -1;
    if (argc >= 4 && !std::strcmp(argv[1], "--run")) {
        first = std::atol(argv[2]);
        count = std::atol(argv[3]);
    } else if (argc == 2) {
        write_csv(P, argv[1]);
    } else {
        std::fprintf(stderr, "usage: %s --csv PATH | --run FIRST COUNT | --count | --props | PATH\n", argv[0]);
        return 2;
    }
    long last = count < 0 ? (long)P.size() : std::min<long>((long)P.size(), first + count);

    Bufs b;
    CK(cudaMalloc(&b.g, kGlobalBytes));
    CK(cudaMalloc(&b.sink, 256));
    CK(cudaMemset(b.g, 0, kGlobalBytes));
    CK(cudaMemset(b.sink, 0, 256));
    if ((uintptr_t)b.g % 256 != 0) {
        std::fprintf(stderr, "global buffer not 256-byte aligned\n");
        return 1;
    }
    // allow the largest dynamic shared size used (16384 + id stays below 48 KB for < 32768 patterns)
    for (long i = first; i < last; ++i) launch(P[i], (int)i, b);
    int h = 0;
    CK(cudaMemcpy(&h, b.sink, sizeof h, cudaMemcpyDeviceToHost));
    std::fprintf(stderr, "rules_probe: launched patterns [%ld, %ld), sink=%d (expect 0)\n", first, last, h);
    return 0;
}
