#!/usr/bin/env bash
# tpcc.sh ARM NAME [extra args]
arm=$1; name=$2; shift 2
out=/tmp/s27/tpcc-$name; rm -rf $out
java -cp $(cat /tmp/arms/$arm/cp.txt) org.elastras.experiments.tpcc.TpccCommand --warehouses 2 --terminals 20 --duration 60 --warmup 60 --remote spec --out $out "$@" > /tmp/s27/tpcc-$name.txt 2>&1
echo rc=$? >> /tmp/s27/tpcc-$name.txt
