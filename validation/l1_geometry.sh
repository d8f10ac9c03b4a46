#!/bin/bash
# l1_geometry.sh OUTDIR [LIST] -- measure the L1 data cache's capacity, set count and replacement
# policy on the GPU of this machine with validation/kernels/l1_geometry (see its header for the
# method). Writes OUTDIR/l1_geometry.csv (one row per launch: carveout, stride, k, hits, misses, the
# shared memory configuration ncu reports, the kernel's own mean cycles per load, mode and sequence)
# and environment.txt. validation/tools/l1_geometry_fit.py replays every row through candidate caches.
#
# LIST: a   (default) the first survey (validation/h100/l1_geometry/l1_geometry.csv, 289 launches):
#           capacity with stride 128, power-of-two strides, stride 384, carveouts 0 and 100.
#       b   the follow-up (~290 launches, about 2 minutes under ncu on an H100): fine k grids past
#           the capacity, odd strides (5..65 lines), sequence-mode tests (reverse second pass =
#           capacity per set; permuted orders; fill / re-touch / stream / probe = LRU vs FIFO vs
#           random), and the carveouts 3..86 % (8..196 KB shared).
#       all both.
# A failed ncu run is reported and skipped; the other runs still reach the CSV.
set -uo pipefail
out=${1:?usage: l1_geometry.sh OUTDIR [a|b|all]}
list=${2:-a}
case $list in a|b|all) ;; *) echo "unknown list $list (a, b or all)" >&2; exit 2 ;; esac
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" l1_geometry || exit 1
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,launch__shared_mem_config_size
nrun=0
run() {  # CARVEOUT CONFIG...  (one process; ncu profiles its chase / chase_seq launches)
    local c=$1; shift
    nrun=$((nrun + 1))
    local tag; tag=$(printf %03d $nrun)
    if ! ncu --csv --metrics $metrics --kernel-name regex:^chase "$out/l1_geometry" "$c" "$@" >"$out/ncu_$tag.csv" 2>"$out/ncu_$tag.err"; then
        echo "warning: ncu run $tag (carveout $c) failed, see $out/ncu_$tag.err" >&2
    fi
    if ! "$out/l1_geometry" "$c" "$@" >"$out/cycles_$tag.txt" 2>>"$out/ncu_$tag.err"; then
        echo "warning: run $tag (carveout $c) without ncu failed" >&2
    fi
}
# k lists: around the capacity for dense strides, small counts for the strides that may share a set.
dense=16,32,64,128,256,512,768,1024,1280,1536,1664,1792,1856,1920,1984,2048,2112,2176,2304
small=8,16,24,32,40,48,56,64,80,96,128,192,256,384,512,768,1024,1536,2048
small_l1=16,28,32,48,56,64,96,112,128,160,192,208,224,240,256,288
list_a() {
    run 0 128:$dense 256:$small 512:$small 1024:$small 2048:$small 4096:$small 8192:$small 16384:$small 32768:$small 65536:$small 384:$dense
    run 100 128:$small_l1 1024:$small_l1 4096:$small_l1 8192:$small_l1 16384:$small_l1
}
rev() {  # STRIDE K...: first pass ascending, second pass descending (LRU/FIFO: hits = sum min(n_s, W))
    local s=$1; shift
    for k in "$@"; do printf ' seq:%s:0..%d+%d..0' "$s" $((k - 1)) $((k - 1)); done
}
order() {  # STRIDE F D...: fill 0..F-1, re-touch the first half, stream D new lines, probe one half
    local s=$1 f=$2; shift 2
    local h=$((f / 2))
    for d in "$@"; do
        printf ' seq:%s:0..%d+0..%d+%d..%d+0..%d' "$s" $((f - 1)) $((h - 1)) $f $((f + d - 1)) $((h - 1))       # probe re-touched half
        printf ' seq:%s:0..%d+0..%d+%d..%d+%d..%d' "$s" $((f - 1)) $((h - 1)) $f $((f + d - 1)) $h $((f - 1))  # probe the other half
        printf ' seq:%s:0..%d+%d..%d+0..%d' "$s" $((f - 1)) $f $((f + d - 1)) $((h - 1))                     # control: no re-touch
    done
}
perm() {  # STRIDE K...: random order, same in both passes (@1+@1) and a new order in pass 2 (@1+@2)
    local s=$1; shift
    for k in "$@"; do printf ' seq:%s:p0..%d@1+p0..%d@1 seq:%s:p0..%d@1+p0..%d@2' "$s" $((k - 1)) $((k - 1)) "$s" $((k - 1)) $((k - 1)); done
}
grid() {  # LINES: k = LINES x {0.6 .. 1.2}
    local l=$1
    echo "$((l * 60 / 100)),$((l * 75 / 100)),$((l * 85 / 100)),$((l * 90 / 100)),$((l * 95 / 100)),$l,$((l * 105 / 100)),$((l * 110 / 100)),$((l * 120 / 100))"
}
list_b() {
    local near=1600,1664,1728,1792,1856,1920,1984
    local fine=1664,1696,1728,1760,1792,1824,1856,1920,2048
    local odd=256,512,768,1024,1280,1536,1792,2048
    # carveout 0: fine grids past the capacity (power-of-two strides were only sampled at 1536, 2048),
    # stride 128 twice (run-to-run noise), odd strides, the onset of stride 384's losses.
    run 0 256:$near 2048:$near 16384:$near 128:$fine 128:$fine \
        640:$odd 896:$odd 1152:$odd 1408:$odd 1664:$odd 2176:$odd 4224:$odd 8320:$odd \
        384:384,448,512,576,640,704,768,832,896
    # carveout 0, sequence mode: capacity (reverse second pass), permutations, replacement order.
    # shellcheck disable=SC2046
    run 0 $(rev 128 1024 1536 1664 1728 1792 1856 1920 2048 2304 2560 3072 4096) \
        $(rev 4096 1536 1792 2048 2560 3072 4096) $(rev 384 1536 1792 2048 2560 3072 4096) \
        $(perm 128 1536 1792 2048) $(order 128 1536 128 256 384 512 768)
    # carveout 100 (28 KB L1): capacity, replacement order, odd strides.
    # shellcheck disable=SC2046
    run 100 $(rev 128 128 160 192 224 256 320 448) $(order 128 128 16 32 48 64 96) \
        384:64,96,128,160,192,224,256 640:64,96,128,160,192,224,256 896:64,96,128,160,192,224,256
    # other carveouts (percent of 228 KB: ~8, 16, 32, 64, 100, 132, 164, 196 KB shared); the driver's
    # choice lands in shared_mem_config. k grids around the nominal L1 = 256 KB - shared.
    local pct kb
    for pk in 3:8 7:16 14:32 28:64 44:100 58:132 72:164 86:196; do
        pct=${pk%%:*}; kb=${pk##*:}
        local lines=$(((256 - kb) * 8))
        # shellcheck disable=SC2046
        run "$pct" 128:$(grid $lines) $(rev 128 $((lines * 3 / 2)) $((lines * 3)))
    done
}
case $list in
    a) list_a ;;
    b) list_b ;;
    all) list_a; list_b ;;
    *) echo "unknown list $list (a, b or all)" >&2; exit 2 ;;
