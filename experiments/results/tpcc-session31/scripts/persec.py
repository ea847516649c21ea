#!/usr/bin/env python3
# persec.py FILE.jfr METHOD...: per-second sample counts (all samples, and those whose stack has each METHOD), seconds before the recording's end
import subprocess, sys, re, collections
f=sys.argv[1]; meths=sys.argv[2:]
out=subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','96',f],capture_output=True,text=True).stdout
ev=[]
for s in out.split('jdk.ExecutionSample')[1:]:
    m=re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)',s)
    if not m: continue
    t=int(m.group(1))*3600+int(m.group(2))*60+int(m.group(3))
    th=re.search(r'sampledThread = "([^"]*)"',s)
    ev.append((t,s,th.group(1) if th else '?'))
tmax=max(e[0] for e in ev)
tot=collections.Counter(); per={m:collections.Counter() for m in meths}
for t,s,th in ev:
    tot[tmax-t]+=1
    for m in meths:
        if m in s or m in th: per[m][tmax-t]+=1
for k in sorted(tot, reverse=True):
    print(k, tot[k], ' '.join(f'{m.split(".")[-1]}={per[m][k]}' for m in meths))
