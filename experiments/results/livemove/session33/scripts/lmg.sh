#!/usr/bin/env bash
# lmg.sh ARM NAME "FLAGS": live-move experiment with FLAGS in every JVM plus a GC log per pid; deletes the work dir's data after
arm=$1; name=$2; flags=$3
out=/tmp/s33/lm-$name; rm -rf $out /tmp/s33/wd-$name /tmp/s33/gc-$name; mkdir -p /tmp/s33/gc-$name
export JAVA_TOOL_OPTIONS="$flags -Xlog:gc:file=/tmp/s33/gc-$name/gc-%p.log:uptime,pid"
java -cp $(cat /tmp/arms/$arm/cp.txt) org.elastras.experiments.tpcc.LiveMoveExperiment --warehouses 4 --terminals-per-warehouse 4 --warmup-seconds 60 --seconds 120 --move-every-seconds 5 --modes live --rate ${RATE:-0} --out $out --work-dir /tmp/s33/wd-$name > /tmp/s33/lm-$name.txt 2>&1
echo rc=$? >> /tmp/s33/lm-$name.txt
find /tmp/s33/wd-$name -mindepth 1 -maxdepth 1 ! -name logs -exec rm -rf {} +
