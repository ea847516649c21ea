#!/usr/bin/env bash
# chain2.sh PAIR...: for each pair number N, a TPC-C run of main (BN), then one with every
# otm-maintenance thread at nice 10 (NN). Ran as "chain2.sh 3 4", then "chain2.sh 5 6".
cd /tmp/s31
for pair in "$@"; do
JFLAGS="" ./tpcc.sh h0 B$pair
./renicer.sh 10 & rp=$!
JFLAGS="" ./tpcc.sh h0 N$pair
kill $rp
done
echo done
