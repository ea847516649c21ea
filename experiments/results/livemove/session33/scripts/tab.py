import json,csv,sys
# tab.py RUN...: per live-move run: tpmC, first four moves' unavailability, median/max, p99 steady->moving, first copies' handler times
import re,glob
for r in sys.argv[1:]:
    d=json.load(open(f'lm-{r}/livemove.json'))
    mv=[int(x['master_unavailable_ms']) for x in csv.DictReader(open(f'lm-{r}/livemove-moves.csv'))]
    fin=[]
    for o in ['otm-1','otm-2']:
        for line in open(f'wd-{r}/logs/{o}.log'):
            m=re.search(r'finished the copy of partition (\d+) from \S+ in (\d+) ms: (\d+) last commits applied in (\d+) ms',line)
            if m and m.group(1)!='9223372036854775807':
                fin.append(f"{o[-1]}:{m.group(2)}/{m.group(4)}"); break
    st=d['tpcc_p99_ms_steady']; mo=d['tpcc_p99_ms_moving']
    print(f"| {r} | {d['tpmC']:,.0f} | {', '.join(map(str,mv[:4]))} | {d['live_unavailable_ms_median']} / {d['live_unavailable_ms_max']} | {sum(1 for x in mv if x<=50)}/{len(mv)} | {' '.join(fin)} | {st:.1f} -> {mo:.1f} ms, {100*(mo/st-1):+.0f} % ({100*(d['tpcc_p99_moving_vs_nearby_ratio_median']-1):+.0f} %) |")
