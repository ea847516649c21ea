#!/usr/bin/env bash
cd /tmp/s31
JFLAGS="" ./tpcc.sh h0 B1
JFLAGS="-XX:+UseTransparentHugePages" ./tpcc.sh h0 T1
JFLAGS="" ./tpcc.sh h0 B2
JFLAGS="-XX:+UseTransparentHugePages" ./tpcc.sh h0 T2
echo done
