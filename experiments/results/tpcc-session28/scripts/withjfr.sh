#!/usr/bin/env bash
# withjfr.sh ARM NAME: a TPC-C run with a 40 s JFR profile of each OTM in its measured period
arm=$1; name=$2
/tmp/s28/tpcc.sh $arm $name &
p=$!
for i in $(seq 1 600); do grep -q " measure " /tmp/s28/tpcc-$name.txt 2>/dev/null && break; sleep 1; done
sleep 5
for pid in $(pgrep -f "org.elastras.otm.server.OtmMain|OtmMain"); do
  jcmd $pid JFR.start settings=profile duration=40s filename=/tmp/s28/jfr/otm-$pid.jfr > /dev/null
done
wait $p
