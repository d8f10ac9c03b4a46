#!/usr/bin/env python3
"""Join rules_probe's pattern table with Nsight Compute's raw CSV output.

usage: join_ncu.py PATTERNS_CSV NCU_RAW_CSV RESULTS_CSV [FIRST_ID] [--metrics FILE]

PATTERNS_CSV  written by `rules_probe --csv` (id,name,space,op,size,cache,mask_hex,base_shift,off0..off31)
NCU_RAW_CSV   `ncu --csv --page raw --print-units base --metrics ...` output; several runs may be concatenated
              (each with its own header and units rows); non-CSV lines are ignored.
FILE          metric names to copy, whitespace separated, '#' starts a comment line
              (default: validation/rules_metrics.txt beside this script's folder)
RESULTS_CSV   id,name,space,op,size,cache,mask_hex,base_shift,<metric>... one row per pattern that ncu
              measured, in id order. Metric columns are named exactly as ncu names them (e.g.
              smsp__inst_executed_op_global_ld.sum). A value ncu reports as n/a is left empty.

ncu rows are matched to patterns through launch__shared_mem_per_block_dynamic, which rules_probe sets to
16384 + id for every launch; that column itself is not copied to the result. If that column does not
identify the rows, they are matched by launch order starting at FIRST_ID (default 0). The kernel name of
each row is checked against the pattern's space/op/size.
"""
import csv
import os
import sys

SMEM_BASE = 16384
ID_METRIC = "launch__shared_mem_per_block_dynamic"
KEYS = ["id", "name", "space", "op", "size", "cache", "mask_hex", "base_shift"]


def num(s):
    s = s.strip().replace(",", "")
    if s == "" or s.lower() in ("n/a", "nan", "-"):
        return ""
    try:
        v = float(s)
    except ValueError:
        return ""
    if v == int(v) and abs(v) < 2**53:
        return str(int(v))
    return repr(v)


def main():
    args = sys.argv[1:]
    mfile = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rules_metrics.txt")
    if "--metrics" in args:
        i = args.index("--metrics")
        mfile = args[i + 1]
        del args[i:i + 2]
    if len(args) not in (3, 4):
        sys.exit(__doc__)
    pat_path, ncu_path, out_path = args[:3]
    first = int(args[3]) if len(args) > 3 else 0
    with open(mfile) as f:
        wanted = [w for ln in f if not ln.lstrip().startswith("#") for w in ln.split()]
    with open(pat_path, newline="") as f:
        patterns = {int(r["id"]): r for r in csv.DictReader(f)}

    header = None
    metrics = []  # metric column names in first-seen order
    rows = []  # (dyn smem value or "", kernel name, {metric: value}) in file order
    with open(ncu_path, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]
    for row in csv.reader(lines):
        if row and row[0] == "ID":
            header = row
            for name in row:
                if name in wanted and name not in metrics:
                    metrics.append(name)
            continue
        if header is None or len(row) != len(header) or not row[0].strip().isdigit():
            continue  # units row or junk
        rec = dict(zip(header, row))
        rows.append((num(rec.get(ID_METRIC, "")), rec.get("Kernel Name", ""),
                     {m: num(rec.get(m, "")) for m in metrics if m in rec}))

    # Match through the dynamic shared size (16384 + id); fall back to launch order if that is unusable.
    ids = [int(d) - SMEM_BASE if d != "" else None for d, _, _ in rows]
    if any(i not in patterns for i in ids) or len(set(ids)) != len(ids):
        print("warning: %s does not identify the rows; matching by launch order from id %d"
              % (ID_METRIC, first), file=sys.stderr)
        ids = list(range(first, first + len(rows)))
    measured = {}
    mismatch = 0
    for pid, (_, kname, vals) in zip(ids, rows):
        if pid not in patterns:
            continue
        p = patterns[pid]
        want = {("global", "ld"): "probe_gld", ("global", "st"): "probe_gst",
                ("shared", "ld"): "probe_sld", ("shared", "st"): "probe_sst"}[(p["space"], p["op"])]
        want_t = {"1": "char", "2": "short", "4": "int", "8": "long long", "16": "int4"}[p["size"]]
        k = kname.replace(" ", "")
        if kname and (want not in k or ("<" in k and ("<%s" % want_t.replace(" ", "")) not in k)):
            mismatch += 1
            if mismatch <= 5:
                print("warning: pattern %d (%s %s %s) measured kernel %s" % (pid, p["space"], p["op"], p["size"], kname),
                      file=sys.stderr)
        measured[pid] = vals
    if mismatch:
        print("warning: %d rows whose kernel name does not fit the pattern" % mismatch, file=sys.stderr)

    with open(out_path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        metrics = [m for m in wanted if m in metrics]  # the order of the metric list
        w.writerow(KEYS + metrics)
        for pid in sorted(measured):
            p = patterns[pid]
            w.writerow([p[k] for k in KEYS] + [measured[pid].get(m, "") for m in metrics])
    missing = sorted(set(patterns) - set(measured))
    print("join_ncu: %d patterns, %d measured, %d metrics, %d missing%s"
          % (len(patterns), len(measured), len(metrics), len(missing),
             (" (first missing id %d)" % missing[0]) if missing else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
