#!/usr/bin/env python3
"""Build h100/cache/summary.csv from the outputs of one `ncu ... cache_kernels DIR` run.

usage: cache_summary.py NCU_RAW_CSV LAUNCHES_CSV POINTERS_CSV METRICS_FILE OUT_CSV

NCU_RAW_CSV   `ncu --csv --page raw --print-units base --metrics ...` output (non-CSV lines are ignored)
LAUNCHES_CSV  cache_kernels' launches.csv (kernel,grid,block,smem_static,regs), launch order
POINTERS_CSV  cache_kernels' pointers.csv (kernel,buffer,ptr,bytes)
METRICS_FILE  metric names, one per line, '#' comments (validation/cache_metrics.txt)
OUT_CSV       kernel,grid,block,buffers,<metric>... one row per kernel in launch order; `buffers` is
              'name=0xPTR:BYTES' joined by ';'. ncu's thousands separators are removed; a metric ncu did not
              report is left empty.
"""
import csv
import re
import sys


def num(s):
    s = s.strip().replace(",", "")
    if s == "" or s.lower() in ("n/a", "nan", "-"):
        return ""
    try:
        v = float(s)
    except ValueError:
        return s
    if v == int(v) and abs(v) < 2**53:
        return str(int(v))
    return repr(v)


def kname(full):
    s = full.strip()
    if s.startswith("void "):
        s = s[5:]
    return re.split(r"[(<]", s, 1)[0].strip()


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    raw, launches, pointers, mfile, out = sys.argv[1:]
    with open(mfile) as f:
        wanted = [w for ln in f if not ln.lstrip().startswith("#") for w in ln.split()]
    with open(launches, newline="") as f:
        L = list(csv.DictReader(f))
    bufs = {}
    with open(pointers, newline="") as f:
        for r in csv.DictReader(f):
            bufs.setdefault(r["kernel"], []).append("%s=%s:%s" % (r["buffer"], r["ptr"], r["bytes"]))
    header, rows = None, []
    with open(raw, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]
    for row in csv.reader(lines):
        if row and row[0] == "ID":
            header = row
            continue
        if header is None or len(row) != len(header) or not row[0].strip().isdigit():
            continue
        rows.append(dict(zip(header, row)))
    byname = {}
    for r in rows:
        byname.setdefault(kname(r.get("Kernel Name", "")), []).append(r)
    cols = [m for m in wanted if any(m in r for r in rows)]
    missing = [m for m in wanted if m not in cols]
    if missing:
        print("cache_summary: not in ncu output: " + " ".join(missing), file=sys.stderr)
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kernel", "grid", "block", "regs", "smem_static", "buffers"] + cols)
        for l in L:
            k = l["kernel"]
            rs = byname.get(k, [])
            if len(rs) != 1:
                print("cache_summary: %d ncu rows for %s" % (len(rs), k), file=sys.stderr)
            r = rs[0] if rs else {}
            w.writerow([k, l["grid"], l["block"], l["regs"], l["smem_static"], ";".join(sorted(bufs.get(k, [])))]
                       + [num(r.get(m, "")) for m in cols])
    print("cache_summary: wrote %s (%d kernels, %d metrics)" % (out, len(L), len(cols)))


if __name__ == "__main__":
    main()
