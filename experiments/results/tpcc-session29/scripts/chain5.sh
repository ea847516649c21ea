#!/usr/bin/env bash
cd /tmp/s29
JFLAGS="-XX:StartFlightRecording=settings=profile,filename=/tmp/s29/jfr2/" bash tpcc.sh new3 P2
bash tpcc.sh new3 BL --baseline derby,postgres
touch /tmp/s29/chain5.done
