import csv,re,sys,statistics as st
# restratio.py RUN...: per run (from /tmp/s33): the other warehouses' p99 and the moved warehouse's p99 in
# seconds with a move, each as a median ratio to the other warehouses' median p99 in steady seconds, and the
# median memtable flushed by the moves' origins (MiB), from the OTMs' logs
print("| run | others' p99, steady (ms) | others' p99 in a move's second / steady | moved warehouse's p99 / steady | origin's flush, median MiB |")
print("|---|---:|---:|---:|---:|")
for r in sys.argv[1:]:
    tl=list(csv.DictReader(open(f'lm-{r}/livemove-timeline.csv')))
    base=st.median([float(x['rest_p99_ms']) for x in tl if x['moving']=='false'])
    mov=[x for x in tl if x['moving']=='true']
    flushes=[]
    for o in ['otm-1','otm-2']:
        for line in open(f'wd-{r}/logs/{o}.log'):
            m=re.search(r'handed partition \d+ over to \S+ live: copied for \d+ ms \(flush of (\d+) KiB',line)
            if m: flushes.append(int(m.group(1)))
    rest=st.median([float(x['rest_p99_ms'])/base for x in mov])
    moved=st.median([float(x['moved_p99_ms'])/base for x in mov if float(x['moved_p99_ms'])>0])
    print(f"| {r} | {base:.1f} | {rest:.2f} | {moved:.2f} | {st.median(flushes)/1024:.1f} |")
