// write_probe.cu -- how the H100's L2 and L1 handle stores that the untimed model gets wrong
// (docs/VALIDATION.md "What is left"); run by validation/write_probe.sh under Nsight Compute.
//
// Two questions, one launch per configuration (every launch prints "launch TAG"):
//
//  1. Partial-sector writes and DRAM (store-only suite kernels write back and read partial sectors
//     during the kernel, the model neither): `spread B STRIDE N` -- N threads, thread t stores B
//     bytes (4, 16 or 32) at out + t * STRIDE; B < 32 leaves each written sector partial. If the
//     DRAM traffic is a capacity effect it follows N (the number of partial sectors) and not the
//     issue rate; `spread_serial` issues the same stores from one CTA, slowly, to tell the two apart.
//
//     `skip B BIT N` stores the same way into N lines whose address bit BIT is always 0: line i at
//     ((i >> (BIT - 7)) << (BIT + 1)) | ((i & ((1 << (BIT - 7)) - 1)) << 7), so BIT 7 is line stride 2.
//     The same 32K partial lines write nothing back at line stride 2 and 800-2,600 otherwise
//     (list c): which address bits, left out, have that effect says which ones pick the resource.
//     `skip2 B BIT1 BIT2 N` leaves out two bits (BIT1 < BIT2): is bit 7 enough whatever else changes?
//
//  2. L1 store hits of sub-word stores (the model counts every store to a line whose tag is present
//     as a hit, l1.store_hit = line; the H100 misses part of them): `turns E MODE` -- the shape of
//     g_st1/g_st2_coalesced (65,536 threads, thread t stores E bytes at out + t * E), where the
//     warps of a CTA store in turn: MODE 0 all at once (the suite kernel), 1 one warp at a time
//     with a barrier between, 2 the same plus a 4 us sleep before each barrier. If the misses come
//     from stores that reach a line while its allocation is in flight, MODE 2 should hit in every
//     sector after the first warp's (1 - 1/(128/(32 E)) of them).
//
//  3. How long a store stays "in flight" for the stores after it (r_particles_aos misses 11% of
//     its store sectors although its loads fetched every one of them first; docs/VALIDATION.md):
//     `window MODE DELAY` -- 528 CTAs of one warp (two for MODE 5), each on its own 128 B lines,
//     lane l storing 4 B at line + 4 l (4 sectors) with st.global; the lines are loaded first and
//     the stores depend on the loaded values, so they are present and valid. Store A, a spin of
//     DELAY SM cycles (clock64), store B:
//       0  B to A's line                       1  B to another (loaded) line: the control
//       2  as 0, no load first: A allocates    3  A writes sector 0 only, B sector 1 of the line
//       4  A alone (no B): A's own hits        5  A by warp 0, a barrier, B by warp 1 after DELAY
//     B's hits = all hits - A's (A's: MODE 4, or 0 for MODE 2).
//     `particles THREADS` -- the suite's r_particles_aos (65,536 structs of six floats: six loads,
//     then x, y, z stored back) in CTAs of THREADS (32-1024) threads: do its store misses need
//     several warps of a CTA at once? `particles_serial THREADS`: one CTA does all of it in rounds.
//     `interfere MODE` -- 132 CTAs of two warps: warp 0 loads its line, then stores to it 64 times
//     (4 sectors each, 64-cycle spins between) while warp 1: 0 does nothing, 1 loads 1,024 new
//     lines (allocations), 2 loads 8 lines over and over (hits, no allocation), 3 stores into 1,024
//     new lines. Do other warps' accesses to other lines make a store to a present line miss?
//     MODE 4-6: warp 0 loads its line 64 times instead (l1tex load hits), while warp 1 does what
//     MODE 0, 3 or 1 has it do: do loads of a present line miss while another warp stores?
//     `spmv THREADS` / `spmv_serial THREADS` -- the suite's r_spmv_csr_vector (its matrix: 16,384
//     rows of 1-16 non-zeros near the diagonal; a warp per row) on the whole GPU in CTAs of THREADS,
//     or by one CTA of THREADS whose warps take the rows in turn: do its L1 load misses beyond the
//     first touch of each sector need other warps at the same time? `spmv` prints each CTA's SM
//     ("cta I sm S"): the placement of that very run, to replay its trace with.
//  4. Which warps' concurrent stores cost hits (session 11; the suite's store hit rates are stable to
//     1-2 points over three runs, so a rule, not noise, decides them): 132 CTAs of 1,024 threads (one
//     per SM), of which the warps in the 32-bit mask MASK take part. Warps w, w + 4, w + 8, ... share
//     an SM sub-partition, warps 0-3 are on four (`slots` prints each warp's %warpid: 3 0 1 2 7 4 5
//     6 ... on the H100, so sub-partition (w + 3) % 4). All start after a barrier.
//     `gst E MASK [SPIN]` -- the k-th taking part stores E bytes per lane at region + (32 k + lane) E,
//     so 128 / (32 E) consecutive ones share a new line, after a spin of k x SPIN cycles: one
//     sub-partition (MASK 11111111) against four (000000ff), and how far apart two warps' stores
//     must be for the later one to find the line.
//     `gstw E MASK W` -- as gst without spin, but the k-th stores at slot k % W, so warps k and k + W
//     write the same bytes: 8 warps of one sub-partition into one line (E 1, W 4) against 8 into
//     two (gst): does the number of new lines or of warps cost the hits?
//     `pst MASK N` -- each taking part loads its own line, then stores to it (4 sectors) N times:
//     stores to present lines, with the other warps storing to theirs from the same or other
//     sub-partitions.
//     `gseq MASK LINES SPIN [P]` -- as gst (1 B per lane, 132 CTAs of 1,024 threads), but the k-th
//     taking part stores into line LINES[k] of its CTA's region (LINES: one hex digit per rank, the
//     first for rank 0), at the next sector of that line, after a spin of k x SPIN cycles: a forced
//     order of new lines. Is it the order of a sub-partition's new lines that costs hits (0101...
//     against 0011...), how many other new lines a line survives (012012..., 01230123), and does it
//     matter that a line was allocated by a store? P = 1: every line is loaded first (ld.ca), so it
//     is present and valid before any store.
//     `tslots E CTAS THREADS` -- `turns E 0` (thread t stores E bytes at t x E) in CTAS CTAs of
//     THREADS, each warp also writing its SM and %warpid to its own 128 B line elsewhere (a miss
//     each, no hit): which sub-partitions the warps sharing a line sit on in the suite's shape.
//     Prints, per line's group of warps, how many sub-partitions they span, and the first CTAs'.
//     `overlap MODE` -- 528 CTAs of two warps, each CTA on its own line (nothing cached): warp 0's
//     lanes 0-15 load words 0-15 (sectors 0 and 1) while warp 1's load, at the same time, words
//     0-15 (MODE 0: the same sectors), 8-23 (1: sectors 1 and 2), 16-31 (2: sectors 2 and 3), or
//     8-23 after a 4,096-cycle spin (3: sector 1 long since filled). Is a sector another warp's
//     fill has in flight a hit (the model's count) when the requests are not the same?
//
// Build: nvcc -O3 -arch=sm_90 -o write_probe write_probe.cu
// Usage: write_probe CONFIG...   e.g.  write_probe spread:4:128:65536 turns:1:2
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../probe_device.cuh"
#include "../suite/suite_common.cuh"

