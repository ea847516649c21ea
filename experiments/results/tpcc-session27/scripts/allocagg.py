import re,sys,collections
# aggregate jdk.ObjectAllocationSample weight: by class, by (class, first elastras frame), by each elastras frame (inclusive)
cls=collections.Counter(); site=collections.Counter(); incl=collections.Counter(); tot=0
t0=sys.argv[2] if len(sys.argv)>2 else None
def unit(w):
    n,u=w.split(); n=float(n); return n*{'bytes':1,'kB':1e3,'MB':1e6,'GB':1e9}[u]
ev=None
for line in open(sys.argv[1]):
    s=line.strip()
    if s.startswith('jdk.ObjectAllocationSample'): ev={'f':[]}; continue
    if ev is None: continue
    if s.startswith('startTime'): ev['t']=s.split('=')[1].strip()
    elif s.startswith('objectClass'): ev['c']=s.split('=')[1].split('(')[0].strip()
    elif s.startswith('weight'): ev['w']=unit(s.split('=')[1].strip())
    elif s.startswith('eventThread'): ev['th']=s
    elif s=='}':
        if t0 and not (t0 <= ev.get("t","") <= sys.argv[3]): ev=None; continue
        w=ev.get('w',0); tot+=w; cls[ev['c']]+=w
        fr=[re.sub(r'\(.*','',f) for f in ev['f']]
        first=next((f for f in fr if 'org.elastras' in f), fr[0] if fr else '?')
        top=fr[0] if fr else '?'
        site[(ev['c'],top,first)]+=w
        for f in set(f for f in fr if 'org.elastras' in f or 'jetty' in f or 'jackson' in f): incl[f]+=w
        ev=None
    elif ev is not None and s and not s.startswith('stackTrace') and s!=']' and not s.startswith('...'):
        ev['f'].append(s)
print(f'total {tot/1e9:.2f} GB')
print('-- by class'); [print(f'{w/tot*100:5.1f}% {c}') for c,w in cls.most_common(15)]
print('-- by site (class, top frame, first elastras frame)'); [print(f'{w/tot*100:5.1f}% {k[0]} | {k[1]} | {k[2]}') for k,w in site.most_common(30)]
print('-- inclusive frames'); [print(f'{w/tot*100:5.1f}% {k}') for k,w in incl.most_common(40)]
