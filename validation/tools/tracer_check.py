#!/usr/bin/env python3
"""Issue-4 check of the GPU tracer against Nsight Compute, per application of DIR
(default validation/h100/suite): per launch, the traced record count against the sum of
ncu's warp-instruction counters (global/shared/local ld/st, shared atomics, global atom/red
from smsp__sass_inst_executed_*), and `warpscope analyze`'s global-load sectors against
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum. Prints the Markdown table of docs/VALIDATION.md.

Usage: validation/tools/tracer_check.py [DIR] [WARPSCOPE]
"""
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

SUITE = sys.argv[1] if len(sys.argv) > 1 else "validation/h100/suite"
WARPSCOPE = sys.argv[2] if len(sys.argv) > 2 else "build/release/warpscope"
CATEGORIES = [f"smsp__inst_executed_op_{s}_{o}.sum" for s in ("global", "shared", "local") for o in ("ld", "st")] + [
    "smsp__inst_executed_op_shared_atom.sum", "smsp__sass_inst_executed_op_global_atom.sum",
    "smsp__sass_inst_executed_op_global_red.sum"]
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"


def ncu_rows(path):
    rows = list(csv.reader(line for line in open(path) if not line.startswith("==")))
    header = rows[0]
    def value(row, name):
        if name not in header:
            return 0.0
        try:
            return float(row[header.index(name)].replace(",", ""))
        except ValueError:
            return 0.0
    return [(sum(value(r, c) for c in CATEGORIES), value(r, SECTORS)) for r in rows[1:] if r and r[0].isdigit()]


def main():
    total = [0, 0, 0]
    print("| application | launches | trace records | ncu warp instructions | records = instructions | sectors = ncu |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for csv_path in sorted(glob.glob(os.path.join(SUITE, "*.ncu.csv"))):
        app = os.path.basename(csv_path)[: -len(".ncu.csv")]
        trace = os.path.join(SUITE, app + ".wst")
        if not os.path.exists(trace) or app == "cache_kernels":  # cache_kernels: host-emulated, not traced
            continue
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            subprocess.run([WARPSCOPE, "analyze", trace, "--arch", "sm_90", "--json", out.name],
                           stdout=subprocess.DEVNULL, check=True)
            kernels = json.load(open(out.name))["archs"][0]["kernels"]
        records = [k["records"] for k in kernels]
        sectors = [k["metrics"].get(SECTORS, k["metrics"].get(SECTORS[: -len(".sum")])) for k in kernels]
        hw = ncu_rows(csv_path)
        same_records = sum(1 for r, (n, _) in zip(records, hw) if r == n)
        same_sectors = sum(1 for s, (_, n) in zip(sectors, hw) if s is not None and abs(s - n) < 0.5)
        if len(records) != len(hw):
            print(f"{app}: {len(records)} traced launches, {len(hw)} in ncu", file=sys.stderr)
        total = [total[0] + len(hw), total[1] + same_records, total[2] + same_sectors]
        print(f"| {app} | {len(hw)} | {sum(records):,} | {int(sum(n for n, _ in hw)):,} | "
              f"{same_records}/{len(hw)} | {same_sectors}/{len(hw)} |")
    print(f"| **all** | {total[0]} | | | {total[1]}/{total[0]} | {total[2]}/{total[0]} |")
    return 0 if total[1] == total[0] and total[2] == total[0] else 1


if __name__ == "__main__":
    sys.exit(main())
