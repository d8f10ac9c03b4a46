// occupancy_sweep.cu -- ground truth for warpscope's occupancy calculator.
//
// Loads cubins built from occ_module.cu (one per -maxrregcount value), and for every kernel in them
// asks the driver (cuOccupancyMaxActiveBlocksPerMultiprocessor) how many blocks fit on one SM for a
// grid of block sizes x dynamic shared memory sizes, optionally with a preferred shared-memory
// carveout set. One runtime-API kernel is swept too (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
//
// Usage: occupancy_sweep OUT_DIR CUBIN...
//   writes OUT_DIR/occupancy_sweep.csv, OUT_DIR/occupancy_kernels.csv, OUT_DIR/occupancy_device_props.txt
//
// Build: nvcc -arch=sm_90 -O3 -lineinfo -o occupancy_sweep occupancy_sweep.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK_RT(x)                                                                                    \
    do {                                                                                            \
        cudaError_t e_ = (x);                                                                       \
        if (e_ != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));  \
            std::exit(1);                                                                           \
        }                                                                                           \
    } while (0)
#define CK_DRV(x)                                                                                   \
    do {                                                                                            \
        CUresult e_ = (x);                                                                          \
        if (e_ != CUDA_SUCCESS) {                                                                   \
            const char* n_ = nullptr;                                                               \
            cuGetErrorName(e_, &n_);                                                                \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, n_ ? n_ : "?");          \
            std::exit(1);                                                                           \
        }                                                                                           \
    } while (0)

static std::string drv_err(CUresult e)
{
    const char* n = nullptr;
    cuGetErrorName(e, &n);
    return n ? n : "CUDA_ERROR_UNKNOWN";
}

// A small kernel compiled into this executable, swept through the runtime API as a cross-check.
__global__ void runtime_api_small(float* out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x % 256] = (float)i;
    __syncthreads();
    if (i < n) out[i] = s[(threadIdx.x + 1) % 256];
}

static const int kBlockSizes[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};