namespace {

template <int B>
__device__ __forceinline__ void store_bytes(char* p, int v) {
    if constexpr (B == 4) {
        *reinterpret_cast<int*>(p) = v;
    } else if constexpr (B == 16) {
        *reinterpret_cast<int4*>(p) = make_int4(v, v + 1, v + 2, v + 3);
    } else {
        static_assert(B == 32, "4, 16 or 32 bytes");
        reinterpret_cast<int4*>(p)[0] = make_int4(v, v + 1, v + 2, v + 3);
        reinterpret_cast<int4*>(p)[1] = make_int4(v + 4, v + 5, v + 6, v + 7);
    }
}

template <int B>
__global__ void spread(char* out, long long stride) {
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    store_bytes<B>(out + t * stride, (int)t);
}

// Line t with address bit `bit` (>= 7) forced to 0; B bytes at its start.
template <int B>
__global__ void skip_bit(char* out, int bit) {
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    const long long low = t & ((1ll << (bit - 7)) - 1), high = t >> (bit - 7);
    store_bytes<B>(out + ((high << (bit + 1)) | (low << 7)), (int)t);
}

// Line t with address bits `lo` < `hi` (both >= 7) forced to 0.
template <int B>
__global__ void skip_bits(char* out, int lo, int hi) {
    const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    auto insert_zero = [](long long x, int bit) {  // x: a byte offset; a 0 at `bit`, higher bits move up
        return ((x >> bit) << (bit + 1)) | (x & ((1ll << bit) - 1));
    };
    store_bytes<B>(out + insert_zero(insert_zero(t << 7, lo), hi), (int)t);
}

// One CTA of 256 threads stores what `spread` stores, n / 256 rounds, a barrier between rounds.
template <int B>
__global__ void spread_serial(char* out, long long stride, long long n) {
    for (long long base = 0; base < n; base += blockDim.x) {
        const long long t = base + threadIdx.x;
        store_bytes<B>(out + t * stride, (int)t);
        __syncthreads();
    }
}

template <class T>
__global__ void turns(T* out, int mode) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int warp = threadIdx.x >> 5;
    if (mode == 0) {
        out[t] = (T)t;
        return;
    }
    for (int k = 0; k < (int)(blockDim.x >> 5); ++k) {
        if (warp == k) out[t] = (T)t;
        if (mode == 2) __nanosleep(4000);
        __syncthreads();
    }
}

