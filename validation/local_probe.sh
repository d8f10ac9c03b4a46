#!/bin/bash
# local_probe.sh OUTDIR -- how much local data the H100's L1 keeps, and how the hardware times the
# warps of the suite's `local_array` (validation/kernels/local_probe/local_probe.cu says what each
# configuration does). Runs every configuration in one process under Nsight Compute and writes
# OUTDIR/ncu.csv (raw), OUTDIR/launches.txt (launch order, from a run without ncu),
# OUTDIR/ncu_stdout.txt, OUTDIR/summary.csv (one row per launch), OUTDIR/environment.txt, and
# OUTDIR/ltime.txt.gz / OUTDIR/ltime_ncu.txt.gz (per warp: SM, CTA, warp, clock at its first local store
# and when its load's index is known; without and under ncu).
set -euo pipefail
out=${1:?usage: local_probe.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" local_probe
metrics=gpu__time_duration.sum,launch__shared_mem_config_size,sm__ctas_launched.min,sm__ctas_launched.max
for op in ld st; do
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_local_op_$op.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_${op}_lookup_hit.sum
    metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_${op}_lookup_hit.sum
done
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum
configs=()
# one warp per SM: the capacity curve for local lines (224 KB = 1,792 lines)
for n in 1024 1536 1664 1728 1792 1856 1920 2048 2304 2560 3072; do configs+=(lfill:1:$n); done
# 8 and 32 warps per SM sharing the same totals
for t in 1024 1536 1664 1792 1920 2048 2560 3072; do configs+=(lfill:8:$((t / 8)) lfill:32:$((t / 32))); done
# global lines against local ones; reverse order
for n in 1536 1792 2048 2560; do configs+=(gfill:1:$n); done
for n in 48 56 64 80; do configs+=(gfill:32:$n); done
for n in 1792 2048 2560; do configs+=(lfill_rev:1:$n); done
configs+=(lfill:1:2048 lfill:32:64 gfill:1:2048)   # repeats: run-to-run spread
"$out/local_probe" "${configs[@]}" "ltime:$out/ltime.txt" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/local_probe" "${configs[@]}" "ltime:$out/ltime_ncu.txt" \
    >"$out/ncu_stdout.txt"
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
gzip -9f "$out/ltime.txt" "$out/ltime_ncu.txt"
rm -f "$out/local_probe"
echo "local_probe: $((${#configs[@]} + 1)) launches -> $out/summary.csv"
