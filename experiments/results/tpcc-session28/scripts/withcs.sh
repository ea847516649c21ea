#!/usr/bin/env bash
# withcs.sh ARM NAME: a TPC-C run with a 15 s per-thread CPU/switch sample in its measured period
arm=$1; name=$2
/tmp/s28/tpcc.sh $arm $name &
p=$!
for i in $(seq 1 600); do grep -q " measure " /tmp/s28/tpcc-$name.txt 2>/dev/null && break; sleep 1; done
sleep 15
python3 /work/main/experiments/results/tpcc-session26/kernel/cs.py 15 > /tmp/s28/cs-$name.txt 2>&1
wait $p
