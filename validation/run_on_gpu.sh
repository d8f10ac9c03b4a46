#!/usr/bin/env bash
# run_on_gpu.sh -- the hardware validation suite and the tracer examples on a machine with an NVIDIA GPU.
#
#   bash validation/run_on_gpu.sh OUTDIR          (from the repository root)
#
# Builds validation/kernels/suite/*.cu and examples/cuda/*.cu (nvcc -O3 -arch=sm_XX -lineinfo, sm_XX from
# the GPU, sm_90 on an H100) into a temp dir, then for each app:
#   1. Nsight Compute, every launch, the metrics of validation/suite_metrics.txt that `ncu --query-metrics`
#      lists (dropped ones: suite/metrics_dropped.txt):
#        ncu --csv --page raw --print-units base --clock-control none --metrics LIST ./app
#      -> suite/<app>.ncu.csv (the CSV rows only: header, units row, one row per launch) and
#         suite/<app>.ncu.out (ncu's whole stdout, with the app's own "kernel NAME ms=" lines), .ncu.log (stderr)
#   2. the warpscope tracer: warpscope trace -o suite/<app>.wst -- ./app  (stdout/stderr: <app>.trace.log)
#   3. timing: the app untraced and traced (trace written to the temp dir and deleted), wall time of the whole
#      process (date +%s.%N) and the "kernel NAME ms=T" lines of both runs, joined by launch order
#      -> OUTDIR/overhead.csv: app,kernel,untraced_ms,traced_ms,untraced_wall_s,traced_wall_s
#      Suite apps run as in 1-2; examples run at their large size with 3 launches per kernel ("large 3").
#   4. suite/<app>.sass: cuobjdump -sass of the executable; suite/sass_summary.txt: memory instructions of
#      every kernel (validation/kernels/suite/sass_mem.py; '@P' marks a predicated one).
# Writes OUTDIR/environment.txt (key: value), OUTDIR/overhead.csv, OUTDIR/run_log.txt, and packs everything
# under OUTDIR/suite/ into OUTDIR/suite.tar.gz (split into suite.tar.gz.part-00, -01, ... of 15 MiB when it
# is larger; `cat OUTDIR/suite.tar.gz* | tar xz` unpacks either form). OUTDIR/suite/ is removed afterwards
# unless KEEP_SUITE_DIR=1.
# A failing step is logged and the script goes on; the exit status is non-zero if anything failed.
#
# Environment: WARPSCOPE (default build/release/warpscope), NCU, NVCC, CUOBJDUMP (default: from PATH or the
# CUDA toolkit of nvcc), SUITE_BUDGET_S (default 460: no ncu run starts later than this many seconds after
# the start, and each ncu run is cut at the budget), GPU_MODEL (default h100-sxm, the key in
# data/gpus/gpus.toml), APPS_ONLY (space-separated subset of app names), LARGE_ARGS (default "large 3"),
# NCU_ONLY=1 (step 1 and the SASS only: no trace, no timing; for repeated hardware runs), EXTRA_METRICS (a
# second metrics file, same format, collected as well: e.g. validation/merge_metrics.txt).
set -u
OUT=${1:?usage: bash validation/run_on_gpu.sh OUTDIR}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT" || exit 1
OUT=$(cd "$OUT" && pwd)
S=$OUT/suite
rm -rf "$S" "$OUT"/suite.tar.gz*
mkdir -p "$S"
W=$(mktemp -d "${TMPDIR:-/tmp}/warpscope_suite.XXXXXX")
exec > >(tee "$OUT/run_log.txt") 2>&1
T0=$(date +%s)
BUDGET=${SUITE_BUDGET_S:-460}
LARGE_ARGS=${LARGE_ARGS:-large 3}
FAILED=()
fail() { echo "!! FAILED: $*"; FAILED+=("$*"); }
elapsed() { echo $(( $(date +%s) - T0 )); }

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=$(dirname "$(dirname "$NVCC")")
NCU=${NCU:-$(command -v ncu || ls "$CUDA"/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$CUDA/bin/cuobjdump")}
WARPSCOPE=${WARPSCOPE:-$ROOT/build/release/warpscope}
echo "== start $(date -u +%FT%TZ) root=$ROOT out=$OUT work=$W"
echo "   nvcc=$NVCC ncu=${NCU:-none} cuobjdump=$CUOBJDUMP warpscope=$WARPSCOPE budget=${BUDGET}s"
[ -x "$NVCC" ] || { fail "nvcc not found"; }
[ -n "$NCU" ] && [ -x "$NCU" ] || { fail "ncu not found: no Nsight Compute step"; NCU=""; }
if [ "${NCU_ONLY:-0}" = 1 ]; then WARPSCOPE=""
else [ -x "$WARPSCOPE" ] || { fail "warpscope not found at $WARPSCOPE: no trace step"; WARPSCOPE=""; }; fi

# ---------------------------------------------------------------------------------------------------------
# environment
CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
ARCH=sm_${CC:-90}
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
case "${GPU_MODEL:-h100-sxm}:$GPU_NAME" in
  h100-*:*H100*|h200:*H200*) ;;
  *) echo "!! warning: GPU '$GPU_NAME' does not look like gpu_model ${GPU_MODEL:-h100-sxm} (data/gpus/gpus.toml): set GPU_MODEL";;
