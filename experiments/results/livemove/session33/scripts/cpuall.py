import subprocess,sys,re,glob,statistics as st
sys.argv=[sys.argv[0]]+sys.argv[1:]
exec(open('/tmp/s33/jfrmove.py').read().split('CATS=')[0])
for f in sorted(glob.glob(f'{d}/jfr-{run}/*.jfr')):
    info=subprocess.run(['jfr','print','--events','jdk.JVMInformation',f],capture_output=True,text=True).stdout
    m=re.search(r'javaArguments = "([^"]*)"',info); a=(m.group(1) if m else '')[:60]
    mc=re.search(r'sun.java.command = "([^"]*)"',info)
    cpu=subprocess.run(['jfr','print','--events','jdk.CPULoad',f],capture_output=True,text=True).stdout
    L={True:[],False:[]}; M={True:[],False:[]}
    for s in cpu.split('jdk.CPULoad')[1:]:
        t=re.search(r'startTime = (\d+):(\d+):(\d+)',s); t=int(t.group(1))*3600+int(t.group(2))*60+int(t.group(3))
        if not (start<=t<end): continue
        u=float(re.search(r'jvmUser = ([\d\.]+)%',s).group(1)); y=float(re.search(r'jvmSystem = ([\d\.]+)%',s).group(1)); mt=float(re.search(r'machineTotal = ([\d\.]+)%',s).group(1))
        L[t in moving].append(u+y); M[t in moving].append(mt)
    print(f.split('/')[-1][:20], a, f'cpu% move {st.mean(L[True]):.1f} other {st.mean(L[False]):.1f} machine move {st.mean(M[True]):.1f} other {st.mean(M[False]):.1f}')
