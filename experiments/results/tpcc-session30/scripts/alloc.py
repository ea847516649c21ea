#!/usr/bin/env python3
# alloc.py FILE.jfr LAST_SECONDS SKIP: allocation weight by allocating site (top frame + first elastras frame), over the recording's last N seconds
import subprocess, sys, re, collections
f=sys.argv[1]; last=float(sys.argv[2]); skip=float(sys.argv[3])
out=subprocess.run(['jfr','print','--events','jdk.ObjectAllocationSample','--stack-depth','24',f],capture_output=True,text=True).stdout
ev=[]
for s in out.split('jdk.ObjectAllocationSample')[1:]:
    m=re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)',s)
    w=re.search(r'weight = ([\d\.]+) (\w+)',s)
    c=re.search(r'objectClass = ([\w\.\$\[\]]+)',s)
    if not m or not w: continue
    t=int(m.group(1))*3600+int(m.group(2))*60+int(m.group(3))+float('0.'+m.group(4))
    v=float(w.group(1)); u=w.group(2); v*= {'bytes':1,'byte':1,'kB':1e3,'MB':1e6,'GB':1e9}.get(u,1)
    fr=[x.split('(')[0] for x in re.findall(r'^\s+([\w\.$<>]+\(.*?\))\s+line:',s,re.M)]
    ev.append((t,v,fr,c.group(1) if c else '?'))
tmax=max(e[0] for e in ev); ev=[e for e in ev if tmax-last<=e[0]<tmax-skip]
tot=sum(e[1] for e in ev); span=max(e[0] for e in ev)-min(e[0] for e in ev)
print(f,'MB',round(tot/1e6),'over',round(span),'s =',round(tot/1e6/span,1),'MB/s')
site=collections.Counter(); inc=collections.Counter(); cls=collections.Counter()
for t,v,fr,c in ev:
    el=[x for x in fr if x.startswith('org.elastras')]
    site[(fr[0] if fr else '?')+' <- '+(el[0] if el else '?')]+=v
    cls[c]+=v
    for x in set(el): inc[x]+=v
print('sites:'); [print(f'  {100*c/tot:5.1f}% {t}') for t,c in site.most_common(40)]
print('classes:'); [print(f'  {100*c/tot:5.1f}% {t}') for t,c in cls.most_common(15)]
print('inclusive elastras:'); [print(f'  {100*c/tot:5.1f}% {t}') for t,c in inc.most_common(50)]
