// suite_common.cuh -- what the validation suite's applications share: error checking and
// run(), which launches one kernel once and prints "kernel NAME ms=T" (its CUDA-event time); upload(); and
// the SpMV matrix that realistic.cu and the write probe both use.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));     \
            std::exit(1);                                                                              \
        }                                                                                              \
    } while (0)

static cudaEvent_t g_e0, g_e1;

template <class K, class... A>
static void run(const char* name, K kernel, dim3 grid, dim3 block, A... args)
{
    CK(cudaEventRecord(g_e0));
    kernel<<<grid, block>>>(args...);
    CK(cudaGetLastError());
    CK(cudaEventRecord(g_e1));
    CK(cudaEventSynchronize(g_e1));
    float ms = 0.f;
    CK(cudaEventElapsedTime(&ms, g_e0, g_e1));
    std::printf("kernel %s ms=%.4f\n", name, ms);
}

// Prints "checksum NAME HEX", the 64-bit FNV-1a of `bytes` bytes of device memory: what a probe computed,
// for the PTX interpreter's run to equal (tests/validation/h100_*_probe_test.cpp).
static uint64_t fnv1a(const void* p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(p)[i]) * 0x100000001b3ull;
    return h;
}

static void checksum(const char* name, const void* dev, size_t bytes)
{
    std::vector<unsigned char> h(bytes);
    CK(cudaMemcpy(h.data(), dev, bytes, cudaMemcpyDeviceToHost));
    std::printf("checksum %s %016llx\n", name, (unsigned long long)fnv1a(h.data(), bytes));
}

// A device copy of `h` (cudaMalloc + copy; never freed: the applications exit after their launches).
template <class T>
static T* upload(const std::vector<T>& h)
{
    T* d = nullptr;
    CK(cudaMalloc(&d, h.size() * sizeof(T)));
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

// realistic.cu's CSR matrix: `rows` rows of 1-16 non-zeros, columns within 512 of the diagonal
// (wrapping), deterministic.
struct CsrMatrix {
    std::vector<int> rowptr, col;
    std::vector<float> val;
};

static CsrMatrix spmv_matrix(int rows)
{
    CsrMatrix m;
    m.rowptr.resize((size_t)rows + 1);
    uint32_t s = 7u;
    for (int r = 0; r < rows; ++r) {
        m.rowptr[r] = (int)m.col.size();
        s = s * 1664525u + 1013904223u;
        const int nnz = 1 + (int)((s >> 10) % 16);
        for (int k = 0; k < nnz; ++k) {
            s = s * 1664525u + 1013904223u;
            int c = r - 512 + (int)((s >> 8) % 1024);
            c = c < 0 ? c + rows : (c >= rows ? c - rows : c);
            m.col.push_back(c);
            m.val.push_back((float)((s >> 4) & 15) * 0.25f);
        }
    }
    m.rowptr[rows] = (int)m.col.size();
    return m;
}
