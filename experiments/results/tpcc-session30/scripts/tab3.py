import json,sys,re
ARMS={'TA1':'arena','TA2':'arena','TH1':'base','TH2':'base'}
print("| run | arm | tpmC | New-Order p50 / p99 | Payment p50 / p99 | cores, all | OTMs | benchmark JVM | OTM CPU / txn | re-runs |")
print("|---|---|---:|---|---|---:|---:|---:|---:|---:|")
for r in sys.argv[1:]:
    d=json.load(open(f'/tmp/s30/tpcc-{r}/tpcc.json')); t=d['targets'][0]
    txt=open(f'/tmp/s30/tpcc-{r}.txt').read()
    no=re.search(r'^elastras-cluster NEW_ORDER\s+\d+\s+\d+\s+\d+\s+\d+\s+(\d+)\s+\d+\s+(\d+)',txt,re.M)
    pa=re.search(r'^elastras-cluster PAYMENT\s+\d+\s+\d+\s+\d+\s+\d+\s+(\d+)\s+\d+\s+(\d+)',txt,re.M)
    c=t['cores_used']; otm=c['otm-1']+c['otm-2']; tot=sum(c.values())
    tps=t['transactions_per_second']
    arm=ARMS.get(r,'?')
    print(f"| {r} | {arm} | {t['tpmC']:,} | {int(no.group(1))/1000:.1f} / {int(no.group(2))/1000:.1f} ms | {int(pa.group(1))/1000:.1f} / {int(pa.group(2))/1000:.1f} ms | {tot:.2f} | {otm:.2f} | {c['benchmark JVM']:.2f} | {otm/tps*1e6:,.0f} us | {re.search(r'= ([0-9.]+)% of transactions',txt).group(1)} % |")
