#!/usr/bin/env python3
"""A/B comparison of two warpscope_bench binaries, robust to where the kernel put them.

On the development VM two byte-identical copies of one binary can differ by 40% on the
memory-system rows (docs/PERFORMANCE.md, "Measuring on this VM"): the copy's page-cache
placement decides it, and it lasts until the kernel drops those pages. So every run
here first drops the binary's cached pages (it is read back afresh), the two binaries
alternate (the first one of a pair changes each round), and the table gives each
benchmark's median and range over the runs.

  bench/ab_compare.py OLD NEW [--filter REGEX] [--runs N] [--min-time SECONDS]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def drop_page_cache(path):
    """Asks the kernel to forget the file's cached pages (a hint; harmless if refused)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def run_once(binary, bench_filter, min_time):
    drop_page_cache(binary)
    cmd = [binary, f"--benchmark_filter={bench_filter}", f"--benchmark_min_time={min_time}",
           "--benchmark_format=json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"ab_compare: {binary} exited with {done.returncode}: {done.stderr.strip()[-500:]}")
    try:
        rows = json.loads(done.stdout)["benchmarks"]
    except (ValueError, KeyError) as e:
        sys.exit(f"ab_compare: {binary} printed no benchmark JSON ({e})")
    return {r["name"]: (r["real_time"], r["time_unit"]) for r in rows if r.get("run_type") != "aggregate"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--filter", default="through_memory/sm_90_small_state|BM_Analyze/(coalesced|scattered)/1/",
                    help="benchmark regex (default: the rows issue 3's figures come from)")
    ap.add_argument("--runs", type=int, default=4, help="runs of each binary (default 4)")
    ap.add_argument("--min-time", default="0.5", help="--benchmark_min_time of each run (default 0.5)")
    args = ap.parse_args()
    for b in (args.old, args.new):
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            sys.exit(f"ab_compare: {b}: not an executable file")
    if args.runs < 1:
        sys.exit("ab_compare: --runs must be at least 1")

    times = {args.old: {}, args.new: {}}
    units = {}
    for r in range(args.runs):
        order = (args.old, args.new) if r % 2 == 0 else (args.new, args.old)
        for b in order:
            for name, (t, unit) in run_once(b, args.filter, args.min_time).items():
                times[b].setdefault(name, []).append(t)
                units[name] = unit
        print(f"run {r + 1} of {args.runs} done", file=sys.stderr)
    names = [n for n in times[args.old] if n in times[args.new]]
    if not names:
        sys.exit(f"ab_compare: no benchmark matched '{args.filter}' in both binaries")

    def cell(ts):
        return f"{statistics.median(ts):.4g} ({min(ts):.4g}-{max(ts):.4g})"

    print(f"old: {args.old}\nnew: {args.new}\n{args.runs} runs each, median (range), real time")
    width = max(len(n) for n in names)
    print(f"{'benchmark':<{width}}  unit  {'old':>24}  {'new':>24}  new/old")
    for n in names:
        o, w = times[args.old][n], times[args.new][n]
        print(f"{n:<{width}}  {units[n]:<4}  {cell(o):>24}  {cell(w):>24}  "
              f"{statistics.median(w) / statistics.median(o):.3f}")


if __name__ == "__main__":
    main()
