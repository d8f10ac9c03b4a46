#!/usr/bin/env bash
# run_h100_probes.sh -- everything that needs the H100, in one go: device info, the occupancy sweep, and
# the rules probe under Nsight Compute. Run from the repository root on the GPU machine:
#   OUT=/some/dir bash validation/run_h100_probes.sh
# Writes at most 8 files into $OUT (flat):
#   device.txt, occupancy_sweep.csv, occupancy_kernels.csv, occupancy_device_props.txt,
#   rules_patterns.csv, rules_ncu_raw.csv, rules_results.csv, extras.tar.gz (log, SASS, ptxas/ncu logs)
# Time: the ncu phase starts no new chunk after T0+430 s and kills a running one at T0+530 s.
set -u
T0=$(date +%s)
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:?set OUT}
W=${WORK_DIR:-/tmp/warpscope_h100}
rm -rf "$W"; mkdir -p "$W/occ" "$W/rules" "$OUT"
exec > >(tee "$W/log.txt") 2>&1
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
export PATH="$(dirname "$NVCC"):$PATH"
CUDA=$(dirname "$(dirname "$NVCC")")
NCU=$(command -v ncu || ls "$CUDA"/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
export NCU
echo "== start $(date -u +%FT%TZ) nvcc=$NVCC ncu=$NCU python3=$(command -v python3)"

{
  echo "== date (UTC)"; date -u +%FT%TZ
  echo "== uname -a"; uname -a
  echo "== nvidia-smi -q | head -60"; nvidia-smi -q 2>&1 | head -60
  echo "== nvidia-smi --query-gpu"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current,compute_mode --format=csv 2>&1
  echo "== ncu --version"; "$NCU" --version 2>&1
  echo "== nvcc --version"; "$NVCC" --version 2>&1
} > "$OUT/device.txt"

echo "== occupancy sweep ($(( $(date +%s) - T0 ))s)"
bash "$HERE/occupancy_sweep.sh" "$OUT" "$W/occ"
echo "[occ] rows: $(($(wc -l < "$OUT/occupancy_sweep.csv") - 1)), kernels: $(($(wc -l < "$OUT/occupancy_kernels.csv") - 1))"

echo "== rules probe ($(( $(date +%s) - T0 ))s)"
RULES_SOFT_DEADLINE=$((T0 + 430)) RULES_HARD_DEADLINE=$((T0 + 530)) bash "$HERE/rules_probe.sh" "$OUT" "$W/rules"
{ echo "== cudaDeviceProp (rules_probe --props)"; "$W/rules/rules_probe" --props 2>&1; } >> "$OUT/device.txt"

echo "== done ($(( $(date +%s) - T0 ))s)"
echo "== SASS summary (memory instructions per kernel)"
cat "$W/rules/rules_probe.sass_summary.txt"
echo "== metrics dropped: $(cat "$W/rules/metrics_dropped.txt" 2>/dev/null)"
echo "== results (first columns of a few rows)"
[ -f "$OUT/rules_results.csv" ] && head -3 "$OUT/rules_results.csv" && wc -l "$OUT/rules_results.csv"
sleep 1
( cd "$W" && tar czf "$OUT/extras.tar.gz" log.txt rules/*.sass rules/*.txt rules/*.log rules/ncu_trial.csv occ/*.log 2>/dev/null )
ls -la "$OUT"