esac
{
  echo "gpu: ${GPU_NAME:-unknown}"
  echo "gpu_model: ${GPU_MODEL:-h100-sxm}"
  echo "arch: $ARCH"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "cuda: $("$NVCC" --version 2>/dev/null | grep -o 'release [0-9.]*, V[0-9.]*' | sed 's/release //')"
  echo "ncu: $([ -n "$NCU" ] && "$NCU" --version 2>/dev/null | grep -io 'version [0-9.]*' | head -1 | sed 's/[Vv]ersion //')"
  echo "date: $(date -u +%FT%TZ)"
  echo "sm_clock_mhz: $(nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits 2>/dev/null | head -1)"
  echo "ecc: $(nvidia-smi --query-gpu=ecc.mode.current --format=csv,noheader 2>/dev/null | head -1)"
  echo "warpscope: $([ -n "$WARPSCOPE" ] && "$WARPSCOPE" --version 2>/dev/null | head -1)"
} > "$OUT/environment.txt"
cp "$OUT/environment.txt" "$S/"
cat "$OUT/environment.txt"

# ---------------------------------------------------------------------------------------------------------
# build (in parallel)
SUITE_APPS=(global_rules cache_ops shared_rules const_local realistic cache_kernels)
EXAMPLE_APPS=(coalesced_copy strided_access transpose reduction_shared ldg_readonly local_memory driver_api graph_launch two_streams)
declare -A SRC KIND
for a in "${SUITE_APPS[@]}"; do SRC[$a]=$ROOT/validation/kernels/suite/$a.cu; KIND[$a]=suite; done
for a in "${EXAMPLE_APPS[@]}"; do SRC[$a]=$ROOT/examples/cuda/$a.cu; KIND[$a]=example; done
APPS=("${SUITE_APPS[@]}" "${EXAMPLE_APPS[@]}")
if [ -n "${APPS_ONLY:-}" ]; then
  sel=(); for a in "${APPS[@]}"; do case " $APPS_ONLY " in *" $a "*) sel+=("$a");; esac; done; APPS=("${sel[@]}")
fi
echo "== build for $ARCH ($(elapsed)s)"
mkdir -p "$W/bin"
PIDS=()
for a in "${APPS[@]}"; do
  extra=(); [ "$a" = driver_api ] && extra=(-lcuda)
  ( "$NVCC" -O3 -arch="$ARCH" -lineinfo -o "$W/bin/$a" "${SRC[$a]}" "${extra[@]}" > "$W/build_$a.log" 2>&1
    echo $? > "$W/build_$a.rc" ) &
  PIDS+=($!)
done
wait "${PIDS[@]}"  # not a bare `wait`: it would also wait for the `tee` of the log
BUILT=()
for a in "${APPS[@]}"; do
  if [ "$(cat "$W/build_$a.rc" 2>/dev/null)" = 0 ] && [ -x "$W/bin/$a" ]; then BUILT+=("$a")
  else fail "build $a"; cat "$W/build_$a.log"; fi
  cat "$W/build_$a.log" >> "$S/build.log"
done
echo "built: ${BUILT[*]}"

# SASS for the record
for a in "${BUILT[@]}"; do
  "$CUOBJDUMP" -sass "$W/bin/$a" > "$S/$a.sass" 2>&1 || fail "cuobjdump $a"
  if command -v python3 > /dev/null; then
    { echo "== $a"; python3 "$ROOT/validation/kernels/suite/sass_mem.py" "$S/$a.sass"; } >> "$S/sass_summary.txt"
  fi
