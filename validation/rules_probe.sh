#!/usr/bin/env bash
# rules_probe.sh -- build validation/kernels/rules_probe.cu, check its SASS, and measure every pattern
# under Nsight Compute. Needs an sm_90 GPU, nvcc, cuobjdump, ncu and python3.
#
# usage: validation/rules_probe.sh OUT_DIR [WORK_DIR]
# writes OUT_DIR/rules_patterns.csv, OUT_DIR/rules_ncu_raw.csv, OUT_DIR/rules_results.csv and, in WORK_DIR,
# the binary, its SASS (rules_probe.sass, rules_probe.sass_summary.txt), the metric check and the ncu logs.
# environment:
#   RULES_FIRST=N           first pattern id to measure (default 0)
#   RULES_CHUNK=N           patterns per ncu process (default 150)
#   RULES_SOFT_DEADLINE=T   epoch seconds after which no new ncu chunk is started (default: none)
#   RULES_HARD_DEADLINE=T   epoch seconds at which a running ncu chunk is killed (default: none)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: rules_probe.sh OUT_DIR [WORK_DIR]}
WORK=${2:-/tmp/warpscope_rules}
mkdir -p "$OUT" "$WORK"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA=$(dirname "$(dirname "$NVCC")")
NCU=${NCU:-$(command -v ncu || ls "$CUDA"/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}
CUOBJDUMP=$(command -v cuobjdump || echo "$CUDA/bin/cuobjdump")
FIRST=${RULES_FIRST:-0}
CHUNK=${RULES_CHUNK:-150}
SOFT=${RULES_SOFT_DEADLINE:-0}
HARD=${RULES_HARD_DEADLINE:-0}

echo "[rules] nvcc=$NVCC ncu=$NCU"
"$NVCC" -arch=sm_90 -O3 -lineinfo -o "$WORK/rules_probe" "$HERE/kernels/rules_probe.cu" || { echo "[rules] build failed"; exit 1; }
"$CUOBJDUMP" -sass "$WORK/rules_probe" > "$WORK/rules_probe.sass" 2>&1
python3 "$HERE/tools/sass_summary.py" < "$WORK/rules_probe.sass" > "$WORK/rules_probe.sass_summary_mangled.txt"
if command -v cu++filt >/dev/null 2>&1 || [ -x "$CUDA/bin/cu++filt" ]; then
  FILT=$(command -v cu++filt || echo "$CUDA/bin/cu++filt")
  # demangle the name before the first ': '
  while IFS= read -r line; do
    n=${line%%: *}; rest=${line#*: }
    printf '%s: %s\n' "$("$FILT" "$n" 2>/dev/null || echo "$n")" "$rest"
  done < "$WORK/rules_probe.sass_summary_mangled.txt" > "$WORK/rules_probe.sass_summary.txt"
else
  cp "$WORK/rules_probe.sass_summary_mangled.txt" "$WORK/rules_probe.sass_summary.txt"
fi
python3 "$HERE/tools/sass_summary.py" --full < "$WORK/rules_probe.sass" > "$WORK/rules_probe.sass_summary_full.txt"

"$WORK/rules_probe" --csv "$OUT/rules_patterns.csv" || exit 1
N=$("$WORK/rules_probe" --count)
echo "[rules] $N patterns"
# sanity run without the profiler
( time "$WORK/rules_probe" --run 0 -1 ) 2>&1 | tail -5

METRICS=$(grep -v '^#' "$HERE/rules_metrics.txt" | tr -s ' \n' ' ')

# 1) the names that --query-metrics lists (used only to decide which metric to drop if a trial fails
#    without naming the culprit)
"$NCU" --query-metrics > "$WORK/query_metrics.txt" 2>&1 || true
keep=""; unlisted=""; found=0
for m in $METRICS; do
  keep="$keep $m"
  base=${m%.*}
  if grep -Eq "^${base}([[:space:]]|$)" "$WORK/query_metrics.txt"; then found=$((found+1)); else unlisted="$unlisted $m"; fi
done
[ "$found" -lt 5 ] && unlisted=""   # the listing is not usable
echo "[rules] not in --query-metrics listing: ${unlisted:-none}"

# 2) a trial on pattern 0; drop any metric ncu rejects
NCU_ARGS=(--clock-control none --csv --page raw --print-units base --kernel-name regex:probe_)
dropped=""
IDM=launch__shared_mem_per_block_dynamic   # identifies the pattern (16384 + id); join falls back to launch order
for try in 1 2 3 4 5 6; do
  list=$(echo $IDM $keep | tr ' ' ',')
  if "$NCU" "${NCU_ARGS[@]}" --metrics "$list" "$WORK/rules_probe" --run 0 1 > "$WORK/ncu_trial.csv" 2> "$WORK/ncu_trial.log" \
     && grep -q '^"ID"' "$WORK/ncu_trial.csv"; then
    break
  fi
  echo "[rules] trial $try failed:"; grep -h -i "error" "$WORK/ncu_trial.csv" "$WORK/ncu_trial.log" | head -5
  if [ -n "$IDM" ] && grep -i "error" "$WORK/ncu_trial.csv" "$WORK/ncu_trial.log" | grep -q -- "$IDM"; then
    echo "[rules] dropping $IDM (rows will be matched by launch order)"; dropped="$dropped $IDM"; IDM=""; continue
  fi
  bad=""
  for m in $keep; do
    if grep -i "error" "$WORK/ncu_trial.csv" "$WORK/ncu_trial.log" | grep -q -- "${m%.*}"; then bad="$bad $m"; fi
  done
  if [ -z "$bad" ] || [ "$(echo $bad | wc -w)" -ge "$(echo $keep | wc -w)" ]; then
    bad=""; for m in $keep; do case " $unlisted " in *" $m "*) bad="$bad $m";; esac; done
  fi
  if [ -z "$bad" ] || [ "$(echo $bad | wc -w)" -ge "$(echo $keep | wc -w)" ]; then
    echo "[rules] cannot tell which metric fails; giving up"; tail -20 "$WORK/ncu_trial.log"; tail -5 "$WORK/ncu_trial.csv"; exit 1
  fi
  echo "[rules] dropping after trial:$bad"
  dropped="$dropped $bad"
  nk=""; for m in $keep; do case " $bad " in *" $m "*) ;; *) nk="$nk $m";; esac; done; keep=$nk
