#!/usr/bin/env python3
# callers.py FILE.jfr LAST SKIP METHOD [DEPTH]: callers chain (DEPTH frames above) of samples whose stack has METHOD
import subprocess, sys, re, collections
f=sys.argv[1]; last=float(sys.argv[2]); skip=float(sys.argv[3]); meth=sys.argv[4]; depth=int(sys.argv[5]) if len(sys.argv)>5 else 2
out=subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','96',f],capture_output=True,text=True).stdout
ev=[]
for s in out.split('jdk.ExecutionSample')[1:]:
    m=re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)',s)
    if not m: continue
    t=int(m.group(1))*3600+int(m.group(2))*60+int(m.group(3))+float('0.'+m.group(4))
    fr=[x.split('(')[0] for x in re.findall(r'^\s+([\w\.$<>]+\(.*?\))\s+line:',s,re.M)]
    if fr: ev.append((t,fr))
tmax=max(e[0] for e in ev); ev=[e for e in ev if tmax-last<=e[0]<tmax-skip]
n=len(ev); c=collections.Counter()
for t,fr in ev:
    if meth in fr:
        i=fr.index(meth); c[' <- '.join(x.split('.')[-2]+'.'+x.split('.')[-1] for x in fr[i+1:i+1+depth])]+=1
for k,v in c.most_common(15): print(f'{100*v/n:5.1f}% {k}')
