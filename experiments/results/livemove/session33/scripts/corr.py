import csv,sys,subprocess
exec(open('/tmp/s33/around.py').read().split("print('per move")[0].replace("for f,(c,tot) in samples.items():\n    o=names[f]\n    for role","for f,(c,tot) in []:\n    o=names[f]\n    for role"))
tl=list(csv.DictReader(open(f'/tmp/s33/lm-{run}/livemove-timeline.csv')))
groups=[];cur=[]
for x in tl:
    if x['moving']=='true': cur.append(x)
    elif cur: groups.append(cur); cur=[]
if cur: groups.append(cur)
steady=sorted(float(x['rest_p99_ms']) for x in tl if x['moving']=='false'); base=steady[len(steady)//2]
Hs=sorted(H)
print(len(groups),'move groups',len(Hs),'hand-overs; steady others p99',base)
for g,(t,o,to) in zip(groups,Hs):
    comp=sum(c[(t+k,'compact')] for f,(c,tot) in samples.items() for k in (-1,0,1))
    fl=sum(c[(t+k,'flush')] for f,(c,tot) in samples.items() for k in (-1,0))
    print(t,o,'->',to,'compact',comp,'flush',fl,'others p99',[x['rest_p99_ms'] for x in g],'moved p99',[x['moved_p99_ms'] for x in g])
