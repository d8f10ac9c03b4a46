// cache_kernels.cu -- hardware validation suite: the six kernels of the cache probe
// (validation/kernels/cache_kernels.cuh: a 2D stencil, naive and tiled transposes, a random gather
// through L1 and with ld.global.cg, an __ldg copy), as an application that `warpscope trace` records.
//
// The suite first took these launches from the probe's host emulation (validation/h100/cache, seeded by
// validation/tools/seed_suite_from_cache.py): records without SM ids, in the emulator's order. This
// program runs the same kernels on the same sizes, inputs and launch order so that run_on_gpu.sh can
// profile and trace them like every other suite application.
//
// Every kernel is launched once; one line "kernel NAME ms=T" per launch on stdout. The results are
// checked on the host; a wrong result is reported on stderr and the exit status is 1.
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o cache_kernels cache_kernels.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "suite_common.cuh"
#include "../cache_kernels.cuh"

template <class T>
static std::vector<T> download(const T* d, size_t n)
{
    std::vector<T> host(n);
    CK(cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

static int report(const char* kernel, int bad)
{
    if (bad) std::fprintf(stderr, "%s: %d wrong results\n", kernel, bad);
    return bad;
}

int main()
{
    const std::vector<Launch> L = launches();

    // inputs as in the probe (validation/kernels/cache_kernels.cu)
    std::vector<float> sten((size_t)kStencilN * kStencilN), tr((size_t)kTransposeN * kTransposeN), src(kGatherSrcN),
        cp(kCopyN);
    for (size_t i = 0; i < sten.size(); ++i) sten[i] = (float)((i * 7) % 13);
    for (size_t i = 0; i < tr.size(); ++i) tr[i] = (float)i;
    for (size_t i = 0; i < src.size(); ++i) src[i] = (float)(i & 0xffff);
    for (size_t i = 0; i < cp.size(); ++i) cp[i] = (float)i;
    const std::vector<int> idx = make_idx();

    float* s_in = upload(sten);
    float* s_out = upload(sten);  // the border keeps the input values
    float* tn_in = upload(tr);
    float* tn_out = upload(std::vector<float>(tr.size()));
    float* tt_in = upload(tr);
    float* tt_out = upload(std::vector<float>(tr.size()));
    float* g_in = upload(src);
    int* g_idx = upload(idx);
    float* g_out = upload(std::vector<float>(idx.size()));
    float* gc_out = upload(std::vector<float>(idx.size()));
    float* c_in = upload(cp);
    float* c_out = upload(std::vector<float>(cp.size()));
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));

    run("stencil2d", stencil2d, L[0].grid, L[0].block, (const float*)s_in, s_out, kStencilN);
    run("transpose_naive", transpose_naive, L[1].grid, L[1].block, (const float*)tn_in, tn_out, kTransposeN);
    run("transpose_tiled", transpose_tiled, L[2].grid, L[2].block, (const float*)tt_in, tt_out, kTransposeN);
    run("gather", gather, L[3].grid, L[3].block, (const float*)g_in, (const int*)g_idx, g_out, kGatherN);
    run("gather_cg", gather_cg, L[4].grid, L[4].block, (const float*)g_in, (const int*)g_idx, gc_out, kGatherN);
    run("copy_ldg", copy_ldg, L[5].grid, L[5].block, (const float*)c_in, c_out, kCopyN);

    int bad = 0;
    {
        const int n = kStencilN;
        const std::vector<float> o = download(s_out, sten.size());
        int b = 0;
        for (int y = 1; y < n - 1; ++y)
            for (int x = 1; x < n - 1; ++x) {
                const int i = y * n + x;
                b += o[i] != sten[i] + sten[i - n] + sten[i + n] + sten[i - 1] + sten[i + 1];
            }
        bad += report("stencil2d", b);
    }
    for (int t = 0; t < 2; ++t) {
        const int n = kTransposeN;
        const std::vector<float> o = download(t ? tt_out : tn_out, tr.size());
        int b = 0;
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) b += o[(size_t)x * n + y] != tr[(size_t)y * n + x];
        bad += report(t ? "transpose_tiled" : "transpose_naive", b);
    }
    for (int g = 0; g < 2; ++g) {
        const std::vector<float> o = download(g ? gc_out : g_out, idx.size());
        int b = 0;
        for (size_t i = 0; i < o.size(); ++i) b += o[i] != src[idx[i]];
        bad += report(g ? "gather_cg" : "gather", b);
    }
    {
        const std::vector<float> o = download(c_out, cp.size());
        int b = 0;
        for (size_t i = 0; i < o.size(); ++i) b += o[i] != cp[i];
        bad += report("copy_ldg", b);
    }
    return bad ? 1 : 0;
}
