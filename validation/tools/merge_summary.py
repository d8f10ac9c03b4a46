#!/usr/bin/env python3
"""Where the H100 merges L2 read requests: per launch of a suite run recorded with the extra metrics of
validation/merge_metrics.txt, the sectors L1TEX missed, what the crossbar brought back to L1TEX, the
sectors that reached the L2 request coalescer (LRC), those the LRC merged, and the L2 lookups (lts).

Usage: merge_summary.py RUN_DIR [--all]
  merge_summary.py validation/h100/merge_probe
Prints the launches whose LRC merged at least 1% of the sectors it was offered (--all: every launch
with L2 reads), then the largest difference between lts sectors and (offered - merged) over all
launches: the metrics come from different ncu replay passes, so they agree only to ~200 sectors."""
import csv, glob, os, sys

L1_MISS = ('l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum',
           'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum')
XBAR = 'l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum'
OFFERED = 'lrc__request_sectors_op_read_coalescable.sum'
MERGED = 'lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum'
LTS = 'lts__t_sectors_srcunit_tex_op_read.sum'
LTS_HIT = 'lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum'


def launches(run):
    """(app, kernel, {metric: float}) per launch, in ncu ID order, from RUN/<app>.ncu.csv."""
    for path in sorted(glob.glob(os.path.join(run, '*.ncu.csv'))):
        rows = list(csv.reader(open(path)))
        header = rows[0]
        for r in rows[1:]:
            if not r or not r[0].isdigit():
                continue  # the units row
            values = {}
            for name, cell in zip(header, r):
                try:
                    values[name] = float(cell.replace(',', ''))
                except ValueError:
                    pass
            yield os.path.basename(path).split('.')[0], r[header.index('Kernel Name')].split('(')[0], values


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    show_all = '--all' in sys.argv[2:]
    print(f"{'launch':<44} {'L1 miss':>8} {'xbar->L1':>8} {'LRC in':>8} {'merged':>8} {'lts':>8} {'lts hit':>8}")
    worst = (0.0, '')
    for app, kernel, v in launches(sys.argv[1]):
        if v.get(OFFERED, 0) == 0 and v.get(LTS, 0) == 0:
            continue
        label = f'{app}/{kernel}'
        gap = abs(v.get(LTS, 0) - (v.get(OFFERED, 0) - v.get(MERGED, 0)))
        worst = max(worst, (gap, label))
        if show_all or v.get(MERGED, 0) >= 0.01 * v.get(OFFERED, 0):
            miss = sum(v.get(m, 0) for m in L1_MISS)
            print(f'{label[:44]:<44} {miss:8.0f} {v.get(XBAR, 0):8.0f} {v.get(OFFERED, 0):8.0f} '
                  f'{v.get(MERGED, 0):8.0f} {v.get(LTS, 0):8.0f} {v.get(LTS_HIT, 0):8.0f}')
    print(f'largest |lts - (LRC in - merged)|: {worst[0]:.0f} sectors ({worst[1]})')


if __name__ == '__main__':
    main()
