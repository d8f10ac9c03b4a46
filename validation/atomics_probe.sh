#!/bin/bash
# atomics_probe.sh OUTDIR [SET] -- how the H100 counts one warp's global atomic, reduction or CAS, and
# a shared atomic, whose lanes share addresses, 8-byte words, sectors or lines
# (validation/kernels/atomics_probe, its header lists the operations and patterns). One process
# under Nsight Compute; writes OUTDIR/ncu.csv (raw), launches.txt, summary.csv (one row per
# launch), sass.txt (the probe's SASS) and environment.txt. SET: main (default: the 107 launches
# of validation/h100/atomics_probe), ops (six more operations x 12 patterns: .../ops) or
# gather_warps (the gather's 2,048 instructions one launch each: .../gather_warps, ~5 minutes).
set -euo pipefail
out=${1:?usage: atomics_probe.sh OUTDIR [main|ops|gather_warps]}
set_name=${2:-main}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" atomics_probe
cuobjdump -sass "$out/atomics_probe" | grep -E "Function|ATOM|RED" >"$out/sass.txt" || true
metrics=smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum
for op in atom red; do
  metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_$op.sum,l1tex__t_set_accesses_pipe_lsu_mem_global_op_$op.sum
  metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum
  metrics+=,lts__t_requests_srcunit_tex_op_$op.sum,lts__t_sectors_srcunit_tex_op_$op.sum
done
metrics+=,smsp__inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
patterns=(lines dup01 word01 sector01 line01 same mod4 coalesced pairs pairs16 words2 dup_far)
configs=()
case "$set_name" in
main)
  for op in atom4 red4 cas4 max4 atom8 red8 satom4; do
    for p in "${patterns[@]}"; do configs+=("$op:$p"); done
  done
  configs+=(gather:grid gather:cta gather:serial)
  for p in conf512 conf1k conf2k conf4k conf64k rev512 rev1k rev2k rev4k rev64k; do configs+=(atom4:$p red4:$p); done ;;
ops)
  for op in exch4 cas8 scas4 smax4 sexch4 spopc4; do
    for p in "${patterns[@]}"; do configs+=("$op:$p"); done
  done ;;
gather_warps)
  for j in $(seq 0 2047); do configs+=("gather:warp$j"); done ;;
*) echo "unknown set $set_name (main, ops, gather_warps)" >&2; exit 2 ;;
esac
"$out/atomics_probe" "${configs[@]}" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/atomics_probe" "${configs[@]}" >"$out/ncu_stdout.txt"
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
rm -f "$out/atomics_probe"
echo "atomics_probe: ${#configs[@]} launches -> $out/summary.csv"
