#!/usr/bin/env python3
"""Joins a probe's launch list (write_probe, carveout_probe) with Nsight Compute's CSV: one row per launch, the configuration
and every metric (columns in the order ncu reports them).

Usage: probe_summary.py launches.txt ncu.csv > summary.csv
launches.txt holds "launch CONFIG" lines (and "kernel NAME ms=T" lines, ignored) in launch order;
ncu.csv is `ncu --csv --metrics ...` output, one row per (launch ID, metric)."""
import csv
import sys


def short_name(kernel):
    """'void <unnamed>::spread<4>(char *, long long)' -> 'spread<4>': no commas in the CSV cell."""
    name = kernel.split("(")[0].removeprefix("void ").replace("<unnamed>::", "")
    return name.replace(",", ";")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    configs = [l.split(None, 1)[1].strip() for l in open(sys.argv[1]) if l.startswith("launch ")]
    rows = [r for r in csv.reader(l for l in open(sys.argv[2]) if l.startswith('"'))]
    if not rows:
        sys.exit(f"{sys.argv[2]}: no CSV rows")
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    for need in ("ID", "Kernel Name", "Metric Name", "Metric Value"):
        if need not in col:
            sys.exit(f"{sys.argv[2]}: no column {need!r} (have {head})")
    values, metrics = {}, []
    for r in rows[1:]:
        launch, metric = int(r[col["ID"]]), r[col["Metric Name"]]
        if metric not in metrics:
            metrics.append(metric)
        values.setdefault(launch, {"kernel": short_name(r[col["Kernel Name"]])})[metric] = r[col["Metric Value"]].replace(",", "")
    if len(values) != len(configs):
        sys.exit(f"{len(configs)} launches in {sys.argv[1]} but {len(values)} in {sys.argv[2]}")
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["config", "kernel"] + metrics)
    for cfg, launch in zip(configs, sorted(values)):
        v = values[launch]
        w.writerow([cfg, v["kernel"]] + [v.get(m, "") for m in metrics])


if __name__ == "__main__":
    main()