__device__ __forceinline__ void st_global(unsigned* p, unsigned v) {
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ void spin(long long cycles) {
    if (cycles <= 0) return;
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

// Two lines per CTA (32 words each): `line0` is stored by A (and B in modes 0, 2, 3, 5), `line1` by
// B in mode 1. `preload`: both lines are read first and the stored values depend on what was read.
__global__ void store_window(unsigned* out, int mode, long long delay) {
    unsigned* line0 = out + blockIdx.x * 64;
    unsigned* line1 = line0 + 32;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned v = 1;
    if (mode != 2) v += line0[lane] + line1[lane];
    const bool a_lane = mode == 3 ? lane < 8 : true;        // mode 3: sector 0 only
    const bool b_lane = mode == 3 ? (lane >= 8 && lane < 16) : true;  // mode 3: sector 1 only
    if (mode == 5) {
        if (warp == 0) st_global(line0 + lane, v);
        __syncthreads();
        if (warp == 1) {
            spin(delay);
            st_global(line0 + lane, v + 1);
        }
        return;
    }
    if (a_lane) st_global(line0 + lane, v);
    if (mode == 4) return;
    spin(delay);
    if (b_lane) st_global((mode == 1 ? line1 : line0) + lane, v + 1);
}

struct Particle {
    float x, y, z, vx, vy, vz;
};

// realistic.cu's r_particles_aos body for particle i (its six loads, then x, y, z stored back).
__device__ __forceinline__ void advance(Particle* p, int i, float dt) {
    Particle q = p[i];
    q.x += q.vx * dt;
    q.y += q.vy * dt;
    q.z += q.vz * dt;
    p[i] = q;
}

// realistic.cu's r_particles_aos, with the CTA size as the launch chooses.
__global__ void particles_aos(Particle* p, float dt) { advance(p, blockIdx.x * blockDim.x + threadIdx.x, dt); }

// The same work by one CTA, 65,536 / blockDim.x rounds: no other CTA's stores at the same time.
__global__ void particles_aos_serial(Particle* p, float dt) {
    for (int base = 0; base < 65536; base += blockDim.x) advance(p, base + threadIdx.x, dt);
}

// Warp 0's lines: out + 32 * blockIdx.x words; warp 1's: its own 1,024-line (128 KB) region per CTA.
__global__ void interfere(unsigned* out, int mode) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (warp == 0) {
        unsigned* line = out + blockIdx.x * 32;
        unsigned v = line[lane] + 1;
        for (int k = 0; k < 64; ++k) {
            if (mode >= 4) {
                v += ld_ca(line + lane);
            } else {
                st_global(line + lane, v + k);
            }
            spin(64);
        }
        if (mode >= 4 && v == 0x12345678u) out[1] = v;  // keeps the loads
        return;
    }
    if (mode >= 4) mode = mode == 4 ? 0 : (mode == 5 ? 3 : 1);  // warp 1 as in MODE 0, 3, 1
    unsigned* region = out + (size_t{1} << 20) + blockIdx.x * (1024 * 32);
    unsigned sum = 0;
    if (mode == 1)
        for (int k = 0; k < 1024; ++k) sum += region[k * 32 + lane];
    if (mode == 2)
        for (int k = 0; k < 1024; ++k) sum += region[(k & 7) * 32 + lane];
    if (mode == 3)
        for (int k = 0; k < 1024; ++k) st_global(region + k * 32 + lane, k);
    if (sum == 0x12345678u) out[0] = sum;  // keeps the loads
}

__global__ void overlap(unsigned* out, int mode) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned* line = out + blockIdx.x * 32;
    if (lane >= 16) return;
    int word = lane;
    if (warp == 1) {
        word = lane + (mode == 0 ? 0 : mode == 2 ? 16 : 8);
        if (mode == 3) spin(4096);
    }
    const unsigned x = ld_ca(line + word);
    if (x == 0x12345678u) out[1] = x;  // keeps the load
}

