#!/usr/bin/env bash
# lmg.sh ARM NAME "FLAGS": live-move experiment with FLAGS in every JVM plus a GC log per pid
arm=$1; name=$2; flags=$3
out=/tmp/s32/lm-$name; rm -rf $out /tmp/s32/wd-$name /tmp/s32/gc-$name; mkdir -p /tmp/s32/gc-$name
export JAVA_TOOL_OPTIONS="$flags -Xlog:gc:file=/tmp/s32/gc-$name/gc-%p.log:uptime,pid"
java -cp $(cat /tmp/arms/$arm/cp.txt) org.elastras.experiments.tpcc.LiveMoveExperiment --warehouses 4 --terminals-per-warehouse 4 --warmup-seconds 60 --seconds 120 --move-every-seconds 5 --modes live --rate 0 --out $out --work-dir /tmp/s32/wd-$name > /tmp/s32/lm-$name.txt 2>&1
echo rc=$? >> /tmp/s32/lm-$name.txt
