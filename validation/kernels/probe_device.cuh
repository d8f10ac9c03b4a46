// probe_device.cuh -- device helpers the single-mechanism probes share (partition_probe, lrc_probe,
// writeback_map, write_probe).
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

// A 4 B load cached in L1 (ld.global.ca); the memory clobber keeps a loop's loads in the loop.
__device__ __forceinline__ unsigned ld_ca(const unsigned* p) {
    unsigned v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// The SM clock, not moved across memory operations (the p-chase method: clock, load, use the value,
// clock).
__device__ __forceinline__ long long clock_now() {
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

// The latency in cycles of one ld.global.cg of `p` (its value in `v`): the clock, the load, the value
// stored to the volatile `seen` (which waits for it), the clock again.
__device__ __forceinline__ long long timed_ld_cg(const unsigned* p, volatile unsigned& seen, unsigned& v) {
    const long long start = clock_now();
    v = ld_cg(p);
    seen = v;
    return clock_now() - start;
}
