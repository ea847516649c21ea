#!/usr/bin/env bash
# lmj.sh ARM NAME : live-move experiment with JFLAGS in every JVM
arm=$1; name=$2
out=/tmp/s30/lm-$name; rm -rf $out /tmp/s30/wd-$name
export JAVA_TOOL_OPTIONS="$JFLAGS"
java -cp $(cat /tmp/arms/$arm/cp.txt) org.elastras.experiments.tpcc.LiveMoveExperiment --warehouses 4 --terminals-per-warehouse 4 --warmup-seconds 60 --seconds 120 --move-every-seconds 5 --modes live --rate 0 --out $out --work-dir /tmp/s30/wd-$name > /tmp/s30/lm-$name.txt 2>&1
echo rc=$? >> /tmp/s30/lm-$name.txt
