#!/bin/bash
# partition_probe.sh OUTDIR -- the L2 partitions of the H100 and the DRAM fill of loads and reductions
# (validation/kernels/partition_probe, its header says what each configuration does). One process
# under Nsight Compute; writes OUTDIR/ncu.csv (raw), launches.txt (launch order and each launch's
# ok/timeout), summary.csv (one row per launch) and environment.txt.
set -euo pipefail
out=${1:?usage: partition_probe.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" partition_probe
sms=${SMS:-132}  # SM ids 0..sms-1 (H100 SXM: 132, as the suite's traces record)
metrics=dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
metrics+=,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_tex_op_red_lookup_miss.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum,lts__t_sectors_lookup_miss_data_promoted.sum
configs=()
last=$((sms - 1))
# which SMs find SM 0's promoted sectors (sector 1), and its requested ones (sector 0)
for s in $(seq 0 $last); do configs+=(pair:0:$s:4096:1); done
configs+=(pair:0:0:4096:0 pair:0:1:4096:0 pair:0:2:4096:0 pair:0:3:4096:0)
# a second reference SM, to tell partitions from pairs of SMs
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do configs+=(pair:1:$s:4096:1); done
# DRAM bytes per miss: loads, and reductions from every SM and at line strides 1-128
for s in 0 1 2 3; do configs+=(ld:$s:4096:1); done
configs+=(ld:0:4096:2 ld:0:4096:64)
for s in $(seq 0 $last); do configs+=(red:$s:4096:1); done
for k in 2 4 8 16 32 64 128; do configs+=(red:0:4096:$k); done
"$out/partition_probe" "${configs[@]}" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/partition_probe" "${configs[@]}" >"$out/ncu_stdout.txt"
grep -c ' timeout$' "$out/ncu_stdout.txt" | sed 's/^/timeouts under ncu: /' || true
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
rm -f "$out/partition_probe"
echo "partition_probe: ${#configs[@]} launches -> $out/summary.csv"
