#!/bin/bash
# constant_probe.sh OUTDIR -- how the H100 reads __constant__ data from DRAM: the block size, its
# alignment, and whether a block is read once for all SMs (validation/kernels/constant_probe/
# constant_probe.cu says what each configuration does). Runs every configuration in one process under
# Nsight Compute (which flushes the caches before each launch) and writes OUTDIR/ncu.csv (raw),
# OUTDIR/launches.txt (launch order), OUTDIR/summary.csv (one row per launch), OUTDIR/constant_probe.sass
# and OUTDIR/environment.txt.
set -euo pipefail
out=${1:?usage: constant_probe.sh OUTDIR}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" constant_probe
cuobjdump -sass "$out/constant_probe" >"$out/constant_probe.sass"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum,lts__t_sectors_op_read.sum
metrics+=,lts__t_sectors_lookup_miss.sum,lts__t_sectors_srcunit_tex.sum,lts__t_requests_srcunit_tex.sum
blocks16=0$(for i in $(seq 1 15); do printf ',%d' $((i * 256)); done)   # 0,256,...,3840
every64=0$(for i in $(seq 1 15); do printf ',%d' $((i * 64)); done)     # 0,64,...,960
configs=(
    cread:1:-                         # the launch's own reads
    cread:1:0 cread:1:252 cread:1:256 cread:1:4092
    cread:1:252,256                   # either side of 256: two blocks if they start at 0
    cread:1:0,64,128,192              # one 256 B block, four 64 B pieces, two 128 B lines
    cread:1:128,380                   # one block if they started at 128, two if at 0
    cread:1:60,68                     # either side of 64
    cread:1:0,32764                   # far apart
    cread:1:0,8192,16384,24576
    "cread:1:$blocks16"               # 16 blocks
    "cread:1:$every64"                # 16 pieces of 64 B in 4 blocks
    cread:132:0                       # one block, every SM
    "cread:132:$blocks16"
    cread:1:0,0,0,0                   # the same word four times
    cdiv:1:0,256,512,768              # one divergent LDC, 4 blocks
    "cdiv:1:$blocks16"
    cread:1:- cread:1:0 "cread:1:$blocks16"   # repeats: run-to-run spread
)
"$out/constant_probe" "${configs[@]}" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/constant_probe" "${configs[@]}" >/dev/null
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
rm -f "$out/constant_probe"
echo "constant_probe: ${#configs[@]} launches -> $out/summary.csv"
