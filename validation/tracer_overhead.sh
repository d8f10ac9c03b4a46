#!/bin/bash
# tracer_overhead.sh OUTDIR -- traced vs untraced time of the CUDA examples (docs/PERFORMANCE.md
# "GPU tracer overhead"). Needs a GPU, nvcc, and WARPSCOPE (default: warpscope on PATH) built with
# the tracer. Each example runs on 32 MiB arrays, each kernel launched 3 times, untraced then
# traced, REPS times (default 2); OUTDIR/overhead.log has every line the examples printed
# ("kernel NAME ms=T") and each process's wall time; OUTDIR/overhead.csv one row per run and kernel
# (the last launch of each run).
set -euo pipefail
out=${1:?usage: tracer_overhead.sh OUTDIR}
mkdir -p "$out/bin"
here=$(cd "$(dirname "$0")/.." && pwd)
W=${WARPSCOPE:-warpscope}
REPS=${REPS:-2}
. "$here/validation/probe_common.sh"
arch=$(gpu_arch)
apps=(coalesced_copy strided_access transpose reduction_shared ldg_readonly local_memory driver_api graph_launch two_streams)
for a in "${apps[@]}"; do
  extra=(); [ "$a" = driver_api ] && extra=(-lcuda)
  nvcc -O3 -arch=sm_$arch -lineinfo -o "$out/bin/$a" "$here/examples/cuda/$a.cu" "${extra[@]}" &
done
wait
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nproc) cores"
  for a in "${apps[@]}"; do
    for rep in $(seq "$REPS"); do
      echo "== $a untraced $rep"; /usr/bin/time -f "wall %e" "$out/bin/$a" 32 3 2>&1
      echo "== $a traced $rep"; /usr/bin/time -f "wall %e" "$W" trace -q -o "$out/t.wst" -- "$out/bin/$a" 32 3 2>&1
    done
  done
} >"$out/overhead.log"
rm -f "$out/t.wst"
python3 - "$out" <<'PY'
import csv, re, sys, pathlib
out = pathlib.Path(sys.argv[1])
rows = []
for block in re.split(r"^== ", (out / "overhead.log").read_text(), flags=re.M)[1:]:
    title, _, body = block.partition("\n")
    app, mode, rep = title.split()
    last = {}
    for k, v in re.findall(r"kernel (\S+) ms=([0-9.]+)", body):
        last[k] = v
    wall = re.findall(r"wall ([0-9.]+)", body)
    for k, v in last.items():
        rows.append([app, k, mode, rep, v, wall[-1] if wall else ""])
with open(out / "overhead.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["example", "kernel", "mode", "run", "kernel_ms", "process_wall_s"])
    w.writerows(rows)
print(f"{len(rows)} rows -> {out / 'overhead.csv'}")
PY
