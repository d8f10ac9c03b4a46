#!/bin/bash
# write_probe.sh OUTDIR [LIST] -- the store experiments of validation/kernels/write_probe (see its
# header): partial-sector writes against DRAM traffic, and L1 store hits of sub-word stores with the
# warps of a CTA storing at once or in turn. Runs every configuration of LIST in one process under
# Nsight Compute and writes OUTDIR/ncu.csv (raw), OUTDIR/launches.txt (the program's launch order, from
# a run without ncu), OUTDIR/ncu_stdout.txt (what the program printed under ncu), OUTDIR/summary.csv
# (one row per launch: configuration and metrics) and OUTDIR/environment.txt.
#
# LIST: a (default) the first survey (validation/h100/write_probe/a): partial sectors over 1K-1M lines,
#         4/16/32 B per sector, fast and serial issue; the three `turns` modes for 1, 2 and 4 B.
#       b the follow-up (validation/h100/write_probe/b): the onset of early write-backs in lines
#         touched, lines vs span (strides 256 and 4096), whole sectors over 16-48 MB, serial issue.
#       c address bits (validation/h100/write_probe/c): the same number of partial (and whole) lines
#         at line strides 1-32, to see which address bits decide the early write-backs.
#       d one address bit left out (validation/h100/write_probe/d): 32K and 64K partial lines whose
#         address bit BIT (7..24) is always 0, against consecutive lines.
#       e bit 7 and one more left out (validation/h100/write_probe/e), and the onset with bit 7 left out.
#       f store windows (validation/h100/write_probe/f): a store, a spin of 0-8192 cycles, a second
#         store to the same line (or sector, or another line; by the same warp or another one).
#       g the suite's r_particles_aos in CTAs of 32-1024 threads, and by one CTA in rounds; a warp's
#         stores to its own line while another warp loads or stores other lines
#         (validation/h100/write_probe/g).
#       h a warp's loads of its present line while another warp stores or loads other lines, with
#         list g's controls (validation/h100/write_probe/h).
#       i the suite's r_spmv_csr_vector on the whole GPU, by one warp, by one CTA (write_probe/i).
#       j two warps loading one line at once: the same, overlapping or disjoint sectors (write_probe/j).
#       k the suite's r_spmv_csr_vector three times, each run's CTA placement in launches.txt (write_probe/k).
#       l which warps' concurrent stores cost hits: new lines shared by warps of one or of several SM
#         sub-partitions, stores spaced 0-1024 cycles apart; stores to present lines (write_probe/l).
#       m list l's follow-up: many warps into one new line, two lines from one sub-partition (write_probe/m).
#       n new lines in a forced order (gseq, k x SPIN cycles apart): one sub-partition's stores alternating
#         between lines, cycling over 3 or 4, the same across sub-partitions, and with the lines loaded
#         first (write_probe/n).
#       o list n's follow-up: the spacing at which one sub-partition's stores stop losing hits (8-256
#         cycles), loaded lines (one, one per warp, two), two sub-partitions (write_probe/o).
#       p the suite's g_st1/g_st2_coalesced shape (256 CTAs of 256 threads) with each warp's SM and
#         %warpid recorded: which sub-partitions a line's warps share; other CTA sizes (write_probe/p).
set -euo pipefail
out=${1:?usage: write_probe.sh OUTDIR [a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p]}
list=${2:-a}
case $list in a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p) ;; *) echo "unknown list $list (a to p)" >&2; exit 2 ;; esac
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/probe_common.sh"
build_probe "$out" write_probe
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
metrics+=,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics+=,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum
metrics+=,lts__t_sectors_lookup_miss.sum
configs=()
if [ "$list" = a ]; then
    # 1. partial sectors: one 4 B store per 128 B line, from 1K to 1M threads (128 KB .. 128 MB spans)
    for n in 1024 4096 16384 65536 65536 262144 1048576; do configs+=(spread:4:128:$n); done
    configs+=(spread:4:32:65536 spread:4:32:262144)      # four partial sectors per line
    configs+=(spread:4:64:65536)                         # two
    configs+=(spread:16:128:65536)                       # 16 B per sector
    configs+=(spread:32:128:65536 spread:32:128:1048576) # whole sectors: the control
    configs+=(spread_serial:4:128:65536 spread_serial:32:128:65536)
    # 2. sub-word stores of neighbouring warps, at once / in turn / in turn with a pause
    for e in 1 2 4; do for m in 0 1 2; do configs+=(turns:$e:$m); done; done
elif [ "$list" = g ]; then
    for t in 32 64 128 256 512 1024; do configs+=(particles:$t); done
    configs+=(particles_serial:32 particles_serial:256)   # one CTA: no other CTA storing meanwhile
    configs+=(interfere:0 interfere:1 interfere:2 interfere:3 interfere:0 interfere:1)
    configs+=(particles:256 particles:32)   # repeats: run-to-run spread
