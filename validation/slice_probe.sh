#!/bin/bash
# slice_probe.sh OUTDIR [LIST] -- which addresses share an L2 slice on the H100, from Nsight Compute's
# per-slice rollups (validation/kernels/slice_probe: its header says what a configuration does).
# Exploratory. LIST a (default): one CTA per line; also OUTDIR/instances.txt (ncu
# --print-metric-instances on single lines: are per-slice values reported at all). LIST b: every
# line read from one CTA (one SM, one partition's slices). Writes ncu.csv, launches.txt,
# summary.csv, environment.txt (ncu.csv gzipped). LIST c: one CTA again; each high address (bits 18-29, alone and
# in a few pairs) against one line of each of the 32 slices that lines 0-1023 use (list b).
set -uo pipefail
out=${1:?usage: slice_probe.sh OUTDIR [a|b|c]}
list=${2:-a}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" slice_probe || exit 1
R=2000
m=lts__t_sectors_srcunit_tex_op_read
metrics=$m.sum,$m.max,$m.min,$m.avg,lts__t_requests_srcunit_tex_op_read.sum

# spaced K STRIDE: the offsets 0, STRIDE, ..., (K - 1) x STRIDE joined by '+'.
spaced() { local i l=""; for i in $(seq 0 $(($1 - 1))); do l+="${l:++}$((i * $2))"; done; echo "$l"; }

if [ "$list" = b ]; then
    R=1000
    configs=()
    for j in $(seq 1 1023); do configs+=("one:$R:0+$((j * 128))"); done
    for b in $(seq 17 29); do configs+=("one:$R:0+$((1 << b))"); done
    for k in 8 16 32 64 128 256; do configs+=("one:$R:$(spaced $k 128)" "one:$R:$(spaced $k 4096)"); done
elif [ "$list" = c ]; then
    R=1000
    reps="0 2 8 10 16 18 24 26 64 66 72 74 80 82 88 90 128 130 136 138 144 146 152 154 192 194 200 202 208 210 216 218"
    highs=()
    for b in $(seq 18 29); do highs+=($((1 << b))); done
    highs+=($(((1 << 18) | (1 << 19))) $(((1 << 18) | (1 << 20))) $(((1 << 19) | (1 << 20))) $(((1 << 20) | (1 << 21))))
    highs+=($(((1 << 18) | (1 << 19) | (1 << 20))))
    configs=()
    for h in "${highs[@]}"; do for r in $reps; do configs+=("one:$R:$h+$((r * 128))"); done; done
    configs+=("one:$R:$(spaced 1024 $((1 << 20)))")
else
singles=()
for b in $(seq 7 29); do singles+=("lines:$R:$((1 << b))"); done
# Per-instance values, if this ncu reports them for lts metrics.
{ ncu --help | grep -i -A4 "instance"; echo ---; \
  ncu --print-metric-instances values --metrics "$m.sum" "$out/slice_probe" "lines:$R:0" "${singles[@]:0:4}"; } \
    >"$out/instances.txt" 2>&1

configs=("lines:$R:0" "${singles[@]}")
for b in $(seq 7 29); do configs+=("lines:$R:0+$((1 << b))"); done
# 0 against every pair of bits 7..14 (are the slice bits XORs of address bits?)
for b in 7 8 9 10 11 12 13; do for c in $(seq $((b + 1)) 14); do configs+=("lines:$R:0+$(((1 << b) | (1 << c)))"); done; done
# k consecutive lines, k lines 4 KB apart: the most that share one slice
for k in 2 4 8 16 32 64 128; do configs+=("lines:$R:$(spaced $k 128)" "lines:$R:$(spaced $k 4096)"); done
fi
"$out/slice_probe" "${configs[@]}" >"$out/launches.txt" || exit 1
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/slice_probe" "${configs[@]}" >"$out/ncu_stdout.txt" 2>&1
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
gzip -9 -f "$out/ncu.csv"
rm -f "$out/slice_probe"
echo "slice_probe: ${#configs[@]} launches -> $out/summary.csv"
