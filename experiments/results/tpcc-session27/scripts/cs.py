#!/usr/bin/env python3
# cs.py SECONDS: per-process, per-thread-name voluntary+nonvoluntary context switches and CPU over an interval, java processes
import os,time,sys,collections,re
def snap():
    d={}
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        try:
            cmd=open(f'/proc/{pid}/cmdline').read().split('\0')
            if not cmd[0].endswith('java'): continue
            name=next((c for c in cmd if 'org.elastras' in c and not c.startswith('-')), cmd[-2])
            name=name.split('.')[-1]+':'+pid
            for tid in os.listdir(f'/proc/{pid}/task'):
                try:
                    st=open(f'/proc/{pid}/task/{tid}/status').read()
                    comm=open(f'/proc/{pid}/task/{tid}/comm').read().strip()
                    v=int(re.search(r'voluntary_ctxt_switches:\s+(\d+)',st).group(1)); nv=int(re.search(r'nonvoluntary_ctxt_switches:\s+(\d+)',st).group(1))
                    s=open(f'/proc/{pid}/task/{tid}/stat').read().rsplit(')',1)[1].split()
                    ut,stt=int(s[11]),int(s[12])
                    d[(name,tid)]=(re.sub(r'\d+','N',comm),v,nv,ut,stt)
                except Exception: pass
        except Exception: pass
    return d
sec=float(sys.argv[1]); a=snap(); time.sleep(sec); b=snap()
agg=collections.defaultdict(lambda:[0,0,0,0])
for k,(c,v,nv,ut,st) in b.items():
    if k in a:
        _,v0,nv0,ut0,st0=a[k]; g=agg[(k[0],c)]; g[0]+=v-v0; g[1]+=nv-nv0; g[2]+=ut-ut0; g[3]+=st-st0
tot=collections.defaultdict(lambda:[0,0,0,0])
for (p,c),g in sorted(agg.items(), key=lambda x:-(x[1][0]+x[1][1])):
    for i in range(4): tot[p][i]+=g[i]
    if g[0]+g[1] > 200*sec or g[2]+g[3]>5*sec: print(f'{p:28s} {c:28s} vol/s {g[0]/sec:8.0f} invol/s {g[1]/sec:7.0f} user {g[2]/sec/100:5.2f} sys {g[3]/sec/100:5.2f} cores')
for p,g in tot.items(): print(f'TOTAL {p:28s} vol/s {g[0]/sec:8.0f} invol/s {g[1]/sec:7.0f} user {g[2]/sec/100:5.2f} sys {g[3]/sec/100:5.2f}')
