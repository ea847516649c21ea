#!/usr/bin/env bash
cd /tmp/s31
for pair in 3 4; do
JFLAGS="" ./tpcc.sh h0 B$pair
./renicer.sh 10 & rp=$!
JFLAGS="" ./tpcc.sh h0 N$pair
kill $rp
done
echo done
