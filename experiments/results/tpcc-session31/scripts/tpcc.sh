#!/usr/bin/env bash
# tpcc.sh ARM NAME [extra args]; env JFLAGS adds JVM flags to every JVM (JAVA_TOOL_OPTIONS), with a gc log per pid
arm=$1; name=$2; shift 2
out=/tmp/s31/tpcc-$name; rm -rf $out; mkdir -p /tmp/s31/gc-$name
export JAVA_TOOL_OPTIONS="$JFLAGS -Xlog:gc:file=/tmp/s31/gc-$name/gc-%p.log:uptime,pid"
java -cp $(cat /tmp/arms/$arm/cp.txt) org.elastras.experiments.tpcc.TpccCommand --warehouses 2 --terminals 20 --duration 60 --warmup 60 --remote spec --out $out "$@" > /tmp/s31/tpcc-$name.txt 2>&1
echo rc=$? >> /tmp/s31/tpcc-$name.txt
