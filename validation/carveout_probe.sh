#!/bin/bash
# carveout_probe.sh OUTDIR -- the shared-memory carveout the driver picks for launches that ask for
# none (validation/kernels/carveout_probe): block sizes 64-1024, dynamic shared memory in fine steps,
# and five static sizes. One process under Nsight Compute; writes OUTDIR/ncu.csv, launches.txt,
# summary.csv (one row per launch) and environment.txt.
set -euo pipefail
out=${1:?usage: carveout_probe.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" carveout_probe
metrics=launch__shared_mem_config_size,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static
metrics+=,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
configs=()
for s in $(seq 1024 256 16384) $(seq 20480 4096 49152); do configs+=(256:$s); done
for s in $(seq 256 256 12288); do configs+=(64:$s); done
for s in $(seq 512 512 24576); do configs+=(128:$s); done
for s in $(seq 2048 1024 49152); do configs+=(512:$s); done
for s in $(seq 4096 4096 98304); do configs+=(1024:$s); done
for s in 2048 3072 4096 8192 12288; do configs+=(256:$s:static); done
"$out/carveout_probe" "${configs[@]}" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/carveout_probe" "${configs[@]}" >/dev/null
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
rm -f "$out/carveout_probe"
echo "carveout_probe: ${#configs[@]} launches -> $out/summary.csv"
