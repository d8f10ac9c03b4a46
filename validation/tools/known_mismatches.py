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
    (("l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss",
      "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit"),
     "store hits: the H100 counts a store to a sector an earlier store is still merging as a hit; "
     "the model's write-through L1 has no store buffer"),
    (("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"),
     "shared accesses of a reduction contend with other warps' accesses in flight: ncu adds those "
     "wavefronts as bank conflicts; the same instructions alone match exactly (validation/h100/rules)"),
    (("lts__t_requests_srcunit_tex_op_read", "lts__t_sectors_srcunit_tex_op_read",
      "lts__t_sectors_srcunit_tex_op_read_lookup_hit"),
     "L1 merges misses of several instructions to one sector while the first is in flight (loads "
     "of the same line back to back, sub-sector loads, local memory); the model sends each miss to L2"),
    (("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss"),
     "L1 hit rate outside 5 points: warp interleaving decides reuse here and the model's issue order "
     "is an approximation"),
    (("dram__bytes_read", "dram__bytes_write", "dram__sectors_read", "dram__sectors_write"),
     "DRAM traffic beyond the kernel's data (instruction/constant fetches, write-backs of other "
     "data) or L2 sector promotion the model does not predict"),
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
