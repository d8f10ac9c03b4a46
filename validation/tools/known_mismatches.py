#!/usr/bin/env python3
"""Lists the counters `warpscope validate DIR --json FILE` found outside their check as
[[kernel]] known entries for DIR/tolerances.toml, each with the reason of its class.

Usage: validation/tools/known_mismatches.py validate.json > known.toml
The reasons are what the measurements in validation/h100/suite show (docs/VALIDATION.md);
a counter of a class with no reason here is an error, so nothing is waved through unexplained.
"""
import json
import sys

REASONS = [
    (("lts__t_requests_srcunit_tex_op_write", "lts__t_sectors_srcunit_tex_op_write"),
     "L1 merges partial-sector stores of several instructions before they reach L2 (sub-word, "
     "misaligned, AoS, local read-modify-write): the H100 sends fewer write requests than the "
     "model's one per store instruction, a number that varies between runs"),
    (("l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss"),
     "store hits above the H100: the model counts every sector of a store to a line whose tag is "
     "present (l1.store_hit = line), an upper bound; the H100 misses some while many warps store at "
     "once, as many as the program's instruction timing makes it, which the untimed model cannot see. "
     "Measured (validation/h100/write_probe): stores issued one warp at a time hit exactly as the "
     "model counts, and so do four warps storing into one new line at once, from one SM sub-partition "
     "or four, 0-1,024 cycles apart (list l); several new lines stored at once, or 32 warps storing to "
     "their loaded lines, lose hits (list l: 8 warps of one sub-partition into 2 lines 50.9% against "
     "75%; 16 stores by each of 32 warps 80-81%); the suite's g_st1 stores hit 50.3/52.1/52.6% in "
     "three runs (validation/h100/suite_repeats) and 61.3/64.1% in the probe's program, whose kernel "
     "adds only a branch on a parameter: reproducible per program, set by its timing; a warp alone "
     "never misses a present line, and other warps' loads cost it nothing (lists f, g, h)"),
    (("l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit",),
     "local store hits: the H100 counts 41% of the local stores of the spilling kernel as hits: the "
     "warps of later CTAs reuse the local windows of the warp slots they take (memory/local_windows.hpp; "
     "the model 38%)"),
    (("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"),
     "shared accesses of a reduction contend with other warps' accesses in flight: ncu adds those "
     "wavefronts as bank conflicts; the same instructions alone match exactly (validation/h100/rules)"),
    (("lts__t_requests_srcunit_tex_op_read", "lts__t_sectors_srcunit_tex_op_read",
      "lts__t_sectors_srcunit_tex_op_read_lookup_hit"),
     "L2 reads merged before the L2 lookup: the H100's L2 request coalescer (LRC) merges a read of "
     "a sector that an SM of the same GPC requested and has not yet received (validation/h100/merge_probe, "
     "lrc_probe); lts sectors = sectors offered - merged, within 200 on every launch. The model merges "
     "an SM's own requests (l2.merge_window: c_ldcg4_reuse4 exact), not those of different SMs, whose "
     "relative timing a trace lacks: the SGEMMs' CTAs read A and B tiles together and merge 53% and 35% "
     "of their sectors. Requests for a sector whose fill is still in flight count as misses "
     "(misaligned loads: the partner sector of a 64 B fill; the far rows of lrc_probe: 18,384 of 32,768 "
     "repeated sectors hit). Timing-dependent: three runs of the suite differ by up to 9 points here "
     "(sgemm_naive 67.5-76.5%, g_ld2_misalign66 27.0-33.8%; validation/h100/suite_repeats)"),
    (("l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss"),
     "local load hits of the spilling kernel: its local lines slightly exceed the 224 KB L1 of the "
     "driver's default 32 KB carveout; with local windows per resident warp slot and randm8 the model "
     "keeps 81.9% of them (79.2% with a window per warp, 95% with 256 KB), the H100 90.5%: it keeps more "
     "local data than a 224 KB L1 of 32 XOR-folded sets (address to set mapping or usable size, not measured)"),
    (("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss"),
     "L1 hit rate outside 5 points: CTA placement decides reuse here (neighbouring rows' x windows "
     "overlap), and the H100 places CTAs differently under the tracer's instrumentation than in the "
     "profiled run. Measured (validation/h100/write_probe k): with each profiled run's own placement the "
     "model replays the trace to within 0.4 points of that run's hits (87,634 / 88,532 / 88,175 against "
     "87,959 / 88,857 / 89,014), with the traced placement 5.8 points above"),
    (("l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom+red", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom+red",
      "lts__t_requests_srcunit_tex_op_atom", "lts__t_sectors_srcunit_tex_op_atom"),
     "atomics: the model serves a global atomic's lanes by word slots as the H100 does (a lane joins its "
     "line's access unless a lane since it opened took its word slot in a line of the same group, "
     "global.atomic_word_groups; validation/h100/atomics_probe: every probe launch and all 2,048 gather "
     "instructions exact), a compare-and-swap per 64-byte half of a line; a mismatch here is new: "
     "measure it before marking it known"),
    (("dram__bytes_read", "dram__bytes_write", "dram__sectors_read", "dram__sectors_write"),
     "DRAM traffic the model does not have: partially written L2 sectors written back during the "
     "kernel, each read first (store-only kernels: DRAM read minus the launch's own 2,816 B = DRAM write, "
     "g_st4_stride32 235,776 / 234,752 B); validation/h100/write_probe measures it: L2 writes partial "
     "sectors back from about 25-32K lines of them (3-4 MB) on, at any issue rate, and whole dirty "
     "sectors from about 8 MB, far below its 50 MB, which also takes local_array's rewritten local "
     "windows (34.6 MB: 132 SMs x 64 warp slots x 4 KB) to DRAM 90 MB worth while the model's L2 keeps "
     "fewer of them (the L2 partitions now write 70 MB back, reads 7.6 MB against 4.2 MB); "
     "local-memory spills; a kernel's __constant__ data, which a trace does not record (the Sanitizer "
     "API reports no LDC): k_const_* read 256 B per 256 B block of c_table they touch, 2-4 KB beyond "
     "the launch's own reads; the model counts them once a trace has the loads (constant.dram_fetch_bytes: "
     "17 of 21 values exact, the rest within 256 B; tests/validation/h100_constant_data_test.cpp)"),
]


def reason(counter):
    base = counter.removesuffix(".sum")
    for names, why in REASONS:
        if base in names:
            return why
    raise SystemExit(f"no known reason for a mismatch of {counter}: explain it before marking it known")


def main():
    data = json.load(open(sys.argv[1]))
    print("# Known mismatches, listed by validation/tools/known_mismatches.py from `warpscope validate")
    print("# --json` (regenerate after a model change; each class's reason is in that script).")
    for k in data["kernels"]:
        for c in k["counters"]:
            if c["verdict"] != "FAIL":
                continue
            print()
            print("[[kernel]]")
            print(f'name = "{k["name"]}"')
            print(f'app = "{k["app"]}"')
            print(f'counter = "{c["counter"]}"')
            print(f'known = "{reason(c["counter"])}"')


if __name__ == "__main__":
    main()
