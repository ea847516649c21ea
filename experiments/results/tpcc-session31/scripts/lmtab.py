import json,sys,subprocess
# lmtab.py RUN...: one row per live-move run, with the OTMs' young pauses
print("| run | arm | tpmC | unavailable median / max | per-second p99 steady -> with a move (nearby) | moved warehouse in a move's second | each other warehouse in a move's second | each warehouse, steady seconds | OTM young pauses in the last 125 s: count, sum, p50 / p90 / max |")
print("|---|---|---:|---|---|---|---|---|---|")
ARMS={'L1':'main','L2':'main','L3':'main','L4':'main'}
for r in sys.argv[1:]:
    d=json.load(open(f'/tmp/s31/lm-{r}/livemove.json'))
    st=d['tpcc_p99_ms_steady']; mv=d['tpcc_p99_ms_moving']
    g=subprocess.run(['python3','/tmp/s31/gcsum.py',f'/tmp/s31/gc-{r}'],capture_output=True,text=True).stdout.strip().split('\n')
    gc=[x for x in g if True]
    # the two OTMs: the logs with most pauses
    import re
    rows=[]
    for x in gc:
        m=re.search(r'pauses (\d+) in last \d+s, sum (\d+) ms, p50 ([\d.]+) p90 ([\d.]+) max ([\d.]+)',x)
        if m: rows.append(tuple(float(v) for v in m.groups()))
    rows.sort(reverse=True); rows=rows[:2]
    gcs='; '.join(f"{int(a)}, {b/1000:.1f} s, {c:.0f} / {e:.0f} / {f:.0f} ms" for a,b,c,e,f in rows)
    print(f"| {r} | {ARMS.get(r,'?')} | {d['tpmC']:,.0f} | {d['live_unavailable_ms_median']} / {d['live_unavailable_ms_max']} ms | {st:.1f} -> {mv:.1f} ms, {100*(mv/st-1):+.0f} % ({100*(d['tpcc_p99_moving_vs_nearby_ratio_median']-1):+.0f} %) | {d['moved_warehouse_txn_per_s_median']:.0f} txn/s, p99 {d['moved_warehouse_p99_ms_median']:.1f} ms | {d['other_warehouse_txn_per_s_moving_median']:.0f} txn/s, p99 {d['others_p99_ms_moving_median']:.1f} ms | {d['warehouse_txn_per_s_steady_median']:.0f} txn/s, p99 {d['warehouses_p99_ms_steady_median']:.1f} ms | {gcs} |")
