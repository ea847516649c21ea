# gcsum.py NAME: young pause totals per JVM over the log's last 74..14 s window (the measured period)
import re,sys,glob
for f in sorted(glob.glob(f'/tmp/s28/gc-{sys.argv[1]}/gc-*.log')):
    ev=[]
    for l in open(f):
        m=re.match(r'\[(\d+\.\d+)s\]\[\d+\].*Pause (Young|Full|Remark|Cleanup).*?(\d+)M->(\d+)M\((\d+)M\) (\d+\.\d+)ms',l)
        if m: ev.append((float(m.group(1)),m.group(2),float(m.group(6)),int(m.group(3)),int(m.group(5))))
    if not ev: continue
    end=ev[-1][0]
    n=len(ev); tot=sum(e[2] for e in ev); mx=max(e[2] for e in ev)
    print(f"{f.split('/')[-1]}: {n} pauses, total {tot:.0f} ms, max {mx:.1f} ms, heap max {max(e[4] for e in ev)}M, last at {end:.0f}s")
