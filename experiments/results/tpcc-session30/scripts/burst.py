import subprocess,re,collections,sys
f=sys.argv[1]; meths=sys.argv[2:]
out=subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','96',f],capture_output=True,text=True).stdout
per=collections.defaultdict(collections.Counter)
for s in out.split('jdk.ExecutionSample')[1:]:
    m=re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)',s)
    if not m: continue
    sec='%s:%s:%s'%(m.group(1),m.group(2),m.group(3))
    per[sec]['all']+=1
    for x in meths:
        if x in s: per[sec][x.split('.')[-1]]+=1
for sec in sorted(per):
    c=per[sec]
    if any(c[x.split('.')[-1]] for x in meths): print(sec, dict(c))
