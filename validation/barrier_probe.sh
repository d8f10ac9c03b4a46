#!/usr/bin/env bash
# barrier_probe.sh OUTDIR -- validation/kernels/barrier_probe (mbarrier, cp.async.bulk) through
# validation/ptx_check.sh, with the suite's metrics, the ldgsts ones, and every counter this ncu lists
# for the barrier and bulk-copy (TMA) paths and for instruction classes (written to
# OUTDIR/barrier_probe/extra_metrics.txt).
set -u
OUT=${1:?usage: barrier_probe.sh OUTDIR}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NCU=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)}
mkdir -p "$OUT/barrier_probe"
"$NCU" --query-metrics 2>/dev/null | awk '$2 == "Counter" {print $1}' |
  grep -E '^(smsp__(sass_)?inst_executed_op_|l1tex__m_.*tma|l1tex__.*pipe_tma|l1tex__.*syncs|.*mbar|.*bulk|.*utma|.*ublk)' |
  grep -v -E 'multicast|dshared|_red$|_red_|peer|sysmem' | sed 's/$/.sum/' | sort -u > "$OUT/barrier_probe/extra_metrics.txt"
echo "extra metrics: $(wc -l < "$OUT/barrier_probe/extra_metrics.txt")"
EXTRA_METRICS="$(grep -v '^#' "$ROOT/validation/ldgsts_metrics.txt" | tr '\n' ' ') $(tr '\n' ' ' < "$OUT/barrier_probe/extra_metrics.txt")" \
  bash "$ROOT/validation/ptx_check.sh" barrier_probe "$OUT"
