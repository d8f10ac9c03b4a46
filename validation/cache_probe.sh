#!/usr/bin/env bash
# cache_probe.sh -- build validation/kernels/cache_kernels.cu, dump its SASS, and run it (launching each
# kernel once) twice under Nsight Compute with the metrics of validation/cache_metrics.txt. Each run also
# writes, from the host, the warp-level access stream of every kernel (<kernel>.records.csv) with that
# process's device pointers. Needs an sm_90 GPU, nvcc, cuobjdump, ncu and python3. From the repo root:
#   OUT=/some/dir bash validation/cache_probe.sh
# Writes into $OUT (flat, at most 8 files): cache_run.tar.gz (run1/ = records, pointers, launches, summary,
# check of the first ncu run; run2/ = the same for the second; SASS; logs), summary.csv and check.txt (of
# run 1), ncu_raw.csv (run 1), ncu_raw_run2.csv, device.txt, log.txt.
set -u
T0=$(date +%s)
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:?set OUT}
W=${WORK_DIR:-/tmp/warpscope_cache}
rm -rf "$W"; mkdir -p "$W/plain" "$W/run1" "$W/run2" "$OUT"
exec > >(tee "$W/log.txt") 2>&1
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA=$(dirname "$(dirname "$NVCC")")
NCU=${NCU:-$(command -v ncu || ls "$CUDA"/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}
CUOBJDUMP=$(command -v cuobjdump || echo "$CUDA/bin/cuobjdump")
echo "== start $(date -u +%FT%TZ) nvcc=$NVCC ncu=$NCU"
{
  echo "== date (UTC)"; date -u +%FT%TZ
  echo "== nvidia-smi --query-gpu"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current,compute_mode,memory.total --format=csv 2>&1
  echo "== ncu --version"; "$NCU" --version 2>&1
  echo "== nvcc --version"; "$NVCC" --version 2>&1
} > "$W/device.txt"
cat "$W/device.txt"

"$NVCC" -arch=sm_90 -O3 -lineinfo -o "$W/cache_kernels" "$HERE/kernels/cache_kernels.cu" || { echo "build failed"; exit 1; }
"$CUOBJDUMP" -sass "$W/cache_kernels" > "$W/cache_kernels.sass" 2>&1
python3 "$HERE/tools/sass_summary.py" < "$W/cache_kernels.sass" > "$W/sass_summary.txt"
echo "== SASS memory instructions"; cat "$W/sass_summary.txt"
echo "== plain run ($(( $(date +%s) - T0 ))s)"
( time "$W/cache_kernels" "$W/plain" ) 2>&1

METRICS=$(grep -v '^#' "$HERE/cache_metrics.txt" | tr -s ' \n' ' ')
"$NCU" --query-metrics > "$W/query_metrics.txt" 2>&1 || true
unlisted=""
for m in $METRICS; do
  base=${m%.*}
  grep -Eq "^${base}([[:space:]]|$)" "$W/query_metrics.txt" || unlisted="$unlisted $m"
done
echo "== not in --query-metrics: ${unlisted:-none}"
keep=$METRICS
NCU_ARGS=(--clock-control none --cache-control all --replay-mode kernel --csv --page raw --print-units base)
for run in 1 2; do
  for try in 1 2 3 4; do
    list=$(echo $keep | tr ' ' ',')
    left=$((T0 + 500 - $(date +%s)))
    [ "$run" -eq 2 ] && [ "$left" -lt 200 ] && { echo "== skipping ncu run 2 (time)"; break 2; }
    [ "$left" -lt 30 ] && { echo "== out of time"; break 2; }
    echo "== ncu run $run try $try ($(( $(date +%s) - T0 ))s, limit ${left}s)"
    rm -f "$W/run$run"/*
    timeout "$left" "$NCU" "${NCU_ARGS[@]}" --metrics "$list" "$W/cache_kernels" "$W/run$run" \
        > "$W/ncu_run$run.out" 2> "$W/ncu_run$run.log"
    rc=$?
    echo "rc=$rc rows=$(grep -c '^"[0-9]' "$W/ncu_run$run.out")"
    grep -v '^"' "$W/ncu_run$run.out" | head -20
    if [ $rc -eq 0 ] && [ "$(grep -c '^"[0-9]' "$W/ncu_run$run.out")" -ge 6 ]; then break; fi
    grep -hi "error\|warn" "$W/ncu_run$run.out" "$W/ncu_run$run.log" | head -10
    bad=""
    for m in $keep; do
      grep -hi "error" "$W/ncu_run$run.out" "$W/ncu_run$run.log" | grep -q -- "${m%.*}" && bad="$bad $m"
    done
    [ -z "$bad" ] && bad=$unlisted
    [ -z "$bad" ] && { echo "cannot tell which metric fails"; break; }
    echo "dropping:$bad"
    nk=""; for m in $keep; do case " $bad " in *" $m "*) ;; *) nk="$nk $m";; esac; done; keep=$nk; unlisted=""
  done
  grep '^"' "$W/ncu_run$run.out" > "$W/run$run/ncu_raw.csv"
  echo "$keep" | tr ' ' '\n' | grep . > "$W/run$run/metrics_used.txt"
  python3 "$HERE/tools/cache_summary.py" "$W/run$run/ncu_raw.csv" "$W/run$run/launches.csv" "$W/run$run/pointers.csv" \
      "$HERE/cache_metrics.txt" "$W/run$run/summary.csv"
  python3 "$HERE/tools/check_cache_records.py" "$W/run$run" > "$W/run$run/check.txt" 2>&1
  echo "== check run $run"; cat "$W/run$run/check.txt"
done
echo "== run1 vs run2 pointers: $(cmp -s "$W/run1/pointers.csv" "$W/run2/pointers.csv" && echo same || echo differ)"
echo "== run1 vs run2 summary (metric columns that differ)"
python3 - "$W/run1/summary.csv" "$W/run2/summary.csv" <<'PY'
import csv, sys
a = list(csv.DictReader(open(sys.argv[1]))); b = list(csv.DictReader(open(sys.argv[2])))
for ra, rb in zip(a, b):
    d = [(k, ra[k], rb.get(k)) for k in ra if k not in ("buffers",) and ra[k] != rb.get(k)]
    print(ra["kernel"], d if d else "identical")
PY
cp "$W/device.txt" "$W/run1/summary.csv" "$W/run1/check.txt" "$OUT/"
cp "$W/run1/ncu_raw.csv" "$OUT/ncu_raw.csv"; cp "$W/run2/ncu_raw.csv" "$OUT/ncu_raw_run2.csv"
echo "== done ($(( $(date +%s) - T0 ))s)"
cp "$W/log.txt" "$OUT/log.txt"
( cd "$W" && tar czf "$OUT/cache_run.tar.gz" run1 run2 plain/pointers.csv cache_kernels.sass sass_summary.txt \
    ncu_run1.log ncu_run2.log query_metrics.txt log.txt )
ls -la "$OUT"