elif [ "$list" = h ]; then
    # loads of a present line while another warp idles (4), stores into new lines (5), loads new lines (6)
    for m in 4 5 6 4 5 6; do configs+=(interfere:$m); done
    configs+=(interfere:0 interfere:3 particles_serial:32 particles_serial:256)   # list g's, as controls
    configs+=(particles:256 particles:32)
elif [ "$list" = i ]; then
    # the suite's SpMV (vector) on the whole GPU, by one warp, by one CTA of 8 warps
    configs+=(spmv:256 spmv_serial:32 spmv_serial:256 spmv:32 spmv:256 spmv_serial:32)
    configs+=(particles:256 particles:32)   # list g's, as controls
elif [ "$list" = j ]; then
    # two warps' loads of one line at the same time: same, overlapping, disjoint sectors; late
    for m in 0 1 2 3 0 1 2 3; do configs+=(overlap:$m); done
elif [ "$list" = l ]; then
    # new lines, 1 B per lane (four warps per line): four sub-partitions, one, two; 2 and 8 warps
    configs+=(slots gst:1:0000000f gst:1:00001111 gst:1:00000033 gst:1:00000003 gst:1:00000011)
    configs+=(gst:1:000000ff gst:1:11111111 gst:1:ffffffff)
    # 2 B per lane (two warps per line)
    configs+=(gst:2:00000003 gst:2:00000011 gst:2:000000ff gst:2:11111111 gst:2:ffffffff)
    # the four warps of a line stored k x SPIN cycles apart
    for sp in 2 4 8 16 32 64 128 256 1024; do configs+=(gst:1:0000000f:$sp); done
    for sp in 4 16 64 256; do configs+=(gst:1:00001111:$sp); done
    # stores to present lines, 16 each: 1, 2, 4, 8, 32 warps; one sub-partition or several
    configs+=(pst:00000001:16 pst:00000003:16 pst:00000011:16 pst:0000000f:16 pst:00001111:16)
    configs+=(pst:000000ff:16 pst:11111111:16 pst:ffffffff:16)
    # repeats: run-to-run spread
    configs+=(gst:1:0000000f gst:1:00001111 gst:1:ffffffff pst:000000ff:16 pst:11111111:16 pst:ffffffff:16)
    configs+=(turns:1:0 turns:2:0)   # list a's anchors (the suite kernels' shape)
elif [ "$list" = m ]; then
    # one new line, 8 or 32 warps (warps k and k + 4 write the same bytes); 32 warps into 2 or 4 lines
    configs+=(gstw:1:11111111:4 gstw:1:000000ff:4 gstw:1:ffffffff:4 gstw:1:ffffffff:8 gstw:1:ffffffff:16)
    # two lines of two warps each (2 B per lane): from one sub-partition, from two; one line's warps on one
    configs+=(gst:2:00001111 gst:2:00000033 gst:1:00110011 gst:1:01010101 gst:1:00000f0f)
    # controls: list l's, and a line per warp (no hits)
    configs+=(gst:1:11111111 gst:1:000000ff gst:1:0000000f gst:4:11111111)
    configs+=(gstw:1:11111111:4 gstw:1:000000ff:4 gst:2:00001111)   # repeats
elif [ "$list" = n ]; then
    # controls: gst:1:11111111 and gst:1:000000ff's shapes (four warps per line, lines 0 then 1)
    configs+=(slots gseq:11111111:00001111:0 gseq:000000ff:00001111:0)
    # one sub-partition (warps 0, 4, ..., 28), forced order: lines in turn, alternating, 3 and 4 lines in a cycle
    for sp in 64 512; do configs+=(gseq:11111111:00001111:$sp); done
    for sp in 0 64 512 4096; do configs+=(gseq:11111111:01010101:$sp); done
    configs+=(gseq:11111111:01000000:512 gseq:11111111:01201201:512 gseq:11111111:01230123:512)
    # the same lines with every line loaded first: present and valid before the stores
    configs+=(gseq:11111111:01010101:512:1 gseq:11111111:01010101:0:1)
    # across sub-partitions: ranks alternate over the four (warps 0-7), lines alternate
    configs+=(gseq:000000ff:01010101:512 gseq:000000ff:01010101:0)
    # three stores L0, L1, L0: all on sub-partition 3 (warps 0, 4, 8) or the L1 store from another (warps 0, 1, 4)
    configs+=(gseq:00000111:010:512 gseq:00000013:010:512 gseq:00000111:010:0 gseq:00000013:010:0)
    # repeats: run-to-run spread
    configs+=(gseq:11111111:00001111:0 gseq:11111111:01010101:512 gseq:11111111:00001111:512 gst:1:11111111)
