#!/usr/bin/env bash
# renicer.sh NICE: every second, sets the nice value of every otm-maintenance thread of every JVM here
while true; do
  for t in /proc/[0-9]*/task/[0-9]*; do
    c=$(cat $t/comm 2>/dev/null) || continue
    if [ "$c" = "otm-maintenanc" ] || [ "$c" = "otm-maintenance" ]; then
      tid=${t##*/}; renice -n $1 -p $tid > /dev/null 2>&1
    fi
  done
  sleep 1
done
