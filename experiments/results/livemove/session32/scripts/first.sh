#!/usr/bin/env bash
# first.sh RUN: each OTM's first two finished copies and activations, and the warm-up line
for o in otm-1 otm-2; do
  echo "-- $1 $o"
  grep -h "warmed the partition" wd-$1/logs/$o.log | sed 's/.*INFO: //' | cut -c1-250
  grep -h "finished the copy of partition [0-9]\{1,3\} \|serving partition [0-9]\{1,3\} of TPCC from the live" wd-$1/logs/$o.log | grep -v 9223372 | head -4 | sed 's/.*INFO: //'
done
