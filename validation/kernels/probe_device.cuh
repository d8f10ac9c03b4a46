// probe_device.cuh -- device helpers the single-mechanism probes share (partition_probe, lrc_probe,
// writeback_map).
#pragma once

// The SM this thread runs on.
__device__ __forceinline__ unsigned smid() {
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

// A 4 B load that does not allocate in L1 (ld.global.cg): every one is an L1 miss sent to L2.
__device__ __forceinline__ unsigned ld_cg(const unsigned* p) {
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

// The SM clock, not moved across memory operations (the p-chase method: clock, load, use the value,
// clock).
__device__ __forceinline__ long long clock_now() {
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}
