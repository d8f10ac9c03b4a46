#!/bin/bash
# lrc_probe.sh OUTDIR -- which requests the H100's L2 request coalescer merges: a tile read by the CTAs
# of one cluster (one GPC) against the same tile read by CTAs far apart in the grid
# (validation/kernels/lrc_probe, its header says what each configuration does). One process under
# Nsight Compute; writes OUTDIR/ncu.csv (raw), launches.txt (launch order and each launch's SM per
# CTA), summary.csv (one row per launch) and environment.txt.
set -euo pipefail
out=${1:?usage: lrc_probe.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" lrc_probe
metrics=lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum
configs=(alone:64:256)
for c in 2 4 8; do configs+=(cluster:$c:64:256 far:$c:64:256); done
configs+=(cluster:2:128:256 far:2:128:256 alone:128:256 cluster:2:64:1024 far:2:64:1024)
"$out/lrc_probe" "${configs[@]}" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/lrc_probe" "${configs[@]}" >"$out/ncu_stdout.txt"
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
rm -f "$out/lrc_probe"
echo "lrc_probe: ${#configs[@]} launches -> $out/summary.csv"