__device__ __forceinline__ unsigned warp_slot() {
    unsigned r;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
    return r;
}

// Rank of `warp` among the warps in `mask` (-1: not taking part).
__device__ __forceinline__ int rank_in(unsigned mask, int warp) {
    return ((mask >> warp) & 1u) ? __popc(mask & ((1u << warp) - 1u)) : -1;
}

// `slots`: each warp of a 1,024-thread CTA writes its %warpid (launched on its own, so that these
// stores stay out of the gst counts).
__global__ void warp_slots(unsigned* slots) {
    if ((threadIdx.x & 31) == 0) slots[threadIdx.x >> 5] = warp_slot();
}

// gst: each CTA's region is 4 KB (32 lines).
// `wrap` > 0: the k-th stores at slot k % wrap instead, so that several warps write the same bytes.
template <class T>
__global__ void group_store(T* out, unsigned mask, long long spin_per_rank, int wrap) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int k = rank_in(mask, warp);
    T* region = out + blockIdx.x * (4096 / sizeof(T));
    __syncthreads();
    if (k < 0) return;
    spin(k * spin_per_rank);
    const int slot = wrap > 0 ? k % wrap : k;
    region[slot * 32 + lane] = (T)(k * 32 + lane + 1);
}

// gseq: the k-th taking part stores 32 B (1 B per lane) into line `lines[k]` (a nibble each) of its
// CTA's 4 KB region, at that line's next sector, after k x spin cycles; preload: the lines are
// loaded (ld.ca) by every warp taking part before the barrier.
__global__ void sequence_store(unsigned char* out, unsigned mask, unsigned long long lines, long long spin_per_rank,
                               int preload) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int k = rank_in(mask, warp);
    unsigned char* region = out + blockIdx.x * 4096;
    unsigned v = 0;
    if (k >= 0 && preload) {
        for (int j = 0; j < 16; ++j) v += ld_ca(reinterpret_cast<unsigned*>(region + j * 128) + lane);
    }
    __syncthreads();
    if (k < 0) return;
    const int line = (int)((lines >> (4 * k)) & 0xf);
    int sector = 0;
    for (int j = 0; j < k; ++j) sector += (int)((lines >> (4 * j)) & 0xf) == line;
    spin(k * spin_per_rank);
    region[line * 128 + (sector & 3) * 32 + lane] = (unsigned char)(k + lane + 1 + (v & 1));
}

// tslots: turns mode 0 plus each warp's (SM << 16 | %warpid) at slots[global warp x 32].
template <class T>
__global__ void turns_slots(T* out, unsigned* slots) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = (T)t;
    if ((threadIdx.x & 31) == 0) slots[(t >> 5) * 32] = (smid() << 16) | warp_slot();
}

// pst: the k-th taking part owns line k of its CTA's 4 KB region.
__global__ void present_store(unsigned* out, unsigned mask, int n) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int k = rank_in(mask, warp);
    unsigned* line = out + blockIdx.x * 1024 + (k < 0 ? 0 : k) * 32;
    unsigned v = k < 0 ? 0 : ld_ca(line + lane) + 1;
    __syncthreads();
    if (k < 0) return;
    for (int i = 0; i < n; ++i) st_global(line + lane, v + i);
}

