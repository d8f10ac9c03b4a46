#!/usr/bin/env python3
"""Turns the access streams recorded next to ncu (validation/h100/<dir>/<kernel>.records.csv)
into warpscope text traces (docs/TRACE_FORMAT.md "Text form"), one kernel each.
PC = 0x10 * access site (the site numbers follow the SASS order of the kernel).

usage: records_to_trace.py RECORDS.csv[.xz] LAUNCHES.csv OUT.txt
then:  warpscope convert OUT.txt OUT.wstrace
(the committed records are xz-compressed; either form is read)
"""
import csv
import lzma
import sys


def main():
    records_path, launches_path, out_path = sys.argv[1:4]
    launches = {r["kernel"]: r for r in csv.DictReader(open(launches_path))}
    opener = lzma.open if records_path.endswith(".xz") else open
    with opener(records_path, "rt") as f, open(out_path, "w") as out:
        out.write("wstrace 1\n")
        reader = csv.DictReader(f)
        first = True
        for r in reader:
            if first:
                k = launches[r["kernel"]]
                grid = ",".join(x.strip() for x in k["grid"].split("x"))
                block = ",".join(x.strip() for x in k["block"].split("x"))
                out.write(f'kernel 0 name={r["kernel"]} grid={grid} block={block} dyn_smem=0 '
                          f'static_smem={k["smem_static"]} regs={k["regs"]} arch=sm_90 '
                          f'gpu="NVIDIA H100 80GB HBM3" source="validation/kernels/cache_kernels.cu host emulation"\n')
                first = False
            if r["addrs"]:
                lanes = r["addrs"].split("|")
                addr = ",".join(lanes)
            else:
                base, stride = int(r["base"], 16), int(r["stride"])
                addr = f"{base:#x}{'+' if stride >= 0 else '-'}{abs(stride)}"
            mask = int(r["mask"], 16)
            cache = r["cache"] if r["cache"] != "ldg" else "nc"
            line = (f'rec k=0 pc={int(r["site"]) * 16:#x} cta={r["cta"]} warp={r["warp"]} sm=-1 '
                    f'{r["space"]} {r["op"]} {r["size"]} {cache} mask={mask:08x}')
            if mask:
                line += f" addr={addr}"
            out.write(line + "\n")


if __name__ == "__main__":
    main()
