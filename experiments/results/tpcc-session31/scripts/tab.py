import csv,sys,statistics,re
# tab.py NAME:ARM...: one row per TPC-C run
print("| run | arm | tpmC | New-Order p50 / p99 | Payment p50 / p99 | cores, all (OTMs) | per-second: mean txn/s, seconds under 2,500, p99 median / p90 / max |")
print("|---|---|---:|---|---|---|---|")
for na in sys.argv[1:]:
    n,arm=na.split(':',1)
    txt=open(f'/tmp/s31/tpcc-{n}.txt').read()
    tpmc=re.search(r'^elastras-cluster tpmC ([\d,]+)',txt,re.M).group(1)
    def lat(t):
        m=re.search(r'^elastras-cluster '+t+r'\s+\d+\s+\d+\s+\d+\s+\d+\s+(\d+)\s+(\d+)\s+(\d+)',txt,re.M)
        return f"{int(m.group(1))/1000:.1f} / {int(m.group(3))/1000:.1f} ms"
    cpu=re.search(r'otm-1 ([\d.]+), otm-2 ([\d.]+) \(total ([\d.]+)\)',txt)
    rows=[r for r in csv.DictReader(open(f'/tmp/s31/tpcc-{n}/tpcc-timeline.csv')) if r['measured']=='true' and r['target'].startswith('elastras')]
    t=[sum(int(r[k]) for k in ('new_order','payment','order_status','delivery','stock_level')) for r in rows]
    p=sorted(int(r['latency_p99_micros'])/1000 for r in rows)
    print(f"| {n} | {arm} | {tpmc} | {lat('NEW_ORDER')} | {lat('PAYMENT')} | {cpu.group(3)} ({float(cpu.group(1))+float(cpu.group(2)):.2f}) | {statistics.mean(t):,.0f}, {sum(1 for x in t if x<2500)}, {p[len(p)//2]:.1f} / {p[int(len(p)*.9)]:.1f} / {p[-1]:.1f} ms |")
