#!/usr/bin/env python3
"""Run-to-run spread of the H100's non-deterministic counters: the same suite binaries under
Nsight Compute several times (validation/run_on_gpu.sh with NCU_ONLY=1).

Usage: suite_spread.py SUITE_DIR REPEAT_DIR [REPEAT_DIR...]
  e.g. suite_spread.py validation/h100/suite validation/h100/suite_repeats/rep2 validation/h100/suite_repeats/rep3
Prints the hit rates (L1 load/store, local, L2 read, atomics; sectors >= 200) and DRAM byte counts
(>= 20 KB) whose values differ most between the runs, and how many differ by more than the
issue-5 target (5 points, 10%)."""
import csv, glob, os, sys
def load(path):
    rows=list(csv.reader(open(path)))
    head=rows[0]; data=[r for r in rows[1:] if r and r[0].isdigit()]
    return head,data
if len(sys.argv) < 3:
    sys.exit(__doc__)
runs = {d: d for d in sys.argv[1:]}
apps = [os.path.basename(p)[:-8] for p in glob.glob(sys.argv[2] + '/*.ncu.csv')]
pairs=[('lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum','lts__t_sectors_srcunit_tex_op_read.sum'),
       ('l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum','l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'),
       ('l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum','l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum'),
       ('l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum','l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum'),
       ('l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum','l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum'),
       ('lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum','lts__t_sectors_srcunit_tex_op_atom.sum')]
res={}
for app in sorted(apps):
    tabs={r:load(f'{d}/{app}.ncu.csv') for r,d in runs.items()}
    h0,d0=tabs[sys.argv[1]]
    for i,row in enumerate(d0):
        name=row[h0.index('Kernel Name')].split('(')[0].replace('void ','')
        for hit,tot in pairs+[('dram__bytes_read.sum',None),('dram__bytes_write.sum',None)]:
            vals=[]
            for r in runs:
                h,data=tabs[r]
                if i>=len(data) or hit not in h: break
                x=data[i]
                if x[h.index('Kernel Name')]!=row[h0.index('Kernel Name')]: break
                try:
                    v=float(x[h.index(hit)].replace(',',''))
                    if tot:
                        t=float(x[h.index(tot)].replace(',',''))
                        if t<200: break
                        v=100*v/t
                except ValueError: break
                vals.append(v)
            if len(vals)==len(runs): res[(app,i,name,hit)]=vals
big=sorted([(max(v)-min(v),k,v) for k,v in res.items() if 'dram' not in k[3]],reverse=True)
print(f'hit-rate counters in {len(runs)} runs:',len(big),' spread>5pt:',sum(b[0]>5 for b in big),' >2pt:',sum(b[0]>2 for b in big))
for b in big[:40]: print('%5.1f'%b[0], b[1][0], b[1][2], b[1][3].split('__')[1][:55], ['%.1f'%x for x in b[2]])
dr=sorted([(100*(max(v)-min(v))/max(v),k,v) for k,v in res.items() if 'dram' in k[3] and max(v)>20000],reverse=True)
print('dram counters >20KB:',len(dr),' spread>10%:',sum(b[0]>10 for b in dr))
for b in dr[:15]: print('%5.1f%%'%b[0], b[1][0], b[1][2], b[1][3], b[2])
