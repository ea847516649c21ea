import csv,sys,re,glob
name=sys.argv[1]
tl=[r for r in csv.DictReader(open(f'tpcc-{name}/tpcc-timeline.csv'))]
tps=[sum(int(r[k]) for k in ('new_order','payment','order_status','delivery','stock_level')) for r in tl]
p99=[int(r['latency_p99_micros'])/1000 for r in tl]
vm=[l.split() for l in open(f'vmstat-{name}.txt') if re.match(r'\s*\d',l)]
# vmstat cols: r b swpd free buff cache si so bi bo in cs us sy id wa st date time
cs=[int(v[11]) for v in vm]
def corr(a,b):
    n=len(a); ma=sum(a)/n; mb=sum(b)/n
    num=sum((x-ma)*(y-mb) for x,y in zip(a,b)); da=sum((x-ma)**2 for x in a)**.5; db=sum((y-mb)**2 for y in b)**.5
    return num/(da*db) if da and db else 0
best=max(range(0,len(cs)-len(tps)+1), key=lambda o: corr(tps, cs[o:o+len(tps)]))
print('offset',best,'corr',round(corr(tps,cs[best:best+len(tps)]),3))
disk=[l.split() for l in open(f'disk-{name}.txt')]
# diskstats: after ts: major minor name reads rmerged rsect rms writes wmerged wsect wms inflight io_ms weighted_ms
def dcol(i,c): return int(disk[i][1+c])
jst={}
for f in glob.glob(f'jstat-{name}-*.txt'):
    rows=[l.split() for l in open(f) if re.match(r'\s*[0-9]',l)]
    jst[f]=rows
print(' t   txn/s  p99ms |  r  b  us sy id wa    cs | disk w/s  wms/w  | ygc per otm')
import time
for i,(t,p) in enumerate(zip(tps,p99)):
    v=vm[best+i]
    di=best+i
    w=dcol(di,7)-dcol(di-1,7) if di>0 else 0; wms=dcol(di,10)-dcol(di-1,10) if di>0 else 0
    print(f"{i+1:3d} {t:6d} {p:6.1f} | {v[0]:>2} {v[1]:>2} {v[12]:>3} {v[13]:>2} {v[14]:>2} {v[15]:>2} {v[11]:>6} | {w:6d} {wms/max(w,1):6.2f}")
print('--- gc per second (jstat started ~40 s after vmstat): t, per OTM: young GCs, GC ms, old used MB')
fs=sorted(jst)
for i in range(len(tps)):
    vi=best+i; j=vi-40
    out=[]
    for f in fs:
        r=jst[f]
        if 0<j<len(r):
            a,b=r[j-1],r[j]
            out.append(f"ygc {int(b[13])-int(a[13])} gcms {1000*(float(b[19])-float(a[19])):5.0f} old {float(b[8])/1024:6.0f}")
    print(f"{i+1:3d} {tps[i]:6d} | "+" | ".join(out))
