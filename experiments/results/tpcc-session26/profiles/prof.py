#!/usr/bin/env python3
# prof.py FILE.jfr LAST_SECONDS [TOP]: inclusive and self shares of methods over execution samples in the recording's last N seconds
import subprocess, sys, re, collections
f=sys.argv[1]; last=float(sys.argv[2]); skip=float(sys.argv[3]); top=int(sys.argv[4]) if len(sys.argv)>4 else 60
out=subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','96',f],capture_output=True,text=True).stdout
ev=[]
for s in out.split('jdk.ExecutionSample')[1:]:
    m=re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)',s)
    if not m: continue
    t=int(m.group(1))*3600+int(m.group(2))*60+int(m.group(3))+float('0.'+m.group(4))
    fr=[x.split('(')[0] for x in re.findall(r'^\s+([\w\.$<>]+\(.*?\))\s+line:',s,re.M)]
    th=re.search(r'sampledThread = "([^"]*)"',s)
    if fr: ev.append((t,fr,re.sub(r'\d+','N',th.group(1)) if th else '?'))
tmax=max(e[0] for e in ev); ev=[e for e in ev if tmax-last<=e[0]<tmax-skip]
n=len(ev); inc=collections.Counter(); slf=collections.Counter(); thr=collections.Counter()
for t,fr,th in ev:
    slf[fr[0]]+=1; thr[th]+=1
    for x in set(fr): inc[x]+=1
print(f,'samples',n)
print('threads:'); [print(f'  {100*c/n:5.1f}% {t}') for t,c in thr.most_common(10)]
print('inclusive:'); [print(f'  {100*c/n:5.1f}% {t}') for t,c in inc.most_common(top)]
print('self:'); [print(f'  {100*c/n:5.1f}% {t}') for t,c in slf.most_common(40)]
