#!/usr/bin/env python3
# trace.py DIR: latency of the moved warehouse's transactions by their place around each move
import sys, csv, bisect
d=sys.argv[1]
tr=[(int(r['end_ns']),int(r['w']),int(r['micros'])) for r in csv.DictReader(open(d+'/trace.csv'))]
mv=[(int(r['w']),int(r['start_ns']),int(r['end_ns'])) for r in csv.DictReader(open(d+'/moves-trace.csv'))]
tr.sort(); ends=[t[0] for t in tr]
cls={}
def add(k,v): cls.setdefault(k,[]).append(v)
S=1_000_000_000
for w,s,e in mv:
    lo=bisect.bisect_left(ends,s-2*S); hi=bisect.bisect_left(ends,e+2*S)
    for end,tw,us in tr[lo:hi]:
        st=end-us*1000
        tag='moved' if tw==w else 'other'
        if end< s-S: k='a: 2-1 s before'
        elif end< s: k='b: 1 s before'
        elif end< e and st>=s: k='c: within copy (start..serving)'
        elif st< e and end>=e: k='d: straddles serving'
        elif end< e: k='c2: began before move, ended before serving'
        elif st< e+300_000_000: k='e: began 0-300 ms after serving'
        elif st< e+1*S: k='f: began 0.3-1 s after'
        else: k='g: 1-2 s after'
        add((tag,k),us/1000)
def pct(a,p): a=sorted(a); return a[min(len(a)-1,int(len(a)*p))]
print('moves',len(mv),'median move ms',sorted((e-s)/1e6 for w,s,e in mv)[len(mv)//2])
for key in sorted(cls):
    a=cls[key]; print(f"{key[0]:6s} {key[1]:45s} n={len(a):6d} p50={pct(a,.5):6.1f} p90={pct(a,.9):6.1f} p99={pct(a,.99):6.1f} max={max(a):7.1f}")