esac
python3 - "$out" <<'PY'
import csv, pathlib, sys
out = pathlib.Path(sys.argv[1])
HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
MISS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"
SMEM = "launch__shared_mem_config_size"
rows, bad = [], 0
for cyc_path in sorted(out.glob("cycles_*.txt")):
    tag = cyc_path.stem.split("_", 1)[1]
    cyc = [dict(kv.split("=", 1) for kv in l.split()[1:]) for l in cyc_path.read_text().splitlines()
           if l.startswith("launch ")]
    ncu_path = out / f"ncu_{tag}.csv"
    text = ncu_path.read_text() if ncu_path.exists() else ""
    if '"ID"' not in text:
        print(f"warning: run {tag}: no ncu results, {len(cyc)} launches skipped", file=sys.stderr)
        bad += len(cyc)
        continue
    per = {}
    for r in csv.DictReader(text[text.index('"ID"'):].splitlines()):
        try:
            per.setdefault(int(r["ID"]), {})[r["Metric Name"]] = r["Metric Value"].replace(",", "")
        except (KeyError, ValueError):
            continue
    ids = sorted(per)
    if len(ids) != len(cyc):
        print(f"warning: run {tag}: {len(ids)} profiled launches but {len(cyc)} printed; run skipped",
              file=sys.stderr)
        bad += len(cyc)
        continue
    for i, cfg in zip(ids, cyc):
        m = per[i]
        rows.append([cfg["carveout"], cfg["stride"], cfg["k"], m.get(HIT, ""), m.get(MISS, ""),
                     m.get(SMEM, ""), cfg["cycles_per_load"], cfg.get("mode", "chain"), cfg.get("spec", "-")])
with open(out / "l1_geometry.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["carveout_pct", "stride_bytes", "k_lines", "l1_hit_sectors", "l1_miss_sectors",
                "shared_mem_config", "cycles_per_load_pass2", "mode", "spec"])
    w.writerows(rows)
print(f"{len(rows)} launches -> {out/'l1_geometry.csv'}" + (f" ({bad} skipped)" if bad else ""))
PY
