#!/bin/bash
# atomics_probe.sh OUTDIR -- how the H100 counts one warp's global atomic, reduction or CAS, and
# a shared atomic, whose lanes share addresses, 8-byte words, sectors or lines
# (validation/kernels/atomics_probe, its header lists the operations and patterns). One process
# under Nsight Compute; writes OUTDIR/ncu.csv (raw), launches.txt, summary.csv (one row per
# launch), sass.txt (the probe's SASS) and environment.txt.
set -euo pipefail
out=${1:?usage: atomics_probe.sh OUTDIR}
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
for op in atom4 red4 cas4 max4 atom8 red8 satom4; do
  for p in "${patterns[@]}"; do configs+=("$op:$p"); done
done
configs+=(gather:grid gather:cta gather:serial)
for p in conf512 conf1k conf2k conf4k conf64k rev512 rev1k rev2k rev4k rev64k; do configs+=(atom4:$p red4:$p); done
"$out/atomics_probe" "${configs[@]}" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/atomics_probe" "${configs[@]}" >"$out/ncu_stdout.txt"
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
rm -f "$out/atomics_probe"
echo "atomics_probe: ${#configs[@]} launches -> $out/summary.csv"
