# around.py RUN: flush/compact samples per OTM by second offset from each hand-over, split by the OTM's role
import subprocess,sys,re,glob,datetime,collections,statistics as st
run=sys.argv[1]; d='/tmp/s33'
def hands(path):
    out=[]; prev=None
    for line in open(path):
        m=re.match(r'(\w{3} \d+, \d{4} \d+:\d+:\d+ [AP]M) ',line)
        if m: prev=m.group(1); continue
        m=re.search(r'handed partition (\d+) over to (\S+) live',line)
        if m and prev:
            t=datetime.datetime.strptime(prev,'%b %d, %Y %I:%M:%S %p'); out.append((t.hour*3600+t.minute*60+t.second,m.group(2)))
    return out
H=[]
for o in ('otm-1','otm-2'): H+=[(t,o,to) for t,to in hands(f'{d}/wd-{run}/logs/{o}.log')]
samples={}
for f in sorted(glob.glob(f'{d}/jfr-{run}/*.jfr')):
    info=subprocess.run(['jfr','print','--events','jdk.JVMInformation',f],capture_output=True,text=True).stdout
    if 'otm.serve' not in info: continue
    out=subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','64',f],capture_output=True,text=True).stdout
    c=collections.Counter(); tot=collections.Counter()
    for s in out.split('jdk.ExecutionSample')[1:]:
        m=re.search(r'startTime = (\d+):(\d+):(\d+)',s)
        if not m: continue
        t=int(m.group(1))*3600+int(m.group(2))*60+int(m.group(3))
        tot[t]+=1
        if 'PartitionStore.flushOne' in s: c[(t,'flush')]+=1
        elif 'PartitionStore.compact' in s: c[(t,'compact')]+=1
    # which otm: find its pid's log? use the order of OTM start: name by 'otm-N' in any thread? fall back to matching hand-over roles below
    samples[f]=(c,tot)
import itertools
# identify OTMs: the otm whose flush samples peak at its own hand-overs' seconds is the origin
names={}
for f,(c,tot) in samples.items():
    score={o:sum(c[(t,'flush')]+c[(t-1,'flush')] for t,oo,_ in H if oo==o) for o in ('otm-1','otm-2')}
    names[f]=max(score,key=score.get)
for f,(c,tot) in samples.items():
    o=names[f]
    for role in ('origin','destination'):
        rows=[]
        for off in range(-3,4):
            fl=[c[(t+off,'flush')] for t,oo,to in H if (oo if role=='origin' else to)==o]
            cp=[c[(t+off,'compact')] for t,oo,to in H if (oo if role=='origin' else to)==o]
            al=[tot[t+off] for t,oo,to in H if (oo if role=='origin' else to)==o]
            rows.append(f'{off:+d}: fl {st.mean(fl):4.1f} cp {st.mean(cp):4.1f} all {st.mean(al):4.1f}')
        print(o,role,len([1 for t,oo,to in H if (oo if role=='origin' else to)==o]),' | '.join(rows))
print('per move: destination compaction samples at +0,+1; origin flush at -1,0')
for f,(c,tot) in samples.items():
    o=names[f]
    print(o,'as destination:',[ (c[(t,'compact')]+c[(t+1,'compact')]) for t,oo,to in sorted(H) if to==o])
    print(o,'as origin flush:',[ (c[(t,'flush')]+c[(t-1,'flush')]) for t,oo,to in sorted(H) if oo==o])
    print(o,'compaction seconds overall:',sorted(set(t for (t,k) in c if k=='compact')))
print(sorted(H))
