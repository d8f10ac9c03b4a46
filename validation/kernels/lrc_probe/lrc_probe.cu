// lrc_probe.cu -- which requests the H100's L2 request coalescer (LRC) merges: those of CTAs on one
// GPC only, or any that meet in flight (validation/h100/merge_probe/README.md). Run by
// validation/lrc_probe.sh under Nsight Compute.
//
// Every CTA is one warp with enough dynamic shared memory that no two CTAs share an SM; all CTAs of a
// launch are resident at once and read, with ld.global.cg (no L1 allocation), the N 128 B lines of
// their group's tile, one coalesced 4 B load per line. Groups of C CTAs share a tile:
//
//   cluster:C:G:N  G CTAs launched as clusters of C (a cluster's CTAs run on one GPC); a group is a
//                  cluster.
//   far:C:G:N      G CTAs, no clusters; a group is the C CTAs G/C apart in the grid (blockIdx.x % (G/C)),
//                  which the CTA scheduler places on SMs far apart.
//   alone:G:N      G CTAs, each its own tile (nothing to merge).
//
// Prints "launch CONFIG" and "smids CONFIG s0 s1 ..." (the SM of each CTA, by blockIdx.x).
//
// Build: nvcc -O3 -arch=sm_90 -o lrc_probe lrc_probe.cu
// Usage: lrc_probe CONFIG...   e.g.  lrc_probe cluster:2:64:256 far:2:64:256 alone:64:256
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../suite/suite_common.cuh"
#include "../probe_device.cuh"

namespace {

constexpr int kLineWords = 32;
constexpr int kSmemBytes = 200 * 1024;  // one CTA per SM (228 KB of shared memory per SM)

// groups_mod > 0: group = blockIdx.x % groups_mod; otherwise group = blockIdx.x / group_size.
__global__ void tile_read(const unsigned* data, unsigned* smids, unsigned* sink, int lines, int group_size,
                          int groups_mod) {
    extern __shared__ unsigned pad[];
    const int group = groups_mod > 0 ? (int)blockIdx.x % groups_mod : (int)blockIdx.x / group_size;
    const unsigned* tile = data + (size_t)group * lines * kLineWords;
    unsigned sum = 0;
    for (int l = 0; l < lines; ++l) sum += ld_cg(tile + (size_t)l * kLineWords + threadIdx.x);
    pad[threadIdx.x] = sum;
    __syncwarp();
    sink[blockIdx.x * 32 + threadIdx.x] = pad[threadIdx.x ^ 1];
    if (threadIdx.x == 0) smids[blockIdx.x] = smid();
}

}  // namespace

int main(int argc, char** argv) {
    CK(cudaFuncSetAttribute(tile_read, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    CK(cudaFuncSetAttribute(tile_read, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    const size_t max_words = size_t{132} * 1024 * kLineWords;
    unsigned *data, *smids, *sink;
    CK(cudaMalloc(&data, max_words * 4));
    CK(cudaMemset(data, 1, max_words * 4));
    CK(cudaMalloc(&smids, 1024 * 4));
    CK(cudaMalloc(&sink, 1024 * 32 * 4));
    for (int i = 1; i < argc; ++i) {
        const std::string config = argv[i];
        int c = 1, g = 0, n = 0;
        std::string mode = config.substr(0, config.find(':'));
        if (mode == "alone") std::sscanf(config.c_str() + 6, "%d:%d", &g, &n);
        else std::sscanf(config.c_str() + mode.size() + 1, "%d:%d:%d", &c, &g, &n);
        if (g <= 0 || g > 1024 || n <= 0 || (size_t)g * n * kLineWords > max_words || c <= 0 || g % c != 0) {
            std::fprintf(stderr, "bad config %s\n", config.c_str());
            return 2;
        }
        cudaLaunchConfig_t lc = {};
        lc.gridDim = dim3(g);
        lc.blockDim = dim3(32);
        lc.dynamicSmemBytes = kSmemBytes;
        cudaLaunchAttribute attr[1];
        if (mode == "cluster") {
            attr[0].id = cudaLaunchAttributeClusterDimension;
            attr[0].val.clusterDim.x = c;
            attr[0].val.clusterDim.y = 1;
            attr[0].val.clusterDim.z = 1;
            lc.attrs = attr;
            lc.numAttrs = 1;
        }
        const int group_size = mode == "alone" ? 1 : c;
        const int groups_mod = mode == "far" ? g / c : 0;
        std::printf("launch %s\n", config.c_str());
        CK(cudaLaunchKernelEx(&lc, tile_read, (const unsigned*)data, smids, sink, n, group_size, groups_mod));
        CK(cudaDeviceSynchronize());
        std::vector<unsigned> s(g);
        CK(cudaMemcpy(s.data(), smids, g * 4, cudaMemcpyDeviceToHost));
        std::printf("smids %s", config.c_str());
        for (unsigned v : s) std::printf(" %u", v);
        std::printf("\n");
    }
    return 0;
}