done
if [ -f "$S/sass_summary.txt" ]; then
  npred=$(grep -c '@' "$S/sass_summary.txt")
  echo "== SASS: $(cat "$S"/*.sass | grep -c "Function") functions; kernels with a predicated memory instruction: $npred"
  [ "$npred" -gt 0 ] && grep '@' "$S/sass_summary.txt" | cut -c1-200
fi

# ---------------------------------------------------------------------------------------------------------
# metrics
METRICS=$(cat "$ROOT/validation/suite_metrics.txt" ${EXTRA_METRICS:+"$EXTRA_METRICS"} | grep -v '^[[:space:]]*#' | tr -s ' \n\t' ' ')
KEEP=""
if [ -n "$NCU" ]; then
  "$NCU" --query-metrics > "$S/query_metrics.txt" 2>&1 || echo "!! ncu --query-metrics rc=$?"
  : > "$S/metrics_dropped.txt"
  for m in $METRICS; do
    base=${m%.*}
    # launch__* are launch attributes, not counters: --query-metrics does not list them
    if [[ $m == launch__* ]] || grep -Eq "^${base}([[:space:]]|$)" "$S/query_metrics.txt"; then KEEP="$KEEP $m"
    else echo "$m" >> "$S/metrics_dropped.txt"; fi
  done
  echo "== metrics: $(echo $KEEP | wc -w) kept, dropped (not in --query-metrics): $(tr '\n' ' ' < "$S/metrics_dropped.txt")"
  echo $KEEP | tr ' ' '\n' > "$S/metrics_used.txt"
fi
NCU_ARGS=(--csv --page raw --print-units base --clock-control none)

run_ncu() {  # app
  local a=$1 left list rc rows bad m nk
  left=$(( T0 + BUDGET - $(date +%s) ))
  if [ "$left" -lt 20 ]; then fail "ncu $a skipped: time budget used up"; return; fi
  for try in 1 2; do
    list=$(echo $KEEP | tr ' ' ',')
    local t1; t1=$(date +%s)
    timeout "$left" "$NCU" "${NCU_ARGS[@]}" --metrics "$list" "$W/bin/$a" > "$S/$a.ncu.out" 2> "$S/$a.ncu.log"
    rc=$?
    grep '^"' "$S/$a.ncu.out" > "$S/$a.ncu.csv"
    rows=$(grep -c '^"[0-9]' "$S/$a.ncu.csv")
    echo "   ncu $a: rc=$rc rows=$rows launches=$(grep -c '^kernel .* ms=' "$S/$a.ncu.out") $(( $(date +%s) - t1 ))s"
    [ $rc -eq 0 ] && [ "$rows" -gt 0 ] && return
    grep -hi "error" "$S/$a.ncu.out" "$S/$a.ncu.log" | head -5
    [ $rc -eq 124 ] && { fail "ncu $a: cut at the time budget ($rows rows kept)"; return; }
    bad=""
    for m in $KEEP; do
      grep -hi "error" "$S/$a.ncu.out" "$S/$a.ncu.log" | grep -q -- "${m%.*}" && bad="$bad $m"
    done
    if [ -z "$bad" ] || [ $try -eq 2 ]; then fail "ncu $a rc=$rc"; return; fi
    echo "   dropping:$bad"; echo "$bad" | tr ' ' '\n' | grep . >> "$S/metrics_dropped.txt"
    nk=""; for m in $KEEP; do case " $bad " in *" $m "*) ;; *) nk="$nk $m";; esac; done; KEEP=$nk
    echo $KEEP | tr ' ' '\n' > "$S/metrics_used.txt"
    left=$(( T0 + BUDGET - $(date +%s) ))
  done
}

# ---------------------------------------------------------------------------------------------------------
echo "app,kernel,untraced_ms,traced_ms,untraced_wall_s,traced_wall_s" > "$OUT/overhead.csv"
ms_lines() { grep -a '^kernel .* ms=' "$1" | sed 's/^kernel \(.*\) ms=\([0-9.eE+-]*\).*/\1,\2/'; }