elif [ "$list" = o ]; then
    # one sub-partition, lines in turn and alternating, ranks 8-256 cycles apart (list n: 0, 64, 512)
    for sp in 8 16 32 128 256; do configs+=(gseq:11111111:00001111:$sp gseq:11111111:01010101:$sp); done
    # loaded lines, no spacing: four warps per line, all eight on one line, a line per warp, alternating
    configs+=(gseq:11111111:00001111:0:1 gseq:11111111:00000000:0:1 gseq:11111111:01234567:0:1 gseq:11111111:01010101:0:1)
    # the same without loading: eight warps of one sub-partition into one new line
    configs+=(gseq:11111111:00000000:0)
    # two sub-partitions (warps 0, 1, 4, 5, 8, 9, 12, 13 alternate between them): each one line, both
    # alternating, both in turn
    configs+=(gseq:00003333:01010101:0 gseq:00003333:00110011:0 gseq:00003333:00001111:0)
    # repeats: run-to-run spread
    configs+=(gseq:11111111:00001111:0 gseq:11111111:01010101:0 gseq:11111111:00001111:64 gseq:11111111:01010101:0:1)
elif [ "$list" = p ]; then
    # the suite's shape (1 and 2 B), twice; CTAs of 128, 512, 1024 threads; one CTA per SM
    configs+=(tslots:1:256:256 tslots:2:256:256 tslots:1:256:256 tslots:2:256:256)
    configs+=(tslots:1:512:128 tslots:1:128:512 tslots:1:64:1024 tslots:1:132:256)
    configs+=(turns:1:0 turns:2:0)   # the anchors, without the slot stores
elif [ "$list" = k ]; then
    # the suite's SpMV with the placement of each run printed (launches.txt), three times
    configs+=(spmv:256 spmv:256 spmv:256)
elif [ "$list" = f ]; then
    configs+=(window:4:0 window:1:0 window:1:1024)
    for mode in 0 2 3 5; do
        for d in 0 8 16 32 64 128 256 512 1024 2048 4096 8192; do configs+=(window:$mode:$d); done
    done
    configs+=(window:4:0 window:0:0 window:0:256)   # repeats: run-to-run spread
elif [ "$list" = e ]; then
    configs+=(spread:4:128:32768 skip:4:7:32768)
    for bit in $(seq 8 22); do configs+=(skip2:4:7:$bit:32768); done
    for n in 40960 49152 57344; do configs+=(skip:4:7:$n); done
    for bit in 8 12 13 17; do configs+=(skip2:4:7:$bit:65536); done
    for bit in 9 13 17; do configs+=(skip2:4:8:$bit:32768); done   # bit 7 kept, two others left out
elif [ "$list" = d ]; then
    configs+=(spread:4:128:32768 spread:4:128:65536)
    for bit in $(seq 7 24); do configs+=(skip:4:$bit:32768); done
    for bit in 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do configs+=(skip:4:$bit:65536); done
    configs+=(skip:32:7:131072 skip:32:12:131072 spread:32:128:131072)   # whole sectors
    configs+=(spread:4:128:32768 skip:4:7:32768 skip:4:12:32768)      # repeats: run-to-run spread
elif [ "$list" = c ]; then
    # 32K and 64K partial lines, and 128K whole-sector lines, at line strides 1..32 (128 B .. 4 KB)
    for st in 128 256 384 512 640 768 1024 1152 2048 4096; do configs+=(spread:4:$st:32768); done
    for st in 128 256 384 512 768 1024 2048; do configs+=(spread:4:$st:65536); done
    for st in 128 256 512 1024 2048; do configs+=(spread:32:$st:131072); done
    configs+=(spread:4:128:32768 spread:4:256:32768)  # repeats: run-to-run spread
else
    # onset in lines touched (one partial sector each, consecutive lines)
    for n in 24576 32768 40960 49152 57344 65536 81920 98304 131072 196608; do configs+=(spread:4:128:$n); done
    configs+=(spread:4:256:32768 spread:4:256:65536)     # every other line: same lines, twice the span
    configs+=(spread:4:4096:16384)                       # every 32nd line: 16K lines over 64 MB
    configs+=(spread:32:128:131072 spread:32:128:262144 spread:32:128:393216)  # whole sectors
    configs+=(spread_serial:4:128:16384 spread_serial:4:128:32768 spread_serial:4:128:131072)
fi
"$out/write_probe" "${configs[@]}" >"$out/launches.txt"
ncu --csv --log-file "$out/ncu.csv" --metrics "$metrics" "$out/write_probe" "${configs[@]}" >"$out/ncu_stdout.txt"
python3 "$here/tools/probe_summary.py" "$out/launches.txt" "$out/ncu.csv" >"$out/summary.csv"
echo "write_probe: ${#configs[@]} launches -> $out/summary.csv"
