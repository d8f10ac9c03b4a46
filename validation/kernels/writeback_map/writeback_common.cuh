// writeback_common.cuh -- what writeback_map.cu and writeback_pairs.cu share: the L2 "flush" by
// reading a large buffer (the L2 then holds only clean lines of it).
#pragma once

#include <cstddef>

constexpr size_t kFlushBytes = size_t{256} << 20;

__global__ void read_all(const uint4* p, size_t n, unsigned* sink) {
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = __ldcg(p + i);
        acc.x ^= v.x;
        acc.y ^= v.y;
    }
    if ((acc.x ^ acc.y) == 0x9e3779b9u) sink[0] = acc.x;
}
