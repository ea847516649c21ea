import csv,re,statistics as st
# firsttwo.py: the first two moves of each run, by arm (run from /tmp/s32, where lm-RUN/ are)
for arm,runs in [('A (main before)',['A1','A2','A3','A4','A5','A6']),('W',['W1','W2','W3','W4']),('X and M (both warm-ups)',['X1','X2','X3','X4','M1','M2'])]:
    f2=[];gap=[];fh=[]
    for r in runs:
        rows=list(csv.DictReader(open(f'lm-{r}/livemove-moves.csv')))
        for i,row in enumerate(rows[:2]):
            m=re.search(r'hand-over (\d+) ms \((\d+) ms of it',row['master_breakdown'])
            gap.append(int(m.group(1))-int(m.group(2))); fh.append(int(m.group(2))); f2.append(int(row['master_unavailable_ms']))
    print(f"| {arm} | {len(f2)} | {st.mean(f2):.1f} ms ({min(f2)}-{max(f2)}); {sum(1 for x in f2 if x>50)} over 50 | {st.mean(gap):.1f} ms ({min(gap)}-{max(gap)}) | {st.mean(fh):.1f} ms ({min(fh)}-{max(fh)}) |")
