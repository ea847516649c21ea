#!/usr/bin/env python3
# gcsum.py DIR [LAST_S]: per JVM log, pauses in its last LAST_S seconds: count, sum, p50/p90/max (ms)
import sys, re, glob
d=sys.argv[1]; last=float(sys.argv[2]) if len(sys.argv)>2 else 125
for f in sorted(glob.glob(d+'/gc-*.log')):
    ev=[]
    for line in open(f):
        m=re.match(r'\[([\d\.]+)s\].*?(Pause[^\d]*?)\s.*?([\d\.]+)ms$',line.strip())
        if m: ev.append((float(m.group(1)), float(m.group(3)), line))
    if len(ev)<20: continue
    tmax=max(e[0] for e in ev); p=sorted(e[1] for e in ev if e[0]>=tmax-last)
    n=len(p); 
    print(f"{f}: pauses {n} in last {last:.0f}s, sum {sum(p):.0f} ms, p50 {p[n//2]:.1f} p90 {p[int(n*.9)]:.1f} max {p[-1]:.1f}; last: {ev[-1][2].strip()[:150]}")
