#!/usr/bin/env bash
# ptx_blind.sh OUTDIR -- the PTX interpreter checked blind: builds validation/kernels/ptx_blind/ptx_blind.cu
# (kernels written after the interpreter, none of them in the suite), runs it under Nsight Compute with
# the suite's metrics (validation/suite_metrics.txt, those `ncu --query-metrics` lists), and writes
# OUTDIR/ptx_blind/{ptx_blind.ncu.csv, ptx_blind.sass, ptx_blind.ptx, environment.txt, tolerances.toml}:
# a directory for `warpscope validate OUTDIR/ptx_blind --ptx validation/ptx_blind` (docs/VALIDATION.md,
# "PTX runs, blind"). The interpreter's predictions were committed before the hardware ran
# (validation/ptx_blind/predicted_sm_90.json).
set -u
OUT=${1:?usage: ptx_blind.sh OUTDIR}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
S="$OUT/ptx_blind"
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
K="$ROOT/validation/kernels/ptx_blind"
( cd "$K" && "$NVCC" -O3 -arch="$ARCH" -lineinfo -o "$S/ptx_blind.bin" ptx_blind.cu && \
  "$NVCC" -O3 -arch="$ARCH" -lineinfo -ptx -o "$S/ptx_blind.ptx" ptx_blind.cu ) || { echo "!! build failed"; exit 1; }
"$CUOBJDUMP" -sass "$S/ptx_blind.bin" > "$S/ptx_blind.sass" 2>&1
"$S/ptx_blind.bin" > "$S/run.txt" 2>&1 || { echo "!! ptx_blind failed"; cat "$S/run.txt"; exit 1; }
cat "$S/run.txt"
"$NCU" --query-metrics > "$S/query_metrics.txt" 2>&1
KEEP=""
for m in $(grep -v '^[[:space:]]*#' "$ROOT/validation/suite_metrics.txt" | tr -s ' \n\t' ' '); do
  base=${m%.*}
  if [[ $m == launch__* ]] || grep -Eq "^${base}([[:space:]]|$)" "$S/query_metrics.txt"; then KEEP="$KEEP $m"; fi
done
rm -f "$S/query_metrics.txt"
"$NCU" --csv --page raw --print-units base --clock-control none --metrics "$(echo $KEEP | tr ' ' ',')" \
  "$S/ptx_blind.bin" > "$S/ptx_blind.ncu.out" 2> "$S/ptx_blind.ncu.log"
echo "ncu rc=$?"
grep '^"' "$S/ptx_blind.ncu.out" > "$S/ptx_blind.ncu.csv"
echo "rows: $(grep -c '^"[0-9]' "$S/ptx_blind.ncu.csv")"
rm -f "$S/ptx_blind.bin"
