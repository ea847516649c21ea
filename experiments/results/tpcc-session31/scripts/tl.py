import csv,sys,statistics
for n in sys.argv[1:]:
    rows=[r for r in csv.DictReader(open(f'/tmp/s31/tpcc-{n}/tpcc-timeline.csv')) if r['measured']=='true']
    t=[sum(int(r[k]) for k in ('new_order','payment','order_status','delivery','stock_level')) for r in rows]
    p=sorted(int(r['latency_p99_micros'])/1000 for r in rows)
    print(f"{n}: mean {statistics.mean(t):,.0f} txn/s, seconds < 1500: {sum(1 for x in t if x<1500)}, < 2500: {sum(1 for x in t if x<2500)}; per-second p99 median {p[len(p)//2]:.1f} p90 {p[int(len(p)*.9)]:.1f} max {p[-1]:.1f}")