static std::vector<int> dyn_sizes(int static_smem, int optin)
{
    std::vector<int> v = {0,         1024,       2048,       8192,        16384,       32768,
                          48 * 1024, 64 * 1024,  100 * 1024, 160 * 1024,  200 * 1024,  optin - static_smem,
                          48 * 1024 - static_smem};
    std::vector<int> out;
    for (int d : v)
        if (d >= 0 && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
    std::sort(out.begin(), out.end());
    return out;
}

struct KInfo {
    std::string name;
    int regs = 0, static_smem = 0, max_threads = 0, local_bytes = 0, const_bytes = 0, ptx = 0, bin = 0,
        max_dyn_default = 0;
};

static KInfo query(CUfunction f, const std::string& name)
{
    KInfo k;
    k.name = name;
    CK_DRV(cuFuncGetAttribute(&k.regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CK_DRV(cuFuncGetAttribute(&k.static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    CK_DRV(cuFuncGetAttribute(&k.max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    CK_DRV(cuFuncGetAttribute(&k.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
    CK_DRV(cuFuncGetAttribute(&k.const_bytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f));
    CK_DRV(cuFuncGetAttribute(&k.ptx, CU_FUNC_ATTRIBUTE_PTX_VERSION, f));
    CK_DRV(cuFuncGetAttribute(&k.bin, CU_FUNC_ATTRIBUTE_BINARY_VERSION, f));
    CK_DRV(cuFuncGetAttribute(&k.max_dyn_default, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
    return k;
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s OUT_DIR CUBIN...\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    CK_RT(cudaSetDevice(0));
    CK_RT(cudaFree(nullptr));  // create the primary context; the driver API uses it below
    CUcontext ctx;
    CK_DRV(cuCtxGetCurrent(&ctx));

    cudaDeviceProp p;
    CK_RT(cudaGetDeviceProperties(&p, 0));
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    int clk = 0, memclk = 0, maxsmem_sm = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&memclk, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&maxsmem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
    {
        FILE* f = std::fopen((dir + "/occupancy_device_props.txt").c_str(), "w");
        if (!f) { std::perror("device_props"); return 1; }
        std::fprintf(f, "name=%s\n", p.name);
        std::fprintf(f, "major=%d\nminor=%d\n", p.major, p.minor);
        std::fprintf(f, "multiProcessorCount=%d\n", p.multiProcessorCount);
        std::fprintf(f, "regsPerMultiprocessor=%d\n", p.regsPerMultiprocessor);
        std::fprintf(f, "regsPerBlock=%d\n", p.regsPerBlock);
        std::fprintf(f, "sharedMemPerMultiprocessor=%zu\n", p.sharedMemPerMultiprocessor);
        std::fprintf(f, "sharedMemPerBlock=%zu\n", p.sharedMemPerBlock);
        std::fprintf(f, "sharedMemPerBlockOptin=%zu\n", p.sharedMemPerBlockOptin);
        std::fprintf(f, "reservedSharedMemPerBlock=%zu\n", p.reservedSharedMemPerBlock);
        std::fprintf(f, "maxThreadsPerMultiProcessor=%d\n", p.maxThreadsPerMultiProcessor);
        std::fprintf(f, "maxThreadsPerBlock=%d\n", p.maxThreadsPerBlock);
        std::fprintf(f, "maxBlocksPerMultiProcessor=%d\n", p.maxBlocksPerMultiProcessor);
        std::fprintf(f, "warpSize=%d\n", p.warpSize);
        std::fprintf(f, "l2CacheSize=%d\n", p.l2CacheSize);
        std::fprintf(f, "persistingL2CacheMaxSize=%d\n", p.persistingL2CacheMaxSize);
        std::fprintf(f, "accessPolicyMaxWindowSize=%d\n", p.accessPolicyMaxWindowSize);
        std::fprintf(f, "totalGlobalMem=%zu\n", p.totalGlobalMem);
        std::fprintf(f, "totalConstMem=%zu\n", p.totalConstMem);
        std::fprintf(f, "memoryBusWidth=%d\n", p.memoryBusWidth);
        std::fprintf(f, "clockRate_kHz=%d\n", clk);
        std::fprintf(f, "memoryClockRate_kHz=%d\n", memclk);
        std::fprintf(f, "maxSharedMemoryPerMultiprocessor_attr=%d\n", maxsmem_sm);
        std::fprintf(f, "globalL1CacheSupported=%d\n", p.globalL1CacheSupported);
        std::fprintf(f, "localL1CacheSupported=%d\n", p.localL1CacheSupported);
        std::fprintf(f, "driverVersion=%d\nruntimeVersion=%d\n", drv, rt);
        std::fclose(f);
    }
    const int optin = (int)p.sharedMemPerBlockOptin;

    FILE* fs = std::fopen((dir + "/occupancy_sweep.csv").c_str(), "w");
    FILE* fk = std::fopen((dir + "/occupancy_kernels.csv").c_str(), "w");
    if (!fs || !fk) { std::perror("fopen"); return 1; }
    std::fprintf(fs, "kernel,regs_per_thread,static_smem,dynamic_smem,block_size,carveout_pct,max_threads_per_block,"
                     "blocks_per_sm,error\n");
    std::fprintf(fk, "kernel,cubin,requested_maxrregcount,regs_per_thread,static_smem,local_bytes,const_bytes,"
                     "max_threads_per_block,max_dynamic_smem_default,ptx_version,binary_version\n");
    long rows = 0;

    // One sweep of a driver-API function. maxdyn_mode 0: set MAX_DYNAMIC_SHARED_SIZE_BYTES to exactly the
    // dynamic size of each query; 1: set it once to (optin - static) and leave it.
    auto sweep = [&](CUfunction f, const KInfo& k, const std::string& label, int carveout, int maxdyn_mode) {
        if (carveout >= 0) {
            CUresult e = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout);
            if (e != CUDA_SUCCESS) {
                std::fprintf(fs, "%s,%d,%d,%d,%d,%d,%d,,%s\n", label.c_str(), k.regs, k.static_smem, 0, 0, carveout,
                             k.max_threads, drv_err(e).c_str());
                ++rows;
                return;
            }
        }
        if (maxdyn_mode == 1) {
            CUresult e = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - k.static_smem);
            if (e != CUDA_SUCCESS) std::fprintf(stderr, "%s: set max dyn failed: %s\n", label.c_str(), drv_err(e).c_str());
        }
        for (int bs : kBlockSizes) {
            if (bs > k.max_threads) continue;
            for (int dyn : dyn_sizes(k.static_smem, optin)) {
                CUresult e = CUDA_SUCCESS;
                if (maxdyn_mode == 0) e = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dyn);
                int n = -1;
                if (e == CUDA_SUCCESS) e = cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, bs, (size_t)dyn);
                if (e == CUDA_SUCCESS)
                    std::fprintf(fs, "%s,%d,%d,%d,%d,%d,%d,%d,\n", label.c_str(), k.regs, k.static_smem, dyn, bs,
                                 carveout, k.max_threads, n);
                else
                    std::fprintf(fs, "%s,%d,%d,%d,%d,%d,%d,,%s\n", label.c_str(), k.regs, k.static_smem, dyn, bs,
                                 carveout, k.max_threads, drv_err(e).c_str());
                ++rows;
            }
        }
        // restore defaults
        if (carveout >= 0) cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1);
        cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0);
    };

    const char* knames[] = {"hungry_s0", "hungry_s1024", "hungry_s4096", "hungry_s12288", "hungry_s40960", "tiny"};
    bool tiny_done = false;
    for (int a = 2; a < argc; ++a) {
        std::string path = argv[a];
        std::string base = path.substr(path.find_last_of('/') + 1);
        // file name occ_r<R>.cubin -> requested R
        int req = -1;
        std::sscanf(base.c_str(), "occ_r%d", &req);
        CUmodule m;
        CUresult e = cuModuleLoad(&m, path.c_str());
        if (e != CUDA_SUCCESS) {
            std::fprintf(stderr, "cuModuleLoad(%s): %s\n", path.c_str(), drv_err(e).c_str());
            continue;
        }
        for (const char* kn : knames) {
            bool is_tiny = std::string(kn) == "tiny";
            if (is_tiny && tiny_done) continue;
            CUfunction f;
            CK_DRV(cuModuleGetFunction(&f, m, kn));
            KInfo k = query(f, kn);
            std::string label = is_tiny ? std::string("tiny") : (std::string(kn) + "_r" + std::to_string(req));
            std::fprintf(fk, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", label.c_str(), base.c_str(), is_tiny ? -1 : req,
                         k.regs, k.static_smem, k.local_bytes, k.const_bytes, k.max_threads, k.max_dyn_default, k.ptx,
                         k.bin);
            sweep(f, k, label, -1, 0);
            // carveout variants on a few kernels
            bool carve = is_tiny || req == 32 || req == 64 || req == 128 || req == 255;
            if (carve)
                for (int c : {0, 25, 50, 100}) sweep(f, k, label, c, 0);
            // MAX_DYNAMIC_SHARED_SIZE_BYTES held at its maximum instead of set per query
            if (req == 32 || req == 128 || is_tiny) sweep(f, k, label + "_maxdynattr", -1, 1);
            if (is_tiny) tiny_done = true;
        }
    }

    // Runtime-API cross-check kernel.
    {
        cudaFuncAttributes fa;
        CK_RT(cudaFuncGetAttributes(&fa, runtime_api_small));
        KInfo k;
        k.name = "runtime_api_small";
        k.regs = fa.numRegs;
        k.static_smem = (int)fa.sharedSizeBytes;
        k.max_threads = fa.maxThreadsPerBlock;
        std::fprintf(fk, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", k.name.c_str(), "occupancy_sweep(executable)", -1,
                     k.regs, k.static_smem, (int)fa.localSizeBytes, (int)fa.constSizeBytes, k.max_threads,
                     fa.maxDynamicSharedSizeBytes, fa.ptxVersion, fa.binaryVersion);
        for (int carve : {-1, 0, 50, 100}) {
            if (carve >= 0) CK_RT(cudaFuncSetAttribute(runtime_api_small, cudaFuncAttributePreferredSharedMemoryCarveout, carve));
            for (int bs : kBlockSizes) {
                if (bs > k.max_threads) continue;
                for (int dyn : dyn_sizes(k.static_smem, optin)) {
                    cudaError_t e = cudaFuncSetAttribute(runtime_api_small, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn);
                    int n = -1;
                    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, runtime_api_small, bs, dyn);
                    if (e == cudaSuccess)
                        std::fprintf(fs, "%s,%d,%d,%d,%d,%d,%d,%d,\n", k.name.c_str(), k.regs, k.static_smem, dyn, bs, carve,
                                     k.max_threads, n);
                    else
                        std::fprintf(fs, "%s,%d,%d,%d,%d,%d,%d,,%s\n", k.name.c_str(), k.regs, k.static_smem, dyn, bs, carve,
                                     k.max_threads, cudaGetErrorName(e));
                    cudaGetLastError();
                    ++rows;
                }
            }
        }
    }
    std::fclose(fs);
    std::fclose(fk);
    std::printf("occupancy_sweep: %ld rows\n", rows);
    return 0;
}
