#!/usr/bin/env bash
# lm.sh ARM NAME [RATE]
arm=$1; name=$2; rate=${3:-0}
out=/tmp/s29/lm-$name; rm -rf $out /tmp/s29/wd-$name
java -cp $(cat /tmp/arms/$arm/cp.txt) org.elastras.experiments.tpcc.LiveMoveExperiment --warehouses 4 --terminals-per-warehouse 4 --warmup-seconds 60 --seconds 120 --move-every-seconds 5 --modes live --rate $rate --out $out --work-dir /tmp/s29/wd-$name > /tmp/s29/lm-$name.txt 2>&1
echo rc=$? >> /tmp/s29/lm-$name.txt
