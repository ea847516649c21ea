#!/usr/bin/env bash
# diag.sh ARM NAME: one TPC-C run with vmstat, diskstats and jstat -gc of each OTM every second
cd /tmp/s27; arm=$1; name=$2
(vmstat -t 1 200 > vmstat-$name.txt) &
(for i in $(seq 200); do echo "$(date +%s.%N) $(grep -w vda /proc/diskstats)"; sleep 1; done > disk-$name.txt) &
(sleep 40; for p in $(pgrep -f "ParentWatch org.elastras.otm"); do (jstat -gc -t $p 1000 170 > jstat-$name-$p.txt 2>&1 &) ; done) &
date +%s.%N > start-$name.txt
bash tpcc.sh $arm $name
wait
