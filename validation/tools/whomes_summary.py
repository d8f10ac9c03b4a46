#!/usr/bin/env python3
"""Summarises partition_probe `homes` / `whomes` runs (validation/h100/partition_probe/writes): per
configuration and home parity (XOR of address bits 12, 13, 16, 17, 19 of the line's offset), the
lines, their median load latency in cycles and how many answered in under 450 cycles (a hit in the
reading SM's partition).

Usage: whomes_summary.py homes.txt[.gz] > summary.csv"""
import gzip
import sys


def parity(line):
    o = line << 7
    return ((o >> 12) ^ (o >> 13) ^ (o >> 16) ^ (o >> 17) ^ (o >> 19)) & 1


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    lines = (gzip.open(path, "rt") if path.endswith(".gz") else open(path)).read().splitlines()
    runs, order, cfg = {}, [], None
    for l in lines:
        w = l.split()
        if w and w[0] == "launch":
            cfg = w[1]
            order.append(cfg)  # a configuration run twice is summarised per run
            runs[(cfg, len(order))] = []
        elif w and w[0] == "home":
            runs[(cfg, len(order))].append((int(w[1]), int(w[2])))
    print("run,config,home_parity,lines,median_cycles,under_450")
    for (c, n), v in runs.items():
        for p in (0, 1):
            s = sorted(cy for line, cy in v if parity(line) == p)
            if s:
                print(f"{n},{c},{p},{len(s)},{s[len(s) // 2]},{sum(1 for x in s if x < 450)}")


if __name__ == "__main__":
    main()
