import subprocess,re,collections,sys
f=sys.argv[1]; meth=sys.argv[2]; depth=int(sys.argv[3]) if len(sys.argv)>3 else 1
out=subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','96',f],capture_output=True,text=True).stdout
ev=[]
for s in out.split('jdk.ExecutionSample')[1:]:
    m=re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)',s)
    if not m: continue
    t=int(m.group(1))*3600+int(m.group(2))*60+int(m.group(3))+float('0.'+m.group(4))
    fr=[x.split('(')[0] for x in re.findall(r'^\s+([\w\.$<>]+\(.*?\))\s+line:',s,re.M)]
    if fr: ev.append((t,fr))
tmax=max(e[0] for e in ev); ev=[e for e in ev if tmax-70<=e[0]<tmax-12]
n=len(ev); c=collections.Counter(); tot=0
for t,fr in ev:
    if meth in fr:
        tot+=1
        i=fr.index(meth)
        chain=fr[max(0,i-depth):i][::-1]
        c[' -> '.join(x.split('.')[-2]+'.'+x.split('.')[-1] for x in chain) or '(self)']+=1
print(meth,'total %.1f%%'%(100*tot/n))
for k,v in c.most_common(20): print('%5.1f%% %s'%(100*v/n,k))