done
grep -q '^"ID"' "$WORK/ncu_trial.csv" || { echo "[rules] ncu trial never succeeded"; exit 1; }
echo "$dropped" > "$WORK/metrics_dropped.txt"
echo "$keep" > "$WORK/metrics_used.txt"
echo "[rules] metrics used: $keep"

# 3) the measurement, in chunks so that a time limit loses at most one chunk
: > "$OUT/rules_ncu_raw.csv"
for ((s=FIRST; s<N; s+=CHUNK)); do
  now=$(date +%s)
  if [ "$SOFT" -gt 0 ] && [ "$now" -ge "$SOFT" ]; then echo "[rules] soft deadline: not starting chunk at $s"; break; fi
  lim=100000; [ "$HARD" -gt 0 ] && lim=$((HARD - now))
  [ "$lim" -le 5 ] && { echo "[rules] hard deadline reached"; break; }
  t0=$(date +%s)
  timeout "$lim" "$NCU" "${NCU_ARGS[@]}" --metrics "$list" "$WORK/rules_probe" --run "$s" "$CHUNK" \
      > "$WORK/ncu_chunk_$s.csv" 2> "$WORK/ncu_chunk_$s.log"
  rc=$?
  grep '^"' "$WORK/ncu_chunk_$s.csv" >> "$OUT/rules_ncu_raw.csv"
  echo "[rules] chunk $s: rc=$rc rows=$(grep -c '^"[0-9]' "$WORK/ncu_chunk_$s.csv") $(( $(date +%s) - t0 ))s"
  [ $rc -ne 0 ] && tail -5 "$WORK/ncu_chunk_$s.log"
done
python3 "$HERE/tools/join_ncu.py" "$OUT/rules_patterns.csv" "$OUT/rules_ncu_raw.csv" "$OUT/rules_results.csv" "$FIRST" --metrics "$WORK/metrics_used.txt"
