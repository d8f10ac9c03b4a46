// device_props: what the CUDA runtime reports of GPU 0, one key=value per line, for
// validation/<gpu>/device_props.txt (the SM count and L2 size data/gpus/gpus.toml cites).
//   nvcc -o device_props validation/kernels/device_props.cu && ./device_props
#include <cuda_runtime.h>

#include <cstdio>

int main()
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
        std::fprintf(stderr, "device_props: no CUDA device\n");
        return 1;
    }
    int drv = 0, rt = 0, clk = 0, memclk = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&memclk, cudaDevAttrMemoryClockRate, 0);
    std::printf("name=%s\nmajor=%d\nminor=%d\nmultiProcessorCount=%d\nl2CacheSize=%d\npersistingL2CacheMaxSize=%d\n"
                "sharedMemPerMultiprocessor=%zu\nsharedMemPerBlockOptin=%zu\nreservedSharedMemPerBlock=%zu\n"
                "maxBlocksPerMultiProcessor=%d\nmaxThreadsPerMultiProcessor=%d\nregsPerMultiprocessor=%d\n"
                "totalGlobalMem=%zu\nmemoryBusWidth=%d\nclockRate_kHz=%d\nmemoryClockRate_kHz=%d\n"
                "driverVersion=%d\nruntimeVersion=%d\n",
                p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, p.persistingL2CacheMaxSize,
                p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock,
                p.maxBlocksPerMultiProcessor, p.maxThreadsPerMultiProcessor, p.regsPerMultiprocessor, p.totalGlobalMem,
                p.memoryBusWidth, clk, memclk, drv, rt);
    return 0;
}