constexpr int kSpmvRows = 16384;

// realistic.cu's r_spmv_csr_vector, a warp per row, rows taken in turn by the grid's warps.
// `smids` (optional): each CTA writes the SM it ran on there.
__global__ void spmv_vector(const int* rowptr, const int* col, const float* val, const float* x, float* y, int* smids) {
    const int lane = threadIdx.x & 31;
    if (smids != nullptr && threadIdx.x == 0) smids[blockIdx.x] = (int)smid();
    const int warps = (int)(gridDim.x * blockDim.x) >> 5;
    for (int r = (int)(blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < kSpmvRows; r += warps) {
        float s = 0.f;
        const int e = rowptr[r + 1];
        for (int j = rowptr[r] + lane; j < e; j += 32) s += val[j] * x[col[j]];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0) y[r] = s;
    }
}

// realistic.cu's matrix and x, uploaded into `out`: rowptr at 0, col at 1 MB, val at 2 MB, x at 3 MB,
// y at 4 MB.
void upload_spmv(char* out) {
    const CsrMatrix m = spmv_matrix(kSpmvRows);
    const std::vector<int>& rowptr = m.rowptr;
    const std::vector<int>& col = m.col;
    const std::vector<float>& val = m.val;
    std::vector<float> x(kSpmvRows, 1.f);
    CK(cudaMemcpy(out, rowptr.data(), rowptr.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(out + (1 << 20), col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(out + (2 << 20), val.data(), val.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(out + (3 << 20), x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
}

long long number(const char* s, const char* what) {
    char* end = nullptr;
    const long long v = std::strtoll(s, &end, 10);
    if (end == s || *end != '\0' || v <= 0) {
        std::fprintf(stderr, "write_probe: %s '%s' is not a positive number\n", what, s);
        std::exit(2);
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: write_probe spread:B:STRIDE:N | spread_serial:B:STRIDE:N | skip:B:BIT:N | skip2:B:BIT1:BIT2:N | turns:E:MODE | window:MODE:DELAY | particles[_serial]:THREADS | interfere:MODE | spmv[_serial]:THREADS | overlap:MODE | gst:E:MASK[:SPIN] | gstw:E:MASK:W | pst:MASK:N | gseq:MASK:LINES:SPIN[:P] | tslots:E:CTAS:THREADS | slots ...\n");
        return 2;
    }
    CK(cudaEventCreate(&g_e0));
    CK(cudaEventCreate(&g_e1));
    const size_t buffer = size_t{256} << 20;  // every configuration below fits
    char* out = nullptr;
    CK(cudaMalloc(&out, buffer));
    for (int i = 1; i < argc; ++i) {
        char spec[128];
        std::snprintf(spec, sizeof spec, "%s", argv[i]);
        char* fields[6] = {};
        int nf = 0;
        for (char* tok = std::strtok(spec, ":"); tok && nf < 6; tok = std::strtok(nullptr, ":")) fields[nf++] = tok;
        const std::string kind = fields[0] ? fields[0] : "";
        CK(cudaMemset(out, 0, buffer));
        CK(cudaDeviceSynchronize());
        std::printf("launch %s\n", argv[i]);
        if ((kind == "spread" || kind == "spread_serial") && nf == 4) {
            const long long b = number(fields[1], "bytes"), stride = number(fields[2], "stride"), n = number(fields[3], "count");
            if ((b != 4 && b != 16 && b != 32) || stride < b || stride % b != 0 || n % 256 != 0 ||
                (unsigned long long)(n * stride) > buffer) {
                std::fprintf(stderr, "write_probe: bad %s (B in 4/16/32, STRIDE a multiple of B, N a multiple of 256, N*STRIDE <= 256 MB)\n", argv[i]);
                return 2;
            }
            const dim3 grid((unsigned)(n / 256));
            if (kind == "spread") {
                if (b == 4) run("spread4", spread<4>, grid, dim3(256), out, stride);
                if (b == 16) run("spread16", spread<16>, grid, dim3(256), out, stride);
                if (b == 32) run("spread32", spread<32>, grid, dim3(256), out, stride);
            } else {
                if (b == 4) run("spread_serial4", spread_serial<4>, dim3(1), dim3(256), out, stride, n);
                if (b == 16) run("spread_serial16", spread_serial<16>, dim3(1), dim3(256), out, stride, n);
                if (b == 32) run("spread_serial32", spread_serial<32>, dim3(1), dim3(256), out, stride, n);
            }
        } else if (kind == "skip" && nf == 4) {
            const long long b = number(fields[1], "bytes"), bit = number(fields[2], "bit"), n = number(fields[3], "count");
            if ((b != 4 && b != 32) || bit < 7 || bit > 26 || n % 256 != 0 || (unsigned long long)(2 * n * 128) > buffer) {
                std::fprintf(stderr, "write_probe: bad %s (B 4 or 32, BIT 7..26, N a multiple of 256, 2*N lines <= 256 MB)\n", argv[i]);
                return 2;
            }
            if (b == 4) run("skip_bit4", skip_bit<4>, dim3((unsigned)(n / 256)), dim3(256), out, (int)bit);
            if (b == 32) run("skip_bit32", skip_bit<32>, dim3((unsigned)(n / 256)), dim3(256), out, (int)bit);
        } else if (kind == "skip2" && nf == 5) {
            const long long b = number(fields[1], "bytes"), lo = number(fields[2], "bit"), hi = number(fields[3], "bit");
            const long long n = number(fields[4], "count");
            if (b != 4 || lo < 7 || hi <= lo || hi > 26 || n % 256 != 0 || (unsigned long long)(4 * n * 128) > buffer) {
                std::fprintf(stderr, "write_probe: bad %s (B 4, 7 <= BIT1 < BIT2 <= 26, N a multiple of 256, 4*N lines <= 256 MB)\n", argv[i]);
                return 2;
            }
            run("skip_bits4", skip_bits<4>, dim3((unsigned)(n / 256)), dim3(256), out, (int)lo, (int)hi);
        } else if (kind == "turns" && nf == 3) {
            const long long e = number(fields[1], "element size");
            const int mode = (int)std::strtol(fields[2], nullptr, 10);
            if ((e != 1 && e != 2 && e != 4) || mode < 0 || mode > 2) {
                std::fprintf(stderr, "write_probe: bad %s (E in 1/2/4, MODE 0..2)\n", argv[i]);
                return 2;
            }
            if (e == 1) run("turns1", turns<unsigned char>, dim3(256), dim3(256), (unsigned char*)out, mode);
            if (e == 2) run("turns2", turns<unsigned short>, dim3(256), dim3(256), (unsigned short*)out, mode);
            if (e == 4) run("turns4", turns<unsigned int>, dim3(256), dim3(256), (unsigned int*)out, mode);
        } else if (kind == "window" && nf == 3) {
            const int mode = (int)std::strtol(fields[1], nullptr, 10);
            const long long delay = std::strtoll(fields[2], nullptr, 10);
            if (mode < 0 || mode > 5 || delay < 0 || delay > 1000000) {
                std::fprintf(stderr, "write_probe: bad %s (MODE 0..5, DELAY 0..1000000 cycles)\n", argv[i]);
                return 2;
            }
            run("store_window", store_window, dim3(528), dim3(mode == 5 ? 64 : 32), (unsigned*)out, mode, delay);
        } else if (kind == "interfere" && nf == 2) {
            const int mode = (int)std::strtol(fields[1], nullptr, 10);
            if (mode < 0 || mode > 6) {
                std::fprintf(stderr, "write_probe: bad %s (MODE 0..6)\n", argv[i]);
                return 2;
            }
            run("interfere", interfere, dim3(132), dim3(64), (unsigned*)out, mode);
        } else if (kind == "slots" && nf == 1) {
            unsigned* slots = (unsigned*)out;
            run("warp_slots", warp_slots, dim3(1), dim3(1024), slots);
            unsigned host[32];
            CK(cudaMemcpy(host, slots, sizeof host, cudaMemcpyDeviceToHost));
            std::printf("warpid");
            for (unsigned w : host) std::printf(" %u", w);
            std::printf("\n");
        } else if ((kind == "gst" && (nf == 3 || nf == 4)) || (kind == "gstw" && nf == 4) || (kind == "pst" && nf == 3)) {
            const unsigned mask = (unsigned)std::strtoul(fields[kind == "pst" ? 1 : 2], nullptr, 16);
            if (mask == 0) {
                std::fprintf(stderr, "write_probe: bad %s (MASK: a non-zero hex mask of the 32 warps)\n", argv[i]);
                return 2;
            }
            if (kind == "gst" || kind == "gstw") {
                const long long e = number(fields[1], "element size");
                const long long spin_per_rank = kind == "gst" && nf == 4 ? std::strtoll(fields[3], nullptr, 10) : 0;
                const int wrap = kind == "gstw" ? (int)number(fields[3], "wrap") : 0;
                if ((e != 1 && e != 2 && e != 4) || spin_per_rank < 0 || spin_per_rank > 100000) {
                    std::fprintf(stderr, "write_probe: bad %s (E in 1/2/4, SPIN 0..100000 cycles)\n", argv[i]);
                    return 2;
                }
                if (e == 1) run("group_store1", group_store<unsigned char>, dim3(132), dim3(1024), (unsigned char*)out, mask, spin_per_rank, wrap);
                if (e == 2) run("group_store2", group_store<unsigned short>, dim3(132), dim3(1024), (unsigned short*)out, mask, spin_per_rank, wrap);
                if (e == 4) run("group_store4", group_store<unsigned int>, dim3(132), dim3(1024), (unsigned int*)out, mask, spin_per_rank, wrap);
            } else {
                const long long n = number(fields[2], "count");
                if (n > 4096) {
                    std::fprintf(stderr, "write_probe: bad %s (N 1..4096)\n", argv[i]);
                    return 2;
                }
                run("present_store", present_store, dim3(132), dim3(1024), (unsigned*)out, mask, (int)n);
            }
        } else if (kind == "gseq" && (nf == 4 || nf == 5)) {
            const unsigned mask = (unsigned)std::strtoul(fields[1], nullptr, 16);
            const std::string digits = fields[2];
            const long long spin_per_rank = std::strtoll(fields[3], nullptr, 10);
            const int preload = nf == 5 ? (int)std::strtol(fields[4], nullptr, 10) : 0;
            unsigned long long lines = 0;
            bool ok = mask != 0 && (int)digits.size() == __builtin_popcount(mask) && digits.size() <= 16 &&
                      spin_per_rank >= 0 && spin_per_rank <= 100000 && (preload == 0 || preload == 1);
            for (size_t j = 0; ok && j < digits.size(); ++j) {
                const char c = digits[j];
                const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
                ok = d >= 0;
                lines |= (unsigned long long)(d < 0 ? 0 : d) << (4 * j);
            }
            if (!ok) {
                std::fprintf(stderr, "write_probe: bad %s (MASK non-zero hex, LINES one hex digit per warp of MASK (at most 16), SPIN 0..100000, P 0 or 1)\n", argv[i]);
                return 2;
            }
            run("sequence_store", sequence_store, dim3(132), dim3(1024), (unsigned char*)out, mask, lines, spin_per_rank, preload);
        } else if (kind == "tslots" && nf == 4) {
            const long long e = number(fields[1], "element size"), ctas = number(fields[2], "CTAs"),
                            threads = number(fields[3], "threads");
            if ((e != 1 && e != 2 && e != 4) || ctas < 1 || ctas > 4096 || threads < 32 || threads > 1024 || threads % 32 != 0) {
                std::fprintf(stderr, "write_probe: bad %s (E in 1/2/4, CTAS 1..4096, THREADS a multiple of 32 up to 1024)\n", argv[i]);
                return 2;
            }
            unsigned* slots = (unsigned*)(out + (128 << 20));
            const dim3 grid((unsigned)ctas), block((unsigned)threads);
            if (e == 1) run("turns_slots1", turns_slots<unsigned char>, grid, block, (unsigned char*)out, slots);
            if (e == 2) run("turns_slots2", turns_slots<unsigned short>, grid, block, (unsigned short*)out, slots);
            if (e == 4) run("turns_slots4", turns_slots<unsigned int>, grid, block, (unsigned int*)out, slots);
            const long long warps = ctas * threads / 32, per_cta = threads / 32, group = 4 / e;  // warps per 128 B line
            std::vector<unsigned> host((size_t)warps * 32);
            CK(cudaMemcpy(host.data(), slots, host.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
            long long spans[5] = {0, 0, 0, 0, 0};
            std::vector<int> per_sm(1024, 0);
            for (long long c = 0; c < ctas; ++c) {
                ++per_sm[host[(size_t)(c * per_cta) * 32] >> 16 & 1023];
                for (long long g = 0; g + group <= per_cta; g += group) {
                    unsigned seen = 0;
                    for (long long w = g; w < g + group; ++w) seen |= 1u << (host[(size_t)(c * per_cta + w) * 32] & 3u);
                    ++spans[__builtin_popcount(seen)];
                }
            }
            std::printf("line groups by sub-partitions spanned: 1:%lld 2:%lld 3:%lld 4:%lld\n", spans[1], spans[2], spans[3], spans[4]);
            int most = 0;
            for (int v : per_sm) most = v > most ? v : most;
            std::printf("CTAs on the busiest SM: %d\n", most);
            for (long long c = 0; c < ctas && c < 8; ++c) {
                std::printf("cta %lld sm %u warpid", c, host[(size_t)(c * per_cta) * 32] >> 16);
                for (long long w = 0; w < per_cta; ++w) std::printf(" %u", host[(size_t)(c * per_cta + w) * 32] & 0xffffu);
                std::printf("\n");
            }
        } else if (kind == "overlap" && nf == 2) {
            const int mode = (int)std::strtol(fields[1], nullptr, 10);
            if (mode < 0 || mode > 3) {
                std::fprintf(stderr, "write_probe: bad %s (MODE 0..3)\n", argv[i]);
                return 2;
            }
            run("overlap", overlap, dim3(528), dim3(64), (unsigned*)out, mode);
        } else if ((kind == "spmv" || kind == "spmv_serial") && nf == 2) {
            const long long threads = number(fields[1], "threads");
            if (threads < 32 || threads > 1024 || threads % 32 != 0 || (kSpmvRows * 32) % threads != 0) {
                std::fprintf(stderr, "write_probe: bad %s (THREADS a multiple of 32, at most 1024)\n", argv[i]);
                return 2;
            }
            upload_spmv(out);
            const dim3 grid(kind == "spmv" ? (unsigned)(kSpmvRows * 32 / threads) : 1u);
            int* smids = kind == "spmv" ? (int*)(out + (5 << 20)) : nullptr;
            run("spmv_vector", spmv_vector, grid, dim3((unsigned)threads), (const int*)out, (const int*)(out + (1 << 20)),
                (const float*)(out + (2 << 20)), (const float*)(out + (3 << 20)), (float*)(out + (4 << 20)), smids);
            if (smids != nullptr) {  // "cta I sm S" per CTA: the placement of this run
                std::vector<int> host(grid.x);
                CK(cudaMemcpy(host.data(), smids, sizeof(int) * grid.x, cudaMemcpyDeviceToHost));
                for (unsigned c = 0; c < grid.x; ++c) std::printf("cta %u sm %d\n", c, host[c]);
            }
        } else if ((kind == "particles" || kind == "particles_serial") && nf == 2) {
            const long long threads = number(fields[1], "threads");
            if (threads < 32 || threads > 1024 || threads % 32 != 0 || 65536 % threads != 0) {
                std::fprintf(stderr, "write_probe: bad %s (THREADS a multiple of 32 dividing 65536, at most 1024)\n", argv[i]);
                return 2;
            }
            if (kind == "particles")
                run("particles_aos", particles_aos, dim3((unsigned)(65536 / threads)), dim3((unsigned)threads), (Particle*)out,
                    0.01f);
            else
                run("particles_aos_serial", particles_aos_serial, dim3(1), dim3((unsigned)threads), (Particle*)out, 0.01f);
        } else {
            std::fprintf(stderr, "write_probe: unknown configuration %s\n", argv[i]);
            return 2;
        }
    }
    CK(cudaFree(out));
    return 0;
}
