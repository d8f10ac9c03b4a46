#!/usr/bin/env bash
# occupancy_sweep.sh -- build one cubin of validation/kernels/occ_module.cu per register limit and run
# validation/kernels/occupancy_sweep.cu over them. Needs an sm_90 GPU and nvcc.
#
# usage: validation/occupancy_sweep.sh OUT_DIR [WORK_DIR]
# writes OUT_DIR/occupancy_sweep.csv, OUT_DIR/occupancy_kernels.csv, OUT_DIR/occupancy_device_props.txt
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: occupancy_sweep.sh OUT_DIR [WORK_DIR]}
WORK=${2:-/tmp/warpscope_occ}
mkdir -p "$OUT" "$WORK"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
REGS="16 24 25 32 33 37 40 41 48 56 57 63 64 65 72 80 88 96 100 104 112 120 128 136 137 152 160 168 169 184 192 200 216 232 240 248 255"
JOBS=$(nproc 2>/dev/null || echo 4)

"$NVCC" -arch=sm_90 -O3 -lineinfo -o "$WORK/occupancy_sweep" "$HERE/kernels/occupancy_sweep.cu" -lcuda || { echo "[occ] build failed"; exit 1; }
t0=$(date +%s)
printf '%s\n' $REGS | xargs -P "$JOBS" -I{} sh -c \
  "\"$NVCC\" -arch=sm_90 -O3 -lineinfo -cubin -maxrregcount={} -Xptxas -v -o \"$WORK/occ_r{}.cubin\" \"$HERE/kernels/occ_module.cu\" > \"$WORK/ptxas_r{}.log\" 2>&1 || echo \"[occ] cubin R={} failed\""
echo "[occ] cubins built in $(( $(date +%s) - t0 ))s"
cubins=""; for r in $REGS; do [ -f "$WORK/occ_r$r.cubin" ] && cubins="$cubins $WORK/occ_r$r.cubin"; done
"$WORK/occupancy_sweep" "$OUT" $cubins
