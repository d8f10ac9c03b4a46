#!/usr/bin/env python3
"""Check the recorded warp-level access streams of cache_kernels against Nsight Compute.

usage: check_cache_records.py DIR        (DIR holds summary.csv and <kernel>.records.csv[.xz])

Required checks (exit status 1 if any fails), per kernel:
  - records per (space, op) == smsp__inst_executed_op_<space>_<op>.sum
  - sum over global-load records of the number of distinct 32-byte sectors touched by the active lanes
    == l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
Informational checks (printed, not fatal): global-load records == l1tex__t_requests (1 per instruction),
global-store sectors, distinct 128-byte lines per record == l1tex__t_set_accesses, shared wavefronts by the
rule of h100/README.md (4-byte accesses: max over the 32 banks of the distinct words in the bank) and bank
conflicts = wavefronts - 1. Also printed: distinct sectors over the whole stream (compulsory traffic) and
ncu's hit rates.
"""
import csv
import lzma
import os
import sys


def lanes(rec):
    mask = int(rec[8], 16)
    if rec[11]:
        addrs = rec[11].split("|")
        return [int(addrs[l], 16) for l in range(32) if mask >> l & 1]
    base, stride = int(rec[9], 16), int(rec[10])
    return [base + stride * l for l in range(32) if mask >> l & 1]


def analyse(path):
    st = {"n": {}, "ld_sect": 0, "st_sect": 0, "ld_lines": 0, "st_lines": 0, "sh_wf": {"ld": 0, "st": 0},
          "sh_conf": {"ld": 0, "st": 0}, "uniq_ld": set(), "uniq_st": set(), "bytes": os.path.getsize(path)}
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        next(f)
        for line in f:
            rec = line.rstrip("\n").split(",")
            space, op, size = rec[4], rec[5], int(rec[6])
            st["n"][(space, op)] = st["n"].get((space, op), 0) + 1
            a = lanes(rec)
            if space == "global":
                sect = set()
                for x in a:
                    for b in range(x >> 5, ((x + size - 1) >> 5) + 1):
                        sect.add(b)
                lines_ = {s >> 2 for s in sect}
                st[op + "_sect"] += len(sect)
                st[op + "_lines"] += len(lines_)
                st["uniq_" + op] |= sect
            else:
                assert size == 4, "shared wavefront rule implemented for 4-byte accesses only"
                banks = {}
                for x in a:
                    banks.setdefault((x >> 2) & 31, set()).add(x >> 2)
                wf = max(len(v) for v in banks.values())
                st["sh_wf"][op] += wf
                st["sh_conf"][op] += wf - 1
    return st


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    with open(os.path.join(d, "summary.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    ok_all = True

    def g(r, m):
        v = r.get(m, "")
        return int(float(v)) if v not in ("", None) else None

    for r in rows:
        k = r["kernel"]
        p = os.path.join(d, k + ".records.csv")
        if not os.path.exists(p):
            p += ".xz"  # as committed
        s = analyse(p)
        print("== %s  grid %s  block %s  (%s: %d bytes)" % (k, r["grid"], r["block"], os.path.basename(p), s["bytes"]))
        checks = []
        for space in ("global", "shared"):
            for op in ("ld", "st"):
                checks.append(("records %s %s" % (space, op), s["n"].get((space, op), 0),
                               "smsp__inst_executed_op_%s_%s.sum" % (space, op), True))
        checks.append(("global ld sectors", s["ld_sect"], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", True))
        checks.append(("global ld requests", s["n"].get(("global", "ld"), 0),
                       "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", False))
        checks.append(("global st requests", s["n"].get(("global", "st"), 0),
                       "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", False))
        checks.append(("global st sectors", s["st_sect"], "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", False))
        checks.append(("global ld 128B lines", s["ld_lines"], "l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum", False))
        checks.append(("global st 128B lines", s["st_lines"], "l1tex__t_set_accesses_pipe_lsu_mem_global_op_st.sum", False))
        for op in ("ld", "st"):
            checks.append(("shared %s wavefronts" % op, s["sh_wf"][op],
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % op, False))
            checks.append(("shared %s bank conflicts" % op, s["sh_conf"][op],
                           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % op, False))
        for name, mine, metric, req in checks:
            v = g(r, metric)
            if v is None:
                res = "ncu n/a"
                if req:
                    ok_all = False
            else:
                res = "MATCH" if v == mine else "MISMATCH"
                if req and v != mine:
                    ok_all = False
            print("  %-26s stream %10d  ncu %10s  %-8s %s%s" % (name, mine, v, res, metric, "" if req else " (info)"))
        hit, miss = g(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"), g(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum")
        l2h, l2s = g(r, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"), g(r, "lts__t_sectors_srcunit_tex_op_read.sum")
        print("  distinct sectors in stream: ld %d (%d B), st %d (%d B)" % (
            len(s["uniq_ld"]), 32 * len(s["uniq_ld"]), len(s["uniq_st"]), 32 * len(s["uniq_st"])))
        if hit is not None and miss is not None and hit + miss:
            print("  L1 global-ld sector hit rate %.4f (%d hit / %d miss)" % (hit / (hit + miss), hit, miss))
        if l2h is not None and l2s:
            print("  L2 tex-read sector hit rate  %.4f (%d / %d)" % (l2h / l2s, l2h, l2s))
        print("  DRAM bytes read %s, written %s" % (g(r, "dram__bytes_read.sum"), g(r, "dram__bytes_write.sum")))
    print("RESULT: %s" % ("all required checks match" if ok_all else "MISMATCH in a required check"))
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
