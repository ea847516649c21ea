#!/usr/bin/env bash
# scrape.sh NAME: during a TPC-C run, /metrics of each OTM at ~85 s and ~140 s after start
cd /tmp/s27; name=$1
for at in 1 2; do
  sleep $([ $at = 1 ] && echo 90 || echo 55)
  for log in $(ls -d tpcc-$name/logs/*/logs 2>/dev/null || true); do :; done
  for port in $(ss -ltnp | grep java | awk '{print $4}' | sed 's/.*://'); do
    curl -s -m 2 http://127.0.0.1:$port/metrics 2>/dev/null | grep -E "^elastras_otm_(timestamp_exchanges|cts_range_waits|cts_lift_waits|wal_batches|wal_records|wal_sync_p|commits)" | sed "s/^/$at $(date +%s.%N) $port /"
  done
done > scrape-$name.txt
