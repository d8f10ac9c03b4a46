#!/usr/bin/env bash
# ptx_check.sh APP OUTDIR -- an application checked through the PTX interpreter: builds
# validation/kernels/APP/APP.cu, runs it under Nsight Compute with the suite's metrics
# (validation/suite_metrics.txt, those `ncu --query-metrics` lists), and writes
# OUTDIR/APP/{APP.ncu.csv, APP.sass, APP.ptx, environment.txt, tolerances.toml}: a directory for
# `warpscope validate OUTDIR/APP --ptx validation/APP` (its PTX and run script; docs/VALIDATION.md,
# "PTX runs, blind"). APP = ptx_blind: ten kernels written after the interpreter, their predictions
# committed before the hardware ran them; red_probe: reductions on shared addresses; write_merge_probe:
# stores merged before the L2; matrix_probe: ldmatrix, stmatrix and mma.sync; wmma_probe: the WMMA API;
# async_probe, async_gemm: cp.async (recorded with EXTRA_METRICS from validation/ldgsts_metrics.txt). EXTRA_METRICS (names, space-separated) are collected too, when this ncu lists them.
set -u
APP=${1:?usage: ptx_check.sh APP OUTDIR}
OUT=${2:?usage: ptx_check.sh APP OUTDIR}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
S="$OUT/$APP"
mkdir -p "$S"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=$(dirname "$(dirname "$NVCC")")
NCU=${NCU:-$(command -v ncu || ls "$CUDA"/bin/ncu 2>/dev/null | head -1)}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$CUDA/bin/cuobjdump")}
CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
ARCH=sm_${CC:-90}
{
  echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
  echo "gpu_model: ${GPU_MODEL:-h100-sxm}"
  echo "arch: $ARCH"
  echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "cuda: $("$NVCC" --version 2>/dev/null | grep -o 'release [0-9.]*, V[0-9.]*' | sed 's/release //')"
  echo "ncu: $("$NCU" --version 2>/dev/null | grep -io 'version [0-9.]*' | head -1 | sed 's/[Vv]ersion //')"
  echo "date: $(date -u +%FT%TZ)"
  echo "ecc: $(nvidia-smi --query-gpu=ecc.mode.current --format=csv,noheader 2>/dev/null | head -1)"
} > "$S/environment.txt"
cat "$S/environment.txt"
cp "$ROOT/validation/h100/suite/tolerances.toml" "$S/"
K="$ROOT/validation/kernels/$APP"
# BIN_ARCH / PTX_ARCH: nvcc's target flags (wgmma_probe: BIN_ARCH="-gencode arch=compute_90a,code=sm_90a", since
# -arch=sm_90a also builds compute_90 PTX, which cannot hold wgmma, and PTX_ARCH=-arch=sm_90a).
# shellcheck disable=SC2086
( cd "$K" && "$NVCC" -O3 ${BIN_ARCH:--arch=$ARCH} -lineinfo -o "$S/$APP.bin" $APP.cu && \
  "$NVCC" -O3 ${PTX_ARCH:--arch=$ARCH} -lineinfo -ptx -o "$S/$APP.ptx" $APP.cu ) || { echo "!! build failed"; exit 1; }
"$CUOBJDUMP" -sass "$S/$APP.bin" > "$S/$APP.sass" 2>&1
"$S/$APP.bin" > "$S/run.txt" 2>&1 || { echo "!! $APP failed"; cat "$S/run.txt"; exit 1; }
cat "$S/run.txt"
"$NCU" --query-metrics > "$S/query_metrics.txt" 2>&1
KEEP=""
for m in $(grep -v '^[[:space:]]*#' "$ROOT/validation/suite_metrics.txt" | tr -s ' \n\t' ' ') ${EXTRA_METRICS:-}; do
  base=${m%.*}
  if [[ $m == launch__* ]] || grep -Eq "^${base}([[:space:]]|$)" "$S/query_metrics.txt"; then KEEP="$KEEP $m"; fi
done
rm -f "$S/query_metrics.txt"
"$NCU" --csv --page raw --print-units base --clock-control none --metrics "$(echo $KEEP | tr ' ' ',')" \
  "$S/$APP.bin" > "$S/$APP.ncu.out" 2> "$S/$APP.ncu.log"
echo "ncu rc=$?"
grep '^"' "$S/$APP.ncu.out" > "$S/$APP.ncu.csv"
echo "rows: $(grep -c '^"[0-9]' "$S/$APP.ncu.csv")"
rm -f "$S/$APP.bin"
