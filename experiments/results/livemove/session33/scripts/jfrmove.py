#!/usr/bin/env python3
# jfrmove.py RUN: per OTM JVM, execution samples per second by category and the JVM's CPU load (jdk.CPULoad),
# in seconds with a live move (the origin logged the hand-over in that second or the next) vs the others,
# over the measured period (the last 120 s before the last hand-over + 5 s)
import subprocess, sys, re, glob, collections, datetime, statistics as st
run=sys.argv[1]; d=f'/tmp/s33'
def logsecs(path):
    out=[]; prev=None
    for line in open(path):
        m=re.match(r'(\w{3} \d+, \d{4} \d+:\d+:\d+ [AP]M) ',line)
        if m: prev=m.group(1); continue
        if 'handed partition' in line and ' live: ' in line and prev:
            t=datetime.datetime.strptime(prev,'%b %d, %Y %I:%M:%S %p'); out.append(t.hour*3600+t.minute*60+t.second)
    return out
hand=[]
for o in ('otm-1','otm-2'): hand+=logsecs(f'{d}/wd-{run}/logs/{o}.log')
moving=set()
for h in hand: moving.update((h-1,h))
end=max(hand)+5; start=end-125
CATS=[('flush','PartitionStore.flushOne'),('compact','PartitionStore.compact'),('move-origin','PartitionHost.moveOut'),
      ('move-dest','PartitionHost.receive'),('move-dest','PartitionHost.ship'),('move-dest','PartitionHost.finishIncoming'),
      ('move-dest','PartitionHost.serveHandedOver'),('open','PartitionHost.open'),('codec','ProtocolCodec'),('codec','smile'),
      ('read','PartitionStore.newest'),('read','PartitionStore.get'),('scan','PartitionStore.scan'),('wal','Wal'),('commit','commit')]
def cat(fr,th):
    for c,k in CATS:
        for f in fr:
            if k in f: return c
    return 'other:'+th
def tod(s):
    m=re.search(r'(\d+):(\d+):(\d+)\.(\d+)',s); return int(m.group(1))*3600+int(m.group(2))*60+int(m.group(3))+float('0.'+m.group(4))
for f in sorted(glob.glob(f'{d}/jfr-{run}/*.jfr')):
    info=subprocess.run(['jfr','print','--events','jdk.JVMInformation',f],capture_output=True,text=True).stdout
    m=re.search(r'javaArguments = "([^"]*)"',info); args=m.group(1) if m else ''
    if 'OtmMain' not in info and 'otm' not in args.lower(): continue
    name=re.search(r'otm-\d',info); name=name.group(0) if name else f
    out=subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','64',f],capture_output=True,text=True).stdout
    per={True:collections.Counter(),False:collections.Counter()}
    for s in out.split('jdk.ExecutionSample')[1:]:
        m=re.search(r'startTime = ([\d:\.]+)',s)
        if not m: continue
        t=tod(m.group(1))
        if not (start<=t<end): continue
        fr=[x.split('(')[0] for x in re.findall(r'^\s+([\w\.$<>]+\(.*?\))\s+line:',s,re.M)]
        th=re.search(r'sampledThread = "([^"]*)"',s); th=re.sub(r'\d+','N',th.group(1)) if th else '?'
        per[int(t) in moving][cat(fr,th)]+=1
    cpu=subprocess.run(['jfr','print','--events','jdk.CPULoad',f],capture_output=True,text=True).stdout
    loads={True:[],False:[]}
    for s in cpu.split('jdk.CPULoad')[1:]:
        t=tod(re.search(r'startTime = ([\d:\.]+)',s).group(1))
        if not (start<=t<end): continue
        u=float(re.search(r'jvmUser = ([\d\.]+)%',s).group(1)); y=float(re.search(r'jvmSystem = ([\d\.]+)%',s).group(1))
        loads[int(t) in moving].append(u+y)
    nm=len([x for x in range(int(start),int(end)) if x in moving]); ns=int(end)-int(start)-nm
    print(f'{name} ({f}): {nm} move seconds, {ns} others; JVM CPU % mean: move {st.mean(loads[True]):.1f}, others {st.mean(loads[False]):.1f}')
    keys=sorted(set(per[True])|set(per[False]),key=lambda k:-(per[True][k]+per[False][k]))
    print(f'  {"category":40s} {"move/s":>8s} {"other/s":>8s} {"diff/s":>8s}')
    tm=sum(per[True].values())/nm; to=sum(per[False].values())/ns
    print(f'  {"ALL":40s} {tm:8.1f} {to:8.1f} {tm-to:8.1f}')
    for k in keys[:25]:
        a=per[True][k]/nm; b=per[False][k]/ns
        print(f'  {k:40s} {a:8.1f} {b:8.1f} {a-b:8.1f}')