for a in "${BUILT[@]}"; do
  echo "== $a (${KIND[$a]}) ($(elapsed)s)"
  # 1. Nsight Compute
  [ -n "$NCU" ] && [ -n "$KEEP" ] && run_ncu "$a"
  [ "${NCU_ONLY:-0}" = 1 ] && continue
  # 2. trace (default arguments: the small size)
  if [ -n "$WARPSCOPE" ]; then
    t1=$(date +%s)
    timeout 300 "$WARPSCOPE" trace -o "$S/$a.wst" -- "$W/bin/$a" > "$S/$a.trace.log" 2>&1
    rc=$?
    echo "   trace $a: rc=$rc $(( $(date +%s) - t1 ))s $(stat -c %s "$S/$a.wst" 2>/dev/null || echo 0) bytes, $(grep -c '^kernel .* ms=' "$S/$a.trace.log") launches"
    [ $rc -ne 0 ] && { fail "trace $a rc=$rc"; tail -5 "$S/$a.trace.log"; }
  fi
  # 3. timing, untraced then traced
  args=(); [ "${KIND[$a]}" = example ] && read -r -a args <<< "$LARGE_ARGS"
  t1=$(date +%s.%N)
  timeout 120 "$W/bin/$a" "${args[@]}" > "$W/$a.untraced.out" 2>&1
  rc=$?
  t2=$(date +%s.%N)
  uw=$(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.3f", b-a}')
  [ $rc -ne 0 ] && { fail "untraced run $a ${args[*]} rc=$rc"; tail -5 "$W/$a.untraced.out"; }
  tw=""
  : > "$W/$a.traced.out"
  if [ -n "$WARPSCOPE" ]; then
    t1=$(date +%s.%N)
    timeout 300 "$WARPSCOPE" trace -o "$W/timing.wst" -- "$W/bin/$a" "${args[@]}" > "$W/$a.traced.out" 2>&1
    rc=$?
    t2=$(date +%s.%N)
    tw=$(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.3f", b-a}')
    echo "   timing $a ${args[*]}: untraced ${uw}s, traced ${tw}s (trace $(stat -c %s "$W/timing.wst" 2>/dev/null || echo 0) bytes)"
    [ $rc -ne 0 ] && { fail "traced timing run $a ${args[*]} rc=$rc"; tail -5 "$W/$a.traced.out"; }
    rm -f "$W/timing.wst" "$W"/timing.wst.*
  else
    echo "   timing $a ${args[*]}: untraced ${uw}s"
  fi
  cp "$W/$a.untraced.out" "$S/$a.timing_untraced.log"
  cp "$W/$a.traced.out" "$S/$a.timing_traced.log"
  ms_lines "$W/$a.untraced.out" > "$W/u.csv"
  ms_lines "$W/$a.traced.out" > "$W/t.csv"
  # join by launch order (both runs launch the same kernels in the same order)
  paste -d'|' "$W/u.csv" "$W/t.csv" | awk -F'|' -v app="$a" -v uw="$uw" -v tw="$tw" '{
      nu = split($1, u, ","); nt = split($2, t, ",")
      k = (nu >= 2) ? u[1] : t[1]
      if (nu >= 2 && nt >= 2 && u[1] != t[1]) k = u[1] "/" t[1]
      printf "%s,%s,%s,%s,%s,%s\n", app, k, (nu >= 2 ? u[2] : ""), (nt >= 2 ? t[2] : ""), uw, tw }' >> "$OUT/overhead.csv"
done
cp "$OUT/overhead.csv" "$S/"

# ---------------------------------------------------------------------------------------------------------
echo "== done ($(elapsed)s); failures: ${#FAILED[@]}"
for f in "${FAILED[@]}"; do echo "   - $f"; done
cp "$OUT/run_log.txt" "$S/run_log.txt" 2>/dev/null
( cd "$OUT" && tar czf suite.tar.gz suite ) || fail "tar"
sz=$(stat -c %s "$OUT/suite.tar.gz" 2>/dev/null || echo 0)
if [ "$sz" -gt $((15 << 20)) ]; then
  ( cd "$OUT" && split -b 15m -d suite.tar.gz suite.tar.gz.part- && rm -f suite.tar.gz )
  echo "== suite.tar.gz is $sz bytes: split into $(ls "$OUT"/suite.tar.gz.part-* | wc -l) parts (cat suite.tar.gz.part-* | tar xz)"
fi
[ "${KEEP_SUITE_DIR:-0}" = 1 ] || rm -rf "$S"
rm -rf "$W"
ls -la "$OUT"
[ ${#FAILED[@]} -eq 0 ]
